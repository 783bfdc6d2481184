"""The gate as a library: a custom agent loop governs its own tool calls in process.

::

    from paw_tui.gate.api import Governor

    governor = Governor("/path/to/repo")
    verdict = governor.decide({"event": "pre_tool", "session_id": "run-42",
                               "tool": "write_file", "paths": ["src/app.py"]})
    if not verdict.allow:
        raise PermissionError(verdict.reason)

The event is the generic protocol's (``paw-tui gate --client generic``: ``event``,
``session_id``, ``tool``, ``paths``, ``command``, ``cwd``, ``prompt``, ``tool_input``, ``call_id``;
``intent_id`` for ``select_active_intent``), and the decision, ledger and policy are the ones the
hook process would use. It fails closed as the hook does: an event it cannot read, or any error
while deciding a tool call, is a deny naming the reason, never an exception.
"""

from __future__ import annotations

import _thread
import os

from paw_tui.gate.events import PRE_TOOL, PayloadError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.support.keyed import Mac


class Verdict:
    """``allow``; ``reason`` (a deny's, exactly as an agent would read it); ``intent_id`` (the
    session's intent, if any); ``context`` (text to put in front of the model, if any)."""

    __slots__ = ("allow", "reason", "intent_id", "context")

    def __init__(
        self,
        allow: bool,
        reason: str | None = None,
        intent_id: str | None = None,
        context: str | None = None,
    ) -> None:
        self.allow = allow
        self.reason = reason
        self.intent_id = intent_id
        self.context = context

    def to_dict(self) -> dict[str, object]:
        """The generic protocol's answer (``decision``, ``reason``, ``intent_id``, ``context``)."""
        return {
            "decision": "allow" if self.allow else "deny",
            "reason": self.reason,
            "intent_id": self.intent_id,
            "context": self.context,
        }

    def __repr__(self) -> str:
        return f"Verdict(allow={self.allow}, reason={self.reason!r}, intent={self.intent_id!r})"


class Governor:
    """Decisions for one workspace root (``None``: found from each event's ``cwd``). Each
    root's signing key is loaded once per governor, and its policy kept while the policy
    files' stamps vouch that they did not change (two ``stat`` calls a decision instead of
    reading and checking the signed cache): a loop deciding many calls, from many threads,
    should not redo that work every time.

    Calls from many threads are decided one after another by whichever thread arrived first
    (the *leader*), its records written unsynced, and made durable with one ``fdatasync`` of
    the ledger for the batch; no call returns before that sync, so each decision is still
    durable before its tool runs. The waiting threads hold no interpreter lock, so the
    decisions do not fight over it as concurrent ones did (about a quarter of the time at
    eight threads). A batch whose sync fails denies every tool call in it. The leader then
    hands over to the oldest waiting call, so no caller waits for more than its own batch
    and the one before it.
    """

    __slots__ = ("root", "_signers", "_policies", "_mutex", "_queue", "_leading")

    def __init__(self, root: str | None = None) -> None:
        self.root = os.path.abspath(root) if root is not None else None
        self._signers: dict[str, Mac] = {}
        self._policies: dict[str, Policy] = {}
        self._mutex = _thread.allocate_lock()
        self._queue: list[_Call] = []
        self._leading = False

    def decide(self, event: Mapping[str, object]) -> Verdict:
        from paw_tui.gate.clients import generic

        payload = dict(event)
        kind = payload.get("event")
        if self.root is not None and not payload.get("cwd"):
            payload["cwd"] = self.root
        try:
            parsed = generic.parse(payload)
        except PayloadError as error:
            if kind == PRE_TOOL or kind not in (
                "post_tool",
                "session_start",
                "prompt",
                "session_end",
            ):
                return Verdict(False, f"paw-tui policy: cannot read this event ({error}); denying.")
            return Verdict(True, f"ignored: {error}")
        return self._governed(_Call(parsed))

    def _governed(self, call: _Call) -> Verdict:
        with self._mutex:
            self._queue.append(call)
            lead = not self._leading
            self._leading = True
        if not lead:
            call.wake.acquire()  # until decided and synced, or chosen to lead
        if lead or call.promoted:
            self._lead()
        assert call.verdict is not None
        return call.verdict

    def _lead(self) -> None:
        """Decide the queued calls (this thread's first), sync, wake them, hand over."""
        batch: list[_Call] = []
        try:
            unsynced: set[tuple[str, tuple[int, int]]] = set()
            while len(batch) < MAX_BATCH:
                # calls that arrive while the batch is decided join it: one sync covers them
                with self._mutex:
                    more = self._queue[: MAX_BATCH - len(batch)]
                    del self._queue[: len(more)]
                if not more:
                    break
                batch += more
                for call in more:
                    try:
                        call.verdict, written = self._decide(call.event)
                    except Exception as error:  # a call that cannot be decided fails alone
                        call.verdict, written = _failed(call.event, error), None
                    if written is not None:  # a ledger replaced mid-batch is two files
                        call.ledger = written
                        unsynced.add(written)
            failures = _sync(unsynced)
            for call in batch:
                if call.ledger in failures:
                    call.verdict = _failed(call.event, failures[call.ledger])
        finally:
            with self._mutex:
                successor = self._queue[0] if self._queue else None
                if successor is None:
                    self._leading = False
                else:
                    successor.promoted = True
            for call in batch:
                if call.verdict is None:  # an exception escaped the batch
                    call.verdict = _failed(call.event, RuntimeError("the decision was cut short"))
                call.wake.release()
            if successor is not None:
                successor.wake.release()

    def _decide(self, event: object) -> tuple[Verdict, tuple[str, tuple[int, int]] | None]:
        """The verdict, and the ledger file it wrote unsynced (None: nothing written)."""
        from paw_tui.gate.events import GateEvent
        from paw_tui.gate.main import find_root

        assert isinstance(event, GateEvent)
        state = None
        try:
            root = self.root or find_root(event, [], os.environ)
            if root is None:
                raise PayloadError(
                    f"no paw-tui workspace was found from {event.cwd or os.getcwd()}"
                )
            from paw_tui.core.policy.compiled import still_current
            from paw_tui.core.workspace.state import WorkspaceState
            from paw_tui.gate.apply import apply
            from paw_tui.gate.decide import decide
            from paw_tui.gate.facts import gather

            policy = self._policies.get(root)
            if policy is not None and not still_current(policy):
                policy = None
            state = WorkspaceState(
                root, signer=self._signers.get(root), policy=policy, durable=False
            )
            facts = gather(state, event)
            done = apply(state, facts, decide(facts))
            if root not in self._signers and state.has_signer:
                self._signers[root] = state.signer
            if state.loaded_policy is not None and state.loaded_policy.stamps is not None:
                self._policies[root] = state.loaded_policy
            verdict = Verdict(done.allow, done.reason, done.intent_id, done.context)
        except Exception as error:  # the hook's rule: a tool call that cannot be decided is denied
            verdict = _failed(event, error)
        return verdict, (state.unsynced_ledger if state is not None else None)


MAX_BATCH = 64
"""Calls one leader decides before the sync and the hand-over (bounds a caller's wait)."""


class _Call:
    """One queued call: its ``event``; once decided, its ``verdict`` and the ledger file it
    wrote to (path, device and inode). ``wake`` is released once: when it is done, or when it must lead."""

    __slots__ = ("event", "wake", "verdict", "ledger", "promoted")

    def __init__(self, event: object) -> None:
        self.event = event
        self.wake = _thread.allocate_lock()
        self.wake.acquire()
        self.verdict: Verdict | None = None
        self.ledger: tuple[str, tuple[int, int]] | None = None
        self.promoted = False


def _sync(
    unsynced: set[tuple[str, tuple[int, int]]],
) -> dict[tuple[str, tuple[int, int]], Exception]:
    """Sync each ledger file (path, device and inode) once; the failures."""
    from paw_tui.core.ledger.store import sync_file

    failures: dict[tuple[str, tuple[int, int]], Exception] = {}
    for written in unsynced:
        try:
            sync_file(*written)
        except Exception as error:  # every call that wrote there is then a failure
            failures[written] = error
    return failures


def _failed(event: object, error: BaseException) -> Verdict:
    from paw_tui.gate.events import GateEvent

    assert isinstance(event, GateEvent)
    if event.kind != PRE_TOOL:
        return Verdict(True, f"paw-tui: {error}")
    return Verdict(
        False,
        f"paw-tui policy: the decision failed ({type(error).__name__}: {error}); "
        "denying (fail closed).",
    )


def decide(event: Mapping[str, object], *, root: str | None = None) -> Verdict:
    """One decision (see :class:`Governor`)."""
    return Governor(root).decide(event)
