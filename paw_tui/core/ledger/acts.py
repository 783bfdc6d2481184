"""A person's act and its ledger record stand or fall together (DESIGN §7).

Changing an intent's status, approving, rejecting, granting or denying scope, releasing a
session, authoring an intent, setting the supervisor instruction: each is validated and
*prepared* first (its new files written beside the old ones, nothing in effect yet), then,
under the state lock, its record is appended, and only once the record is in the ledger are
the prepared files moved into place. When the record cannot be appended (the ledger replaced
by a directory, a lock that cannot be taken in time, a full disk, a key that cannot be read)
the prepared files are dropped and :class:`UnrecordedAct` says why: the act did not happen.

Record first, then commit, rather than commit and roll back: a rollback can fail too, and
between the two steps the gate could act on a change the ledger never saw. Here the worst
case is the reverse (a record followed by a ``rename`` in the same directory that fails),
which the caller hears about as an error naming the file.
"""

from __future__ import annotations

import os

from paw_tui.core.errors import PawError
from paw_tui.core.ledger.io import LedgerError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    from paw_tui.core.ledger.records import Record
    from paw_tui.core.workspace.state import WorkspaceState

    class Change(Protocol):
        """A prepared change (:class:`~paw_tui.core.support.fsutil.PreparedFile`, an edit
        of the intents file): nothing is in effect before :meth:`commit`."""

        def commit(self) -> object: ...

        def discard(self) -> None: ...


def person_name(by: str | None = None, *, via: str | None = None) -> str:
    """Who does a person's act, as its record says: ``by`` when given (``--by NAME``), else
    the login name (``$USER``, ``%USERNAME%``), else ``human``; ``via`` names where it was
    done (``alice (tui)``). The one rule for the command line and the TUI."""
    name = by or os.environ.get("USER") or os.environ.get("USERNAME") or "human"
    return f"{name} ({via})" if via else name


class UnrecordedAct(PawError):
    """The act could not be recorded, so it was not done (exit 2: nothing changed)."""

    exit_code = 2


def not_recorded(act: str, error: LedgerError) -> UnrecordedAct:
    """``<Act> was not done: it could not be recorded. <the ledger's reason>``."""
    reason = str(error).rstrip()
    if not reason.endswith("."):
        reason += "."
    return UnrecordedAct(
        f"{act[:1].upper()}{act[1:]} was not done: it could not be recorded. {reason}"
    )


def record_act(
    state: WorkspaceState,
    act: str,
    event: str,
    changes: Sequence[Change] = (),
    **fields: object,
) -> Record:
    """Append ``event`` with ``fields``; then commit ``changes``. The caller holds the state
    lock and has validated everything. ``act`` names the act for the refusal
    (``"changing the status of INT-001"``). When the record cannot be appended, every change
    is discarded and :class:`UnrecordedAct` is raised."""
    try:
        record = state.record(event, **fields)
    except LedgerError as error:
        for change in changes:
            change.discard()
        raise not_recorded(act, error) from None
    except BaseException:
        for change in changes:
            change.discard()
        raise
    if changes:
        _make_durable(state)
    for change in changes:
        change.commit()
    return record


def _make_durable(state: WorkspaceState) -> None:
    """A state that writes records unsynced (the Governor's batches) syncs this one before
    the change it vouches for takes effect."""
    unsynced = state.unsynced_ledger
    if unsynced is None:
        return
    from paw_tui.core.ledger.store import sync_file

    path, identity = unsynced
    sync_file(path, identity)


def recorded(state: WorkspaceState, act: str, event: str, **fields: object) -> Record:
    """Append the record of an act whose effect follows it (files the caller writes next,
    under the same lock); :class:`UnrecordedAct` when it cannot be appended."""
    try:
        return state.record(event, **fields)
    except LedgerError as error:
        raise not_recorded(act, error) from None
