"""The holders index (``sessions/.holders``): which sessions hold an intent, and when each was
last seen, so no decision reads every session record (DESIGN §12, "Sessions at any count").

``{"v": 2, "holders": {session id: intent id}, "seen": {session id: last_seen}}``. The gate
asks "which intents are held?" on every denial, selection and prompt: it reads this one file,
passes over the holders whose ``seen`` is older than the session TTL without opening their
records, and opens only the rest. For that to be safe, ``seen`` never lags the record: every
write of a holding record writes the index **first** (under the state lock), so a session the
index calls stale is stale in its record too (a failure between the two writes leaves the index
*ahead*, and the record is then read and believed). A version-1 index (no ``seen``) is read as
"open every record", as before. A missing or unreadable index is rebuilt from a scan.
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace import layout

HOLDERS_INDEX = ".holders"
VERSION = 2


class HoldersIndex:
    """``holders``: session id -> intent id; ``seen``: session id -> last_seen (absent when
    unknown: a version-1 index, or an entry rebuilt without it)."""

    __slots__ = ("holders", "seen")

    def __init__(
        self, holders: dict[str, str] | None = None, seen: dict[str, float] | None = None
    ) -> None:
        self.holders = holders if holders is not None else {}
        self.seen = seen if seen is not None else {}

    def is_stale(self, session_id: str, now: float, ttl: float) -> bool:
        """Known, from the index alone, to have been idle longer than ``ttl``."""
        seen = self.seen.get(session_id)
        return seen is not None and now - seen > ttl

    def stale(self, now: float, ttl: float) -> list[str]:
        return [sid for sid in self.holders if self.is_stale(sid, now, ttl)]

    def set(self, session_id: str, intent_id: str | None, seen: float | None) -> bool:
        """Record one session's state; whether anything changed."""
        if intent_id is None:
            changed = session_id in self.holders or session_id in self.seen
            self.holders.pop(session_id, None)
            self.seen.pop(session_id, None)
            return changed
        changed = self.holders.get(session_id) != intent_id
        self.holders[session_id] = intent_id
        if seen is not None and self.seen.get(session_id) != seen:
            self.seen[session_id] = seen
            changed = True
        return changed

    def drop(self, session_ids: list[str]) -> None:
        for session_id in session_ids:
            self.set(session_id, None, None)

    def encode(self) -> bytes:
        data = {"v": VERSION, "holders": self.holders, "seen": self.seen}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def index_path(root: str) -> str:
    return os.path.join(layout.at(root, layout.SESSIONS), HOLDERS_INDEX)


def read_index(root: str) -> HoldersIndex | None:
    """The index as written; None when it is missing or unreadable."""
    try:
        data = json.loads(read_regular(index_path(root)))
    except (OSError, ValueError):
        return None
    holders = data.get("holders") if isinstance(data, dict) else None
    if not isinstance(holders, dict):
        return None
    seen = data.get("seen") if isinstance(data, dict) else None
    return HoldersIndex(
        {str(k): v for k, v in holders.items() if isinstance(v, str)},
        {
            str(k): float(v)
            for k, v in (seen.items() if isinstance(seen, dict) else ())
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k in holders
        },
    )


def write_index(root: str, index: HoldersIndex) -> None:
    """Replace the index atomically (callers hold the state lock)."""
    from paw_tui.core.support.fsutil import atomic_write
    from paw_tui.core.workspace.machine_state import machine_dir

    machine_dir(root, layout.SESSIONS)
    atomic_write(index_path(root), index.encode())
