"""``paw-tui gate``: the hook entry point. The CLI runs it without argparse (see cli.py);
this module only describes it for ``--help``."""

from __future__ import annotations

import argparse

from paw_tui.commands.registry import add_command
from paw_tui.gate.clients import ADAPTERS

DESCRIPTION = """\
Hook mode. Reads one event from an agent client on stdin and answers in that client's
protocol: nothing (or injected context) to allow, a deny with exit code 2 to block.

Before a session has selected an intent, every tool that is not read-only is denied; after
it, writes outside the intent's owned scope and into protected paths are denied. Every
decision on a mutating or handshake tool is appended to .orchestration/agent_trace.jsonl.
It fails closed: a payload it cannot read, broken state or an internal error denies every
tool not known to be read-only. SessionStart and UserPromptSubmit inject the governance
section and the active intent's context every turn.

The workspace root is --workspace, else PAW_WORKSPACE_PATH, else CLAUDE_PROJECT_DIR, else
the nearest workspace above the event's cwd."""


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "gate",
        parents,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--client",
        choices=["auto", *ADAPTERS],
        default="auto",
        help="the payload's protocol (default: recognised from the payload)",
    )
    parser.add_argument(
        "--event",
        metavar="E",
        help="the event, for clients whose payload does not name it (pre_tool, post_tool, "
        "session_start, prompt, session_end, or Claude Code's names)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.gate.main import main

    argv = ["--client", args.client]
    if args.event:
        argv += ["--event", args.event]
    for workspace in args.workspace or []:
        argv += ["--workspace", workspace]
    return main(argv)
