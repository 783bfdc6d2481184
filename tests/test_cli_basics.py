"""The command line as a whole: version, help for every command, exit codes, python -m."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

import paw_tui
from paw_tui.cli import main
from paw_tui.commands.registry import COMMANDS


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"paw-tui {paw_tui.__version__}"


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: paw-tui {command}")
    assert "--workspace" in out


def test_bare_command_opens_the_tui(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import paw_tui.commands.ui as ui_command

    opened: list[object] = []

    def run(args: argparse.Namespace) -> int:
        opened.append(args.workspace)
        return 0

    monkeypatch.setattr(ui_command, "run", run)
    assert main([]) == 0
    assert main(["--workspace", str(tmp_path)]) == 0
    assert opened == [None, [str(tmp_path)]]


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["frobnicate"])
    assert stop.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_missing_required_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["context", "auth-system"])
    assert stop.value.code == 2
    assert "--agent" in capsys.readouterr().err


def test_unexpected_failure_is_one_line_without_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import paw_tui.commands.init as init_command

    def explode(args: argparse.Namespace) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(init_command, "run", explode)
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        "paw-tui: unexpected failure: RuntimeError: disk on fire "
        "(run again with --debug for the traceback)"
    )
    assert "Traceback" not in err


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import paw_tui.commands.init as init_command

    def explode(args: argparse.Namespace) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(init_command, "run", explode)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="disk on fire"):
        main(["init", "--debug"])


def test_python_dash_m_runs_the_same_cli(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "paw_tui", "--version"], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"paw-tui {paw_tui.__version__}"


def test_console_script_is_installed(tmp_path: Path) -> None:
    script = os.path.join(os.path.dirname(sys.executable), "paw-tui")
    out = subprocess.run([script, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"paw-tui {paw_tui.__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ["auth-system", "--agent", "Planner"],
        ["--agent", "Planner", "auth-system", "--json"],
        [
            "auth-system",
            "--agent=PAW-02B Impl Planner",
            "-w",
            "a",
            "--workspace",
            "b",
            "--workspace=c",
        ],
        ["auth-system", "--agent", "", "--debug"],
    ],
)
def test_context_fast_path_parses_like_argparse(argv: list[str]) -> None:
    from paw_tui.cli import build_parser
    from paw_tui.commands.context import fast_args

    fast = fast_args(argv)
    assert fast is not None
    slow = build_parser("context").parse_args(["context", *argv])
    for name in ("work_id", "agent", "json", "debug", "workspace"):
        assert getattr(fast, name) == getattr(slow, name), name


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["auth-system"],
        ["--agent", "x"],
        ["a", "b", "--agent", "x"],
        ["a", "--agent"],
        ["a", "--agent", "-x"],
        ["a", "--agent", "x", "--agent", "y"],
        ["a", "--agent", "x", "--help"],
        ["a", "--ag", "x"],
        ["a", "--agent", "x", "-w"],
    ],
)
def test_context_fast_path_leaves_the_rest_to_argparse(argv: list[str]) -> None:
    from paw_tui.commands.context import fast_args

    assert fast_args(argv) is None


@pytest.mark.parametrize(
    "argv", [[], ["-n", "5"], ["--json", "--lines", "3", "-w", "x"], ["--debug"]]
)
def test_trace_tail_fast_path_parses_like_argparse(argv: list[str]) -> None:
    from paw_tui.cli import build_parser
    from paw_tui.commands.trace import fast_tail_args

    fast = fast_tail_args(argv)
    assert fast is not None
    slow = build_parser("trace").parse_args(["trace", "tail", *argv])
    for name in ("lines", "json", "debug", "workspace", "intent", "session", "decision", "follow"):
        assert getattr(fast, name) == getattr(slow, name), name


@pytest.mark.parametrize(
    "argv", [["-n"], ["-n", "x"], ["-n", "-1"], ["--follow"], ["--intent", "I"], ["extra"]]
)
def test_trace_tail_fast_path_leaves_the_rest_to_argparse(argv: list[str]) -> None:
    from paw_tui.commands.trace import fast_tail_args

    assert fast_tail_args(argv) is None
