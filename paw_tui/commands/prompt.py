"""``paw-tui prompt --session S``: the context the gate injects for a session (DESIGN §8),
and the supervisor instruction (``--supervisor TEXT`` / ``--clear-supervisor``)."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import add_by_option, require_person, state_for
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.ledger.acts import person_name


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "prompt",
        parents,
        description="The context the gate injects on SessionStart and every UserPromptSubmit, in "
        "order: the governance section (the mandate and the selectable intents before a "
        "selection, the active intent's guidance after it), the intent context block, the tool "
        "defaults and the supervisor instruction. --supervisor TEXT sets the supervisor "
        "instruction for the session (or, without --session, for every session); "
        "--clear-supervisor removes it. With --agent, that agent's instruction layers follow.",
    )
    parser.add_argument("--session", metavar="S", help="the session id")
    parser.add_argument("--agent", metavar="NAME", help="append this agent's custom instructions")
    supervisor = parser.add_mutually_exclusive_group()
    supervisor.add_argument("--supervisor", metavar="TEXT", help="set the supervisor instruction")
    supervisor.add_argument(
        "--clear-supervisor", action="store_true", help="remove the supervisor instruction"
    )
    parser.add_argument(
        "--json", action="store_true", help="each layer with its source and size, as JSON"
    )
    add_by_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.errors import ValidationError

    if args.supervisor is not None or args.clear_supervisor:
        require_person("setting the supervisor instruction")
    state = state_for(args)
    if args.supervisor is not None or args.clear_supervisor:
        from paw_tui.core.prompt.supervisor import clear_supervisor, set_supervisor

        scope = f"session {args.session}" if args.session else "every session"
        who = person_name(args.by)
        if args.clear_supervisor:
            removed = clear_supervisor(state.root, args.session, by=who, state=state)
            write_out(
                f"{'Cleared' if removed else 'There was no'} supervisor instruction for {scope}.\n"
            )
        else:
            set_supervisor(state.root, args.supervisor, args.session, by=who, state=state)
            write_out(f"Supervisor instruction set for {scope}.\n")
        return 0
    if not args.session:
        raise ValidationError(
            "prompt needs --session S (or --supervisor/--clear-supervisor to manage the instruction)."
        )
    from paw_tui.core.handshake.sessions import held_intents, load_session
    from paw_tui.core.prompt.assembly import assemble_prompt, prompt_layers

    session = load_session(state.root, args.session)
    held = (
        held_intents(
            state.root, state.now(), state.policy.governance.session_ttl, besides=args.session
        )
        if state.policy.valid
        else {}
    )
    if session is None:
        from paw_tui.core.handshake.sessions import Session

        session = Session(args.session)
    layers = prompt_layers(state, session, held=held)
    if args.agent:
        from paw_tui.core.prompt.assembly import PromptLayer

        text = _agent_layers(state.root, args.agent)
        if text:
            layers.append(
                PromptLayer(
                    "agent instructions",
                    f".paw/instructions + ~/.paw/instructions ({args.agent})",
                    text,
                )
            )
    if args.json:
        write_json([layer.to_dict() for layer in layers])
    else:
        write_out(assemble_prompt(layers) + "\n")
    return 0


def _agent_layers(root: str, agent_name: str) -> str:
    from paw_tui.core.context.format import format_context
    from paw_tui.core.context.tool import instruction_layers
    from paw_tui.core.workspace.platform import PlatformProbe, user_instructions_dir

    result = instruction_layers(
        agent_name, root=root, user_instructions_dir=user_instructions_dir(PlatformProbe())
    )
    text = format_context(result)
    return "" if text.startswith("<context") else text
