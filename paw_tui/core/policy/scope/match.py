"""Matching a root-relative path against compiled scope patterns, without pathspec.

Importing pathspec costs about 50 ms, more than the gate's whole budget, so
:func:`~paw_tui.core.policy.scope.compile.compile_scope` (which imports it lazily) turns each
anchored pattern into pathspec's own regular expression source plus its include flag, and
:class:`CompiledScope` matches from those with the standard library only. Its JSON form
(:meth:`CompiledScope.to_dict`) is what the policy cache stores. :meth:`CompiledScope.match`
returns what ``GitIgnoreSpec.check_file`` returns for the same anchored patterns (include and
index), including its directory-pattern priority: walking from the last pattern, the first
match that is not made through the ``ps_d`` directory group decides; failing one, the last
directory match does. Hypothesis tests prove the equivalence after a JSON round trip.

Most scope patterns are a literal path, a literal directory or ``dir/**``: those are string
operations (``startswith``, ``==``). Every other regex is compiled on first use only, after
two sound pre-filters computed at compile time: its literal prefix, and the literal runs any
match must hold in order. Entries are grouped by the first path segment they can match, so a
check visits only the patterns that could apply.

A path is matched as resolved, without a trailing slash: ``build/`` owns what is below
``build``, not the directory entry ``build`` itself (pathspec's reading; git, which stats the
path, would match the directory too). Standard library only (``re`` on first regex use).
"""

from __future__ import annotations

import os

from paw_tui.core.errors import PawError
from paw_tui.core.policy.scope.forms import (
    DIR_GROUP,
    DIRECTORY,
    FILE,
    FORM_ANY,
    FORM_DIR,
    FORM_PATH,
    FORM_REGEX,
    FORM_UNDER,
    FORMS,
    Entry,
    backtracks_little,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs ~25 ms at import; the hot paths never pay for it
    import re
    from collections.abc import Callable, Iterable, Sequence

    Step = tuple[int, str, str, str, "Entry"]
    Joined = Callable[[str], "re.Match[str] | None"]
    """The per-directory matcher: one regex, an alternative per name-dependent pattern."""
    DirPlan = tuple[
        "Joined | None", list[tuple[bool, int, int] | None], tuple[bool | None, int | None]
    ]

FORMAT_VERSION = 1
"""Version of :meth:`CompiledScope.to_dict`; bump it when the matching data changes."""


class ScopeCacheError(PawError):
    """A stored compiled scope is malformed or from another format: rebuild it."""


_NATIVE_SEPS = tuple(sep for sep in (os.sep, os.altsep) if sep and sep != "/")


_CODES = {FORM_UNDER: 1, FORM_PATH: 2, FORM_DIR: 3, FORM_ANY: 4, FORM_REGEX: 5}


def _step(entry: Entry) -> Step:
    """How :meth:`CompiledScope.match` tries one entry: a code and precomputed strings."""
    literal = entry.literal
    code = _CODES[entry.form]
    if code == 2:
        return (2, literal, literal + "\n", literal + "/", entry)
    if code == 3:
        return (3, literal + "/", "", "", entry)
    return (code, literal, "", "", entry)


COMBINE_AFTER = 64
"""Matches on one scope after which it prepares its per-directory matchers
(:meth:`CompiledScope.prepare`)."""
MAX_DIRECTORIES = 4096
"""Per-directory matchers a prepared scope keeps before it starts afresh."""


def _first_segments(entry: Entry) -> tuple[str, ...] | None:
    """The only first path segments ``entry`` can match, or None when it can match any.

    A literal holding a ``/`` fixes the first segment for every form; a directory literal
    (``L`` + ``/``) fixes it as ``L``; a path literal matches ``L``, ``L`` + newline (``$``
    matches before a final newline) or below ``L``.
    """
    literal = entry.literal
    form = entry.form
    if form == FORM_ANY:
        return None
    if "/" in literal:
        return (literal.partition("/")[0],)
    if form == FORM_DIR:
        return (literal,)
    if form == FORM_PATH:
        return (literal, literal + "\n")
    return None


class CompiledScope:
    """A list of anchored gitignore patterns, ready to match with the standard library.

    Build one with :func:`compile_scope` (needs pathspec) or :meth:`from_json` /
    :meth:`from_dict` (does not). ``patterns`` keeps the patterns as written.
    """

    __slots__ = (
        "patterns",
        "ignore_case",
        "pathspec_version",
        "_entries",
        "_plans",
        "_dirs",
        "_joined",
        "_uses",
    )

    def __init__(
        self, entries: Sequence[Entry], *, ignore_case: bool = False, pathspec_version: str = ""
    ) -> None:
        self._entries = tuple(entries)
        self.patterns: tuple[str, ...] = tuple(entry.pattern for entry in self._entries)
        self.ignore_case = ignore_case
        self.pathspec_version = pathspec_version
        self._plans: tuple[dict[str, tuple[Step, ...]], tuple[Step, ...]] | None = None
        self._dirs: dict[str, DirPlan] | None = None
        self._joined: dict[tuple[int, ...], tuple[Joined, list[tuple[bool, int, int] | None]]] = {}
        self._uses = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """The compiled patterns, in order."""
        return self._entries

    def reaching_below(self, directory: str, include: bool) -> Entry | None:
        """The first pattern including (or, ``include`` False, excluding) that could match a
        path below ``directory`` (root-relative; ``""`` is the root). Judged by the pattern's
        literal prefix: it never misses one, and may name one that matches nothing there."""
        prefix = directory + "/" if directory else ""
        if self.ignore_case:
            prefix = prefix.lower()
        for entry in self._entries:
            if entry.include != include:
                continue
            literal = entry.literal.lower() if self.ignore_case else entry.literal
            if literal.startswith(prefix) or prefix.startswith(literal):
                return entry
        return None

    def anchored(self) -> list[str]:
        """The patterns as handed to pathspec."""
        return [entry.anchored for entry in self._entries]

    def _groups(self) -> tuple[dict[str, list[Entry]], list[Entry]]:
        """Per first path segment, the entries that can match there (the generic ones,
        which can match anywhere, included), last pattern first; and the generic ones."""
        generic: list[Entry] = []
        by_segment: dict[str, list[Entry]] = {}
        for entry in self._entries:
            keys = _first_segments(entry)
            if keys is None:
                generic.append(entry)
            else:
                for key in keys:
                    by_segment.setdefault(key, []).append(entry)

        def ordered(entries: Iterable[Entry]) -> list[Entry]:
            return sorted(entries, key=lambda entry: entry.index, reverse=True)

        buckets = {key: ordered(found + generic) for key, found in by_segment.items()}
        return buckets, ordered(generic)

    def _build_plans(self) -> tuple[dict[str, tuple[Step, ...]], tuple[Step, ...]]:
        buckets, generic = self._groups()
        self._plans = (
            {key: tuple(_step(entry) for entry in found) for key, found in buckets.items()},
            tuple(_step(entry) for entry in generic),
        )
        return self._plans

    def prepare(self) -> CompiledScope:
        """Match through per-directory matchers from now on (a scope turns to them by itself
        after ``COMBINE_AFTER`` matches): for each directory a path is in, what its patterns
        already decide there and one regex for the patterns that depend on the file's name
        (:mod:`paw_tui.core.policy.scope.combined`). Worth its compile time only for a caller
        checking many paths; a gate call checks a few and never imports ``re``."""
        if self._dirs is None and all(
            (entry.regex == "." or entry.regex.startswith("^")) and backtracks_little(entry.regex)
            for entry in self._entries
        ):
            # one backtracking regex per directory is linear only when each of its
            # alternatives is; a pattern that is not keeps the step-by-step walk
            self._dirs = {}
        return self

    def _dir_plan(self, directory: str) -> DirPlan:
        from paw_tui.core.policy.scope.combined import dir_plan

        dirs = self._dirs
        assert dirs is not None
        if len(dirs) >= MAX_DIRECTORIES:
            dirs.clear()
            self._joined.clear()
        plan = dirs[directory] = dir_plan(self._entries, directory, self.ignore_case, self._joined)
        return plan

    def _search(self, entry: Entry, path: str) -> int:
        search = entry._search
        if search is None:  # the first regex this process meets: most calls never get here
            from paw_tui.core.policy.scope.linear import searcher

            search = entry._search = searcher(entry.regex, self.ignore_case)
        return search(path)

    def match(self, path: str) -> tuple[bool | None, int | None]:
        """``(include, index)`` exactly as ``GitIgnoreSpec.check_file(path)`` gives them.

        ``path`` is a POSIX path relative to the root. ``include`` is True when an including
        pattern decided, False when an excluding (``!``) one did and None when none matched;
        ``index`` is the deciding pattern's position.
        """
        for sep in _NATIVE_SEPS:
            path = path.replace(sep, "/")
        if path[:1] == "/":
            path = path[1:]
        elif path[:2] == "./":
            path = path[2:]
        return self.match_relative(path)

    def match_relative(self, path: str) -> tuple[bool | None, int | None]:  # noqa: C901 - the hottest loop of the gate, kept in one frame: a call per pattern would cost more than the test it runs
        """:meth:`match` for a path already normalised (``/``-separated, no leading ``/``
        or ``./``), as :class:`~paw_tui.core.policy.scope.checker.ScopeChecker` has it."""
        dirs = self._dirs
        if dirs is not None:
            directory = path[: path.rfind("/") + 1]  # "src/auth/", or "" at the root
            plan = dirs.get(directory) or self._dir_plan(directory)
            matcher, table, decided = plan
            found = matcher(path) if matcher is not None else None
            if found is None:
                return decided  # the directory's own verdict (a name-dependent one missed)
            include, index, mode = table[found.lastindex]  # type: ignore[index,misc]
            if not mode or (mode > 0 and found.group(mode) is None):
                return include, index
            # won as a directory: the walk below applies pathspec's priority
        else:
            self._uses += 1
            if self._uses == COMBINE_AFTER:
                self.prepare()
        plans = self._plans or self._build_plans()
        steps = plans[0].get(path.partition("/")[0], plans[1])
        by_dir: Entry | None = None
        # pathspec walks the patterns from the last: the first one matching as a file (not
        # through its directory group) decides; otherwise the last directory match does.
        for code, literal, newline, below, entry in steps:
            if code == 1:  # "^L": starts with L
                if path.startswith(literal):
                    return entry.include, entry.index
            elif code == 2:  # "^L(?:(?P<ps_d>/)|$)"
                if path == literal or path == newline:
                    return entry.include, entry.index
                if by_dir is None and path.startswith(below):
                    by_dir = entry
            elif code == 3:  # "^L(?P<ps_d>/)", literal holds L + "/"
                if by_dir is None and path.startswith(literal):
                    by_dir = entry
            elif code == 4:  # ".": any character but a newline
                if path.strip("\n"):
                    return entry.include, entry.index
            elif not literal or path.startswith(literal):
                position = 0
                for run in entry.needs:  # literal runs any match holds: skip the regex early
                    position = path.find(run, position)
                    if position < 0:
                        break
                    position += len(run)
                if position < 0:
                    continue
                verdict = self._search(entry, path)
                if verdict == FILE:
                    return entry.include, entry.index
                if verdict == DIRECTORY and by_dir is None:
                    by_dir = entry
        if by_dir is None:
            return None, None
        return by_dir.include, by_dir.index

    def to_dict(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_dict` rebuilds an equal scope without pathspec."""
        return {
            "format": FORMAT_VERSION,
            "pathspec": self.pathspec_version,
            "dir_group": DIR_GROUP,
            "ignore_case": self.ignore_case,
            "entries": [entry.to_dict() for entry in self._entries],
        }

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object) -> CompiledScope:
        """Rebuild from :meth:`to_dict` data; :class:`ScopeCacheError` when it is malformed."""
        if not isinstance(data, dict):
            raise ScopeCacheError("Compiled scope: expected a JSON object.")
        if data.get("format") != FORMAT_VERSION:
            raise ScopeCacheError(f"Compiled scope: unsupported format {data.get('format')!r}.")
        if data.get("dir_group") != DIR_GROUP:
            raise ScopeCacheError(f"Compiled scope: unknown dir_group {data.get('dir_group')!r}.")
        ignore_case = data.get("ignore_case")
        version = data.get("pathspec")
        raw_entries = data.get("entries")
        if not isinstance(ignore_case, bool) or not isinstance(version, str):
            raise ScopeCacheError("Compiled scope: ignore_case or pathspec version malformed.")
        if not isinstance(raw_entries, list):
            raise ScopeCacheError("Compiled scope: entries must be a list.")
        entries = []
        for index, raw in enumerate(raw_entries):
            if not isinstance(raw, dict):
                raise ScopeCacheError(f"Compiled scope: entry {index} is not an object.")
            texts = [raw.get(key) for key in ("pattern", "anchored", "regex", "form", "literal")]
            include = raw.get("include")
            if not all(isinstance(text, str) for text in texts) or not isinstance(include, bool):
                raise ScopeCacheError(f"Compiled scope: entry {index} is malformed.")
            needs = raw.get("needs")
            if not isinstance(needs, list) or not all(
                isinstance(run, str) and run for run in needs
            ):
                raise ScopeCacheError(f"Compiled scope: entry {index} is malformed.")
            pattern, anchored, regex, form, literal = texts
            if form not in FORMS:
                raise ScopeCacheError(f"Compiled scope: entry {index} has unknown form {form!r}.")
            entries.append(
                Entry(index, pattern, anchored, regex, include, form, literal, tuple(needs))  # type: ignore[arg-type]
            )
        return cls(entries, ignore_case=ignore_case, pathspec_version=version)

    @classmethod
    def from_json(cls, text: str | bytes) -> CompiledScope:
        import json

        try:
            data = json.loads(text)
        except ValueError as error:
            raise ScopeCacheError(f"Compiled scope: not valid JSON ({error}).") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CompiledScope):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"CompiledScope(patterns={list(self.patterns)!r}, ignore_case={self.ignore_case!r})"
