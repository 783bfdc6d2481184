"""Session records: which intent an agent session holds (``.orchestration/sessions/``).

One small JSON file per session, machine-owned, written atomically. A session is live from
its first gate event until SessionEnd or ``sessions release``, or until it has been idle
longer than ``governance.yaml: session_ttl``. Changes that must not race (selecting an
intent, approving, releasing) run under :func:`state_lock`.

The gate asks "which intents are held?" on every denial, selection and prompt. It reads the
*holders index* (``sessions/.holders``: ``{session id: intent id}`` for every session whose
record holds or awaits an intent), then only those sessions' records: the cost follows the
number of holders, never the number of session files. The index is written with the records,
under the state lock, and only when a session starts or stops holding; a missing or unreadable
index is rebuilt from a scan (written back only under the lock). Sessions idle past their TTL
that hold nothing are pruned when a new session starts (at most once an hour).
"""

from __future__ import annotations

import os
import time

from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import sha256_hex
from paw_tui.core.support.locking import FileLock
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace import layout
from paw_tui.core.workspace.machine_state import machine_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

ACTIVE = "active"
PENDING_APPROVAL = "pending_approval"
NONE = "none"
_SAFE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
# Re-writing the record on every event would cost a write per tool call; liveness at a
# minute's resolution is plenty for a TTL measured in hours.
TOUCH_INTERVAL = 60.0
HOLDERS_INDEX = ".holders"
PRUNE_MARKER = ".pruned"
PRUNE_INTERVAL = 3600.0


class Session:
    """One agent session as the gate knows it."""

    __slots__ = (
        "session_id",
        "intent_id",
        "state",
        "approval_id",
        "client",
        "started",
        "last_seen",
        "latest_prompt",
    )

    def __init__(
        self,
        session_id: str,
        intent_id: str | None = None,
        state: str = NONE,
        approval_id: str | None = None,
        client: str | None = None,
        started: float = 0.0,
        last_seen: float = 0.0,
        latest_prompt: str | None = None,
    ) -> None:
        self.session_id = session_id
        self.intent_id = intent_id
        self.state = state
        self.approval_id = approval_id
        self.client = client
        self.started = started
        self.last_seen = last_seen
        self.latest_prompt = latest_prompt

    @property
    def holds_intent(self) -> bool:
        return self.intent_id is not None and self.state in (ACTIVE, PENDING_APPROVAL)

    def is_live(self, now: float, ttl: float) -> bool:
        return now - self.last_seen <= ttl

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Session:
        session_id = data.get("session_id")
        if not isinstance(session_id, str) or not session_id:
            raise ValueError("no session_id")
        state = data.get("state") or NONE
        if state not in (ACTIVE, PENDING_APPROVAL, NONE):
            raise ValueError(f"unknown state {state!r}")
        intent = data.get("intent_id")
        return cls(
            session_id,
            intent if isinstance(intent, str) else None,
            str(state),
            data.get("approval_id") if isinstance(data.get("approval_id"), str) else None,  # type: ignore[arg-type]
            data.get("client") if isinstance(data.get("client"), str) else None,  # type: ignore[arg-type]
            float(data.get("started") or 0.0),  # type: ignore[arg-type]
            float(data.get("last_seen") or 0.0),  # type: ignore[arg-type]
            data.get("latest_prompt") if isinstance(data.get("latest_prompt"), str) else None,  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"Session({self.session_id!r}, intent={self.intent_id!r}, state={self.state!r})"


def session_file_name(session_id: str) -> str:
    """A file name for any session id: the id itself when it is tame, else a digest."""
    # [A-Za-z0-9][A-Za-z0-9._-]{0,127}, checked without importing re
    if (
        0 < len(session_id) <= 128
        and session_id[0].isascii()
        and session_id[0].isalnum()
        and set(session_id) <= _SAFE_CHARS
    ):
        return session_id + ".json"
    return "h-" + sha256_hex(session_id.encode("utf-8", "surrogatepass"))[:40] + ".json"


def session_path(root: str, session_id: str) -> str:
    return os.path.join(layout.at(root, layout.SESSIONS), session_file_name(session_id))


def state_lock(root: str, timeout: float = 5.0) -> FileLock:
    """The lock every read-decide-write of sessions and approvals holds."""
    machine_dir(root, layout.CACHE)
    return FileLock(layout.at(root, layout.STATE_LOCK), timeout=timeout)


def load_session(root: str, session_id: str) -> Session | None:
    """The session's record; None when there is none or it is unreadable (a broken record
    holds no intent: the agent selects again, which fails closed)."""
    try:
        data = json.loads(read_regular(session_path(root, session_id)))
        if not isinstance(data, dict):
            return None
        session = Session.from_dict(data)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return session if session.session_id == session_id else None


def save_session(root: str, session: Session) -> None:
    """Write the record (callers hold the state lock); the holders index follows it."""
    machine_dir(root, layout.SESSIONS)
    data = json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":"))
    from paw_tui.core.support.fsutil import atomic_write  # only when a session changes

    atomic_write(session_path(root, session.session_id), data.encode("utf-8"))
    _index_session(root, session.session_id, session.intent_id if session.holds_intent else None)


def delete_session(root: str, session_id: str) -> bool:
    """Remove the record (callers hold the state lock)."""
    try:
        os.unlink(session_path(root, session_id))
        found = True
    except FileNotFoundError:
        found = False
    _index_session(root, session_id, None)
    return found


def iter_sessions(root: str) -> Iterator[Session]:
    """Every readable record (a full scan: listings and the index's rebuild, never the gate's
    common path)."""
    directory = layout.at(root, layout.SESSIONS)
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            data = json.loads(read_regular(os.path.join(directory, name)))
            if isinstance(data, dict):
                yield Session.from_dict(data)
        except (OSError, ValueError, TypeError, AttributeError):
            continue


def _index_path(root: str) -> str:
    return os.path.join(layout.at(root, layout.SESSIONS), HOLDERS_INDEX)


def read_holders_index(root: str) -> dict[str, str] | None:
    """``{session id: intent id}``; None when the index is missing or unreadable."""
    try:
        data = json.loads(read_regular(_index_path(root)))
    except (OSError, ValueError):
        return None
    holders = data.get("holders") if isinstance(data, dict) else None
    if not isinstance(holders, dict):
        return None
    return {str(k): str(v) for k, v in holders.items() if isinstance(v, str)}


def _scan_holders(root: str) -> dict[str, str]:
    return {
        session.session_id: session.intent_id
        for session in iter_sessions(root)
        if session.holds_intent and session.intent_id
    }


def _index_session(root: str, session_id: str, intent_id: str | None) -> None:
    """Keep the index in step with one record (the caller holds the state lock)."""
    holders = read_holders_index(root)
    if holders is None:
        holders = _scan_holders(root)
    elif holders.get(session_id) == intent_id or (intent_id is None and session_id not in holders):
        return  # nothing changed: no write on a touch
    if intent_id is None:
        holders.pop(session_id, None)
    else:
        holders[session_id] = intent_id
    _write_index(root, holders)


def _write_index(root: str, holders: dict[str, str]) -> None:
    from paw_tui.core.support.fsutil import atomic_write

    machine_dir(root, layout.SESSIONS)
    data = json.dumps({"v": 1, "holders": holders}, ensure_ascii=False, separators=(",", ":"))
    atomic_write(_index_path(root), data.encode("utf-8"))


def holding_sessions(root: str) -> Iterator[Session]:
    """The records of every session the index lists as holding (or awaiting) an intent, as
    they are now; without an index, found by a scan."""
    holders = read_holders_index(root)
    if holders is None:
        yield from (s for s in iter_sessions(root) if s.holds_intent)
        return
    for session_id in holders:
        session = load_session(root, session_id)
        if session is not None and session.holds_intent:
            yield session


def holders(
    root: str, intent_id: str, now: float, ttl: float, *, besides: str | None = None
) -> list[Session]:
    """Live sessions other than ``besides`` that hold (or await approval for) the intent."""
    return [
        session
        for session in holding_sessions(root)
        if session.intent_id == intent_id
        and session.is_live(now, ttl)
        and session.session_id != besides
    ]


def held_intents(
    root: str, now: float, ttl: float, *, besides: str | None = None
) -> dict[str, str]:
    """``{intent id: holding session id}`` over live sessions other than ``besides``."""
    held: dict[str, str] = {}
    for session in holding_sessions(root):
        if session.is_live(now, ttl) and session.session_id != besides:
            held.setdefault(session.intent_id, session.session_id)  # type: ignore[arg-type]
    return held


def prune_idle(root: str, now: float, ttl: float) -> int:
    """Delete the records of sessions idle longer than ``ttl`` that hold nothing (the caller
    holds the state lock); at most once per :data:`PRUNE_INTERVAL`. The number removed."""
    marker = os.path.join(layout.at(root, layout.SESSIONS), PRUNE_MARKER)
    try:
        if now - os.stat(marker).st_mtime < PRUNE_INTERVAL:
            return 0
    except OSError:
        pass
    removed = 0
    for session in list(iter_sessions(root)):
        if not session.holds_intent and not session.is_live(now, ttl):
            try:
                os.unlink(session_path(root, session.session_id))
                removed += 1
            except OSError:
                continue
    try:
        machine_dir(root, layout.SESSIONS)
        with open(marker, "ab"):
            pass
        os.utime(marker, (now, now))
    except OSError:
        pass
    return removed


def needs_touch(
    session: Session | None,
    now: float,
    client: str | None = None,
    *,
    interval: float = TOUCH_INTERVAL,
) -> bool:
    """Whether the record must be (re)written to show the session is live."""
    if session is None or not session.started:
        return True
    return now - session.last_seen >= interval or (client is not None and client != session.client)


def touch_session(
    root: str,
    session_id: str,
    now: float | None = None,
    *,
    client: str | None = None,
    latest_prompt: str | None = None,
    ttl: float | None = None,
) -> Session:
    """Mark the session live (creating its record on its first event), under the state lock
    so it never overwrites a decision another process just wrote. With ``ttl``, a new session
    first prunes the records of idle sessions (:func:`prune_idle`)."""
    moment = time.time() if now is None else now
    with state_lock(root):
        found = load_session(root, session_id)
        if found is None and ttl is not None:
            prune_idle(root, moment, ttl)  # a new session: the time to sweep out old ones
        session = found or Session(session_id, started=moment)
        if not session.started:
            session.started = moment
        session.last_seen = moment
        if client:
            session.client = client
        if latest_prompt is not None:
            session.latest_prompt = latest_prompt
        save_session(root, session)
    return session
