from __future__ import annotations

import pytest

from acme_billing.soap.gateway import handle_envelope

EMPTY = b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'


def test_empty_body_is_rejected() -> None:
    with pytest.raises(ValueError, match="empty SOAP body"):
        handle_envelope(EMPTY)
