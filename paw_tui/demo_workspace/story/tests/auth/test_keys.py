"""Loading the key ring from its directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acme_billing.auth.keys import KeyRing, SigningKey, load_key_ring


def test_a_ring_needs_an_active_key() -> None:
    with pytest.raises(ValueError, match="no active signing key"):
        KeyRing("iss", [SigningKey("k1", "priv", "pub", active=False)])


def test_newest_active_key_signs() -> None:
    ring = KeyRing("iss", [SigningKey("k1", "a", "b", True), SigningKey("k2", "c", "d", True)])
    assert ring.signing_key().kid == "k2"


def test_repr_never_shows_key_material() -> None:
    assert "secret-pem" not in repr(SigningKey("k1", "secret-pem", "pub", True))


def test_load_key_ring(tmp_path: Path) -> None:
    (tmp_path / "k1.pem").write_text("private")
    (tmp_path / "k1.pub").write_text("public")
    manifest = {"keys": [{"kid": "k1", "private": "k1.pem", "public": "k1.pub", "active": True}]}
    (tmp_path / "keys.json").write_text(json.dumps(manifest))
    ring = load_key_ring(tmp_path, "iss")
    assert ring.verification_key("k1") is not None
