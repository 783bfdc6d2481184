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

from acme_billing.auth.jwt_tokens import TokenError, verify_token
from acme_billing.auth.keys import KeyRing, load_key_ring
from acme_billing.auth.legacy.basic_auth import check_basic_credentials
from acme_billing.auth.revocation import RedisLike, is_revoked
from acme_billing.config import settings

PUBLIC_PATHS = frozenset({"/health"})


def key_ring() -> KeyRing:
    return load_key_ring(settings.jwt_keys_dir, settings.jwt_issuer)


def redis_client() -> RedisLike:
    import redis

    return redis.Redis.from_url(settings.redis_url)


def legacy_auth_enabled() -> bool:
    return settings.legacy_auth


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


class BearerAuthBackend(AuthenticationBackend):
    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        header = conn.headers.get("authorization", "")
        if not header.lower().startswith("bearer "):
            return None
        try:
            claims = verify_token(key_ring(), header[7:].strip())
        except TokenError as exc:
            raise AuthenticationError(exc.reason) from None
        if is_revoked(redis_client(), claims):
            raise AuthenticationError("token revoked")
        return AuthCredentials(list(claims.scopes)), ApiUser(claims.subject, claims.account_id)


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


class ApiAuthBackend(AuthenticationBackend):
    """Bearer tokens; Basic Auth too while ACME_LEGACY_AUTH is on."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.url.path in PUBLIC_PATHS:
            return None
        found = await BearerAuthBackend().authenticate(conn)
        if found is not None:
            return found
        if legacy_auth_enabled():
            return await BasicAuthBackend().authenticate(conn)
        raise AuthenticationError("missing bearer token")


def ApiAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802
    """Used like a middleware class in app.py."""
    return AuthenticationMiddleware(app, backend=ApiAuthBackend())


BasicAuthMiddleware = ApiAuthMiddleware  # app.py still imports the old name
