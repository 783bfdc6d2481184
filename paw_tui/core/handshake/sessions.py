"""Session records: which intent an agent session holds (``.orchestration/sessions/``).

One small JSON file per session, machine-owned, written atomically. A session is live from
its first gate event until SessionEnd or ``sessions release``, or until it has been idle
longer than ``governance.yaml: session_ttl``. Changes that must not race (selecting an
intent, approving, releasing) run under :func:`state_lock`.

The gate asks "which intents are held?" on every denial, selection and prompt. It reads the
*holders index* (:mod:`~paw_tui.core.handshake.holders_index`), then only the records of the
holders it does not already know to be stale: the cost follows the number of live holders,
never the number of session files. Records of sessions that ended or went stale are pruned by
:mod:`~paw_tui.core.handshake.pruning`, a bounded amount of work per call.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.handshake.holders_index import HoldersIndex, read_index, write_index
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
        "claim",
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
        claim: dict[str, str] | None = None,
    ) -> None:
        self.session_id = session_id
        self.intent_id = intent_id
        self.state = state
        self.approval_id = approval_id
        self.client = client
        self.started = started
        self.last_seen = last_seen
        self.latest_prompt = latest_prompt
        self.claim = claim
        """The remote claim this session holds (``remote``, ``intent_id``, ``commit``), when
        claims are on (DESIGN §12); released with the session."""

    @property
    def holds_intent(self) -> bool:
        return self.intent_id is not None and self.state in (ACTIVE, PENDING_APPROVAL)

    def is_live(self, now: float, ttl: float) -> bool:
        return now - self.last_seen <= ttl

    def to_dict(self) -> dict[str, object]:
        data = {name: getattr(self, name) for name in self.__slots__}
        if data["claim"] is None:
            del data["claim"]  # claims are opt-in: a record without one stays as it was
        return data

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
            _claim(data.get("claim")),
        )

    def __repr__(self) -> str:
        return f"Session({self.session_id!r}, intent={self.intent_id!r}, state={self.state!r})"


def _claim(value: object) -> dict[str, str] | None:
    if not isinstance(value, dict):
        return None
    fields = {key: value.get(key) for key in ("remote", "intent_id", "commit")}
    if not all(isinstance(v, str) and v for v in fields.values()):
        return None
    return fields  # type: ignore[return-value]


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
    session = load_session_file(session_path(root, session_id))
    return session if session is not None and session.session_id == session_id else None


def load_session_file(path: str) -> Session | None:
    """The record in ``path``; None when it is missing or unreadable."""
    try:
        data = json.loads(read_regular(path))
        if not isinstance(data, dict):
            return None
        return Session.from_dict(data)
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def save_session(root: str, session: Session) -> None:
    """Write the record (callers hold the state lock). The holders index is written first,
    so its ``seen`` never lags the record (see :mod:`~paw_tui.core.handshake.holders_index`)."""
    machine_dir(root, layout.SESSIONS)
    holding = session.intent_id if session.holds_intent else None
    _index_session(root, session.session_id, holding, session.last_seen)
    data = json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":"))
    from paw_tui.core.support.fsutil import atomic_write  # only when a session changes

    atomic_write(session_path(root, session.session_id), data.encode("utf-8"))


def delete_session(root: str, session_id: str) -> bool:
    """Remove the record (callers hold the state lock)."""
    try:
        os.unlink(session_path(root, session_id))
        found = True
    except FileNotFoundError:
        found = False
    _index_session(root, session_id, None, None)
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


def scan_index(root: str) -> HoldersIndex:
    """The index as the records say it should be (a full scan)."""
    index = HoldersIndex()
    for session in iter_sessions(root):
        if session.holds_intent and session.intent_id:
            index.set(session.session_id, session.intent_id, session.last_seen)
    return index


def _index_session(root: str, session_id: str, intent_id: str | None, seen: float | None) -> None:
    """Keep the index in step with one record (the caller holds the state lock)."""
    index = read_index(root)
    if index is None:
        index = scan_index(root)  # rebuilt, then written whatever this record changes
    elif not index.set(session_id, intent_id, seen):
        return  # nothing changed: no write
    index.set(session_id, intent_id, seen)
    write_index(root, index)


def holding_sessions(
    root: str, now: float | None = None, ttl: float | None = None
) -> Iterator[Session]:
    """The records of every session the index lists as holding (or awaiting) an intent, as
    they are now; without an index, found by a scan. With ``now`` and ``ttl``, a holder the
    index already knows to be stale is passed over without opening its record."""
    index = read_index(root)
    if index is None:
        yield from (s for s in iter_sessions(root) if s.holds_intent)
        return
    for session_id in index.holders:
        if now is not None and ttl is not None and index.is_stale(session_id, now, ttl):
            continue
        session = load_session(root, session_id)
        if session is not None and session.holds_intent:
            yield session


def holders(
    root: str, intent_id: str, now: float, ttl: float, *, besides: str | None = None
) -> list[Session]:
    """Live sessions other than ``besides`` that hold (or await approval for) the intent."""
    return [
        session
        for session in holding_sessions(root, now, ttl)
        if session.intent_id == intent_id
        and session.is_live(now, ttl)
        and session.session_id != besides
    ]


def held_intents(
    root: str, now: float, ttl: float, *, besides: str | None = None
) -> dict[str, str]:
    """``{intent id: holding session id}`` over live sessions other than ``besides``."""
    held: dict[str, str] = {}
    for session in holding_sessions(root, now, ttl):
        if session.is_live(now, ttl) and session.session_id != besides:
            held.setdefault(session.intent_id, session.session_id)  # type: ignore[arg-type]
    return held


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
) -> Session:
    """Mark the session live (creating its record on its first event), under the state lock
    so it never overwrites a decision another process just wrote."""
    moment = time.time() if now is None else now
    with state_lock(root):
        session = load_session(root, session_id) or Session(session_id, started=moment)
        if not session.started:
            session.started = moment
        session.last_seen = moment
        if client:
            session.client = client
        if latest_prompt is not None:
            session.latest_prompt = latest_prompt
        save_session(root, session)
    return session
