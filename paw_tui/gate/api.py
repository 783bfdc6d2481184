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
    should not redo that work every time."""

    __slots__ = ("root", "_signers", "_policies")

    def __init__(self, root: str | None = None) -> None:
        self.root = os.path.abspath(root) if root is not None else None
        self._signers: dict[str, Mac] = {}
        self._policies: dict[str, Policy] = {}

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
        return self._decide(parsed)

    def _decide(self, event: object) -> Verdict:
        from paw_tui.gate.events import GateEvent
        from paw_tui.gate.main import find_root

        assert isinstance(event, GateEvent)
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
            state = WorkspaceState(root, signer=self._signers.get(root), policy=policy)
            facts = gather(state, event)
            done = apply(state, facts, decide(facts))
            if root not in self._signers and state.has_signer:
                self._signers[root] = state.signer
            if state.loaded_policy is not None and state.loaded_policy.stamps is not None:
                self._policies[root] = state.loaded_policy
            return Verdict(done.allow, done.reason, done.intent_id, done.context)
        except Exception as error:  # the hook's rule: a tool call that cannot be decided is denied
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
