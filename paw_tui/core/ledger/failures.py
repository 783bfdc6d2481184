"""The mark a failed append leaves outside the workspace (read by :mod:`.health`).

Every append that fails, in any process, writes ``<ledger name>.append-failure.json`` beside
the ledger's head in the workspace's state directory: the time, the reason and the record's
event. Only a failure pays for it. Standard library only: the gate appends records.
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json

FAILURE_SUFFIX = ".append-failure.json"
MAX_BYTES = 64 * 1024


def failure_path(head_path: str, ledger_path: str) -> str:
    """``<state dir>/workspaces/<key>/<ledger name>.append-failure.json``."""
    return os.path.join(os.path.dirname(head_path), os.path.basename(ledger_path) + FAILURE_SUFFIX)


def note_failure(path: str, ts: str, reason: str, event: object = None) -> None:
    """Leave the mark (never raises: the caller is already failing)."""
    data = {"ts": ts, "reason": reason}
    if isinstance(event, str):
        data["event"] = event
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        from paw_tui.core.support.fsutil import replace_unsynced

        replace_unsynced(path, json.dumps(data).encode("utf-8"), 0o600)
    except Exception:  # a mark is information; the append's own error is what counts
        pass


def read_failure(path: str) -> tuple[str, str, str | None] | None:
    """``(ts, reason, event)`` of the mark, or None when there is none (or it is unreadable)."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(MAX_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    ts, reason, event = data.get("ts"), data.get("reason"), data.get("event")
    if not isinstance(ts, str) or not isinstance(reason, str):
        return None
    return ts, reason, event if isinstance(event, str) else None
