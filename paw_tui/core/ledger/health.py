"""Can the ledger be appended now, and has the gate been denying because it could not?

Nothing unrecorded is allowed (DESIGN §7): when the ledger cannot be appended, every mutating
or handshake decision of the gate is a deny and every act of a person is refused. A person
must be able to see that, in ``doctor``, ``trace verify`` and the TUI's banner, so this
module answers two questions, neither of which writes anything inside the workspace:

- **the probe** (:func:`probe_append`): would an append succeed now? It checks what an
  append needs without appending: the ledger is a regular file that opens for appending (or,
  when it does not exist yet, its directory can take it), its lock can be taken within
  ``lock_wait`` seconds (only when the lock file exists: taking a lock never creates one
  here), the signing key can be read, and the disk has room for a record. It cannot foresee
  every failure (a disk that fills in the next millisecond);
- **the mark** (:func:`last_failure`): every append that fails, in any process (the gate,
  the MCP server, the CLI, the TUI), leaves ``<ledger>.append-failure.json`` in the
  workspace's state directory, outside the workspace, with the time and the reason
  (:mod:`~paw_tui.core.ledger.failures`). It
  stands until an append succeeds: the ledger's head, which every successful append moves,
  then carries a later time. So the marker also tells of failures the probe cannot see
  (a lock held past the timeout for a while, a full disk), as long as they last.

:func:`ledger_health` puts both together; :attr:`LedgerHealth.denying` is what the TUI's
banner shows ("the gate is denying because it cannot record"), :meth:`LedgerHealth.message`
the sentence. Call it from a worker thread: the probe may wait ``lock_wait`` for the lock.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from paw_tui.core.ledger.io import OPEN_FLAGS, LedgerError, os_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.ledger.store import Ledger

MIN_FREE_BYTES = 64 * 1024
"""Less room than this on the ledger's file system is reported as a full disk."""
LOCK_WAIT = 1.0


@dataclass(frozen=True)
class AppendFailure:
    """An append that failed (``ts``: RFC 3339 UTC, ``reason``: the ledger's sentence, ``event``:
    the record's event, when known) and that no successful append has followed."""

    ts: str
    reason: str
    event: str | None = None


@dataclass(frozen=True)
class LedgerHealth:
    """``appendable``: the probe found nothing in the way (else ``problem`` says what);
    ``failure``: the latest failed append, when none has succeeded since."""

    path: str
    appendable: bool
    problem: str | None
    failure: AppendFailure | None

    @property
    def denying(self) -> bool:
        """The gate denies (and acts are refused) because records cannot be written."""
        return not self.appendable or self.failure is not None

    def message(self) -> str:
        """One sentence for a banner or a report row."""
        if not self.appendable:
            return (
                f"The audit ledger cannot be appended: {self.problem} Every mutating tool is "
                "denied and no act can be recorded until it can."
            )
        if self.failure is not None:
            what = f" ({self.failure.event})" if self.failure.event else ""
            return (
                f"The last attempt to record{what} failed at {self.failure.ts}: "
                f"{self.failure.reason} No record has been written since."
            )
        return f"The audit ledger {self.path} can be appended."

    def to_dict(self) -> dict[str, object]:
        failure = self.failure
        return {
            "path": self.path,
            "appendable": self.appendable,
            "problem": self.problem,
            "denying": self.denying,
            "last_failure": (
                None
                if failure is None
                else {"ts": failure.ts, "reason": failure.reason, "event": failure.event}
            ),
        }


def ledger_health(
    root: str, *, lock_wait: float = LOCK_WAIT, state_dir: str | None = None
) -> LedgerHealth:
    """The health of the workspace's ledger (``state_dir`` as for :class:`Ledger`)."""
    from paw_tui.core.ledger.store import Ledger

    ledger = Ledger.for_workspace(root, state_dir=state_dir)  # no I/O
    problem = probe_append(ledger, lock_wait=lock_wait)
    return LedgerHealth(ledger.path, problem is None, problem, last_failure(ledger))


def probe_append(ledger: Ledger, *, lock_wait: float = LOCK_WAIT) -> str | None:
    """Why an append to ``ledger`` would fail now (one sentence naming the file), or None.
    Writes nothing inside the workspace."""
    for check in (_file_problem, _lock_problem, _key_problem, _space_problem):
        problem = check(ledger, lock_wait)
        if problem is not None:
            return problem
    return None


def _file_problem(ledger: Ledger, _wait: float) -> str | None:
    import stat

    path = ledger.path
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return _directory_problem(os.path.dirname(path), f"{path} cannot be created")
    except OSError as error:
        return f"{path}: {os_reason(error)}."
    if stat.S_ISDIR(info.st_mode):
        return f"{path}: it is a directory."
    if not stat.S_ISREG(info.st_mode):
        return f"{path}: it is not a regular file."
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | OPEN_FLAGS)
    except OSError as error:
        return f"{path}: {os_reason(error)}."
    os.close(fd)
    return None


def _directory_problem(directory: str, what: str) -> str | None:
    """Why nothing could be created in ``directory`` (made when missing), or None."""
    existing = directory
    while not os.path.lexists(existing):
        parent = os.path.dirname(existing)
        if parent == existing:
            break
        existing = parent
    if not os.path.isdir(existing):
        return f"{what}: {existing} is not a directory."
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{what}: {existing} is not writable."
    return None


def _lock_problem(ledger: Ledger, wait: float) -> str | None:
    from paw_tui.core.support.locking import FileLock, LockError, LockTimeout

    lock_path = ledger.lock_path
    if not os.path.lexists(lock_path):
        return _directory_problem(ledger.cache_dir, f"its lock {lock_path} cannot be created")
    lock = FileLock(lock_path, timeout=wait)
    try:
        lock.acquire()
    except LockTimeout:
        return f"its lock {lock_path} is held by another process (waited {wait:g} s)."
    except LockError as error:
        return error.message
    lock.release()
    return None


def _key_problem(ledger: Ledger, _wait: float) -> str | None:
    from paw_tui.core.workspace.secret import key_path, load_key

    try:
        path = key_path(ledger.workspace_root, state_base=ledger.state_base)
        if os.path.lexists(path):
            load_key(ledger.workspace_root, state_base=ledger.state_base)
            return None
    except OSError as error:
        return f"its signing key cannot be read ({os_reason(error)})."
    return _directory_problem(os.path.dirname(path), f"its signing key {path} cannot be created")


def _space_problem(ledger: Ledger, _wait: float) -> str | None:
    statvfs = getattr(os, "statvfs", None)
    if statvfs is None:  # pragma: no cover - Windows
        return None
    directory = os.path.dirname(ledger.path)
    while not os.path.isdir(directory) and os.path.dirname(directory) != directory:
        directory = os.path.dirname(directory)
    try:
        info = statvfs(directory)
    except OSError:
        return None
    if info.f_bavail * info.f_frsize < MIN_FREE_BYTES:
        return f"{ledger.path}: the disk is full ({info.f_bavail * info.f_frsize} bytes free)."
    return None


# -- the mark of a failed append ---------------------------------------------------------------


def last_failure(ledger: Ledger) -> AppendFailure | None:
    """The latest failed append's mark (:mod:`~paw_tui.core.ledger.failures`), unless an
    append succeeded after it (the head is newer)."""
    from paw_tui.core.ledger.failures import failure_path, read_failure

    try:
        found = read_failure(failure_path(ledger.head_path, ledger.path))
    except OSError:  # no state directory to be found
        return None
    if found is None:
        return None
    ts, reason, event = found
    try:
        head, _slot = ledger.heads.read()
    except (LedgerError, OSError):
        head = None
    head_ts = head.get("ts") if head is not None else None
    if isinstance(head_ts, str) and head_ts >= ts:
        return None
    return AppendFailure(ts, reason, event)
