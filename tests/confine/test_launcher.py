"""launcher.py as a program: options, spec lookup, failure modes, start-up cost."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from paw_tui.core.confine import launcher
from paw_tui.core.confine.spec import write_spec

from .confine_kit import CONFINE_DIR, DENIED, LAUNCHER, PYTHON, Box, clean_env, needs_landlock


def test_parse_args() -> None:
    opts = launcher.parse_args(
        ["--spec-dir", "/s", "--session-var", "A", "--session-var", "B", "--warn", "--no-stdio",
         "--marker", "M", "--canary", "/c", "--", "prog", "--spec", "x"]
    )  # fmt: skip
    assert (opts.spec_dir, opts.session_vars, opts.warn, opts.stdio) == (
        "/s",
        ["A", "B"],
        True,
        False,
    )
    assert (opts.marker, opts.canary, opts.program) == ("M", "/c", ["prog", "--spec", "x"])
    for bad in ([], ["--spec", "/s"], ["--spec"], ["--bogus", "--", "x"], ["--spec", "/s", "--"]):
        with pytest.raises(ValueError):
            launcher.parse_args(bad)


def test_spec_lookup_per_session(tmp_path: Path) -> None:
    (tmp_path / "s1.spec").write_text("")
    opts = launcher.parse_args(
        ["--spec-dir", str(tmp_path), "--session-var", "SID", "--session-var", "OTHER", "--", "x"]
    )
    assert launcher.spec_path(opts, {"SID": "s1"}) == str(tmp_path / "s1.spec")
    assert launcher.spec_path(opts, {"SID": "s2"}) == str(tmp_path / "default.spec")
    assert launcher.spec_path(opts, {"OTHER": "s1"}) == str(tmp_path / "s1.spec")
    for hostile in ("../s1", ".hidden", "a/b", "s1\n", ""):
        assert launcher.spec_path(opts, {"SID": hostile}) == str(tmp_path / "default.spec")
    assert launcher.spec_path(launcher.parse_args(["--", "x"]), {}) is None
    opts = launcher.parse_args(["--spec", "/a", "--spec-dir", "/b", "--", "x"])
    assert launcher.spec_path(opts, {}) == "/a"


def test_launcher_imports_stay_minimal(tmp_path: Path) -> None:
    code = textwrap.dedent(
        f"""
        import sys
        sys.argv = ["launcher.py"]
        sys.path.insert(0, {str(CONFINE_DIR)!r})
        import launcher
        launcher.landlock.abi_version()
        launcher.load_rules({str(tmp_path / "none")!r})
        print(" ".join(sorted(sys.modules)))
        """
    )
    loaded = set(
        subprocess.run(
            [PYTHON, "-I", "-S", "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    heavy = {"re", "json", "typing", "dataclasses", "pathlib", "argparse", "ctypes", "paw_tui"}
    assert not loaded & heavy, loaded & heavy
    assert {"landlock", "spec", "_ctypes"} <= loaded


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path, ["src"])


@needs_landlock
def test_exec_passes_status_output_and_signals(box: Box) -> None:
    result = box.launch("bash", "-c", "echo out; echo err >&2; exit 42")
    assert (result.returncode, result.stdout, result.stderr) == (42, "out\n", "err\n")
    result = box.launch("bash", "-c", "kill -TERM $$")
    assert result.returncode == -15
    result = box.launch("sh", "-c", 'printf "%s|" "$0" "$@"', "zero", "a b", "")
    assert result.stdout == "zero|a b||"
    result = box.launch("/no/such/program")
    assert result.returncode == 127 and "paw-tui confine: /no/such/program" in result.stderr


@needs_landlock
def test_missing_or_bad_spec_falls_back_to_the_minimal_set(box: Box) -> None:
    command = f"echo x > /dev/null && echo null-ok; touch {box.ws}/src/x; touch {box.out}/y"
    for spec_bytes in (None, b"garbage\n", b"paw-tui-confine 1\nrm -rf /\n"):
        if spec_bytes is None:
            box.spec.unlink()
        else:
            write_spec(str(box.spec), spec_bytes)
        result = box.launch("bash", "-c", command, options=("--warn",))
        assert result.stdout == "null-ok\n"
        assert result.stderr.count(DENIED) == 2
        assert result.stderr.startswith("paw-tui confine: spec ")
        quiet = box.launch("bash", "-c", "true")
        assert quiet.stderr == ""


@needs_landlock
def test_refused_private_tmpdir(box: Box) -> None:
    target = box.base / "elsewhere"
    target.mkdir()
    box.tmp.symlink_to(target)
    result = box.launch("bash", "-c", 'echo "${TMPDIR-unset}"; touch "$0/x"', str(target),
                        options=("--warn",), env=clean_env(TMPDIR="/tmp"))  # fmt: skip
    assert result.stdout == "/tmp\n"
    assert "private TMPDIR refused" in result.stderr and DENIED in result.stderr
    assert not (target / "x").exists()


@needs_landlock
def test_without_landlock_the_program_runs_unconfined(box: Box) -> None:
    """Simulated in a child: the module's cached ABI is forced to 0 before main() runs."""
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(CONFINE_DIR)!r})
        import landlock, launcher
        landlock._abi = 0
        sys.exit(launcher.main(["--spec", {str(box.spec)!r}, "--warn", "--",
                                "bash", "-c", 'echo "bash_env=${{BASH_ENV-unset}}"; touch "$0"',
                                {str(box.out / "x")!r}]))
        """
    )
    result = subprocess.run(
        [PYTHON, "-I", "-S", "-c", code],
        env=clean_env(BASH_ENV="/dev/null"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    assert result.stdout == "bash_env=unset\n"
    assert (
        result.stderr == "paw-tui confine: Landlock is unavailable: this command runs unconfined\n"
    )
    assert (box.out / "x").exists()


@needs_landlock
def test_runs_from_any_directory_and_as_a_module(box: Box, tmp_path: Path) -> None:
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    assert box.launch("true", cwd=cwd).returncode == 0
    rel = os.path.relpath(LAUNCHER, cwd)
    argv = [PYTHON, "-I", "-S", rel, "--spec", str(box.spec), "--", "true"]
    assert subprocess.run(argv, cwd=cwd, env=clean_env()).returncode == 0
    argv = [PYTHON, "-m", "paw_tui.core.confine.launcher", "--spec", str(box.spec), "--"]
    result = subprocess.run(
        [*argv, "bash", "-c", f"touch {box.out}/m"], env=clean_env(), capture_output=True, text=True
    )
    assert DENIED in result.stderr and not (box.out / "m").exists()


@needs_landlock
def test_marker_names_the_confined_process(box: Box) -> None:
    result = box.launch("bash", "-c", 'echo "$$ $PAW_CONFINED"; cut -d" " -f22 /proc/$$/stat')
    pid, marker, start = result.stdout.split()
    assert marker == f"{pid}:{start}"
    result = box.launch("bash", "-c", 'echo "${M-}"', options=("--marker", "M"))
    assert result.stdout.strip().startswith(result.stdout.split(":")[0])
    assert json.dumps(result.stdout)  # printable
