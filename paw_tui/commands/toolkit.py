"""``paw-tui toolkit reference|instructions``: the toolkit reference and execution instructions."""

from __future__ import annotations

import argparse

from paw_tui.commands.output import write_err, write_out
from paw_tui.commands.registry import add_command

DESCRIPTION = """\
'reference' renders tool definitions (MCP, OpenAI function or Anthropic form, or an MCP
tools/list result, as JSON) as the AVAILABLE TOOLS section of a system prompt.
'instructions' prints the execution instructions of one tool as the gate injects them: the
sections whose Keywords match the question, with {question}, {tool_name} and {<arg>}
substituted. It prints nothing when the tool has no instructions file."""


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(subparsers, "toolkit", parents, description=DESCRIPTION)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    reference = actions.add_parser(
        "reference", help="the AVAILABLE TOOLS reference for tool definitions", parents=parents
    )
    reference.add_argument(
        "--tools",
        required=True,
        metavar="FILE",
        help="JSON: a list of tool definitions or an MCP tools/list result ('-' for stdin)",
    )
    instructions = actions.add_parser(
        "instructions", help="the execution instructions of one tool", parents=parents
    )
    instructions.add_argument("tool", metavar="TOOL", help="the tool's name")
    instructions.add_argument(
        "--question", metavar="Q", help="the user's question (selects sections by keyword)"
    )
    instructions.add_argument(
        "--args", metavar="JSON", help="the tool call's arguments, a JSON object"
    )
    instructions.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 2) on a template variable that has no value",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "reference":
        return _reference(args.tools)
    return _instructions(args)


def _reference(path: str) -> int:
    from paw_tui.core.prompt.toolkit_reference import read_tools_file, render_toolkit_reference

    data = None
    if path == "-":
        import sys

        data = sys.stdin.buffer.read()
    write_out(render_toolkit_reference(read_tools_file(path, data)) + "\n")
    return 0


def _call_args(raw: str | None) -> dict[str, object] | None:
    import json

    from paw_tui.core.errors import ValidationError

    if raw is None:
        return None
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"--args is not valid JSON: {exc.msg} at column {exc.colno}."
        ) from None
    if not isinstance(parsed, dict):
        raise ValidationError(
            f"--args must be a JSON object of argument names and values, not {type(parsed).__name__}."
        )
    return parsed


def _instructions(args: argparse.Namespace) -> int:
    import os

    from paw_tui.commands.common import workspace_root
    from paw_tui.core.policy.governance import Governance
    from paw_tui.core.prompt.exec_instructions import execution_instructions

    call_args = _call_args(args.args)
    root = workspace_root(args)
    governance = Governance()
    if os.path.isdir(os.path.join(root, ".orchestration")):
        from paw_tui.core.policy.compiled import load_policy

        policy = load_policy(root)
        if policy.valid:
            governance = policy.governance
        else:
            write_err(
                f"warning: {policy.unavailable_reason}; governance.yaml tool_instructions and "
                "tool_defaults are not used.\n"
            )
    text = execution_instructions(
        root,
        args.tool,
        question=args.question,
        args=call_args,
        governance=governance,
        strict=args.strict,
    )
    if text:
        write_out(text + "\n")
    return 0
