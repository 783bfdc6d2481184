"""Signing keys: the newest active key signs, every key in the ring verifies (rotation)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SigningKey:
    kid: str
    private: str
    public: str
    active: bool = False

    def __repr__(self) -> str:
        # Never let a key reach a log line or a traceback.
        return f"SigningKey(kid={self.kid!r}, active={self.active})"


class KeyRing:
    """Keys loaded from ``<dir>/keys.json``; docs/auth.md describes rotation."""

    def __init__(self, issuer: str, keys: list[SigningKey]) -> None:
        if not any(key.active for key in keys):
            raise ValueError("the key ring has no active signing key")
        self.issuer = issuer
        self._keys = {key.kid: key for key in keys}

    def signing_key(self) -> SigningKey:
        return [key for key in self._keys.values() if key.active][-1]

    def verification_key(self, kid: str) -> SigningKey | None:
        return self._keys.get(kid)


def load_key_ring(directory: str | os.PathLike[str], issuer: str) -> KeyRing:
    """Read ``keys.json`` (kid, active flag and PEM file names) from ``directory``."""
    base = Path(directory)
    manifest = json.loads((base / "keys.json").read_text(encoding="utf-8"))
    keys = [
        SigningKey(
            kid=entry["kid"],
            private=(base / entry["private"]).read_text(encoding="utf-8"),
            public=(base / entry["public"]).read_text(encoding="utf-8"),
            active=bool(entry.get("active")),
        )
        for entry in manifest["keys"]
    ]
    return KeyRing(issuer, keys)
