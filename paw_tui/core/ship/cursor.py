"""Where shipping stands, per endpoint and project: the last record the backend accepted.

Kept in the state directory, outside the workspace (``<state>/ship/<key>.json``): the ``seq``,
the ``hash`` and the end ``offset`` of the last accepted line, and the sessions whose root
span was sent. The ledger is the durable buffer: the cursor moves only after the backend
accepted a batch, so a shipper or a backend that stops loses nothing. A cursor that no longer
matches the ledger (the file was replaced, cut or rewritten) is not trusted: shipping starts
again from the first record, which the derived span ids make harmless.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field

from paw_tui.core.ledger.io import line_hash
from paw_tui.core.support.fsutil import atomic_write

MAX_ROOTS = 100_000
"""Sessions whose root span is remembered at most (the oldest are forgotten first)."""


@dataclass
class Cursor:
    endpoint: str
    project: str
    seq: int = 0
    hash: str | None = None
    offset: int = 0
    roots: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> bytes:
        if len(self.roots) > MAX_ROOTS:
            kept = sorted(self.roots.items(), key=lambda item: item[1])[-MAX_ROOTS:]
            self.roots = dict(kept)
        data = {
            "v": 1,
            "endpoint": self.endpoint,
            "project": self.project,
            "seq": self.seq,
            "hash": self.hash,
            "offset": self.offset,
            "roots": self.roots,
        }
        return json.dumps(data, separators=(",", ":")).encode("utf-8")


def cursor_path(state_dir: str, endpoint: str, project: str) -> str:
    key = hashlib.sha256(f"{endpoint}\0{project}".encode()).hexdigest()[:20]
    return os.path.join(state_dir, "ship", f"{key}.json")


def load_cursor(path: str, endpoint: str, project: str) -> Cursor:
    """The cursor saved at ``path``; a fresh one when there is none or it is unreadable."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read())
        roots = data.get("roots") or {}
        return Cursor(
            endpoint,
            project,
            int(data["seq"]),
            data.get("hash") if isinstance(data.get("hash"), str) else None,
            int(data["offset"]),
            {str(k): int(v) for k, v in roots.items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Cursor(endpoint, project)


def save_cursor(path: str, cursor: Cursor) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, cursor.to_json())


def matches_ledger(cursor: Cursor, ledger_path: str) -> bool:
    """Whether the line ending at ``cursor.offset`` is still the one the backend accepted."""
    if cursor.offset == 0:
        return True
    try:
        with open(ledger_path, "rb") as handle:
            start = max(0, cursor.offset - 1024 * 1024)
            handle.seek(start)
            chunk = handle.read(cursor.offset - start)
    except OSError:
        return False
    if len(chunk) != cursor.offset - start or not chunk.endswith(b"\n"):
        return False
    line = chunk[:-1].rsplit(b"\n", 1)[-1]
    return line_hash(line) == cursor.hash
