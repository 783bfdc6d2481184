"""``paw-tui install claude-code [--dry-run]``: wire the gate and the MCP server into a client."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import workspace_root
from paw_tui.commands.output import write_out
from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "install",
        parents,
        description="Merge paw-tui's hooks into .claude/settings.json (PreToolUse for every tool "
        "but the read-only ones, PostToolUse for file and shell tools, SessionStart, "
        "UserPromptSubmit, SessionEnd) and the 'paw' server into .mcp.json. Other entries are "
        "never dropped; running it again changes nothing.",
    )
    parser.add_argument("client", choices=["claude-code"], help="the agent client")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the resulting files, write nothing"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.clients.setup import apply, plan_claude_code

    root = workspace_root(args)
    planned = plan_claude_code(root)
    if args.dry_run:
        for item in planned:
            state = "would change" if item.changed else "unchanged"
            write_out(f"# {item.path} ({state})\n{item.text()}\n")
        return 0
    written = apply(planned)
    for item in planned:
        write_out(f"{'updated' if item.path in written else 'unchanged'}  {item.path}\n")
    write_out(
        "Restart Claude Code in this directory, then run 'paw-tui doctor' to check the set-up. "
        "Review /hooks in Claude Code: the PreToolUse hook must be listed.\n"
    )
    return 0
