"""The ``paw-tui`` command line: argument parsing and dispatch.

Only the chosen command's module is imported (and so only its dependencies), because the
hook-facing commands have whole-process budgets of a few ``python -c pass`` (DESIGN §10).
Exit codes: 0 success or allow, 2 a refusal the caller must act on, 1 an unexpected failure.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

DESCRIPTION = """\
Govern what AI coding agents are told and what they may do in a repository.
Run 'paw-tui COMMAND --help' for the options of one command."""
EPILOG = "Exit codes: 0 success, 2 refused or invalid input, 1 unexpected failure."


def _common_options() -> argparse.ArgumentParser:
    import argparse

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--workspace",
        "-w",
        action="append",
        metavar="DIR",
        help="a workspace root; repeat for a multi-root workspace, searched in order "
        "(default: PAW_WORKSPACE_PATH, else the nearest directory holding .orchestration/, "
        ".paw/ or .git)",
    )
    common.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected failure"
    )
    return common


def _chosen_command(argv: Sequence[str]) -> str | None:
    from paw_tui.commands.registry import COMMANDS

    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in COMMANDS:
            return arg
        if arg in ("--workspace", "-w"):
            skip = True  # its value comes next
        elif not arg.startswith("-"):
            return None
    return None


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    """The parser, with the full sub-parser of ``chosen`` and one-line stubs for the rest."""
    import argparse
    import importlib

    from paw_tui import __version__
    from paw_tui.commands.registry import COMMANDS

    parser = argparse.ArgumentParser(
        prog="paw-tui",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paw-tui {__version__}")
    parser.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    # Accepted before the command too (paw-tui -w DIR context ...); merged in main().
    parser.add_argument(
        "--workspace",
        "-w",
        action="append",
        dest="leading_workspace",
        metavar="DIR",
        help=argparse.SUPPRESS,
    )
    # An explicit prog keeps argparse from building a HelpFormatter (and importing shutil).
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="paw-tui")
    common = _common_options()
    for name, (module_name, help_text) in COMMANDS.items():
        if name == chosen:
            module = importlib.import_module(module_name)
            module.add_parser(subparsers, [common])
        else:
            subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["gate"] and not {"-h", "--help"} & set(args_list):
        # The hook's hot path: no argparse, nothing but the gate (DESIGN §10).
        from paw_tui.gate.main import main as gate_main

        return gate_main(args_list[1:])
    if args_list[:1] == ["context"] or args_list[:2] == ["trace", "tail"]:
        # Fast paths for the commands people and agents run most: no argparse start-up.
        if args_list[0] == "context":
            from paw_tui.commands.context import fast_args
        else:
            from paw_tui.commands.trace import fast_tail_args as fast_args
        fast = fast_args(args_list[1:] if args_list[0] == "context" else args_list[2:])
        if fast is not None:
            return _run(fast, bool(fast.debug))
    chosen = _chosen_command(args_list)
    if chosen is None and not any(a in ("-h", "--help", "--version") for a in args_list):
        # Plain 'paw-tui' (with or without --workspace) opens the TUI.
        if all(
            a.startswith("-") or (i > 0 and args_list[i - 1] in ("-w", "--workspace"))
            for i, a in enumerate(args_list)
        ):
            args_list = ["ui", *args_list]
            chosen = "ui"
    parser = build_parser(chosen)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    leading = getattr(args, "leading_workspace", None)
    if leading:
        args.workspace = list(leading) + list(getattr(args, "workspace", None) or [])
    debug = bool(getattr(args, "debug", False)) or "--debug" in args_list
    return _run(args, debug)


def _run(args: argparse.Namespace, debug: bool) -> int:
    """Run the chosen command, turning failures into one line and an exit code."""
    from paw_tui.core.errors import PawError

    try:
        return int(args.run(args))
    except PawError as exc:
        _report(str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        _report("Interrupted.")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): not our failure, and nothing left to say.
        _silence_stdout()
        return 0
    except Exception as exc:
        if debug:
            raise
        _report(
            f"paw-tui: unexpected failure: {type(exc).__name__}: {exc} "
            "(run again with --debug for the traceback)"
        )
        return 1


def _report(message: str) -> None:
    from paw_tui.commands.output import write_err

    write_err(message.rstrip("\n") + "\n")


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
