"""What several commands share: finding the one workspace root, and plain-text tables."""

from __future__ import annotations

import os

from paw_tui.core.errors import WorkspaceError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def workspace_root(args: argparse.Namespace) -> str:
    """The first workspace root by DESIGN §1's rules; WorkspaceError when there is none."""
    from paw_tui.core.workspace.discovery import discover_roots
    from paw_tui.core.workspace.platform import PlatformProbe, home_directory

    roots = discover_roots(
        getattr(args, "workspace", None) or (), home=home_directory(PlatformProbe())
    )
    if not roots:
        raise WorkspaceError(
            f"No paw-tui workspace found from {os.getcwd()}: run 'paw-tui init' there or pass --workspace DIR."
        )
    root = roots[0]
    if not os.path.isdir(root):
        raise WorkspaceError(f"Workspace '{root}' is not a directory.")
    return root


def state_for(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from paw_tui.core.workspace.state import WorkspaceState

    return WorkspaceState(workspace_root(args))


def require_valid_policy(state) -> None:  # type: ignore[no-untyped-def]
    """Stop with every problem listed (stderr) when the orchestration files are invalid."""
    from paw_tui.core.errors import ValidationError

    policy = state.policy
    if not policy.valid:
        raise ValidationError(unavailable_message(policy))


def unavailable_message(policy) -> str:  # type: ignore[no-untyped-def]
    """``Orchestration state unavailable: <first problem>``, then the others, each once."""
    others = policy.problems[1:]
    if not others:
        return str(policy.unavailable_reason)
    details = "\n".join(f"  {problem}" for problem in others)
    return f"{policy.unavailable_reason}\nAlso:\n{details}"


def table(rows: list[list[str]], headers: list[str]) -> str:
    """Aligned columns; every cell shown escaped (agents choose session ids, paths, reasons)."""
    from paw_tui.core.support.printable import printable

    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=False)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def format_time(seconds: float | None) -> str:
    if not seconds:
        return "-"
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def require_person(act: str) -> None:
    """Refuse (exit 2) ``act`` when this command runs inside an agent's tool process."""
    from paw_tui.core.clients.markers import person_only_refusal
    from paw_tui.core.errors import ValidationError

    refusal = person_only_refusal(act, os.environ)
    if refusal is not None:
        raise ValidationError(refusal)


BY_HELP = "who did it, for the ledger's record (default: $USER)"


def add_by_option(parser: argparse.ArgumentParser) -> None:
    """``--by NAME``: who did a person's act, as its ledger record says
    (:func:`paw_tui.core.ledger.acts.person_name`)."""
    parser.add_argument("--by", default=None, metavar="NAME", help=BY_HELP)
