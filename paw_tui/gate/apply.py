"""Step 3 of a gate event: make the verdict stand, then say what to answer.

Records are appended before a call is allowed (nothing unrecorded is allowed: a ledger that
cannot be written turns the answer into a deny, raised as
:class:`~paw_tui.core.ledger.io.LedgerError` for the caller to render). Sessions are touched
or released here, the handshake's own transaction runs here, and the context injected at
SessionStart and UserPromptSubmit is assembled here.
"""

from __future__ import annotations

import os

from paw_tui.gate import tools
from paw_tui.gate.decide import ANSWER, CONTEXT, MUTATIONS, RELEASE, REQUEST_SCOPE, SELECT
from paw_tui.gate.events import PRE_TOOL, PROMPT, SESSION_START, Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.decide import Verdict
    from paw_tui.gate.events import GateEvent
    from paw_tui.gate.facts import Facts

MAX_PROMPT_KEPT = 4000
"""Characters of the latest prompt kept for execution instructions' ``{question}``."""


def apply(state: WorkspaceState, facts: Facts, verdict: Verdict) -> Decision:
    event = facts.event
    if verdict.release_expired:
        from paw_tui.core.handshake.selection import release_session

        release_session(state, event.session_id, reason="idle longer than the session TTL")
    prompt = None
    if event.kind == PROMPT and event.prompt is not None and facts.policy.valid:
        prompt = event.prompt[:MAX_PROMPT_KEPT]
    session = facts.live_session
    if verdict.touch or prompt is not None:
        from paw_tui.core.handshake.sessions import touch_session

        if facts.session is None and facts.policy.valid:
            _prune(state, facts)  # a new session: the time to sweep out old ones
        session = touch_session(
            state.root, event.session_id, facts.now, client=event.client, latest_prompt=prompt
        )
    action = verdict.action
    if action == SELECT:
        return _select(state, facts)
    if action == REQUEST_SCOPE:
        return _request_scope(state, facts)
    if action == CONTEXT:
        notice = _person_notice(state, facts) if event.kind == SESSION_START else None
        return Decision(True, context=_session_context(state, facts, session), notice=notice)
    if action == RELEASE:
        from paw_tui.core.handshake.selection import release_session

        release_session(state, event.session_id, reason="session ended")
        return Decision(True)
    if action == MUTATIONS:
        from paw_tui.gate.mutations import record_mutations

        context = None
        if facts.kind == tools.SHELL:  # even when the command broke the policy files
            from paw_tui.gate.shell_watch import after_shell

            context = after_shell(state, event)
        record_mutations(state, event, facts.kind)
        return Decision(True, context=context)
    assert action == ANSWER
    return _answer(state, facts, verdict, session)


def _answer(
    state: WorkspaceState, facts: Facts, verdict: Verdict, session: Session | None
) -> Decision:
    """A PreToolUse decision: its record first, then what the allowed call brings along
    (the shell's watch, execution instructions, a first call's briefing)."""
    event = facts.event
    watched = (
        verdict.allow
        and event.kind == PRE_TOOL
        and verdict.intent_id is not None
        and facts.kind == tools.SHELL
    )
    if verdict.record is not None:
        protection = None
        if watched:
            from paw_tui.core.confine.status import protection as shell_protection

            protection = shell_protection(state.root).kind
        state.record(
            verdict.record,
            session_id=event.session_id,
            intent_id=verdict.intent_id,
            client=event.client,
            tool=event.tool,
            paths=verdict.paths or None,
            decision="allow" if verdict.allow else "deny",
            reason=verdict.reason,
            protection=protection,
        )
    context = None
    if verdict.allow and event.kind == PRE_TOOL and verdict.intent_id is not None:
        if watched:
            _watch_shell(state, event, verdict.intent_id)
        context = _guidance(state, facts, session)
    elif verdict.allow and event.kind == PRE_TOOL and facts.kind == tools.SHELL:
        _confine_without_intent(state, event)
    context = _with_briefing(state, facts, context)
    return Decision(verdict.allow, verdict.reason, verdict.intent_id, context)


def _prune(state: WorkspaceState, facts: Facts) -> None:
    """Bounded pruning of ended and stale sessions; never in the way of the event itself."""
    from paw_tui.core.errors import PawError
    from paw_tui.core.handshake.pruning import prune_stale_sessions

    try:
        prune_stale_sessions(state, facts.now, facts.policy.governance.session_ttl)
    except (OSError, PawError) as error:
        import sys

        sys.stderr.write(f"paw-tui gate: could not prune old sessions ({error})\n")


def _with_briefing(state: WorkspaceState, facts: Facts, context: str | None) -> str | None:
    """``context``, after the governance section when this is the session's first tool call
    in a client that can be told only then (``GateEvent.briefed_by_first_call``)."""
    briefing = _first_call_briefing(state, facts)
    if not briefing:
        return context
    return f"{briefing}\n\n{context}" if context else briefing


def _first_call_briefing(state: WorkspaceState, facts: Facts) -> str | None:
    """The governance section for a session's first tool call (the session's record starts
    here, so the next call knows it was given); None for every later call."""
    from paw_tui.core.handshake import sessions as sessions_store

    event = facts.event
    if not (event.briefed_by_first_call and event.kind == PRE_TOOL and facts.policy.valid):
        return None
    if facts.session is not None or sessions_store.load_session(state.root, event.session_id):
        return None
    ttl = facts.policy.governance.session_ttl
    _prune(state, facts)  # a new session: the time to sweep out old ones
    session = sessions_store.touch_session(
        state.root, event.session_id, facts.now, client=event.client
    )
    if facts.held is None:
        facts.held = sessions_store.held_intents(
            state.root, facts.now, ttl, besides=event.session_id
        )
    return _session_context(state, facts, session)


def _watch_shell(state: WorkspaceState, event: GateEvent, intent_id: str) -> None:
    """The boundary and the snapshot for this shell call; a failure is said, never a block:
    the decision stands, drift detection then has nothing to compare with."""
    import sys

    from paw_tui.gate.mutations import note_shell_start
    from paw_tui.gate.shell_watch import before_shell

    try:
        note_shell_start(state, event)
        before_shell(state, event, intent_id)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"paw-tui gate: could not prepare the shell watch ({error})\n")


def _confine_without_intent(state: WorkspaceState, event: GateEvent) -> None:
    """A shell call allowed while the session holds no intent (a provably read-only command
    before a selection) runs in the kernel boundary too, with the no-intent set: nothing
    writable but the devices and the temp directory, where the client tracks the shell's
    working directory (Claude Code's ``pwd -P >| $TMPDIR/claude-...-cwd``). Without this
    spec the launcher finds none for a session's first shell call and leaves the shell only
    the terminal, so even ``ls`` fails. A failure is said, never a block: the launcher then
    falls back to the terminal alone, which denies every write."""
    from paw_tui.core.confine import boundary

    if not boundary.available():
        return
    try:
        boundary.prepare(state.root, event.session_id, None)
    except (OSError, ValueError) as error:
        import sys

        sys.stderr.write(f"paw-tui gate: could not prepare the shell's boundary ({error})\n")


def _select(state: WorkspaceState, facts: Facts) -> Decision:
    from paw_tui.core.handshake.selection import select_active_intent

    event = facts.event
    selection = select_active_intent(
        state,
        event.session_id,
        event.tool_input.get("intent_id"),
        client=event.client,
        tool=event.tool,
    )
    intent_id = selection.intent.id if selection.intent else None
    return Decision(
        selection.accepted, None if selection.accepted else selection.message, intent_id
    )


def _request_scope(state: WorkspaceState, facts: Facts) -> Decision:
    """Filed: allowed (the tool then reports the request's state); refused: denied, saying why."""
    from paw_tui.core.handshake.scope_expansion import file_scope_request

    event = facts.event
    filing = file_scope_request(
        state,
        event.session_id,
        event.tool_input.get("pattern"),
        event.tool_input.get("reason"),
        client=event.client,
    )
    intent_id = filing.request.intent_id if filing.request else None
    return Decision(filing.filed, None if filing.filed else filing.message, intent_id)


def _person_notice(state: WorkspaceState, facts: Facts) -> str:
    """What the person sees when a session starts: is governance in force, and how."""
    policy = facts.policy
    if not policy.valid:
        return (
            f"paw-tui: governance is NOT in force here ({policy.unavailable_reason}); every tool "
            "that changes files is blocked until this is fixed."
        )
    from paw_tui.core.confine.status import protection

    selectable = policy.selectable(set(facts.held or {}))
    shown = ", ".join(intent.id for intent in selectable[:5])
    more = f" and {len(selectable) - 5} more" if len(selectable) > 5 else ""
    lines = [
        f"paw-tui governs this repository: {len(selectable)} intent(s) can be selected"
        + (f" ({shown}{more})" if selectable else "")
        + "; the agent selects one before it changes any file. "
        + f"Shell commands: {protection(state.root).kind}."
    ]
    from paw_tui.core.clients.server_off import how_to_enable

    how = how_to_enable(facts.event.client, state.root)
    if how:
        lines.append(
            "Warning: the paw MCP server is turned off here, so the agent cannot select an "
            f"intent and every change will be denied. Turn it on: {how}."
        )
    return "\n".join(lines)


def _session_context(state: WorkspaceState, facts: Facts, session: Session | None) -> str:
    """Every prompt layer (DESIGN §8), for SessionStart and every UserPromptSubmit."""
    from paw_tui.core.prompt.assembly import assemble_prompt, prompt_layers

    client = facts.event.client
    if not facts.policy.valid:
        return assemble_prompt(prompt_layers(state, None, client=client))
    return assemble_prompt(prompt_layers(state, session, held=facts.held or {}, client=client))


def _guidance(state: WorkspaceState, facts: Facts, session: Session | None) -> str | None:
    """Execution instructions for the tool, if it has any (DESIGN §8); never blocks."""
    from paw_tui.core.workspace import layout

    governance = facts.policy.governance
    tool = facts.event.tool or ""
    if not governance.tool_instructions and not any(
        os.path.isdir(layout.at(state.root, folder))
        for folder in (layout.TOOLS, layout.SHARED_TOOLS)
    ):
        return None  # nowhere to find any: skip importing the template machinery
    try:
        from paw_tui.core.prompt.exec_instructions import execution_instructions, guidance_message
        from paw_tui.core.prompt.names import lookup_names

        question = session.latest_prompt if session is not None else None
        for name in lookup_names(tool):
            text = execution_instructions(
                state.root,
                name,
                question=question,
                args=facts.event.tool_input,
                governance=governance,
            )
            if text:
                return guidance_message(tool, text)
    except Exception:
        return None
    return None
