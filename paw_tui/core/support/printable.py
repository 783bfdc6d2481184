"""Agent-written text as a person may safely see it: one line, no escape sequences.

Paths, commands and reasons in the ledger were written by an agent. Printed raw, a path such as
``docs/\\x1b[2J\\x1b[32mallow.ts`` would clear the reviewer's screen and recolour what follows,
and a newline followed by text shaped like a record would forge a line of the trace. Every view
of that text for a person goes through :func:`printable`; the gate refuses paths that hold a
control character at all (:func:`has_control`).
"""

from __future__ import annotations

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_control(char: str) -> bool:
    """C0 (U+0000-U+001F), DEL, C1 (U+0080-U+009F), and a lone surrogate (U+D800-U+DFFF,
    which a JSON payload can carry but no file name on disk or UTF-8 output can)."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000


def has_control(text: str) -> bool:
    # Every character is_control names is unprintable (categories Cc and Cs), so a printable
    # text (almost every path) is answered by one C-level scan.
    return not text.isprintable() and any(is_control(char) for char in text)


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\n``, ``\\x1b``)."""
    if not has_control(text):
        return text
    return "".join(
        (
            _NAMED.get(char)
            or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        )
        if is_control(char)
        else char
        for char in text
    )


def escape_json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with DEL and C1 characters
    written as ``\\u`` escapes: still the same JSON, but nothing a terminal acts on. (``json``
    already escapes C0; the rest of Unicode stays readable.)"""
    if not any(0x7F <= ord(char) < 0xA0 for char in text):
        return text
    return "".join(f"\\u{ord(char):04x}" if 0x7F <= ord(char) < 0xA0 else char for char in text)
