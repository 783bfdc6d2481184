"""Revoked tokens: a denylist of token ids in Redis, kept until the token expires anyway."""

from __future__ import annotations

import time
from typing import Protocol

from acme_billing.auth.jwt_tokens import Claims

KEY_PREFIX = "acme:revoked-jti:"


class RedisLike(Protocol):
    def set(self, name: str, value: str, ex: int | None = None) -> object: ...
    def exists(self, *names: str) -> int: ...


def revoke(redis: RedisLike, claims: Claims, *, now: float | None = None) -> None:
    """Deny ``claims.token_id`` until its expiry; after that its ``exp`` refuses it."""
    remaining = claims.expires_at - int(time.time() if now is None else now)
    if remaining > 0:
        redis.set(KEY_PREFIX + claims.token_id, "1", ex=remaining)


def is_revoked(redis: RedisLike, claims: Claims) -> bool:
    if not claims.token_id:
        return True  # a token without a jti could never be revoked: refuse it
    return bool(redis.exists(KEY_PREFIX + claims.token_id))
