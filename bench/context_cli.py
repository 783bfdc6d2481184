"""Whole-process time of ``paw-tui context`` against ``python -c pass`` (DESIGN §10: <= 3x).

Both commands run interleaved in this one invocation, so the ratio holds on a noisy machine.
The figure is only meaningful on a normal, byte-compiled install: an editable install (or
PYTHONDONTWRITEBYTECODE) measures compilation. So by default this script builds its own
virtual environment under build/bench-venv with ``pip install .`` and runs there.

    python bench/context_cli.py [--runs 40] [--use-current-env]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_VENV = os.path.join(REPO, "build", "bench-venv")
BUDGET = 3.0


def venv_bin(venv: str, name: str) -> str:
    return os.path.join(venv, "Scripts" if os.name == "nt" else "bin", name)


def ensure_bench_venv() -> str:
    """A venv with paw-tui installed non-editable from this checkout; its python."""
    python = venv_bin(BENCH_VENV, "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", BENCH_VENV], check=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", REPO],
        check=True,
    )
    # Dependencies once (the context path imports none of them, but the install must be real).
    subprocess.run([python, "-m", "pip", "install", "--quiet", REPO], check=True)
    return python


def is_normal_install(python: str) -> bool:
    code = "import paw_tui, sys; print(paw_tui.__file__)"
    location = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
    )
    return "site-packages" in location.stdout


def make_workspace(base: str) -> tuple[str, dict[str, str]]:
    """A realistic workspace: both instruction layers and a WorkflowContext.md."""
    root = os.path.join(base, "ws")
    home = os.path.join(base, "home")
    os.makedirs(os.path.join(root, ".paw", "work", "auth-system"))
    os.makedirs(os.path.join(root, ".paw", "instructions"))
    os.makedirs(os.path.join(home, ".paw", "instructions"))
    body = "# Rules\n" + "".join(f"- rule {i}: keep the API stable\n" for i in range(60))
    for layer in (os.path.join(root, ".paw", "instructions"), os.path.join(home, ".paw", "instructions")):
        with open(os.path.join(layer, "PAW-02B Impl Planner-instructions.md"), "w") as handle:
            handle.write(body)
    with open(os.path.join(root, ".paw", "work", "auth-system", "WorkflowContext.md"), "w") as h:
        h.write("Work Title: Auth\nWork ID: auth-system\nTarget Branch: feature/auth\n")
    env = dict(os.environ, PAW_USER_HOME=home)
    env.pop("PAW_WORKSPACE_PATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return root, env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--use-current-env", action="store_true",
                        help="measure the paw-tui of this interpreter instead of build/bench-venv")
    options = parser.parse_args()
    python = sys.executable if options.use_current_env else ensure_bench_venv()
    if not is_normal_install(python):
        print("warning: paw_tui is not a normal site-packages install; figures are not valid")
    script = venv_bin(os.path.dirname(os.path.dirname(python)), "paw-tui")
    if not os.path.exists(script):
        script = shutil.which("paw-tui") or "paw-tui"
    with tempfile.TemporaryDirectory() as base:
        root, env = make_workspace(base)
        context = [script, "context", "auth-system", "--agent", "PAW-02B Impl Planner"]
        baseline = [python, "-c", "pass"]
        for command in (context, baseline):  # warm the page cache and byte-code
            subprocess.run(command, cwd=root, env=env, check=True, capture_output=True)
        times: dict[str, list[float]] = {"context": [], "baseline": []}
        for _ in range(options.runs):
            for name, command in (("baseline", baseline), ("context", context)):
                start = time.perf_counter()
                subprocess.run(command, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - start)
    base_ms = statistics.median(times["baseline"]) * 1000
    ctx_ms = statistics.median(times["context"]) * 1000
    ratio = ctx_ms / base_ms
    print(f"python -c pass      median {base_ms:7.1f} ms  ({options.runs} runs)")
    print(f"paw-tui context     median {ctx_ms:7.1f} ms  ({options.runs} runs)")
    print(f"ratio               {ratio:7.2f}x  (budget {BUDGET:.1f}x: {'OK' if ratio <= BUDGET else 'OVER'})")
    return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
