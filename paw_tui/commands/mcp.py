"""``paw-tui mcp [--hooked]``: the MCP stdio server (built in: :mod:`paw_tui.mcp.stdio`)."""

from __future__ import annotations

import argparse

from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "mcp",
        parents,
        description="Serve paw_get_context, select_active_intent, list_intents, check_scope, "
        "request_scope_expansion and get_handoff_context "
        "over MCP on stdin/stdout. Plain mode holds one session per server process; --hooked "
        "leaves the selection to the gate (use it with the hooks 'install claude-code' writes).",
    )
    parser.add_argument(
        "--hooked",
        action="store_true",
        help="the gate's hooks perform selections; only validate and return the context block",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    from paw_tui.mcp.stdio import serve

    if args.workspace:
        os.environ["PAW_WORKSPACE_PATH"] = os.path.abspath(args.workspace[0])
    serve(hooked=args.hooked)
    return 0
