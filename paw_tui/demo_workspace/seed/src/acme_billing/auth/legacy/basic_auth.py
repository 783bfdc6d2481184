"""Check HTTP Basic credentials against the api_credentials table."""

from __future__ import annotations

import base64
import binascii
import hmac
from dataclasses import dataclass

from acme_billing.db import fetch_one


@dataclass(frozen=True)
class Account:
    user_id: str
    account_id: str


def check_basic_credentials(encoded: str) -> Account | None:
    try:
        user, _, secret = base64.b64decode(encoded, validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    row = fetch_one("SELECT account_id, secret_hash FROM api_credentials WHERE user_id = %s", user)
    if row is None or not hmac.compare_digest(row["secret_hash"], _hash(secret)):
        return None
    return Account(user, row["account_id"])


def _hash(secret: str) -> str:
    import hashlib

    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
