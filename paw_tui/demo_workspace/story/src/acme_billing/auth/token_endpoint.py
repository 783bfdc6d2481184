"""POST /oauth/token: the client-credentials grant that hands partners their access tokens."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from acme_billing.auth.jwt_tokens import ACCESS_TOKEN_TTL, issue_token
from acme_billing.auth.keys import KeyRing
from acme_billing.auth.legacy.basic_auth import Account, check_basic_credentials

GRANT_TYPE = "client_credentials"
DEFAULT_SCOPES = ("invoices:read",)
ALLOWED_SCOPES = frozenset({"invoices:read", "invoices:write", "payments:read"})
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def oauth_error(code: str, description: str, status: int = 400) -> JSONResponse:
    """An error in the shape RFC 6749 section 5.2 prescribes."""
    return JSONResponse(
        {"error": code, "error_description": description}, status_code=status, headers=NO_STORE
    )


def client_from_header(header: str) -> Account | None:
    """The client, authenticated by the Basic credentials it already has."""
    if not header.lower().startswith("basic "):
        return None
    return check_basic_credentials(header[6:].strip())


def requested_scopes(raw: str) -> tuple[str, ...] | None:
    """The scopes asked for (DEFAULT_SCOPES when none), or None when one is unknown."""
    if not raw.strip():
        return DEFAULT_SCOPES
    scopes = tuple(sorted(set(raw.split())))
    return scopes if set(scopes) <= ALLOWED_SCOPES else None


async def token(request: Request, keys: KeyRing) -> JSONResponse:
    form = await request.form()
    if form.get("grant_type") != GRANT_TYPE:
        return oauth_error("unsupported_grant_type", f"use grant_type={GRANT_TYPE}")
    client = client_from_header(request.headers.get("authorization", ""))
    if client is None:
        return oauth_error("invalid_client", "client authentication failed", status=401)
    scopes = requested_scopes(str(form.get("scope") or ""))
    if scopes is None:
        return oauth_error("invalid_scope", "unknown scope requested")
    access_token = issue_token(keys, client.user_id, client.account_id, list(scopes))
    body = {
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": ACCESS_TOKEN_TTL,
        "scope": " ".join(scopes),
    }
    return JSONResponse(body, headers=NO_STORE)
