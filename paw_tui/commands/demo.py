"""``paw-tui demo``: the TUI on a fresh copy of the bundled demo workspace (DESIGN §11).

Every workspace variable is ignored (``--workspace``, ``PAW_WORKSPACE_PATH``,
``CLAUDE_PROJECT_DIR``): the demo is always the bundled one, copied into a new temporary
directory with its own user home and state directory, so it never reads or writes the
user's own files. The directory is removed when the TUI exits unless ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import os
import shutil

from paw_tui.commands.output import write_err, write_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.demo import DemoWorkspace

HELP = "open the TUI on a copy of the bundled demo workspace"
DESCRIPTION = """\
Copy the bundled demo workspace (a fictional billing service after one working day: intents
in every state, instructions in both layers, two work items, an audit ledger of a few hundred
records and one selection awaiting approval) into a new temporary directory and open the TUI
on it. --workspace, PAW_WORKSPACE_PATH and CLAUDE_PROJECT_DIR are ignored. The directory is
removed when the TUI exits, unless --keep is given."""
TUI_MISSING = "paw-tui demo: the TUI is not available in this installation ({reason})."


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("demo", help=HELP, description=DESCRIPTION, parents=parents)
    parser.add_argument(
        "--keep", action="store_true", help="keep the copy after the TUI exits and print its path"
    )
    parser.add_argument(
        "--print-path",
        action="store_true",
        help="copy the demo, print the workspace root and exit without opening the TUI "
        "(implies --keep; for scripts)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    run_app = None
    if not args.print_path:
        # Find out before copying anything, so a missing TUI leaves nothing behind.
        try:
            from paw_tui.tui.app import run_app
        except ImportError as exc:
            write_err(TUI_MISSING.format(reason=exc) + "\n")
            return 1
    demo = _copy_to_temporary_directory()
    # For this process and anything it starts: the demo's user layer and state, and no
    # variable pointing at another workspace.
    demo.apply_environ()
    if run_app is None:
        write_out(demo.root + "\n")
        _print_environment_hint(demo)
        return 0
    try:
        result = run_app(demo.root)
    finally:
        if args.keep:
            write_out(f"The demo workspace was kept at {demo.root}\n")
            _print_environment_hint(demo)
        else:
            shutil.rmtree(demo.base, ignore_errors=True)
    return int(result or 0)


def _copy_to_temporary_directory() -> DemoWorkspace:
    import tempfile

    from paw_tui.demo import copy_demo_workspace

    base = tempfile.mkdtemp(prefix="paw-tui-demo-")
    try:
        return copy_demo_workspace(base)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise


def _print_environment_hint(demo: DemoWorkspace) -> None:
    # stderr, so that stdout stays the one path a script reads.
    write_err(
        "Use it with: "
        f"PAW_USER_HOME={_quote(demo.user_home)} PAW_STATE_DIR={_quote(demo.state_dir)} "
        f"paw-tui --workspace {_quote(demo.root)} ...\n"
    )


def _quote(path: str) -> str:
    import shlex

    return path if os.name == "nt" else shlex.quote(path)
