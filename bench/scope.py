"""In-process scope checks against calling pathspec directly (DESIGN §10: the decision at
least 3x faster than pathspec).

Same patterns (20, anchored as the gate anchors them) and same paths (10,000 root-relative
POSIX paths) for both sides; the sides run interleaved, ``--rounds`` times, and the medians
are compared, so the ratio holds on a noisy machine. Measured:

- ``pathspec``: ``GitIgnoreSpec.from_lines(anchored).check_file(path)``, the baseline;
- ``match``: :meth:`CompiledScope.match` on a scope loaded from its JSON cache form;
- ``decision``: :meth:`ScopeChecker.check_relative`, a full verdict with protected paths and
  a decision object (the figure the budget is about; after its first 64 matches the scope
  uses its per-directory matchers, as any long-lived caller's does);
- ``regex only``: ``match`` with the string-operation shortcuts turned off (for reference).

It also prints what a gate process pays: the import time of ``paw_tui.core.policy.scope.checker`` and
``paw_tui.core.workspace.paths`` (which must not load pathspec) against ``python -c pass`` and
``import pathspec``, and one cold check in a fresh process (cache load, realpath, match).

    python bench/scope.py [--rounds 15] [--paths 10000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from pathspec import GitIgnoreSpec

from paw_tui.core.policy.scope.checker import ScopeChecker
from paw_tui.core.policy.scope.compile import compile_scope
from paw_tui.core.policy.scope.match import CompiledScope
from paw_tui.core.policy.scope.patterns import anchor_pattern

SPEEDUP = 3.0
"""The decision must be at least this many times faster than pathspec."""

PATTERNS = [
    "src/auth/**",
    "tests/auth/**",
    "!src/auth/legacy/**",
    "docs/**/*.md",
    "*.md",
    "build/",
    "!build/keep/**",
    "src/api/v[12]/**",
    "src/models/*.py",
    "src/utils/**",
    "!src/utils/vendor/**",
    "scripts/*.sh",
    "config/*.yaml",
    "config/*.yml",
    "Makefile",
    "pyproject.toml",
    "src/**/test_*.py",
    "web/static/**",
    "!web/static/**/*.map",
    "migrations/**",
]

DIRS = [
    "src/auth",
    "src/auth/legacy",
    "src/auth/jwt",
    "src/api/v1",
    "src/api/v3",
    "src/models",
    "src/utils",
    "src/utils/vendor",
    "src/other/deep/er",
    "tests/auth",
    "tests/unit",
    "docs",
    "docs/guide",
    "build",
    "build/keep",
    "scripts",
    "config",
    "web/static/js",
    "migrations",
    "",
    ".github/workflows",
    "node_modules/pkg/lib",
]
NAMES = [
    "x.py",
    "test_login.py",
    "README.md",
    "app.js",
    "app.js.map",
    "run.sh",
    "a.yaml",
    "b.yml",
    "Makefile",
    "pyproject.toml",
    "data.json",
    "index.html",
]


def make_paths(count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        directory = rng.choice(DIRS)
        name = rng.choice(NAMES)
        out.append(f"{directory}/{name}" if directory else name)
    return out


def regex_only(compiled: CompiledScope) -> CompiledScope:
    data = compiled.to_dict()
    entries = data["entries"]
    assert isinstance(entries, list)
    for entry in entries:
        entry["form"] = "regex"
        entry["literal"] = ""
        entry["needs"] = []
    return CompiledScope.from_dict(data)


def time_loop(function: Callable[[str], object], paths: list[str]) -> float:
    """CPU seconds of one pass (``process_time``: another process taking the core for a while
    does not count against whichever side was running)."""
    call = function  # bound method; the loop is the same shape for every side
    start = time.process_time()
    for path in paths:
        call(path)
    return time.process_time() - start


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def process_env() -> dict[str, str]:
    """This environment importing this checkout, writing byte code (as a normal install
    does after its first run)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=tempfile.gettempdir(),
        env=process_env(),
    )
    if done.returncode:
        raise SystemExit(f"python -c {code!r} failed:\n{done.stderr}")
    return done


def import_figures(runs: int) -> None:
    commands = {
        "python -c pass": "pass",
        "import scope + paths": "import paw_tui.core.policy.scope.checker, paw_tui.core.policy.scope.match, paw_tui.core.workspace.paths",
        "import pathspec": "import pathspec",
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(runs + 1):
        for name, code in commands.items():
            start = time.perf_counter()
            run(code)
            if round_number:
                times[name].append(time.perf_counter() - start)
    base = statistics.median(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"  {name:<24} {median * 1000:7.1f} ms  ({median / base:4.2f}x python -c pass, "
            f"+{(median - base) * 1000:5.1f} ms)"
        )
    probe = run(
        "import sys; before = set(sys.modules)\n"
        "import paw_tui.core.policy.scope.checker, paw_tui.core.policy.scope.match, paw_tui.core.workspace.paths\n"
        "new = set(sys.modules) - before\n"
        "print(sorted(m for m in ('pathspec', 're', 'json', 'typing', 'dataclasses', 'pathlib')"
        " if m in new))",
        "-X",
        "importtime",
    )
    own = 0
    for line in probe.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip().startswith("paw_tui"):
            own += int(parts[0].split(":")[1])
    print(f"  own import time (-X importtime, self, paw_tui.*): {own / 1000:.2f} ms")
    print(f"  heavy modules the import adds: {probe.stdout.strip()}  (expected: [])")


def cold_check(runs: int) -> None:
    data = compile_scope(PATTERNS).to_json()
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src", "auth"))
        code = (
            "import json, time\n"  # the gate has json already: it parses the event with it
            "t0 = time.perf_counter()\n"
            "from paw_tui.core.policy.scope.match import CompiledScope\nfrom paw_tui.core.policy.scope.checker import ScopeChecker\n"
            "t1 = time.perf_counter()\n"
            f"scope = CompiledScope.from_json({data!r})\n"
            f"d1 = ScopeChecker({root!r}, 'INT-001', scope).check('src/auth/jwt.py', cwd={root!r})\n"
            "t2 = time.perf_counter()\n"
            f"d2 = ScopeChecker({root!r}, 'INT-001', scope).check('docs/guide/x.md', cwd={root!r})\n"
            "t3 = time.perf_counter()\n"
            "assert d1.allowed and d2.allowed\n"
            "print((t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000)\n"
        )
        samples = []
        for _ in range(runs):
            out = run(code)
            samples.append([float(x) for x in out.stdout.split()])
    imp, first, second = (statistics.median(column) for column in zip(*samples, strict=True))
    print(
        f"  import {imp:.2f} ms; from_json + checker + check of src/auth/jwt.py {first:.2f} ms"
        f" (no regex compiled); then docs/guide/x.md {second:.2f} ms (one regex compiled)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--paths", type=int, default=10_000)
    parser.add_argument("--process-runs", type=int, default=15)
    args = parser.parse_args()
    where = run("import paw_tui.core.policy.scope.checker as m; print(m.__file__)").stdout.strip()
    print(f"fresh processes import {where}")

    paths = make_paths(args.paths)
    spec = GitIgnoreSpec.from_lines([anchor_pattern(p) for p in PATTERNS])
    compiled = CompiledScope.from_json(compile_scope(PATTERNS).to_json())
    slow = regex_only(compiled)
    with tempfile.TemporaryDirectory() as root:
        checker = ScopeChecker(root, "INT-001", compiled)
        for path in paths:  # same answers, and every lazy regex compiled before timing
            result = spec.check_file(path)
            expected = (result.include, result.index)
            assert compiled.match(path) == expected == slow.match(path), path
            decision = checker.check_relative(path)
            assert decision.allowed == bool(expected[0]) or decision.kind == "protected", path
        sides: dict[str, Callable[[str], object]] = {
            "pathspec": spec.check_file,
            "match": compiled.match,
            "decision": checker.check_relative,
            "regex only": slow.match,
        }
        times: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(args.rounds):
            for name, function in sides.items():
                times[name].append(time_loop(function, paths))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["pathspec"]
    allowed = sum(1 for p in paths if spec.check_file(p).include)
    print(
        f"scope check in process: {len(PATTERNS)} patterns, {len(paths)} paths "
        f"({allowed} allowed), {args.rounds} interleaved rounds, medians"
    )
    for name, value in medians.items():
        print(
            f"  {name:<12} {value * 1000:8.2f} ms  {value / len(paths) * 1e6:6.2f} us/path  "
            f"ratio {value / base:5.2f}"
        )
    speedup = base / medians["decision"]
    verdict = "OK" if speedup >= SPEEDUP else "UNDER"
    print(
        f"budget: the decision is {speedup:.2f}x faster than pathspec "
        f"(at least {SPEEDUP:.0f}x: {verdict})"
    )
    print("imports (fresh processes, interleaved, medians):")
    import_figures(args.process_runs)
    print("cold check in a fresh process (medians):")
    cold_check(args.process_runs)
    return 0 if speedup >= SPEEDUP else 1


if __name__ == "__main__":
    sys.exit(main())
