"""Authentication for every request except /health."""

from __future__ import annotations

from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    AuthenticationError,
    BaseUser,
)
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp

from acme_billing.auth.legacy.basic_auth import check_basic_credentials

PUBLIC_PATHS = frozenset({"/health"})


class ApiUser(BaseUser):
    def __init__(self, user_id: str, account_id: str) -> None:
        self.user_id = user_id
        self.account_id = account_id

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.user_id


class BasicAuthBackend(AuthenticationBackend):
    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.url.path in PUBLIC_PATHS:
            return None
        header = conn.headers.get("authorization", "")
        if not header.lower().startswith("basic "):
            raise AuthenticationError("missing credentials")
        account = check_basic_credentials(header[6:])
        if account is None:
            raise AuthenticationError("invalid credentials")
        return AuthCredentials(["invoices:read"]), ApiUser(account.user_id, account.account_id)


def BasicAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802
    """Used like a middleware class in app.py."""
    return AuthenticationMiddleware(app, backend=BasicAuthBackend())
