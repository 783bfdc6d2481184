"""The BASH_ENV file: which shells it confines, what it preserves, and its already-confined guard."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from paw_tui.core.confine.bash_env import (
    client_environment,
    launcher_command,
    quote,
    render_bash_env,
)

from .confine_kit import DENIED, LAUNCHER, PYTHON, Box, clean_env, needs_landlock

PROBE = 'touch "$OUT/probe-$$" && echo WROTE; echo "marker=${PAW_CONFINED-}"'


def wrote(result: subprocess.CompletedProcess[str]) -> bool:
    return "WROTE" in result.stdout


def test_rendered_file_is_valid_bash(tmp_path: Path) -> None:
    text = render_bash_env(PYTHON, LAUNCHER, spec=str(tmp_path / "it's.spec"))
    path = tmp_path / "env.sh"
    path.write_text(text)
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0
    assert quote(str(tmp_path / "it's.spec")) in text and "--warn" in text
    assert "BASH_EXECUTION_STRING+x" in text and "--norc --noprofile" in text


def test_launcher_command_options(tmp_path: Path) -> None:
    argv = launcher_command(
        "/py", "/l.py", spec_dir="/s", session_vars=["CLAUDE_CODE_SESSION_ID"], warn=False
    )
    assert argv == [
        "/py", "-I", "-S", "/l.py", "--spec-dir", "/s",
        "--session-var", "CLAUDE_CODE_SESSION_ID", "--canary", "/s/.confined-canary",
    ]  # fmt: skip
    with pytest.raises(ValueError):
        launcher_command("/py", "/l.py")
    with pytest.raises(ValueError):
        launcher_command("/py", "/l.py", spec="/a", spec_dir="/b")
    with pytest.raises(ValueError):
        launcher_command("/py", "/l.py", spec="/a", session_vars=["A-B"])
    with pytest.raises(ValueError):
        launcher_command("/py", "/l.py", spec="/a", marker="1X")
    assert quote("a'b") == "'a'\\''b'"


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path, ["src"])


@needs_landlock
@pytest.mark.parametrize(
    "flags", [("-c",), ("-lc",), ("-c", "-l"), ("-l", "-c"), ("--login", "-c")], ids=str
)
def test_every_way_a_client_runs_bash_is_confined(box: Box, flags: tuple[str, ...]) -> None:
    result = box.bash(PROBE, flags=flags, env=box.env(OUT=str(box.out)))
    assert not wrote(result) and DENIED in result.stderr, result
    assert result.stdout.strip().startswith("marker=") and result.stdout.strip() != "marker="
    assert sorted(p.name for p in box.out.iterdir()) == ["victim.txt"]


@needs_landlock
def test_a_bash_script_is_untouched(box: Box) -> None:
    """``#!/bin/bash`` (a hook) reads BASH_ENV with BASH_EXECUTION_STRING unset: left alone."""
    script = box.base / "hook.sh"
    script.write_text(f'#!/bin/bash\nOUT={box.out}\n{PROBE}\necho "args=$*"\n')
    script.chmod(0o755)
    result = subprocess.run(
        [str(script), "a", "b c"], env=box.env(), capture_output=True, text=True, timeout=60
    )
    assert result.stdout.splitlines() == ["WROTE", "marker=", "args=a b c"], result.stderr
    # the same script started from a confined shell inherits the domain
    result = box.bash(str(script))
    assert not wrote(result) and DENIED in result.stderr


@needs_landlock
def test_positional_parameters_survive(box: Box) -> None:
    command = 'printf "[%s]" "$0" "$#" "$@"; echo'
    args = ("name", "a b", "", "*", "$HOME", "-e")
    plain = subprocess.run(
        ["bash", "-c", command, *args], env=clean_env(), capture_output=True, text=True
    )
    result = box.bash(command, *args)
    assert result.stdout == plain.stdout == "[name][5][a b][][*][$HOME][-e]\n"
    assert box.bash('echo "$0:$#"').stdout == "bash:0\n"


@needs_landlock
def test_shell_options_survive(box: Box) -> None:
    command = 'echo "$SHELLOPTS"; shopt -q extglob && echo extglob; false; echo not-reached'
    flags = ("-e", "-u", "-o", "pipefail", "-O", "extglob", "+B", "-c")
    result = box.bash(command, flags=flags)
    assert result.returncode == 1
    options = result.stdout.splitlines()[0].split(":")
    assert {"errexit", "nounset", "pipefail"} <= set(options) and "braceexpand" not in options
    assert result.stdout.splitlines()[1:] == ["extglob"]
    # a re-executed login shell is not a login shell (its profile already ran, unconfined)
    assert box.bash("shopt -q login_shell && echo login || echo plain", flags=("-lc",)).stdout == (
        "plain\n"
    )


@needs_landlock
def test_xtrace_shows_the_command_not_the_wrapper(box: Box) -> None:
    result = box.bash("echo hi", flags=("-x", "-c"))
    assert result.stdout == "hi\n"
    assert result.stderr == "+ echo hi\n"


@needs_landlock
def test_nested_shells_do_not_relaunch(box: Box) -> None:
    result = box.bash('echo "$PAW_CONFINED"; bash -c \'echo "$PAW_CONFINED"\'; :')
    outer, inner = result.stdout.split()
    assert outer == inner and outer.split(":")[0].isdigit()


@needs_landlock
def test_the_guard_cannot_be_faked_by_an_unconfined_shell(box: Box) -> None:
    """An unconfined shell that exports a marker naming itself (a real ancestor, with its real
    start time), or an inherited one, still gets confined: the canary is writable to it."""
    fake_self = (
        'read -r s < /proc/$$/stat; f=(${s##*) }); export PAW_CONFINED="$$:${f[19]}";'
        f" bash -c '{PROBE}'"
    )
    result = subprocess.run(
        ["bash", "-c", fake_self],  # no BASH_ENV for this outer shell: it stays unconfined
        env=clean_env(OUT=str(box.out)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrote(result)  # sanity: the outer shell is not confined, BASH_ENV was not set
    result = subprocess.run(
        ["bash", "-c", fake_self.replace("bash -c", f"BASH_ENV={box.bash_env} bash -c")],
        env=clean_env(OUT=str(box.out)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert not wrote(result) and DENIED in result.stderr, result
    for marker in ("1:1", "garbage", ":", "$(touch x)"):
        result = box.bash(PROBE, env=box.env(OUT=str(box.out), PAW_CONFINED=marker))
        assert not wrote(result) and DENIED in result.stderr, marker


@needs_landlock
def test_the_canary_cannot_be_removed_and_must_be_sound(box: Box) -> None:
    canary = box.state / ".confined-canary"
    result = box.bash(
        'rm -f "$C"; bash -c \'echo "$PAW_CONFINED"\'; echo "$PAW_CONFINED"; :',
        env=box.env(C=str(canary)),
    )
    inner, outer = result.stdout.split()
    assert inner == outer and canary.exists()  # rm was denied: it is in the state directory
    # a canary that cannot exist, or one inside the writable set, would make the guard fail
    # in the re-executed shell itself (an exec loop): the launcher refuses to run anything
    for bad in (box.base / "no-such-dir" / "canary", box.ws / "src" / "canary"):
        box.bash_env.write_text(
            render_bash_env(PYTHON, LAUNCHER, spec=str(box.spec), canary=str(bad))
        )
        result = box.bash("echo ran")
        assert result.returncode == 126 and result.stdout == "", result
        assert "canary" in result.stderr and "the command was not run" in result.stderr


@needs_landlock
def test_exec_failure_is_closed(box: Box) -> None:
    box.bash_env.write_text(render_bash_env("/nonexistent/python", LAUNCHER, spec=str(box.spec)))
    result = box.bash(f"touch {box.out}/x; echo ran")
    assert result.returncode in (126, 127) and "ran" not in result.stdout
    assert not (box.out / "x").exists()


@needs_landlock
def test_socket_stdin_needs_shlvl(box: Box) -> None:
    """bash skips BASH_ENV for ``bash -c`` with a socket stdin and no SHLVL (it thinks sshd ran
    it); ``client_environment`` sets SHLVL, and the command still sees its usual SHLVL."""
    left, right = socket.socketpair()
    with left, right:
        base = {k: v for k, v in box.env().items() if k not in ("SHLVL", "BASH_ENV")}
        bare = box.bash(PROBE, stdin=left, env=base | {"BASH_ENV": str(box.bash_env)})
        assert wrote(bare)  # the pitfall, as bash behaves
        env = base | client_environment(str(box.bash_env))
        result = box.bash(PROBE + '; echo "shlvl=$SHLVL"', stdin=left, env=env)
        assert not wrote(result) and DENIED in result.stderr
        plain = subprocess.run(["bash", "-c", 'echo "shlvl=$SHLVL"'], env=base | {"SHLVL": "1"},
                               capture_output=True, text=True)  # fmt: skip
        assert result.stdout.splitlines()[-1] == plain.stdout.strip() == "shlvl=2"
