"""Issue and verify the partner API's JSON Web Tokens (docs/auth.md, ADR 0007)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import jwt

from acme_billing.auth.keys import KeyRing

ALGORITHM = "RS256"
ACCESS_TOKEN_TTL = 15 * 60
LEEWAY_SECONDS = 30


class TokenError(Exception):
    """A token that must be refused; ``reason`` goes into the 401 response."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Claims:
    subject: str
    account_id: str
    scopes: tuple[str, ...]
    expires_at: int
    token_id: str


def issue_token(
    keys: KeyRing, subject: str, account_id: str, scopes: list[str], *, now: float | None = None
) -> str:
    """A signed access token, valid for ACCESS_TOKEN_TTL seconds from ``now``."""
    issued = int(time.time() if now is None else now)
    key = keys.signing_key()
    claims = {
        "iss": keys.issuer,
        "sub": subject,
        "acct": account_id,
        "scope": " ".join(sorted(scopes)),
        "iat": issued,
        "exp": issued + ACCESS_TOKEN_TTL,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(claims, key.private, algorithm=ALGORITHM, headers={"kid": key.kid})


def verify_token(keys: KeyRing, token: str) -> Claims:
    """The token's claims, or TokenError saying why it is refused."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.DecodeError:
        raise TokenError("malformed token") from None
    key = keys.verification_key(str(header.get("kid", "")))
    if key is None:
        raise TokenError("unknown signing key")
    try:
        data = jwt.decode(
            token,
            key.public,
            algorithms=[ALGORITHM],
            issuer=keys.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "sub"]},
        )
    except jwt.ExpiredSignatureError:
        raise TokenError("token expired") from None
    except jwt.InvalidTokenError as exc:
        raise TokenError(f"invalid token: {exc}") from None
    return Claims(
        subject=data["sub"],
        account_id=data.get("acct", ""),
        scopes=tuple(data.get("scope", "").split()),
        expires_at=data["exp"],
        token_id=data.get("jti", ""),
    )
