from __future__ import annotations

import pytest

from acme_billing.soap.gateway import handle_envelope


def test_empty_body_is_rejected() -> None:
    envelope = (
        b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'
    )
    with pytest.raises(ValueError):
        handle_envelope(envelope)
