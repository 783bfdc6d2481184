"""What drift detection adds to a shell call, against the shell call itself.

Builds a git repository of ``--files`` working-tree files (default 10,000: ~600 directories
nested 4-6 deep, a ``node_modules`` of ~10%, a ``.git`` holding every object loose) and
times, all in the same rounds, interleaved, the median (and min) of ``--runs`` rounds:

- ``pre``: :func:`take_snapshot` + :meth:`Snapshot.dump`, what PreToolUse pays (with a
  content store, as the gate takes them);
- ``post``: :meth:`Snapshot.load` + :func:`compare` + :func:`restore` (nothing changed), what
  PostToolUse pays; and once more after a command that created 6 entries out of scope and
  rewrote a protected file (restored);

for two scopes, one owning ~10% of the tree and one owning all of it but the protected
paths (``.git`` and ``node_modules`` skipped), each twice, with the pins of ``.git`` the gate
used to take (``.git/config`` and ``.git/hooks``) and with those it takes now (everything
that makes git run a program or read another repository, in each of the repository's
``--submodules`` submodule and ``--worktrees`` linked-worktree git directories:
:func:`paw_tui.core.confine.drift_git.git_pins`),
and the wall time of shell commands spawned the way agents spawn them
(``bash -c 'ls >/dev/null'``, ``bash -c 'git status >/dev/null'`` in the repository,
``python3 -c pass`` as found on PATH, and this interpreter ``-c pass``), printing each side
as a ratio of those. Then a breakdown of where the time goes (raw ``scandir``, raw
``lstat``, ``marshal``, the scope callables, ``compare`` listing every directory). With
``paw_tui``'s own scope matcher importable, the 10% scope is also timed through it.

Figures are in-process: a hook also pays its interpreter start and imports (the drift
modules import in about 1.5 ms from bytecode).

    python bench/drift.py [--files 10000] [--submodules 4] [--worktrees 2] [--runs 21]
                          [--keep DIR]
"""

from __future__ import annotations

import argparse
import marshal
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from paw_tui.core.confine.drift import Drift, Snapshot, compare, restore, take_snapshot
from paw_tui.core.confine.drift_git import covered, git_pins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

PROTECTED_FILES = {".claude/settings.json", ".mcp.json", ".gemini/settings.json", ".git/config"}
PROTECTED_DIRS = (".codex", ".git/hooks", ".paw")
OLD_PINS = (".git/config", ".git/hooks")
TOPS = ("src", "tests", "docs", "lib", "tools")


def build(root: str, files: int, submodules: int, worktrees: int, seed: int = 7) -> None:
    """A realistic repository under ``root``; ``files`` working-tree files."""
    rng = random.Random(seed)
    dirs: list[str] = []
    for top in TOPS:
        for a in range(4):
            for b in range(4):
                for c in range(3):
                    leaf = f"{top}/pkg{a}/mod{b}/sub{c}"
                    dirs.append(leaf)
                    for d in range(rng.choice((0, 1, 1, 2))):
                        dirs.append(f"{leaf}/part{d}")
                        if rng.random() < 0.4:
                            dirs.append(f"{leaf}/part{d}/leaf")
    for rel in dirs:
        os.makedirs(os.path.join(root, rel), exist_ok=True)
    modules = 40
    n_node = files // 10
    n_src = files - n_node - 8
    for index in range(n_src):
        rel = dirs[index % len(dirs)]
        with open(os.path.join(root, rel, f"file{index}.py"), "w") as handle:
            handle.write(f"VALUE = {index}\n" * rng.randint(1, 60))
    for index in range(n_node):
        rel = os.path.join(root, "node_modules", f"pkg{index % modules}", "lib")
        os.makedirs(rel, exist_ok=True)
        with open(os.path.join(rel, f"m{index}.js"), "w") as handle:
            handle.write("module.exports = 1;\n")
    extra = {
        "README.md": "# bench\n",
        "pyproject.toml": "[project]\nname = 'bench'\n",
        ".gitignore": "node_modules/\n",
        ".mcp.json": "{}\n",
        ".claude/settings.json": '{"hooks": {}}\n',
        ".gemini/settings.json": "{}\n",
        ".codex/config.toml": "model = 'x'\n",
        ".paw/governance.yaml": "version: 1\n",
    }
    for rel, text in extra.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as handle:
            handle.write(text)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=b@example.invalid", "-c", "gc.auto=0"]
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run([*git, "-C", root, "add", "-A"], check=True)
    subprocess.run([*git, "-C", root, "commit", "-q", "-m", "bench"], check=True)
    subprocess.run(["git", "-C", root, "config", "gc.auto", "0"], check=True)  # objects stay loose
    for index in range(submodules):  # a submodule's git directory and its checkout's .git file
        checkout = os.path.join(root, "vendor", f"sub{index}")
        git_dir = os.path.join(root, ".git", "modules", f"sub{index}")
        os.makedirs(os.path.dirname(git_dir), exist_ok=True)
        subprocess.run(["git", "init", "-q", f"--separate-git-dir={git_dir}", checkout], check=True)
        worktree = os.path.relpath(checkout, git_dir)
        subprocess.run(["git", "-C", checkout, "config", "core.worktree", worktree], check=True)
    for index in range(worktrees):
        where = os.path.join(os.path.dirname(root), f"worktree{index}")
        subprocess.run([*git, "-C", root, "worktree", "add", "-q", where], check=True)


def restorable(path: str) -> bool:
    if path in PROTECTED_FILES:
        return True
    for top in PROTECTED_DIRS:
        if path.startswith(top) and (len(path) == len(top) or path[len(top)] == "/"):
            return True
    return False


def skip_dirs(path: str) -> bool:
    return path == ".git" or path == "node_modules" or path.startswith(".git/")


class Scope:
    """The three callables of one scope, and the content store its snapshots use (as the
    gate's do: protected contents kept once, by hash, beside the snapshot)."""

    store: str | None = None

    def __init__(
        self,
        name: str,
        in_scope: Callable[[str], bool],
        owned_dirs: Callable[[str], bool],
        pins: tuple[str, ...] = OLD_PINS,
    ) -> None:
        self.name = name
        self.in_scope = in_scope
        self.owned_dirs = owned_dirs
        self.pins = pins
        pinset = frozenset(pins)

        def restorable_here(path: str) -> bool:
            return restorable(path) or (path.startswith(".git/") and covered(path, pinset))

        self.restorable = restorable_here

        self.discover = False  # find the pins on each snapshot, as the gate does

    def with_pins(self, pins: tuple[str, ...], label: str, discover: bool = False) -> Scope:
        scope = Scope(f"{self.name}, {label}", self.in_scope, self.owned_dirs, pins)
        scope.discover = discover
        return scope

    def snapshot(self, root: str) -> Snapshot:
        return take_snapshot(
            root,
            in_scope=self.in_scope,
            restorable=self.restorable,
            skip_dirs=skip_dirs,
            owned_dirs=self.owned_dirs,
            pinned=git_pins(root) if self.discover else self.pins,
            store=self.store,
        )

    def compare(self, before: Snapshot, root: str) -> Drift:
        return compare(
            before,
            root,
            in_scope=self.in_scope,
            restorable=self.restorable,
            skip_dirs=skip_dirs,
            owned_dirs=self.owned_dirs,
        )


OWNED = ("src/pkg0", "tests/pkg0")  # two of twenty top-level packages: ~10% of the files


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    for prefix in prefixes:
        if path.startswith(prefix) and (len(path) == len(prefix) or path[len(prefix)] == "/"):
            return True
    return False


def ten_percent() -> Scope:
    return Scope("10% scope", lambda p: _under(p, OWNED), lambda d: _under(d, OWNED))


def all_but_protected() -> Scope:
    guarded = (".git", ".claude", ".gemini", ".codex", ".paw")
    return Scope(
        "whole tree but protected",
        lambda p: not restorable(p),
        lambda d: bool(d) and not _under(d, guarded),
    )


def paw_matcher_scope() -> Scope | None:
    """The 10% scope through paw_tui's own compiled scope matcher, when importable."""
    try:
        from paw_tui.core.policy.scope.compile import compile_scope
    except ImportError:
        return None
    scope = compile_scope([f"{prefix}/**" for prefix in OWNED])

    def in_scope(path: str) -> bool:
        return scope.match(path)[0] is True

    return Scope("10% scope, paw matcher", in_scope, lambda d: _under(d, OWNED))


def _median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def one_round(root: str, state: str, scope: Scope) -> tuple[float, float, int]:
    """Seconds of the PreToolUse side and of the PostToolUse side (nothing changed)."""
    start = time.perf_counter()
    snap = scope.snapshot(root)
    snap.dump(state)
    middle = time.perf_counter()
    loaded = Snapshot.load(state, strict=True)
    assert loaded is not None
    drift = scope.compare(loaded, root)
    done = restore(loaded, drift, root)
    end = time.perf_counter()
    if drift or done:
        raise SystemExit(f"{scope.name}: drift on an unchanged tree: {drift!r} {done!r}")
    tracked = len(snap)
    del snap, loaded, drift, done  # freed here, outside the timing (a hook never frees them)
    return middle - start, end - middle, tracked


def one_round_with_drift(root: str, state: str, scope: Scope) -> float:
    """Seconds of PostToolUse after a command that wrote 5 files out of scope (in a new
    directory and in old ones) and rewrote a protected file, which is restored."""
    settings = os.path.join(root, ".claude", "settings.json")
    made = ("docs/pkg1/mod1/sub1/new.md", "lib/pkg2/mod0/sub0/gen.py")
    scope.snapshot(root).dump(state)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    for index in range(3):
        with open(os.path.join(root, "build", f"out{index}.o"), "w") as handle:
            handle.write("x")
    for rel in made:
        with open(os.path.join(root, rel), "w") as handle:
            handle.write("generated\n")
    with open(settings, "w") as handle:
        handle.write('{"hooks": "tampered"}\n')
    start = time.perf_counter()
    loaded = Snapshot.load(state, strict=True)
    assert loaded is not None
    drift = scope.compare(loaded, root)
    done = restore(loaded, drift, root)
    elapsed = time.perf_counter() - start
    if len(drift.created) != 6 or done.restored != [".claude/settings.json"]:
        raise SystemExit(f"{scope.name}: unexpected drift {drift!r} {done!r}")
    shutil.rmtree(os.path.join(root, "build"))
    for rel in made:
        os.unlink(os.path.join(root, rel))
    del loaded, drift, done
    return elapsed


COMMANDS = {
    "bash -c 'ls >/dev/null'": ["bash", "-c", "ls >/dev/null"],
    "bash -c 'git status >/dev/null'": ["bash", "-c", "git status >/dev/null"],
    "python3 -c pass": ["python3", "-c", "pass"],
    f"{os.path.basename(sys.executable)} -c pass (no shim)": [sys.executable, "-c", "pass"],
}
DRIFTED = "post, 6 created + 1 restored"


def measure(root: str, state: str, scopes: list[Scope], runs: int) -> dict[str, list[float]]:
    """Every figure, interleaved round by round (one warm-up round): seconds per key."""
    times: dict[str, list[float]] = {}
    for round_number in range(runs + 1):
        samples: dict[str, float] = {}
        for scope in scopes:
            pre, post, tracked = one_round(root, state, scope)
            samples[f"{scope.name}|{tracked}|pre"] = pre
            samples[f"{scope.name}|{tracked}|post"] = post
        samples[f"{scopes[0].name}|-|{DRIFTED}"] = one_round_with_drift(root, state, scopes[0])
        for name, command in COMMANDS.items():
            start = time.perf_counter()
            subprocess.run(command, cwd=root, check=True, capture_output=True)
            samples[name] = time.perf_counter() - start
        if round_number:
            for key, value in samples.items():
                times.setdefault(key, []).append(value)
    return times


def breakdown(root: str, state: str, scope: Scope, runs: int) -> None:
    """Where the PreToolUse and PostToolUse time of ``scope`` goes."""
    snap = scope.snapshot(root)
    tracked = [os.path.join(root, path) for path in snap.paths()]
    walked = [os.path.join(root, rel) if rel else root for rel in snap.dirs]
    names: list[str] = []

    def list_only() -> None:
        names.clear()
        for path in walked:
            with os.scandir(path) as iterator:
                names.extend(entry.name for entry in iterator)

    def lstat_only() -> None:
        lstat = os.lstat
        for path in tracked:
            lstat(path)

    def callables_only() -> None:
        in_scope = scope.in_scope
        restorable_ = scope.restorable
        for rel in snap.dirs:
            prefix = rel + "/" if rel else ""
            for name in snap.dirs[rel][4] or ():
                path = prefix + name
                restorable_(path)
                in_scope(path)

    data = marshal.dumps(
        (snap.dirs, snap.pinned, snap.extras),
    )
    snap.dump(state)
    relist = Snapshot.load(state)
    assert relist is not None
    relist.racy_cut = -1  # every directory counts as racy: listed again, no file hashed

    def compare_listing_all() -> None:
        scope.compare(relist, root)

    parts: dict[str, Callable[[], object]] = {
        f"scandir of the {len(walked)} walked dirs": list_only,
        f"lstat of the {len(tracked)} tracked paths": lstat_only,
        "scope callables on tracked paths": callables_only,
        f"marshal.dumps ({len(data) // 1024} KiB)": lambda: marshal.dumps(snap.dirs),
        "marshal.loads": lambda: marshal.loads(data),
        "git_pins (the layout, on each snapshot)": lambda: git_pins(root),
        "take_snapshot alone": lambda: scope.snapshot(root),
        "dump alone": lambda: snap.dump(state),
        "load alone": lambda: Snapshot.load(state),
        "compare alone": lambda: scope.compare(snap, root),
        "compare listing every dir (no dir trick)": compare_listing_all,
    }
    print(f"\nbreakdown, {scope.name} (median of {runs}):")
    for label, function in parts.items():
        values = []
        for _ in range(runs):
            start = time.perf_counter()
            result = function()
            values.append(time.perf_counter() - start)
            del result  # freed outside the timing, as a hook process never frees it
        print(f"  {label:<44} {_median_ms(values):7.2f} ms   (min {min(values) * 1000:6.2f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--submodules", type=int, default=4)
    parser.add_argument("--worktrees", type=int, default=2)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--keep", help="build (or reuse) the repository in this directory")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="paw-drift-bench-")
    root = args.keep or os.path.join(work, "repo")
    state = os.path.join(work, "state", "snapshot.bin")
    try:
        if not os.path.isdir(os.path.join(root, ".git")):
            build(root, args.files, args.submodules, args.worktrees)
        counts = [0, 0]
        for _, dirnames, filenames in os.walk(root):
            counts[0] += len(dirnames)
            counts[1] += len(filenames)
        print(f"repository: {counts[1]} files, {counts[0]} directories (.git included)")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, median of {args.runs}")
        pins = git_pins(root)
        print(f"pinned in .git: {len(OLD_PINS)} paths before, {len(pins)} now")
        scopes = []
        for scope in (ten_percent(), all_but_protected()):
            scopes.append(scope.with_pins(OLD_PINS, "config+hooks"))
            scopes.append(scope.with_pins(pins, "git pins", discover=True))
        paw = paw_matcher_scope()
        if paw is not None:
            scopes.insert(2, paw.with_pins(pins, "git pins", discover=True))
        for scope in scopes:
            scope.store = os.path.join(work, "state", "store")
        times = measure(root, state, scopes, args.runs)
        print()
        for name in COMMANDS:
            print(f"  {name:<40} {_median_ms(times[name]):7.2f} ms")
        base = _median_ms(times["bash -c 'ls >/dev/null'"])
        git = _median_ms(times["bash -c 'git status >/dev/null'"])
        python = _median_ms(times[list(COMMANDS)[-1]])
        print()
        print(
            f"  {'scope':<40} {'tracked':>7} {'side':<28} {'median':>7} {'min':>6}"
            f" {'/ ls':>6} {'/ git st':>8} {'/ python':>8}"
        )
        for key, values in times.items():
            if "|" not in key:
                continue
            name, tracked, side = key.split("|")
            value = _median_ms(values)
            print(
                f"  {name:<40} {tracked:>7} {side:<28} {value:7.2f} {min(values) * 1000:6.2f}"
                f" {value / base:6.2f} {value / git:8.2f} {value / python:8.2f}"
            )
        breakdown(root, state, scopes[1], args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the state file, and the repository unless kept
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
