from __future__ import annotations

import base64

from acme_billing.auth.legacy import basic_auth


def test_malformed_credentials_are_refused() -> None:
    assert basic_auth.check_basic_credentials("not base64!") is None


def test_unknown_user_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(basic_auth, "fetch_one", lambda *args: None)
    encoded = base64.b64encode(b"someone:secret").decode()
    assert basic_auth.check_basic_credentials(encoded) is None
