"""Small state files of derived data: ``marshal`` of ``(magic, version, {key: entry})``.

The drift store's index and the intent map's hash memo are such files: rebuilt whenever they
are missing, torn or written by another version, so reading one never raises and anything
unexpected reads as empty. Standard library only (the gate reads them).
"""

from __future__ import annotations

import marshal

from paw_tui.core.support.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def dump_entries(magic: str, version: int, entries: dict[str, object]) -> bytes:
    return marshal.dumps((magic, version, entries), 4)


def load_entries(
    path: str, magic: str, version: int, valid: Callable[[object], bool]
) -> dict[str, object]:
    """The entries the file at ``path`` holds when it is this ``magic`` and ``version`` and
    every entry passes ``valid``; empty otherwise (missing, torn, foreign, or malformed)."""
    try:
        value = marshal.loads(read_regular(path))
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (type(value) is tuple and len(value) == 3 and value[:2] == (magic, version)):
        return {}
    entries = value[2]
    if type(entries) is not dict:
        return {}
    for key, entry in entries.items():
        if type(key) is not str or not valid(entry):
            return {}
    return entries
