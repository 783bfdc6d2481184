"""Any text at all: the analysis never raises, it answers or says why it cannot; and on
broken command lines (generated ones with pieces cut out) it refuses exactly what bash refuses."""

from __future__ import annotations

import os
import random
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paw_tui.core.policy.shell.analysis import analyse

from .grammar import script
from .sandbox import BASH, bash_rejected

PIECES = list("ab $'\"\\`(){}[]<>|&;#\n\t=~*?!-:,.0123") + [
    "$(",
    "${",
    "<<",
    "EOF",
    "if",
    "then",
    "fi",
    "case",
    "in",
    "esac",
    ";;",
    "do",
    "done",
    "for",
    "while",
    "((",
    "))",
    "[[",
    "]]",
    "<(",
    ">&",
    "2>",
    "{fd}",
    "cd",
    "rm",
    "-rf",
    "function",
    "f()",
    "coproc",
    "select",
    "time",
    "!",
    "&&",
    "||",
    "$((",
    "<<-",
    "<<<",
    "'EOF'",
]


@settings(
    max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=40))
def test_never_raises(pieces: list[str]) -> None:
    result = analyse("".join(pieces), "/w", home="/h")
    assert result.error is None or result.error.endswith(".")


HANDED = [
    "tmux ", "send-keys ", "neww ", "-t ", "Enter ", "C-m ", "C-c ", "Up ", "\\; ", ";", "'",
    '"', "at now ", "<<< ", "<<'E'\n", "\nE\n", "crontab ", "- ", "screen ", "-X ", "stuff ",
    "^M", "systemd-run ", "--scope ", "ssh h ", "-o ", "ProxyCommand=", "busybox ", "git ",
    "-c ", "alias.x=!", "alias.x=", "core.fsmonitor=", "GIT_EDITOR=", "GIT_CONFIG_COUNT=1 ",
    "GIT_CONFIG_KEY_0=", "apply ", "checkout ", "-- ", ":/", ":(top)", ":!", "*", "stash ",
    "reset --hard ", "-C ", "rm -rf .git ", "$X ", "#(", "taskset 1 ", "watch ", "uv run ",
    "mktemp", "$(mktemp) ", "x", " ",
]  # fmt: skip


@settings(
    max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(pieces=st.lists(st.sampled_from(HANDED), max_size=30))
def test_commands_handed_to_other_programs_never_raise(pieces: list[str]) -> None:
    """Multiplexers, schedulers, git's own strings and pathspecs, in any order, against a
    real directory (the file system is asked)."""
    result = analyse("".join(pieces), os.path.dirname(__file__), home="/h")
    assert result.error is None or result.error.endswith(".")
    assert all(sentence and not sentence.endswith(".") for sentence in result.unreadable)


def test_pathological_commands_are_refused_quickly() -> None:
    deep = "$(" * 400 + "x" + ")" * 400
    calls = "; ".join(f"f{i}() {{ f{i + 1}; f{i + 1}; }}" for i in range(20)) + "; f0"
    loops = "for a in 1 2 3; do " * 12 + "touch y; " + "done; " * 12
    for command in (deep, calls, loops):
        result = analyse(command, "/w")
        assert result.error is not None and "too" in result.error
    assert "brace expansion" in (analyse("touch {1..100}{1..100}", "/w").error or "")
    unclosed = analyse("touch " + "{a," * 4000, "/w")  # bash's algorithm is quadratic here
    assert "brace expansion" in (unclosed.error or "")
    assert analyse("echo " + "a" * 100_000 + " > f", "/w").targets[0].path == "f"


@pytest.mark.skipif(not os.path.exists(BASH), reason="needs bash")
@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(command=script(), seed=st.integers(0, 10**6), cuts=st.integers(1, 3))
def test_broken_commands_are_refused_as_bash_refuses_them(
    command: str, seed: int, cuts: int
) -> None:
    chooser = random.Random(seed)
    for _ in range(cuts):
        if len(command) < 2:
            break
        start = chooser.randrange(len(command))
        command = command[:start] + command[start + chooser.randrange(1, 4) :]
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-n", "-c", command], capture_output=True, text=True
    )
    refused = bash_rejected(done.returncode, done.stderr)
    error = analyse(command, "/nonexistent", home="/h").error
    if refused:
        assert error is not None, done.stderr
    elif error is not None:  # bash reads backquotes only when it runs them: deliberately stricter
        assert "`" in command, error
