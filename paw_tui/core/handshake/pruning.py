"""Pruning session records of sessions that ended or went stale, a bounded amount of work per
call (DESIGN §12, "Sessions at any count").

A workspace collects session records: every agent session leaves one, and a session that
crashed or was never ended keeps it, holding its intent until the TTL. Left alone, thousands
of them made every hook call read them all. :func:`prune_stale_sessions` runs when a new
session appears (the gate's first event of a session), under the state lock, and does two
bounded things:

1. every holder the holders index knows to be stale leaves the index at once (one write: from
   then on no decision so much as looks at it), and up to :data:`RELEASES_PER_CALL` of them
   are released as a person's ``sessions release`` would (a ``session_released`` record with
   the reason, a pending approval withdrawn, the record removed); the rest are released by
   the sweep of later calls;
2. the sweep, at most once per :data:`SWEEP_INTERVAL` unless work is left over: up to
   :data:`READS_PER_CALL` records are read; a stale one that holds nothing is removed, a stale
   holder is released (within the same release budget). The sweep is done when a pass finds
   nothing left to do within its budget; until then the next new session carries on.

A release that cannot be recorded (the ledger unwritable) leaves its record in place: the act
and its record stand or fall together, and a stale record holds nothing anyway.
"""

from __future__ import annotations

import os

from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.holders_index import read_index, write_index
from paw_tui.core.ledger.acts import UnrecordedAct
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.workspace.state import WorkspaceState

PRUNE_MARKER = ".pruned"
"""Its mtime is when the last complete sweep finished."""
SWEEP_INTERVAL = 3600.0
RELEASES_PER_CALL = 32
"""Stale holders released (and recorded) per call at most: each is a durable ledger append."""
READS_PER_CALL = 2000
"""Session records the sweep reads per call at most."""
LOCK_WAIT = 0.5
"""Seconds pruning waits for the state lock: it is optional work, so a busy lock means "next
time", never a delay of the event that asked for it."""
STALE_REASON = "idle longer than the session TTL"


class Pruned:
    """What one call did: the holders it released and how many idle records it removed."""

    __slots__ = ("released", "removed", "unfinished")

    def __init__(self) -> None:
        self.released: list[Session] = []
        self.removed = 0
        self.unfinished = False

    @property
    def releases_left(self) -> int:
        return RELEASES_PER_CALL - len(self.released)


def prune_stale_sessions(state: WorkspaceState, now: float, ttl: float) -> Pruned:
    """Prune what a bounded amount of work allows (see the module's docstring); nothing when
    the state lock is busy for longer than :data:`LOCK_WAIT` (the work stays for a later call)."""
    from paw_tui.core.support.locking import LockTimeout

    done = Pruned()
    root = state.root
    lock = sessions_store.state_lock(root, timeout=LOCK_WAIT)
    try:
        lock.acquire()
    except LockTimeout:
        done.unfinished = True
        return done
    try:
        index = read_index(root)
        stale = index.stale(now, ttl) if index is not None else []
        if index is not None and stale:
            index.drop(stale)
            write_index(root, index)
            for session_id in stale:
                if done.releases_left <= 0:
                    done.unfinished = True
                    break
                found = sessions_store.load_session(root, session_id)
                if found is not None and not found.is_live(now, ttl):
                    _release(state, found, now, done)
        if stale or done.unfinished or _sweep_due(root, now):
            _sweep(state, now, ttl, done)
    finally:
        lock.release()
    return done


def _marker(root: str) -> str:
    return os.path.join(layout.at(root, layout.SESSIONS), PRUNE_MARKER)


def _sweep_due(root: str, now: float) -> bool:
    try:
        return now - os.stat(_marker(root)).st_mtime >= SWEEP_INTERVAL
    except OSError:
        return True


def _sweep(state: WorkspaceState, now: float, ttl: float, done: Pruned) -> None:
    root = state.root
    directory = layout.at(root, layout.SESSIONS)
    reads = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not name.endswith(".json") or name.startswith("."):
            continue
        if reads >= READS_PER_CALL:
            done.unfinished = True
            break
        reads += 1
        session = sessions_store.load_session_file(entry.path)
        if session is None or session.is_live(now, ttl):
            continue
        if not session.holds_intent:
            try:
                os.unlink(entry.path)
                done.removed += 1
            except OSError:
                continue
        elif done.releases_left > 0:
            _release(state, session, now, done)
        else:
            done.unfinished = True
    if not done.unfinished:
        _mark_swept(root, now)


def _release(state: WorkspaceState, session: Session, now: float, done: Pruned) -> None:
    from paw_tui.core.handshake.selection import end_session

    try:
        end_session(state, session, reason=STALE_REASON)
    except UnrecordedAct:
        done.unfinished = True  # unrecorded, so not done: the next call tries again
        return
    done.released.append(session)


def _mark_swept(root: str, now: float) -> None:
    from paw_tui.core.workspace.machine_state import machine_dir

    marker = _marker(root)
    try:
        machine_dir(root, layout.SESSIONS)
        with open(marker, "ab"):
            pass
        os.utime(marker, (now, now))
    except OSError:
        pass
