"""Every ``paw-tui`` command: its module and its one-line help, defined once.

``paw-tui --help`` lists them without importing any command module (start-up time matters:
DESIGN §10); each module registers its own sub-parser with :func:`add_command`, which takes
the help from here.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

# name -> (module, one-line help). Order is the order shown by --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "ui": ("paw_tui.commands.ui", "open the TUI (also what plain 'paw-tui' does)"),
    "demo": ("paw_tui.commands.demo", "open the TUI on a copy of the bundled demo workspace"),
    "context": (
        "paw_tui.commands.context",
        "print the paw_get_context response for a work item and an agent",
    ),
    "init": (
        "paw_tui.commands.init",
        "create the .paw/ and .orchestration/ skeletons (never overwrites)",
    ),
    "intents": ("paw_tui.commands.intents", "list, show, select and set the status of intents"),
    "check": (
        "paw_tui.commands.check",
        "would a write to PATH be allowed now, and which pattern decided",
    ),
    "sessions": ("paw_tui.commands.sessions", "list agent sessions or release one's intent lock"),
    "approvals": (
        "paw_tui.commands.approvals",
        "approve or reject intent selections awaiting a human",
    ),
    "scope": (
        "paw_tui.commands.scope",
        "list agents' requests for more scope; grant or deny one",
    ),
    "prompt": (
        "paw_tui.commands.prompt",
        "print the governance prompt for a session; set the supervisor instruction",
    ),
    "toolkit": (
        "paw_tui.commands.toolkit",
        "print the toolkit reference or a tool's execution instructions",
    ),
    "handoff": ("paw_tui.commands.handoff", "build or parse Context Protocol v1 blocks"),
    "trace": ("paw_tui.commands.trace", "tail, show, verify and export the audit ledger"),
    "gate": (
        "paw_tui.commands.gate",
        "hook mode: read one agent-client event on stdin, answer allow or deny",
    ),
    "claims": (
        "paw_tui.commands.claims",
        "list intent claims on the git remote; release a stale one",
    ),
    "mcp": ("paw_tui.commands.mcp", "run the MCP stdio server"),
    "install": (
        "paw_tui.commands.install",
        "set up the gate's hooks and the MCP server for a client",
    ),
    "doctor": (
        "paw_tui.commands.doctor",
        "self-test of the installation, hooks and orchestration files",
    ),
}


def add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    parents: list[argparse.ArgumentParser],
    **options: Any,
) -> argparse.ArgumentParser:
    """The sub-parser of command ``name`` with its registered help."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=COMMANDS[name][1], parents=parents, **options
    )
    return parser
