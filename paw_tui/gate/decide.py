"""What the gate decides for one event, given the workspace state. No I/O of its own beyond
the core's (sessions, ledger, the files a mutation touched); no client protocol here.
"""

from __future__ import annotations

import os

from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.intents.model import SELECTABLE
from paw_tui.gate import tools
from paw_tui.gate.events import POST_TOOL, PRE_TOOL, PROMPT, SESSION_END, SESSION_START, Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent

NO_INTENT = "You must cite a valid active Intent ID."


def must_cite_message(policy: Policy, held: dict[str, str], tool: str | None) -> str:
    available = policy.selectable(set(held))
    what = f" before using {tool}" if tool else ""
    if available:
        listed = ", ".join(f"{i.id} ({i.name})" if i.name else i.id for i in available)
        return f"{NO_INTENT} Call select_active_intent with one of: {listed}{what}."
    return (
        f"{NO_INTENT} No intent can be selected now: ask a human to add or reopen one in "
        ".orchestration/active_intents.yaml."
    )


def decide(state: WorkspaceState, event: GateEvent) -> Decision:
    if event.kind == PRE_TOOL:
        return pre_tool(state, event)
    if event.kind == POST_TOOL:
        post_tool(state, event)
        return Decision(True)
    if event.kind in (SESSION_START, PROMPT):
        return Decision(True, context=session_context(state, event))
    if event.kind == SESSION_END:
        from paw_tui.core.handshake.selection import release_session

        release_session(state, event.session_id, reason="session ended")
        return Decision(True)
    return Decision(False, f"Unknown gate event '{event.kind}'.")


def _live_session(state: WorkspaceState, event: GateEvent, ttl: float, *, prompt: str | None = None) -> Session | None:
    """Load the session (touching it when due, or to keep ``prompt``) and drop an expired lock."""
    now = state.now()
    session = sessions_store.load_session(state.root, event.session_id)
    expired = session is not None and session.holds_intent and not session.is_live(now, ttl)
    if expired:
        from paw_tui.core.handshake.selection import release_session

        release_session(state, event.session_id, reason="idle longer than the session TTL")
        session = None
    # With a short TTL the record must be refreshed more often than once a minute.
    interval = min(sessions_store.TOUCH_INTERVAL, ttl / 4)
    if prompt is not None or sessions_store.needs_touch(session, now, event.client, interval=interval):
        session = sessions_store.touch_session(
            state.root, event.session_id, now, client=event.client, latest_prompt=prompt
        )
    return session


def _deny(state: WorkspaceState, event: GateEvent, reason: str, intent_id: str | None, paths: list[str]) -> Decision:
    state.record(
        "tool_denied", session_id=event.session_id, intent_id=intent_id, client=event.client,
        tool=event.tool, paths=paths or None, decision="deny", reason=reason,
    )
    return Decision(False, reason, intent_id)


def _given_paths(state: WorkspaceState, event: GateEvent, kind: str | None = None) -> list[str]:
    """The event's target paths as the ledger shows them (a shell command's visible write
    targets included): root-relative, or absolute when outside the root; a path that cannot
    be resolved is kept as given."""
    from paw_tui.core.workspace.paths import resolve_path

    shown = []
    for path, cwd, _subtree, _directory in _targets(event, kind or tools.MUTATING):
        try:
            shown.append(resolve_path(path, state.root, cwd=cwd or event.cwd or state.root).display)
        except ValueError:
            shown.append(path.replace("\\", "/"))
    return shown


def pre_tool(state: WorkspaceState, event: GateEvent) -> Decision:
    tool = event.tool or ""
    policy = state.policy
    kind = tools.classify(tool, policy.governance if policy.valid else None)
    if kind == tools.READ_ONLY:
        if policy.valid and policy.governance.log_reads:
            state.record(
                "tool_allowed", session_id=event.session_id, client=event.client, tool=tool,
                paths=_given_paths(state, event) or None, decision="allow",
            )
        return Decision(True)
    ttl = policy.governance.session_ttl
    if kind == tools.HANDSHAKE:
        # Even with broken state: the refusal is the selection's own record (selection_refused).
        from paw_tui.core.handshake.selection import select_active_intent

        if policy.valid:
            _live_session(state, event, ttl)
        selection = select_active_intent(
            state, event.session_id, event.tool_input.get("intent_id"), client=event.client
        )
        intent_id = selection.intent.id if selection.intent else None
        return Decision(selection.accepted, None if selection.accepted else selection.message, intent_id)
    if not policy.valid:
        return _deny(state, event, policy.unavailable_reason or "Orchestration state unavailable.", None,
                     _given_paths(state, event, kind))

    session = _live_session(state, event, ttl)
    intent, refusal = held_intent(state, policy, session, tool)
    if intent is None:
        return _deny(state, event, refusal or NO_INTENT, session.intent_id if session else None,
                     _given_paths(state, event, kind))
    checker = policy.checker(intent)
    shown: list[str] = []
    targets = _targets(event, kind)
    for path, cwd, subtree, directory in targets:
        try:
            verdict = checker.check(path, cwd=cwd or event.cwd or state.root, subtree=subtree,
                                    directory=directory)
        except ValueError as exc:  # a path we cannot reason about: NUL, empty
            return _deny(state, event, str(exc), intent.id, _given_paths(state, event, kind))
        shown.append(verdict.path)
        if not verdict.allowed:
            return _deny(state, event, verdict.message or "Scope Violation.", intent.id, shown)
    state.record(
        "tool_allowed", session_id=event.session_id, intent_id=intent.id, client=event.client,
        tool=tool, paths=shown or None, decision="allow",
    )
    return Decision(True, intent_id=intent.id, context=_guidance(state, event, tool, session))


def held_intent(
    state: WorkspaceState, policy: Policy, session: Session | None, tool: str | None
) -> tuple[Intent | None, str | None]:
    """The intent the session may work under now, or the refusal to give."""
    if session is None or not session.holds_intent or not session.intent_id:
        held = sessions_store.held_intents(state.root, state.now(), policy.governance.session_ttl,
                                           besides=session.session_id if session else None)
        return None, must_cite_message(policy, held, tool)
    if session.state == sessions_store.PENDING_APPROVAL:
        from paw_tui.core.handshake.selection import awaiting_approval_message

        return None, awaiting_approval_message(session.intent_id)
    intent = policy.intent(session.intent_id)
    if intent is None:
        return None, (
            f"Intent {session.intent_id} no longer exists in .orchestration/active_intents.yaml. "
            "Start a new session and select another intent."
        )
    if intent.status in SELECTABLE:
        return intent, None
    from paw_tui.core.handshake.selection import status_refusal

    refusal = status_refusal(intent)
    if refusal:
        if intent.status == "BLOCKED":
            return None, refusal + " Mutating tools are denied until a human sets it back to IN_PROGRESS."
        return None, refusal + " Start a new session and select another intent."
    return intent, None


def _targets(event: GateEvent, kind: str) -> list[tuple[str, str | None, bool, bool]]:
    """``(path, cwd, subtree, directory)`` for every path the call would write: ``subtree``
    for removals and moves (they take a directory's contents along), ``directory`` for
    ``mkdir`` (``dir/**`` owns the directory it creates)."""
    if kind == tools.SHELL:
        if not event.command:
            return []
        from paw_tui.core.policy.shell_targets import write_targets

        found = write_targets(event.command, event.cwd or os.getcwd())
        if found is None:
            return []  # cannot be tokenised: allowed under an active intent (DESIGN §6)
        return [(t.path, t.cwd, t.how in ("rm", "mv", "rmdir"), t.how == "mkdir") for t in found]
    return [(path, event.cwd, False, False) for path in event.paths]


def session_context(state: WorkspaceState, event: GateEvent) -> str:
    """Every prompt layer (DESIGN §8), for SessionStart and every UserPromptSubmit."""
    from paw_tui.core.prompt.assembly import assemble_prompt, prompt_layers

    policy = state.policy
    if not policy.valid:
        return assemble_prompt(prompt_layers(state, None))
    ttl = policy.governance.session_ttl
    prompt = event.prompt[:4000] if event.kind == PROMPT and event.prompt is not None else None
    session = _live_session(state, event, ttl, prompt=prompt)  # one locked write, not two
    held = sessions_store.held_intents(state.root, state.now(), ttl, besides=event.session_id)
    return assemble_prompt(prompt_layers(state, session, held=held))


def _guidance(state: WorkspaceState, event: GateEvent, tool: str, session: Session | None) -> str | None:
    """Execution instructions for the tool, if it has any (DESIGN §8); never blocks."""
    governance = state.policy.governance
    if not governance.tool_instructions and not any(
        os.path.isdir(os.path.join(state.root, folder)) for folder in (os.path.join(".paw", "tools"), "tools")
    ):
        return None  # nowhere to find any: skip importing the template machinery
    try:
        from paw_tui.core.prompt.exec_instructions import execution_instructions, guidance_message

        question = session.latest_prompt if session is not None else None
        from paw_tui.core.prompt.names import lookup_names

        for name in lookup_names(tool):
            text = execution_instructions(state.root, name, question=question, args=event.tool_input,
                                          governance=state.policy.governance)
            if text:
                return guidance_message(tool, text)
    except Exception:  # noqa: BLE001 - guidance is optional information
        return None
    return None


def post_tool(state: WorkspaceState, event: GateEvent) -> None:
    from paw_tui.gate.mutations import record_mutations

    record_mutations(state, event)
