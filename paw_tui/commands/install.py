"""``paw-tui install CLIENT [--dry-run]``: wire the gate and the MCP server into a client."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import workspace_root
from paw_tui.commands.output import write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.clients.registry import CLIENTS


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "install",
        parents,
        description="Merge paw-tui's gate hooks and its MCP server into a client's configuration "
        "in this repository (the files a team commits hold no machine-specific path; this "
        "machine's settings go where the client keeps local ones). Other entries are never "
        "dropped; running it again changes nothing. It ends with what you still have to do "
        "in the client (trust prompts).",
    )
    parser.add_argument("client", choices=list(CLIENTS), help="the agent client")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the resulting files, write nothing"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.clients.plan import apply

    root = workspace_root(args)
    info = CLIENTS[args.client]
    plan = info.plan(root)
    if args.dry_run:
        for item in plan.files:
            state = (
                ("would change" if item.exists else "would create") if item.changed else "unchanged"
            )
            write_out(f"# {item.path} ({state})\n{item.text()}\n")
    else:
        for path, state in apply(plan):
            write_out(f"{state:<9}  {path}\n")
        _prepare_code_cache()
    for note in plan.notes:
        write_out(f"note: {note}\n")
    if plan.steps:
        write_out(f"\nWhat to do in {info.title}:\n")
        for number, step in enumerate(plan.steps, 1):
            write_out(f"  {number}. {step}\n")
    return 0


def _prepare_code_cache() -> None:
    """Compile the gate's code cache beside the hook script now, so the first tool call does
    not (it would rebuild it itself; this only saves that call its quarter of a second)."""
    import os

    from paw_tui.core.clients.commands import hook_script_path
    from paw_tui.core.support import code_cache

    path = os.path.join(os.path.dirname(hook_script_path()), code_cache.CACHE_NAME)
    try:
        if code_cache.read(path) is None:
            code_cache.build(path)
    except (OSError, SyntaxError, ValueError):
        pass  # the hook builds it, or runs without it
