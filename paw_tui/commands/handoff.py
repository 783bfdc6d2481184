"""``paw-tui handoff build|parse``: Context Protocol v1 blocks (DESIGN §9)."""

from __future__ import annotations

import argparse

from paw_tui.commands.output import write_err, write_json, write_out
from paw_tui.commands.registry import add_command

DESCRIPTION = """\
'build' prints the <context> block a primary agent puts at the start of a sub-agent's prompt:
the workspace root, the stack and commands of docs/project.json, a summary of
docs/CONVENTIONS.md, and the current work (story, PRD, git branch). 'parse' reads the block
at the start of a prompt and says whether to use it (ok), read the files instead (fallback),
or stop (invalid, exit 2)."""


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(subparsers, "handoff", parents, description=DESCRIPTION)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build", help="print the <context> block for this workspace", parents=parents
    )
    build.add_argument(
        "--story", metavar="S", help="currentWork.story (default: the session's active intent)"
    )
    build.add_argument(
        "--prd", metavar="P", help="currentWork.prd (default: the work item's Work Title)"
    )
    build.add_argument(
        "--summary",
        metavar="TEXT",
        help="conventions.summary (default: the first sentences of docs/CONVENTIONS.md)",
    )
    build.add_argument(
        "--session", metavar="S", help="the session whose active intent is the story"
    )
    build.add_argument(
        "--work-id", dest="work_id", metavar="W", help="the work item whose Work Title is the PRD"
    )
    parse = actions.add_parser(
        "parse", help="read the <context> block at the start of a prompt", parents=parents
    )
    parse.add_argument("file", metavar="FILE", help="the prompt ('-' for stdin)")
    parse.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "build":
        return _build(args)
    return _parse(args)


def _build(args: argparse.Namespace) -> int:
    from paw_tui.commands.common import workspace_root
    from paw_tui.core.handoff.protocol import build_handoff, render_handoff

    warnings: list[str] = []
    block = build_handoff(
        workspace_root(args),
        story=args.story,
        prd=args.prd,
        summary=args.summary,
        session_id=args.session,
        work_id=args.work_id,
        warnings=warnings,
    )
    for warning in warnings:
        write_err(warning + "\n")
    write_out(render_handoff(block) + "\n")
    return 0


def _read_prompt(path: str) -> str:
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.support.textfile import MAX_FILE_BYTES, describe_os_error, read_bytes_limited

    if path == "-":
        import sys

        data = sys.stdin.buffer.read()
    else:
        try:
            data = read_bytes_limited(path, 16 * MAX_FILE_BYTES)
        except (FileNotFoundError, NotADirectoryError):
            raise ValidationError(f"Prompt file '{path}' does not exist.") from None
        except OSError as exc:
            raise ValidationError(
                f"Cannot read prompt file '{path}': {describe_os_error(exc, path)}."
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        shown = "stdin" if path == "-" else path
        raise ValidationError(f"{shown}: not valid UTF-8 (byte offset {exc.start}).") from None


def _plan_root(args: argparse.Namespace) -> str:
    """The workspace root for the fallback plan; the current directory outside a workspace."""
    import os

    from paw_tui.commands.common import workspace_root
    from paw_tui.core.errors import WorkspaceError

    try:
        return workspace_root(args)
    except WorkspaceError:
        return os.path.abspath(os.getcwd())


def _parse(args: argparse.Namespace) -> int:
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.handoff.protocol import INVALID, format_result, parse_handoff

    result = parse_handoff(_read_prompt(args.file), _plan_root(args))
    if args.json:
        write_json(result.to_dict())
        return result.exit_code
    if result.status == INVALID:
        raise ValidationError(format_result(result))
    write_out(format_result(result) + "\n")
    return 0
