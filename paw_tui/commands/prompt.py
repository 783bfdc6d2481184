"""``paw-tui prompt --session S``: the governance section an agent gets (DESIGN §8)."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import state_for
from paw_tui.commands.output import write_out


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "prompt", help="print the governance prompt section for a session", parents=parents,
        description="The governance section the gate injects on SessionStart and every "
        "UserPromptSubmit: the mandate and the selectable intents before a selection, the active "
        "intent's guidance, scope and context block after it. With --agent, the agent's custom "
        "instruction layers follow (workspace over user).",
    )
    parser.add_argument("--session", required=True, metavar="S", help="the session id")
    parser.add_argument("--agent", metavar="NAME", help="append this agent's custom instructions")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.governance_prompt import render_governance_section
    from paw_tui.core.sessions import held_intents, load_session

    state = state_for(args)
    policy = state.policy
    parts: list[str] = []
    if not policy.valid:
        parts.append(render_governance_section(policy, None))
    else:
        session = load_session(state.root, args.session)
        ttl = policy.governance.session_ttl
        if session is not None and session.holds_intent and not session.is_live(state.now(), ttl):
            session = None
        held = held_intents(state.root, state.now(), ttl, besides=args.session)
        parts.append(render_governance_section(policy, session, held_elsewhere=set(held)))
        if session is not None and session.state == "active" and session.intent_id:
            intent = policy.intent(session.intent_id)
            if intent is not None:
                from paw_tui.core.intent_view import intent_context_block

                parts.append(intent_context_block(state, intent))
    if args.agent:
        parts.append(_agent_layers(state.root, args.agent))
    write_out("\n\n".join(part for part in parts if part) + "\n")
    return 0


def _agent_layers(root: str, agent_name: str) -> str:
    from paw_tui.core.context_format import format_context
    from paw_tui.core.context_tool import ContextResult, WorkflowStatus, validate_request
    from paw_tui.core.instructions import load_instructions, workspace_instructions_dir
    from paw_tui.core.platform import PlatformProbe, user_instructions_dir
    from paw_tui.core.textfile import FileStatus

    _, agent = validate_request("x", agent_name)
    result = ContextResult(
        "", agent, root,
        load_instructions(workspace_instructions_dir(root), agent),
        load_instructions(user_instructions_dir(PlatformProbe()), agent),
        WorkflowStatus(FileStatus("")),
    )
    text = format_context(result)
    return "" if text.startswith("<context") else text
