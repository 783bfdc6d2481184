"""Tokens: issued, verified, and refused when expired, tampered with or foreign."""

from __future__ import annotations

import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from acme_billing.auth.jwt_tokens import ACCESS_TOKEN_TTL, TokenError, issue_token, verify_token
from acme_billing.auth.keys import KeyRing, SigningKey

ISSUER = "https://auth.test"
# RS256 needs real RSA keys; 2048 bits keeps the suite fast enough.


def rsa_key(kid: str, active: bool = True) -> SigningKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    return SigningKey(kid=kid, private=pem, public=public, active=active)


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


def test_round_trip(ring: KeyRing) -> None:
    claims = verify_token(ring, issue_token(ring, "user-42", "acct-7", ["invoices:read"]))
    assert (claims.subject, claims.account_id) == ("user-42", "acct-7")
    assert claims.scopes == ("invoices:read",)


def test_expired_token_is_refused(ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=time.time() - ACCESS_TOKEN_TTL - 120)
    with pytest.raises(TokenError, match="expired"):
        verify_token(ring, token)


def test_small_clock_skew_is_tolerated(ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=time.time() - ACCESS_TOKEN_TTL - 10)
    assert verify_token(ring, token).subject == "user-42"


def test_tampered_token_is_refused(ring: KeyRing) -> None:
    header, payload, signature = issue_token(ring, "user-42", "acct-7", []).split(".")
    with pytest.raises(TokenError):
        verify_token(ring, ".".join([header, payload[:-4] + "AAAA", signature]))


def test_token_from_an_unknown_key_is_refused(ring: KeyRing) -> None:
    stranger = KeyRing(ISSUER, [rsa_key("stranger")])
    with pytest.raises(TokenError, match="unknown signing key"):
        verify_token(ring, issue_token(stranger, "user-42", "acct-7", []))


def test_rotation_keeps_tokens_of_the_old_key_valid() -> None:
    old = rsa_key("2026-10")
    token = issue_token(KeyRing(ISSUER, [old]), "user-42", "acct-7", [])
    retired = SigningKey(old.kid, old.private, old.public, active=False)
    rotated = KeyRing(ISSUER, [retired, rsa_key("2026-11")])
    assert verify_token(rotated, token).subject == "user-42"
