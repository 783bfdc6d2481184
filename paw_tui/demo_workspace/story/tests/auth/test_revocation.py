"""The revocation denylist, against a dict-backed fake Redis."""

from __future__ import annotations

from acme_billing.auth.jwt_tokens import Claims
from acme_billing.auth.revocation import KEY_PREFIX, is_revoked, revoke


class FakeRedis:
    def __init__(self) -> None:
        self.values: dict[str, tuple[str, int | None]] = {}

    def set(self, name: str, value: str, ex: int | None = None) -> bool:
        self.values[name] = (value, ex)
        return True

    def exists(self, *names: str) -> int:
        return sum(name in self.values for name in names)


def claims(token_id: str = "jti-1", expires_at: int = 1_000) -> Claims:
    return Claims("user-42", "acct-7", ("invoices:read",), expires_at, token_id)


def test_revoked_token_is_denied_until_it_expires() -> None:
    redis = FakeRedis()
    revoke(redis, claims(), now=400)
    assert is_revoked(redis, claims())
    assert redis.values[KEY_PREFIX + "jti-1"] == ("1", 600)


def test_an_expired_token_needs_no_entry() -> None:
    redis = FakeRedis()
    revoke(redis, claims(expires_at=100), now=400)
    assert redis.values == {}


def test_a_token_without_an_id_counts_as_revoked() -> None:
    assert is_revoked(FakeRedis(), claims(token_id=""))


def test_other_tokens_are_not_affected() -> None:
    redis = FakeRedis()
    revoke(redis, claims("jti-1"), now=0)
    assert not is_revoked(redis, claims("jti-2"))
