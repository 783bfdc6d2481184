"""Start-up of the MCP server: time from process start to the answer of ``initialize``, and to
the answer of ``tools/list`` (what an agent needs before it can call the handshake tool),
against ``python -c pass`` measured interleaved in the same run, on a normal install
(build/bench-venv).

Commands: the ``paw-tui mcp --hooked`` console script (what ``install claude-code`` writes)
and ``python -m paw_tui mcp --hooked``, plus plain ``paw-tui mcp``. Each run spawns the
server in a workspace made by ``paw-tui init``, writes one ``initialize`` (as Claude Code
sends it), waits for its answer, sends ``notifications/initialized`` and ``tools/list``,
waits for that answer, then closes stdin and expects a clean exit. The baseline's figure
is its whole run (start to exit).

    python bench/mcp_start.py [--runs 30] [--use-current-env]

Run it byte-compiled (PYTHONDONTWRITEBYTECODE unset), as users' installs are; the bench
removes it from the children's environment.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import clean_env, pick_python, report

BUDGET = 3.0  # the goal: under 0.3 s on a 2-core machine where python -c pass takes ~0.1 s
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"roots": {}},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def line(message: Mapping[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def answer(process: subprocess.Popen[bytes], request_id: int) -> dict[str, object]:
    """The next message on the server's stdout, which must answer ``request_id``."""
    assert process.stdout is not None
    raw = process.stdout.readline()
    if not raw:
        raise SystemExit(f"server closed stdout before answering request {request_id}")
    message: dict[str, object] = json.loads(raw)
    if message.get("id") != request_id or "result" not in message:
        raise SystemExit(f"unexpected answer to request {request_id}: {raw!r}")
    return message


def one_server_run(command: list[str], *, cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to the ``initialize`` answer and to the ``tools/list`` answer."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    try:
        process.stdin.write(line(INITIALIZE))
        process.stdin.flush()
        answer(process, 1)
        initialized = time.perf_counter() - start
        process.stdin.write(line(INITIALIZED) + line(TOOLS_LIST))
        process.stdin.flush()
        tools = answer(process, 2)["result"]
        listed = time.perf_counter() - start
        assert isinstance(tools, dict) and len(tools["tools"]) == 6, tools
        process.stdin.close()
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if code != 0:
        raise SystemExit(f"{command} exited {code}")
    return initialized, listed


def measure(
    servers: dict[str, list[str]], baseline: list[str], runs: int, *, cwd: str, env: dict[str, str]
) -> tuple[float, dict[str, tuple[float, float]]]:
    """Medians (seconds): the baseline's whole run, and each server's two answers; one warm-up
    round, then every command in turn, ``runs`` times."""
    base_times: list[float] = []
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in servers}
    for round_number in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(baseline, cwd=cwd, env=env, check=True)
        elapsed = time.perf_counter() - start
        results = {name: one_server_run(cmd, cwd=cwd, env=env) for name, cmd in servers.items()}
        if not round_number:
            continue
        base_times.append(elapsed)
        for name, (initialized, listed) in results.items():
            times[name][0].append(initialized)
            times[name][1].append(listed)
    medians = {
        name: (statistics.median(init), statistics.median(listed))
        for name, (init, listed) in times.items()
    }
    return statistics.median(base_times), medians


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--use-current-env",
        action="store_true",
        help="measure the paw-tui of this interpreter instead of build/bench-venv",
    )
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    with tempfile.TemporaryDirectory() as base:
        root = os.path.join(base, "ws")
        os.makedirs(os.path.join(root, ".git"))
        env = clean_env(
            PAW_STATE_DIR=os.path.join(base, "state"), PAW_USER_HOME=os.path.join(base, "home")
        )
        subprocess.run([script, "init"], cwd=root, env=env, check=True, capture_output=True)
        servers = {
            "paw-tui mcp --hooked": [script, "mcp", "--hooked"],
            "python -m paw_tui mcp --hooked": [python, "-m", "paw_tui", "mcp", "--hooked"],
            "paw-tui mcp": [script, "mcp"],
        }
        base_s, medians = measure(servers, [python, "-c", "pass"], options.runs, cwd=root, env=env)
    base_ms = base_s * 1000
    print(f"{'python -c pass':<44} median {base_ms:7.1f} ms   ({options.runs} runs, interleaved)")
    ok = True
    for name, (initialized, listed) in medians.items():
        ok = report(f"{name}: initialize", initialized * 1000, base_ms, BUDGET) and ok
        report(f"{name}: tools/list", listed * 1000, base_ms, BUDGET)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
