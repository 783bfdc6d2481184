"""``paw-tui mcp [--hooked]``: the MCP stdio server (needs the ``[mcp]`` extra)."""

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
        description="Serve paw_get_context, select_active_intent, list_intents and check_scope "
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

    from paw_tui.core.errors import PawError

    try:
        from paw_tui.mcp_server import serve
    except ImportError as exc:
        raise PawError(
            f"The MCP server needs the mcp package ({exc}); install it with: pip install 'paw-tui[mcp]'"
        ) from exc
    if args.workspace:
        os.environ["PAW_WORKSPACE_PATH"] = os.path.abspath(args.workspace[0])
    serve(hooked=args.hooked)
    return 0
