"""HMAC-SHA256 (RFC 2104) on the builtin SHA-256, without importing ``hmac`` or ``hashlib``.

The gate signs every ledger record and checks the policy cache and session records on each
tool call; ``hmac`` would pull in ``hashlib``'s OpenSSL binding (~5 ms). The inner and outer
padded keys are hashed once per key, and each message costs two copies of those states.
"""

from __future__ import annotations

from paw_tui.core.support.hashing import sha256

BLOCK = 64
KEY_BYTES = 32


class Mac:
    """HMAC-SHA256 with one key; :meth:`hexdigest` of a message, :attr:`key_id` to name it."""

    __slots__ = ("_inner", "_outer", "key_id")

    def __init__(self, key: bytes) -> None:
        if len(key) > BLOCK:
            key = sha256(key).digest()
        key = key.ljust(BLOCK, b"\0")
        self._inner = sha256(bytes(b ^ 0x36 for b in key))
        self._outer = sha256(bytes(b ^ 0x5C for b in key))
        self.key_id = sha256(b"paw-tui key id\0" + key).hexdigest()[:12]
        """Names the key in records, without revealing it."""

    def digest(self, *parts: bytes) -> bytes:
        inner = self._inner.copy()
        for part in parts:
            inner.update(part)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return bytes(outer.digest())

    def hexdigest(self, *parts: bytes) -> str:
        return self.digest(*parts).hex()


def same(a: str, b: str) -> bool:
    """Compare two MACs in time independent of where they differ."""
    if len(a) != len(b):
        return False
    difference = 0
    for x, y in zip(a.encode(), b.encode(), strict=True):
        difference |= x ^ y
    return difference == 0


def _document_bytes(document: dict[str, object]) -> bytes:
    from paw_tui.core.support import fastjson

    body = {key: value for key, value in document.items() if key != "mac"}
    return fastjson.dumps(body, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def sign_document(mac: Mac, document: dict[str, object]) -> dict[str, object]:
    """``document`` with a ``"mac"`` over everything else in it (its JSON, keys in order)."""
    signed = {key: value for key, value in document.items() if key != "mac"}
    signed["mac"] = f"{mac.key_id}:{mac.hexdigest(_document_bytes(signed))}"
    return signed


def document_signed(mac: Mac, document: dict[str, object]) -> bool:
    """Whether ``document`` carries a ``"mac"`` this key made over the rest of it."""
    value = document.get("mac")
    if not isinstance(value, str):
        return False
    key_id, _, digest = value.partition(":")
    return key_id == mac.key_id and same(digest, mac.hexdigest(_document_bytes(document)))
