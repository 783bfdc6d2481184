"""``paw-tui`` / ``paw-tui ui``: the TUI on the workspace (DESIGN §11)."""

from __future__ import annotations

import argparse

from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "ui",
        parents,
        description="Instruction precedence, intents, the highlighted intent's scope and the live "
        "trace on one screen; approve or reject intent selections as they arrive. The workspace is "
        "--workspace, else PAW_WORKSPACE_PATH, else the nearest workspace above the current "
        "directory (CLAUDE_PROJECT_DIR is not used here).",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.commands.common import workspace_root

    root = workspace_root(args)
    from paw_tui.tui.app import run_app

    return run_app(root)
