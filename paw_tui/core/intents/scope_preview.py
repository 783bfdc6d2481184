"""What a list of ``owned_scope`` patterns covers in the workspace, for a person typing them
(the TUI's intent form; DESIGN §11): how many files, a few of their names, and each pattern
that covers nothing, is not a usable glob or names a protected path.

The walk is bounded: at most ``max_entries`` directory entries are looked at (``.git`` and
every protected tree are skipped: no agent writes there, whatever a scope says), so a huge
tree costs a bounded amount of work and the answer says it is partial. Files are matched
with the same compiled scope the gate uses (root-anchored gitignore syntax, the last
matching pattern wins). Nothing is written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from paw_tui.core.policy.scope.protect import builtin_protection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.policy.scope.match import CompiledScope

MAX_ENTRIES = 20_000
SAMPLE = 5


@dataclass(frozen=True)
class PatternNote:
    """One pattern as written, with ``matches``: the files it matches on its own (for a
    ``!`` pattern, the files it would exclude); ``problem`` when it is not a usable glob;
    ``protected``: the protected path it names."""

    pattern: str
    matches: int
    problem: str | None = None
    protected: str | None = None

    @property
    def covers_nothing(self) -> bool:
        return self.problem is None and self.matches == 0

    def flag(self) -> str | None:
        """One short sentence for the form, or None when the pattern is fine."""
        if self.problem is not None:
            return f"'{self.pattern}': {self.problem}"
        if self.protected is not None:
            return f"'{self.pattern}' names {self.protected}, which agents never write"
        if self.matches == 0:
            verb = "excludes" if self.pattern.startswith("!") else "covers"
            return f"'{self.pattern}' {verb} no file yet"
        return None


@dataclass(frozen=True)
class ScopePreview:
    """``count`` files of the workspace the whole list covers (``sample``: the first few, in
    walk order), one note per pattern, and whether the walk saw the whole tree
    (``complete``; when False, ``count`` is a lower bound after ``scanned`` entries)."""

    count: int
    sample: tuple[str, ...]
    notes: tuple[PatternNote, ...]
    complete: bool
    scanned: int

    @property
    def flags(self) -> tuple[str, ...]:
        return tuple(flag for note in self.notes if (flag := note.flag()) is not None)

    def summary(self) -> str:
        """``12 files: src/a.py, src/b.py, ...`` (``at least`` when partial)."""
        if not self.count:
            return "no file yet"
        amount = f"{'' if self.complete else 'at least '}{self.count} file{'s' * (self.count != 1)}"
        more = ", ..." if self.count > len(self.sample) else ""
        return f"{amount}: {', '.join(self.sample)}{more}"


def preview_scope(
    root: str,
    patterns: Sequence[str],
    *,
    policy: Policy | None = None,
    sample_size: int = SAMPLE,
    max_entries: int = MAX_ENTRIES,
) -> ScopePreview:
    """What ``patterns`` (as typed: blank ones are ignored) cover under ``root``. ``policy``
    adds ``governance.yaml: protected:`` to the built-in protected paths."""
    from paw_tui.core.intents.parse import glob_problem
    from paw_tui.core.policy.scope.compile import compile_scope

    written = [pattern.strip() for pattern in patterns if pattern.strip()]
    problems = {pattern: glob_problem(pattern) for pattern in written}
    usable = [pattern for pattern in written if problems[pattern] is None]
    whole = compile_scope(usable).prepare() if usable else None
    singles = {pattern: compile_scope([pattern.removeprefix("!")]) for pattern in usable}
    counts = dict.fromkeys(usable, 0)
    covered: list[str] = []
    count = 0
    protected = policy.protected_scope() if policy is not None and policy.valid else None
    walk = _Walk(root, max_entries, protected)
    for path in walk.files() if whole is not None else ():
        for pattern, single in singles.items():
            if single.match_relative(path)[0]:
                counts[pattern] += 1
        if whole is not None and whole.match_relative(path)[0]:
            count += 1
            if len(covered) < sample_size:
                covered.append(path)
    notes = tuple(
        PatternNote(pattern, counts.get(pattern, 0), problems[pattern], _protected(policy, pattern))
        for pattern in written
    )
    return ScopePreview(count, tuple(covered), notes, not walk.stopped, walk.seen)


def _protected(policy: Policy | None, pattern: str) -> str | None:
    from paw_tui.core.handshake.scope_expansion import literal_prefix, protected_by

    if policy is not None and policy.valid:
        return protected_by(policy, pattern)
    literal = literal_prefix(pattern)
    if not literal or pattern.startswith("!"):
        return None
    return literal if builtin_protection(literal) is not None else None


class _Walk:
    """Root-relative POSIX paths of regular files under ``root`` (symlinks not followed),
    breadth first, sorted per directory, protected trees not entered; it stops after
    ``budget`` entries (``stopped``), having looked at ``seen``."""

    def __init__(self, root: str, budget: int, protected: CompiledScope | None) -> None:
        self.root = root
        self.budget = budget
        self.protected = protected
        self.seen = 0
        self.stopped = False

    def files(self) -> Iterator[str]:
        from collections import deque

        pending = deque([""])
        while pending:
            directory = pending.popleft()
            try:
                with os.scandir(os.path.join(self.root, directory)) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError:
                continue
            for entry in entries:
                if self.seen >= self.budget:
                    self.stopped = True
                    return
                self.seen += 1
                relative = f"{directory}/{entry.name}" if directory else entry.name
                if self._skipped(relative):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(relative)
                    elif entry.is_file(follow_symlinks=False):
                        yield relative
                except OSError:
                    continue

    def _skipped(self, relative: str) -> bool:
        if builtin_protection(relative) is not None:
            return True
        return self.protected is not None and bool(self.protected.match(relative)[0])
