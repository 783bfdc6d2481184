"""Shared by the bench scripts: a normal (non-editable, byte-compiled) install to measure,
and interleaved whole-process timing against a baseline measured in the same run."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_VENV = os.path.join(REPO, "build", "bench-venv")


def venv_bin(venv: str, name: str) -> str:
    return os.path.join(venv, "Scripts" if os.name == "nt" else "bin", name)


def ensure_bench_venv(extras: str = "") -> str:
    """A venv under build/bench-venv with this checkout installed non-editable; its python."""
    python = venv_bin(BENCH_VENV, "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", BENCH_VENV], check=True)
    # pip 25 and newer write console scripts that do not import ``re`` first (a third of
    # `paw-tui context`'s budget); the README's install command upgrades pip the same way
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=25"], check=True)
    target = REPO + (f"[{extras}]" if extras else "")
    subprocess.run([python, "-m", "pip", "install", "--quiet", target], check=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", REPO],
        check=True,
    )
    return python


def is_normal_install(python: str) -> bool:
    code = "import paw_tui; print(paw_tui.__file__)"
    out = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
    )
    return "site-packages" in out.stdout


def warn_if_in_temp(python: str) -> None:
    """Warn when an installation lives in the temporary directory: every shell call's kernel
    boundary grants that directory and carves the gate's own code out of it, listing it each
    time, so that installation's shell calls are slower than a real one's (a base measured
    from /tmp once made a change look 10% faster than it was)."""
    real = os.path.realpath(os.path.dirname(os.path.abspath(python)))  # a venv links its python
    temp = os.path.realpath(tempfile.gettempdir())
    if real.startswith(temp + os.sep):
        print(
            f"warning: {python} is installed under {temp}: its shell calls carve that "
            "directory; install it elsewhere for figures that compare"
        )


def pick_python(use_current_env: bool, extras: str = "") -> tuple[str, str]:
    """(python, paw-tui script) to measure; warns when the install is not a normal one."""
    python = sys.executable if use_current_env else ensure_bench_venv(extras)
    if not is_normal_install(python):
        print("warning: paw_tui is not a normal site-packages install; figures are not valid")
    warn_if_in_temp(python)
    script = venv_bin(os.path.dirname(os.path.dirname(python)), "paw-tui")
    return python, script


def interleaved(
    commands: dict[str, list[str]],
    runs: int,
    *,
    cwd: str,
    env: dict[str, str],
    stdin: bytes | None = None,
    expect: dict[str, int] | None = None,
) -> dict[str, float]:
    """Median seconds of each command, run in turn ``runs`` times after one warm-up."""
    return interleaved_with_cpu(commands, runs, cwd=cwd, env=env, stdin=stdin, expect=expect)[0]


class Command:
    """A command with settings of its own (another installation's hook, with its own
    workspace and environment), measured among the others."""

    def __init__(
        self,
        argv: list[str],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        stdin: bytes | Callable[[], bytes] | None = None,
    ) -> None:
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.stdin = stdin


def interleaved_with_cpu(
    commands: Mapping[str, list[str] | Command],
    runs: int,
    *,
    cwd: str,
    env: dict[str, str],
    stdin: bytes | Callable[[], bytes] | None = None,
    expect: dict[str, int] | None = None,
) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall seconds and median CPU seconds (user + system, the command and every
    process it waited for) of each command. CPU time is what a busy machine disturbs least:
    on 2 shared cores the wall figures move with everything else that runs. A
    :class:`Command` brings its own directory, environment and input."""
    import resource

    expected = expect or {}
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(runs + 1):
        for name, command in commands.items():
            own = command if isinstance(command, Command) else Command(command)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            given = own.stdin if own.stdin is not None else stdin
            body = given() if callable(given) else given
            done = subprocess.run(
                own.argv,
                cwd=own.cwd or cwd,
                env=own.env or env,
                input=body,
                capture_output=True,
            )
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != expected.get(name, 0):
                raise SystemExit(
                    f"{name} exited {done.returncode}: {done.stderr.decode(errors='replace')}"
                )
            if round_number:
                times[name].append(elapsed)
                cpu[name].append(
                    after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                )
    return (
        {name: statistics.median(values) for name, values in times.items()},
        {name: statistics.median(values) for name, values in cpu.items()},
    )


def clean_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    env.update(extra)
    return env


def report(label: str, value_ms: float, base_ms: float, budget: float) -> bool:
    ratio = value_ms / base_ms
    verdict = "OK" if ratio <= budget else "OVER"
    print(
        f"{label:<44} median {value_ms:7.1f} ms   {ratio:5.2f}x python -c pass  (budget {budget:.1f}x: {verdict})"
    )
    return ratio <= budget


def install_hook(python: str, base: str) -> tuple[str, str]:
    """This machine's hook script in ``base`` (as ``paw-tui install`` writes it) and the
    portable hook command a client runs (``/bin/sh -c`` it with ``PAW_TUI_HOOK`` naming the
    script, as Claude Code does)."""
    import json

    setup = subprocess.run(
        [
            python,
            "-c",
            "import json, os, sys\n"
            "from paw_tui.core.clients import commands\n"
            "base = sys.argv[1]\n"
            "path = commands.hook_script_path(base)\n"
            "os.makedirs(base, exist_ok=True)\n"
            "open(path, 'w').write(commands.hook_script_text(base))\n"
            "os.chmod(path, 0o755)\n"
            "print(json.dumps([path, commands.portable_hook_command('claude-code')]))",
            base,
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    script_path, command = json.loads(setup)
    return script_path, command


def wait_for_server(lock: str, timeout: float = 30) -> int:
    """The pid of the resident gate the first hook call started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(lock) as handle:
                pid = int(handle.read().split()[0])
            if os.path.exists(os.path.join(os.path.dirname(lock), "gate.sock")):
                return pid
        except (OSError, ValueError, IndexError):
            pass
        time.sleep(0.05)
    raise SystemExit(f"no resident gate started ({lock})")
