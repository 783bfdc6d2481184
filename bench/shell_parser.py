"""What the bash parser (``paw_tui.core.policy.shell``) costs a hook process.

Prints (a) the import time of its modules in a fresh ``python -X importtime -c`` (the sum of
the self times of the modules the import adds to a bare interpreter), next to ``import
shlex, re`` measured the same way, medians of ``--rounds`` processes; and (b) the time of one
:func:`analyse` call, in microseconds, on typical agent commands, next to the old heuristic
(``write_targets``, wherever it lives now; skipped when it is gone), measured interleaved in
this process.

    python bench/shell_parser.py [--rounds 15] [--calls 2000]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from paw_tui.core.policy.shell.analysis import analyse

COMMANDS = [
    "ls -la src",
    "git status && git diff --stat",
    "cd frontend && npm test -- --watch=false 2>&1 | tail -20",
    "grep -rn 'def analyse' paw_tui/ | head -20",
    "python -m pytest tests/shell -q -x 2>&1 | tail -5",
    "mkdir -p build/out && cp -r assets/ build/out/",
    "echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc",
    "sed -i 's/old_name/new_name/g' src/app.py src/util.py",
    "find . -name '*.pyc' -delete",
    "cat <<'EOF' > notes.md\n# Notes\n- item $(not run)\nEOF",
    "rm -rf dist/ build/ *.egg-info",
    "git add -A && git commit -m 'Fix the parser: handle heredocs' && git push",
    'for f in src/*.py; do echo "== $f"; wc -l "$f"; done',
    "tar -czf backup.tgz src && mv backup.tgz /tmp/",
    "cd src/auth && sed -n '1,40p' legacy/login.py",
    "npm install && npm run build > build.log 2>&1",
    "docker compose up -d && sleep 5 && curl -s localhost:8080/health",
    'if [ -f .env ]; then source .env; fi; echo "$DATABASE_URL"',
    "jq '.dependencies' package.json > deps.json",
    "touch src/{a,b,c}.py && chmod +x scripts/*.sh",
]


def _modules_self_us(statement: str) -> dict[str, int]:
    # -S: no site (its .pth files import re already); byte-compiled files allowed and warm
    env = {**os.environ, "PYTHONPATH": REPO}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", statement],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=True,
    )
    out: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        fields = line.split("|")
        out[fields[2].strip()] = int(fields[0].split(":")[1])
    return out


def import_cost(statement: str, rounds: int, prefix: str = "") -> tuple[float, int]:
    """Median milliseconds (sum of self times) the statement adds to ``-c pass`` (only the
    modules whose name starts with ``prefix``), and how many modules that is."""
    _modules_self_us(statement)  # warm up: write the byte-compiled files
    totals = []
    count = 0
    for _ in range(rounds):
        base = _modules_self_us("pass")
        after = _modules_self_us(statement)
        added = {
            name: us for name, us in after.items() if name not in base and name.startswith(prefix)
        }
        totals.append(sum(added.values()) / 1000)
        count = len(added)
    return statistics.median(totals), count


def _old_parser() -> object | None:
    for name in ("paw_tui.core.shell_targets", "paw_tui.core.policy.shell_targets"):
        try:
            return getattr(importlib.import_module(name), "write_targets", None)
        except ImportError:
            continue
    return None


def per_call(calls: int) -> None:
    old = _old_parser()
    cwd = "/nonexistent/work"  # no file-system lookups: the parse and walk alone
    sides: dict[str, object] = {"analyse": lambda c: analyse(c, cwd, home="/home/u")}
    if old is not None:
        sides["old write_targets"] = lambda c: old(c, cwd)  # type: ignore[operator]
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(5):  # interleaved rounds
        for name, run in sides.items():
            start = time.perf_counter()
            for index in range(calls):
                run(COMMANDS[index % len(COMMANDS)])  # type: ignore[operator]
            times[name].append((time.perf_counter() - start) / calls * 1e6)
    average = statistics.mean(len(c) for c in COMMANDS)
    print(f"(b) one call, {len(COMMANDS)} commands of {average:.0f} characters on average:")
    for name, values in times.items():
        print(f"    {name:20s} {statistics.median(values):8.1f} us")
    if old is None:
        print("    (the old write_targets is gone: no comparison)")
    slow = max(COMMANDS, key=lambda c: _time_one(c, cwd))
    print(f"    slowest command: {_time_one(slow, cwd):.1f} us  {slow[:60]!r}")


def _time_one(command: str, cwd: str) -> float:
    start = time.perf_counter()
    for _ in range(200):
        analyse(command, cwd, home="/home/u")
    return (time.perf_counter() - start) / 200 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    statement = "import paw_tui.core.policy.shell.analysis"
    ours, ours_count = import_cost(statement, args.rounds, "paw_tui.core.policy.shell")
    whole, whole_count = import_cost(statement, args.rounds)
    theirs, theirs_count = import_cost("import shlex, re", args.rounds)
    print("(a) import time in a fresh interpreter (python -S, sum of self times, median):")
    print(f"    the parser's modules        {ours:6.2f} ms  ({ours_count} modules)")
    print(f"    with its parent packages    {whole:6.2f} ms  ({whole_count} modules)")
    print(f"    import shlex, re            {theirs:6.2f} ms  ({theirs_count} modules)")
    per_call(args.calls)


if __name__ == "__main__":
    main()
