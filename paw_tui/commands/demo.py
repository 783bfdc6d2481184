"""``paw-tui demo``: the TUI on a fresh copy of the bundled demo workspace (DESIGN §11).

Every workspace variable is ignored (``--workspace``, ``PAW_WORKSPACE_PATH``,
``CLAUDE_PROJECT_DIR``): the demo is always the bundled one, copied into a new temporary
directory with its own user home and state directory, so it never reads or writes the
user's own files. The directory is removed when the TUI exits unless ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil

from paw_tui.commands.output import write_err, write_out
from paw_tui.commands.registry import add_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from paw_tui.core.workspace.demo import DemoWorkspace

DESCRIPTION = """\
Copy the bundled demo workspace (a fictional billing service after one working day: intents
in every state, instructions in both layers, two work items, an audit ledger of a few hundred
records and one selection awaiting approval) into a new temporary directory and open the TUI
on it. --workspace, PAW_WORKSPACE_PATH and CLAUDE_PROJECT_DIR are ignored. The directory is
removed when the TUI exits, unless --keep is given."""
TUI_MISSING = "paw-tui demo: the TUI is not available in this installation ({reason})."


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(subparsers, "demo", parents, description=DESCRIPTION)
    parser.add_argument(
        "--keep", action="store_true", help="keep the copy after the TUI exits and print its path"
    )
    parser.add_argument(
        "--print-path",
        action="store_true",
        help="copy the demo, print the workspace root and exit without opening the TUI "
        "(implies --keep; for scripts)",
    )
    for action in parser._actions:  # the shared --workspace option means nothing here
        if action.dest == "workspace":
            action.help = "ignored: the demo always opens a fresh copy of the bundled workspace"
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.print_path:
        demo = _copy_and_enter()
        write_out(demo.root + "\n")
        _print_environment_hint(demo)
        return 0
    # Find the TUI before copying anything, so a missing TUI leaves nothing behind.
    try:
        from paw_tui.tui.app import run_app
    except ImportError as exc:
        write_err(TUI_MISSING.format(reason=exc) + "\n")
        return 1
    demo = _copy_and_enter()
    try:
        if args.keep:
            result = run_app(demo.root)
        else:
            with _removed_on_termination(demo.base):
                result = run_app(demo.root)
    finally:
        if args.keep:
            write_out(f"The demo workspace was kept at {demo.root}\n")
            _print_environment_hint(demo)
        else:
            shutil.rmtree(demo.base, ignore_errors=True)
    return int(result or 0)


def _copy_and_enter() -> DemoWorkspace:
    """Copy the demo to a new temporary directory and point this process (and anything it
    starts) at its user layer and state, with no variable naming another workspace."""
    demo = _copy_to_temporary_directory()
    demo.apply_environ()
    return demo


@contextlib.contextmanager
def _removed_on_termination(path: str) -> Iterator[None]:
    """Remove ``path`` if SIGTERM or SIGHUP (a closed terminal) ends the process: they would
    end it without running ``finally`` blocks. The signal is then delivered as before."""
    import signal

    def remove_and_die(signum: int, frame: object) -> None:
        shutil.rmtree(path, ignore_errors=True)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue  # SIGHUP does not exist on Windows
        try:
            previous[signum] = signal.signal(signum, remove_and_die)
        except ValueError:  # not the main thread: leave the handlers alone
            break
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _copy_to_temporary_directory() -> DemoWorkspace:
    import tempfile

    from paw_tui.core.workspace.demo import copy_demo_workspace

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
