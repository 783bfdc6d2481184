"""``paw-tui context WORK_ID --agent NAME``: what ``paw_get_context`` answers."""

from __future__ import annotations

from paw_tui.commands.output import write_json, write_out
from paw_tui.core.context.format import format_context
from paw_tui.core.context.tool import get_context
from paw_tui.core.workspace.discovery import discover_roots
from paw_tui.core.workspace.platform import PlatformProbe, home_directory, user_instructions_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Resolve the custom instructions for the agent NAME (workspace layer over user layer over the
agent's defaults) and the work item's WorkflowContext.md, exactly as the paw_get_context
tool answers an agent. The first workspace root holding .paw/work/WORK_ID/ is used."""


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    from paw_tui.commands.registry import add_command

    parser = add_command(subparsers, "context", parents, description=DESCRIPTION)
    parser.add_argument("work_id", metavar="WORK_ID", help="the work item (.paw/work/WORK_ID/)")
    parser.add_argument(
        "--agent",
        required=True,
        metavar="NAME",
        help='the agent\'s name, e.g. "PAW-02B Impl Planner"',
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the three file statuses and parsed fields as JSON",
    )
    parser.set_defaults(run=run)


def fast_args(argv: list[str]) -> argparse.Namespace | None:
    """The arguments of the common forms, without building the argparse parser (its
    formatter, gettext and shutil cost ~10 ms of this command's start-up budget).

    None for anything else (help, an unknown or repeated option, a missing value, a value
    that looks like an option): argparse then parses and reports exactly as usual.
    """
    work_id: str | None = None
    agent: str | None = None
    as_json = debug = False
    workspaces: list[str] = []
    items = list(argv)
    while items:
        arg = items.pop(0)
        name, eq, inline = arg.partition("=")
        if arg == "--json":
            as_json = True
        elif arg == "--debug":
            debug = True
        elif name in ("--agent", "--workspace", "-w") and not (eq and name == "-w"):
            if eq:
                value = inline
            elif items and not items[0].startswith("-"):
                value = items.pop(0)
            else:
                return None
            if name == "--agent":
                if agent is not None:
                    return None
                agent = value
            else:
                workspaces.append(value)
        elif arg.startswith("-") or work_id is not None:
            return None
        else:
            work_id = arg
    if work_id is None or agent is None:
        return None
    return _FastArgs(work_id, agent, as_json, debug, workspaces or None)  # type: ignore[return-value]


class _FastArgs:
    """The attributes argparse's namespace would hold, without importing ``types`` for a
    SimpleNamespace (every module counts against this command's start-up budget)."""

    __slots__ = ("work_id", "agent", "json", "debug", "workspace")
    command = "context"

    def __init__(
        self, work_id: str, agent: str, as_json: bool, debug: bool, workspace: list[str] | None
    ) -> None:
        self.work_id = work_id
        self.agent = agent
        self.json = as_json
        self.debug = debug
        self.workspace = workspace

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        return run(args)


def run(args: argparse.Namespace) -> int:
    probe = PlatformProbe()
    roots = discover_roots(args.workspace or (), home=home_directory(probe))
    result = get_context(
        args.work_id, args.agent, roots=roots, user_instructions_dir=user_instructions_dir(probe)
    )
    if args.json:
        write_json(result.to_dict())
    else:
        write_out(format_context(result) + "\n")
    return 0
