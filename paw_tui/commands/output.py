"""Writing results and diagnostics: UTF-8 whatever the locale, stdout for results only."""

from __future__ import annotations

import sys


def write_out(text: str) -> None:
    """Write ``text`` to stdout as UTF-8 bytes (a Windows or C locale must not mangle it)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
    else:
        stream.flush()
        buffer.write(text.encode("utf-8"))
    stream.flush()


def write_err(text: str) -> None:
    stream = sys.stderr
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
    else:
        stream.flush()
        buffer.write(text.encode("utf-8", "backslashreplace"))
    stream.flush()


def write_json(data: object) -> None:
    import json  # only --json pays for it

    from paw_tui.core.support.printable import escape_json_text

    write_out(escape_json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
