"""``paw-tui init``: create the ``.paw/`` and ``.orchestration/`` skeletons."""

from __future__ import annotations

import argparse
import os

from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.errors import ValidationError
from paw_tui.core.workspace.discovery import discover_roots
from paw_tui.core.workspace.platform import PlatformProbe, home_directory

DESCRIPTION = """\
Create .paw/instructions/, .paw/work/, .orchestration/active_intents.yaml (with an example
intent), .orchestration/governance.yaml (every option, commented) and
.orchestration/.gitignore (machine-owned state) in the workspace root: --workspace DIR, else
PAW_WORKSPACE_PATH, else the nearest enclosing workspace or git repository, else the current
directory. Existing files are never touched, except that the ignore file gets the entries it
lacks (your lines kept)."""


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(subparsers, "init", parents, description=DESCRIPTION)
    parser.add_argument("--json", action="store_true", help="report what was done as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.workspace.scaffold import create_skeleton

    explicit = args.workspace or []
    if len(explicit) > 1:
        raise ValidationError("init takes one --workspace, not several.")
    roots = discover_roots(explicit, home=home_directory(PlatformProbe()))
    root = roots[0] if roots else os.getcwd()
    if os.path.lexists(root) and not os.path.isdir(root):
        raise ValidationError(f"Workspace '{root}' is not a directory.")
    os.makedirs(root, exist_ok=True)
    steps = create_skeleton(root)
    if args.json:
        write_json({"root": root, "entries": [step.to_dict() for step in steps]})
        return 0
    lines = [f"Workspace: {root}"]
    for step in steps:
        shown = step.path + ("/" if step.kind == "directory" else "")
        lines.append(f"  {step.outcome:<7}  {shown}")
    made = sum(step.created or step.updated for step in steps)
    lines.append(
        f"Created {made} of {len(steps)} entries; existing files were left as they were."
        if made
        else "Nothing to do: every entry already exists."
    )
    write_out("\n".join(lines) + "\n")
    return 0
