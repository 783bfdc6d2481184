"""Owned-scope evaluation: may this intent write this path? (DESIGN §5)

Patterns are gitignore syntax evaluated exactly as pathspec's ``GitIgnoreSpec`` does, with
one change made before pathspec sees them: every pattern is **anchored at the workspace
root**. Git reads a pattern with no slash except a trailing one (``*.md``, ``build/``) as
"at any depth"; here it is read as if it began with ``/``, so ``*.md`` owns root-level
Markdown files only, ``**/*.md`` owns them at any depth and ``**`` owns everything. A leading
``!`` is set aside first and means "excluded". :func:`anchor_pattern` always prefixes the
``/``: for a pattern with an inner slash git already anchors it, so the result is identical
(a test proves the regexes are equal).

Patterns are rejected, naming their index (0-based) and text, when pathspec rejects them
(a trailing ``\\``), when pathspec would silently ignore them (an unterminated ``[``, a lone
``/``), when they are blank, when they start with ``#`` (a comment in a ``.gitignore``; write
``\\#`` for a literal ``#``), when nothing follows the ``!``, and when a segment is empty,
``.`` or ``..`` (``./src/**``, ``a//b``): valid gitignore, but dead against the normalised
paths the gate checks.

**Compile, then match without pathspec.** Importing pathspec costs about 50 ms, more than
the gate's whole budget, so :func:`compile_scope` (which imports it lazily) turns each
anchored pattern into pathspec's own regular expression source plus its include flag, and
:class:`CompiledScope` matches from those with the standard library only. Its JSON form
(:meth:`CompiledScope.to_json`) is what the policy cache under ``.orchestration/.cache/``
stores. :meth:`CompiledScope.match` returns what ``GitIgnoreSpec.check_file`` returns for
the same anchored patterns (include and index), including its directory-pattern priority:
walking from the last pattern, the first match that is not made through the ``ps_d``
directory group decides; failing one, the last directory match does. Hypothesis tests prove
the equivalence after a JSON round trip, and a golden corpus pins where git differs.

It is also faster than pathspec. Most scope patterns are a literal path, a literal directory
or ``dir/**``: those are string operations (``startswith``, ``==``). Every other regex is
compiled on first use only, after two sound pre-filters computed at compile time: its
literal prefix, and the literal runs any match must hold in order (``re.compile`` costs 0.1
to 0.3 ms a pattern on a small machine, so a gate process compiles none or one). Entries are
grouped by the first path segment they can match, so a check visits only the patterns that
could apply.

A path is matched as resolved, without a trailing slash: ``build/`` owns what is below
``build``, not the directory entry ``build`` itself (pathspec's reading; git, which stats
the path, would match the directory too).

Protected paths (``.orchestration/**``, ``.paw/instructions/**``, ``.git/**`` with the
``.git`` file or directory itself, and ``.git`` at any depth, the workspace root itself)
are compared case-insensitively, ignoring trailing dots and spaces and an NTFS stream
suffix, and cannot be owned whatever the scope says; ``governance.yaml: protected:``
patterns add to them (anchored the same way, matched case-insensitively) and cannot remove
them.

This module imports only ``os``, the tiny errors module and :mod:`paw_tui.core.workspace.paths` at
import time (``re``, ``json``, ``warnings`` and pathspec load on first need), and stays clear of ``typing``, ``dataclasses`` and
``pathlib``: it is on the gate's hot path (DESIGN §10).
"""

from __future__ import annotations

import os

from paw_tui.core.errors import PawError, ValidationError
from paw_tui.core.workspace.paths import real_root, resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs ~25 ms at import; the hot paths never pay for it
    import re
    from collections.abc import Callable, Iterable, Sequence

    Search = Callable[[str], "re.Match[str] | None"]
    Step = tuple[int, str, str, str, "_Entry"]

FORMAT_VERSION = 1
"""Version of :meth:`CompiledScope.to_dict`; bump it when the matching data changes."""

DIR_GROUP = "ps_d"
"""pathspec's regex group marking a match made by a directory pattern."""

ALLOWED = "allowed"
OUTSIDE_ROOT = "outside_root"
PROTECTED = "protected"
OUT_OF_SCOPE = "out_of_scope"
EXCLUDED = "excluded"
KINDS = (ALLOWED, OUTSIDE_ROOT, PROTECTED, OUT_OF_SCOPE, EXCLUDED)

BUILTIN_PROTECTED = (".orchestration/**", ".paw/instructions/**", ".git/**")
"""The protected paths no scope and no governance file can open (DESIGN §2)."""
NESTED_GIT_RULE = "**/.git/**"
ROOT_RULE = "the workspace root itself"

# How an entry is matched. Every form gives the answer ``regex.search`` gives.
_REGEX = "regex"  # the regex, compiled on first use, after the literal pre-filters
_ANY = "any"  # ".": any path holding a character other than a newline
_UNDER = "under"  # "^L" with L literal (from "L/**"): path starts with L
_DIR = "dir"  # "^L(?P<ps_d>/)" (from "L/"): starts with L + "/", directory match
_PATH = "path"  # "^L(?:(?P<ps_d>/)|$)" (from "L"): L itself, or below it as a directory
_FORMS = (_REGEX, _ANY, _UNDER, _DIR, _PATH)
_DIR_SUFFIX = f"(?P<{DIR_GROUP}>/)"
_PATH_SUFFIX = f"(?:(?P<{DIR_GROUP}>/)|$)"
_REGEX_SPECIALS = frozenset(".^$*+?{}[]|()")
_QUANTIFIERS = frozenset("*+?{")
_NATIVE_SEPS = tuple(sep for sep in (os.sep, os.altsep) if sep and sep != "/")


class ScopePatternError(ValidationError):
    """An owned-scope (or protected) pattern that cannot be used: exit code 2.

    ``index`` is the pattern's 0-based position in its list, ``pattern`` its text as written
    and ``reason`` what is wrong, so the intent registry can add the YAML line number.
    """

    def __init__(
        self, index: int, pattern: object, reason: str, label: str = "owned_scope"
    ) -> None:
        super().__init__(f"Invalid {label} pattern {index} {pattern!r}: {reason}.")
        self.index = index
        self.pattern = pattern
        self.reason = reason
        self.label = label


class ScopeCacheError(PawError):
    """A stored compiled scope is malformed or from another format: rebuild it."""


def anchor_pattern(pattern: str) -> str:
    """The pattern as handed to pathspec: anchored at the root, a leading ``!`` kept."""
    negated = pattern.startswith("!")
    body = pattern.removeprefix("!")
    if not body.startswith("/"):
        body = "/" + body
    return "!" + body if negated else body


def _check_written(index: int, pattern: object, label: str) -> str:
    if not isinstance(pattern, str):
        raise ScopePatternError(
            index, pattern, f"a pattern must be a string, not {type(pattern).__name__}", label
        )
    if not pattern.strip():
        raise ScopePatternError(index, pattern, "the pattern is blank", label)
    if "\x00" in pattern:
        raise ScopePatternError(index, pattern, "the pattern contains a NUL byte", label)
    if pattern.startswith("#"):
        raise ScopePatternError(
            index,
            pattern,
            "a pattern starting with '#' is a comment in gitignore syntax; "
            "write '\\#' for a literal '#'",
            label,
        )
    body = pattern.removeprefix("!")
    if not body.strip():
        raise ScopePatternError(index, pattern, "nothing follows the '!'", label)
    body = body.rstrip()
    if body.strip("/") == "":
        raise ScopePatternError(index, pattern, "the pattern names no path", label)
    inner = body.removeprefix("/").removesuffix("/")
    if any(segment in ("", ".", "..") for segment in inner.split("/")):
        raise ScopePatternError(
            index,
            pattern,
            "an empty, '.' or '..' segment never matches: paths are checked normalised",
            label,
        )
    return pattern


def _literal_prefix(source: str, start: int) -> tuple[str, int]:
    """The literal text ``source`` must match from ``start``, and where that text ends.

    Reads the plain characters and escaped punctuation that ``re.escape`` produces; stops at
    the first metacharacter or escape class, and drops the last character when a quantifier
    follows it.
    """
    chars: list[str] = []
    i = start
    end = len(source)
    while i < end:
        char = source[i]
        if char == "\\":
            if i + 1 >= end or source[i + 1].isalnum():
                break
            chars.append(source[i + 1])
            i += 2
        elif char in _REGEX_SPECIALS:
            break
        else:
            chars.append(char)
            i += 1
    if i < end and source[i] in _QUANTIFIERS and chars:
        chars.pop()
        return "".join(chars), -1  # the rest is not a clean literal run
    return "".join(chars), i


def classify_regex(source: str) -> tuple[str, str]:
    """The matching form of a pathspec regex and its literal: ``(form, literal)``.

    For ``regex`` the literal is a prefix every match must start with (possibly empty).
    """
    if source == ".":
        return _ANY, ""
    if not source.startswith("^"):
        return _REGEX, ""
    literal, stop = _literal_prefix(source, 1)
    if stop < 0:
        return _REGEX, literal
    rest = source[stop:]
    if literal and not rest:
        return _UNDER, literal
    if literal and rest == _DIR_SUFFIX:
        return _DIR, literal
    if literal and rest == _PATH_SUFFIX:
        return _PATH, literal
    return _REGEX, literal


def required_runs(source: str) -> tuple[str, ...]:
    """Literal runs every match of ``source`` contains, in this order (a sound pre-filter).

    Only text outside groups, classes and quantified atoms counts; a top-level ``|`` means
    nothing is required. For ``^(?:.+/)?test_[^/]*\\.py`` this is ``("test_", ".py")``.
    """
    runs: list[str] = []
    current: list[str] = []
    i = 0
    end = len(source)

    def flush() -> None:
        if current:
            runs.append("".join(current))
            current.clear()

    def skip_class(j: int) -> int:  # j is just past "["; returns the index past "]"
        if j < end and source[j] == "^":
            j += 1
        if j < end and source[j] == "]":
            j += 1
        while j < end and source[j] != "]":
            j += 2 if source[j] == "\\" else 1
        return j + 1

    while i < end:
        char = source[i]
        literal = False
        if char == "\\" and i + 1 < end and not source[i + 1].isalnum():
            current.append(source[i + 1])
            literal = True
            i += 2
        elif char == "\\":
            flush()
            i += 2
        elif char == "[":
            flush()
            i = skip_class(i + 1)
        elif char == "(":
            flush()
            depth = 1
            i += 1
            while i < end and depth:
                if source[i] == "\\":
                    i += 2
                    continue
                if source[i] == "[":
                    i = skip_class(i + 1)
                    continue
                depth += {"(": 1, ")": -1}.get(source[i], 0)
                i += 1
        elif char == "|":
            return ()
        elif char in ".^$":
            flush()
            i += 1
        else:
            current.append(char)
            literal = True
            i += 1
        if i < end and source[i] in "*+?{":
            # the atom just read is optional or repeated: a literal character is not required
            if literal:
                current.pop()
            flush()
            while i < end and source[i] in "*+?{":
                if source[i] == "{":
                    close = source.find("}", i)
                    i = end if close < 0 else close + 1
                else:
                    i += 1
    flush()
    return tuple(runs)


class _Entry:
    """One compiled pattern. ``search`` is the compiled regex's search, bound on first use."""

    __slots__ = (
        "index",
        "pattern",
        "anchored",
        "regex",
        "include",
        "form",
        "literal",
        "needs",
        "_search",
    )

    def __init__(
        self,
        index: int,
        pattern: str,
        anchored: str,
        regex: str,
        include: bool,
        form: str,
        literal: str,
        needs: tuple[str, ...] = (),
    ) -> None:
        self.index = index
        self.pattern = pattern
        self.anchored = anchored
        self.regex = regex
        self.include = include
        self.form = form
        self.literal = literal
        self.needs = needs
        self._search: Search | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "pattern": self.pattern,
            "anchored": self.anchored,
            "regex": self.regex,
            "include": self.include,
            "form": self.form,
            "literal": self.literal,
            "needs": list(self.needs),
        }


def _compile_regex(source: str, ignore_case: bool) -> re.Pattern[str]:
    import re
    import warnings

    with warnings.catch_warnings():
        # "[[ab]" is a glob bracket holding "[": re warns it may read it as a nested set one day
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(source, re.IGNORECASE if ignore_case else 0)


_CODES = {_UNDER: 1, _PATH: 2, _DIR: 3, _ANY: 4, _REGEX: 5}


def _step(entry: _Entry) -> Step:
    """How :meth:`CompiledScope.match` tries one entry: a code and precomputed strings."""
    literal = entry.literal
    code = _CODES[entry.form]
    if code == 2:
        return (2, literal, literal + "\n", literal + "/", entry)
    if code == 3:
        return (3, literal + "/", "", "", entry)
    return (code, literal, "", "", entry)


def _first_segments(entry: _Entry) -> tuple[str, ...] | None:
    """The only first path segments ``entry`` can match, or None when it can match any.

    A literal holding a ``/`` fixes the first segment for every form; a directory literal
    (``L`` + ``/``) fixes it as ``L``; a path literal matches ``L``, ``L`` + newline (``$``
    matches before a final newline) or below ``L``.
    """
    literal = entry.literal
    form = entry.form
    if form == _ANY:
        return None
    if "/" in literal:
        return (literal.partition("/")[0],)
    if form == _DIR:
        return (literal,)
    if form == _PATH:
        return (literal, literal + "\n")
    return None


class CompiledScope:
    """A list of anchored gitignore patterns, ready to match with the standard library.

    Build one with :func:`compile_scope` (needs pathspec) or :meth:`from_json` /
    :meth:`from_dict` (does not). ``patterns`` keeps the patterns as written.
    """

    __slots__ = ("patterns", "ignore_case", "pathspec_version", "_entries", "_plans")

    def __init__(
        self, entries: Sequence[_Entry], *, ignore_case: bool = False, pathspec_version: str = ""
    ) -> None:
        self._entries = tuple(entries)
        self.patterns: tuple[str, ...] = tuple(entry.pattern for entry in self._entries)
        self.ignore_case = ignore_case
        self.pathspec_version = pathspec_version
        self._plans: tuple[dict[str, tuple[Step, ...]], tuple[Step, ...]] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def anchored(self) -> list[str]:
        """The patterns as handed to pathspec."""
        return [entry.anchored for entry in self._entries]

    def _build_plans(self) -> tuple[dict[str, tuple[Step, ...]], tuple[Step, ...]]:
        """Per first path segment, the entries that can match, last pattern first."""
        generic: list[_Entry] = []
        by_segment: dict[str, list[_Entry]] = {}
        for entry in self._entries:
            keys = _first_segments(entry)
            if keys is None:
                generic.append(entry)
            else:
                for key in keys:
                    by_segment.setdefault(key, []).append(entry)

        def plan(entries: Iterable[_Entry]) -> tuple[Step, ...]:
            ordered = sorted(entries, key=lambda entry: entry.index, reverse=True)
            return tuple(_step(entry) for entry in ordered)

        buckets = {key: plan(found + generic) for key, found in by_segment.items()}
        self._plans = (buckets, plan(generic))
        return self._plans

    def _search(self, entry: _Entry, path: str) -> re.Match[str] | None:
        search = entry._search
        if search is None:
            search = entry._search = _compile_regex(entry.regex, self.ignore_case).search
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
        plans = self._plans or self._build_plans()
        steps = plans[0].get(path.partition("/")[0], plans[1])
        by_dir: _Entry | None = None
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
                found = self._search(entry, path)
                if found is not None:
                    if DIR_GROUP in found.re.groupindex and found.group(DIR_GROUP):
                        if by_dir is None:
                            by_dir = entry
                    else:
                        return entry.include, entry.index
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
            if form not in _FORMS:
                raise ScopeCacheError(f"Compiled scope: entry {index} has unknown form {form!r}.")
            entries.append(
                _Entry(index, pattern, anchored, regex, include, form, literal, tuple(needs))  # type: ignore[arg-type]
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


def compile_scope(
    patterns: Iterable[str], *, ignore_case: bool = False, label: str = "owned_scope"
) -> CompiledScope:
    """Anchor and compile ``patterns`` with pathspec's ``GitIgnoreSpec``.

    ``ignore_case`` makes the compiled scope match case-insensitively (protected paths).
    Raises :class:`ScopePatternError` for the first unusable pattern, naming its index.
    """
    import warnings

    from pathspec import GitIgnoreSpec, __version__

    entries = []
    for index, pattern in enumerate(patterns):
        written = _check_written(index, pattern, label)
        anchored = anchor_pattern(written)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # see _compile_regex
                compiled = GitIgnoreSpec.from_lines([anchored]).patterns[0]
        except ValueError as error:  # pathspec's GitIgnorePatternError
            reason = str(error.__cause__ or error)
            if "Escape character" in reason:
                reason = "a '\\' at the end of the pattern or before a '/' escapes nothing"
            raise ScopePatternError(index, pattern, reason, label) from None
        regex = compiled.regex
        include = compiled.include
        if include is None or regex is None:
            raise ScopePatternError(
                index, pattern, "a '[' is never closed (git discards such a pattern)", label
            )
        source = regex.pattern
        if not isinstance(source, str) or set(regex.groupindex) - {DIR_GROUP}:
            raise ScopePatternError(index, pattern, "pathspec produced an unexpected regex", label)
        needs: tuple[str, ...] = ()
        if ignore_case:
            form, literal = _REGEX, ""
        else:
            form, literal = classify_regex(source)
            needs = required_runs(source) if form == _REGEX else ()
        entries.append(_Entry(index, written, anchored, source, include, form, literal, needs))
    return CompiledScope(entries, ignore_case=ignore_case, pathspec_version=__version__)


def _fold_name(name: str) -> str:
    """A path component as Windows and case-insensitive volumes see it.

    Trailing dots and spaces are dropped and an NTFS stream suffix (``:name``) is cut, so
    ``.GIT``, ``.git.`` and ``.git::$INDEX_ALLOCATION`` all read as ``.git``.
    """
    return name.split(":", 1)[0].rstrip(". ").casefold()


def builtin_protection(relative: str, *, subtree: bool = False) -> str | None:
    """The built-in protected rule covering a root-relative POSIX path, or None.

    ``.orchestration`` and ``.paw/instructions`` are protected at the root; ``.git`` (a
    directory or a file) at the root and, as ``**/.git/**``, at any depth: a nested
    repository's hooks run code too. ``subtree`` is for an operation on a whole directory
    (``rm -r``, ``mv`` of a directory): then a directory *holding* a protected path (``.paw``,
    the root itself) is protected as well. The root itself is always protected.
    """
    if not relative:
        return ROOT_RULE
    if relative[0] != "." and "/." not in relative:
        return None  # every protected name starts with a dot
    first, _, rest = relative.partition("/")
    first = _fold_name(first)
    if first == ".orchestration":
        return BUILTIN_PROTECTED[0]
    if first == ".git":
        return BUILTIN_PROTECTED[2]
    if first == ".paw":
        if rest:
            if _fold_name(rest.partition("/")[0]) == "instructions":
                return BUILTIN_PROTECTED[1]
        elif subtree:
            return BUILTIN_PROTECTED[1]
    if rest and ".git" in rest.casefold():
        for name in rest.split("/"):
            if _fold_name(name) == ".git":
                return NESTED_GIT_RULE
    return None


def render_patterns(patterns: Iterable[str]) -> str:
    """How a deny message lists the owned scope: as written, joined by ``, ``."""
    return ", ".join(patterns) or "(none)"


def scope_violation_message(intent_id: str, path: str, patterns: Iterable[str]) -> str:
    """The deny reason of DESIGN §5, exactly."""
    return (
        f"Scope Violation: {intent_id} is not authorized to edit {path}. "
        f"Owned scope: {render_patterns(patterns)}. Request scope expansion."
    )


class ScopeDecision:
    """The verdict on one path.

    ``kind`` is one of :data:`KINDS`. ``path`` is the root-relative POSIX path (``.`` for
    the root) or the resolved absolute path when outside the root. ``index`` and ``pattern``
    name the deciding rule: the owned_scope pattern (as written) for ``allowed`` and
    ``excluded``; for ``protected``, the built-in rule (``index`` None) or the governance
    pattern and its index. ``message`` is the contract deny sentence (None when allowed) and
    ``detail`` one sentence saying why, for logs and ``paw-tui check``; both are built on
    first use.
    """

    __slots__ = ("allowed", "kind", "path", "intent_id", "index", "pattern", "scope_text", "given")

    def __init__(
        self,
        kind: str,
        path: str,
        intent_id: str,
        index: int | None = None,
        pattern: str | None = None,
        scope_text: str = "(none)",
        given: str | None = None,
    ) -> None:
        self.allowed = kind == ALLOWED
        self.kind = kind
        self.path = path
        self.intent_id = intent_id
        self.index = index
        self.pattern = pattern
        self.scope_text = scope_text
        """The owned scope as the deny message renders it (:func:`render_patterns`)."""
        self.given = given
        """The path as the caller gave it, when :meth:`ScopeChecker.check` normalised it."""

    @property
    def message(self) -> str | None:
        """The DESIGN §5 deny reason, or None when the path is allowed."""
        if self.allowed:
            return None
        return (
            f"Scope Violation: {self.intent_id} is not authorized to edit {self.path}. "
            f"Owned scope: {self.scope_text}. Request scope expansion."
        )

    @property
    def detail(self) -> str:
        """Why, in one sentence naming the deciding rule."""
        kind = self.kind
        path = self.path
        if kind == OUTSIDE_ROOT:
            given = f"{self.given} resolves to " if self.given is not None else ""
            return f"{given}{path}, outside the workspace root."
        if kind == PROTECTED:
            if self.index is None:
                return f"{path} is protected ({self.pattern}); agents never write it."
            return f"{path} is protected by governance pattern {self.index} '{self.pattern}'."
        if kind == OUT_OF_SCOPE:
            return f"{path} matches no owned_scope pattern."
        if kind == EXCLUDED:
            return f"{path} is excluded by owned_scope pattern {self.index} '{self.pattern}'."
        return f"{path} is owned through pattern {self.index} '{self.pattern}'."

    def to_dict(self) -> dict[str, object]:
        return {
            "allowed": self.allowed,
            "kind": self.kind,
            "path": self.path,
            "intent_id": self.intent_id,
            "index": self.index,
            "pattern": self.pattern,
            "message": self.message,
            "detail": self.detail,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScopeDecision):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"ScopeDecision(kind={self.kind!r}, path={self.path!r}, index={self.index!r}, "
            f"pattern={self.pattern!r})"
        )


class ScopeChecker:
    """Checks paths for one intent in one workspace root.

    ``scope`` is the intent's compiled ``owned_scope``; ``protected`` the compiled
    ``governance.yaml: protected:`` patterns (compile them with ``ignore_case=True``).
    Creation, modification and deletion of a path are all checked the same way.
    """

    __slots__ = ("root", "intent_id", "scope", "protected", "real_root", "scope_text")

    def __init__(
        self,
        root: str,
        intent_id: str,
        scope: CompiledScope,
        *,
        protected: CompiledScope | None = None,
    ) -> None:
        self.root = root
        self.intent_id = intent_id
        self.scope = scope
        self.protected = protected if protected is not None and len(protected) else None
        self.real_root = real_root(root)
        self.scope_text = render_patterns(scope.patterns)

    def check(
        self,
        path: str,
        *,
        cwd: str | None = None,
        subtree: bool = False,
        directory: bool = False,
    ) -> ScopeDecision:
        """Normalise ``path`` (against ``cwd``, default this process's) and decide.

        ``subtree`` marks an operation on a whole directory (``rm -r``; see
        :func:`builtin_protection`). ``directory`` marks the creation of a directory
        (``mkdir``): the path is matched as ``path/``, the way gitignore matches a directory,
        so ``src/auth/**`` and ``build/`` own ``src/auth`` and ``build`` for that purpose.
        Never use it for a deletion: ``!src/build`` would not protect ``src/build/``.
        Raises :class:`paw_tui.core.workspace.paths.PathError` for an empty path or one holding a NUL
        byte; the gate turns that into a deny.
        """
        resolved = resolve_path(path, self.real_root, cwd=cwd, root_is_real=True)
        relative = resolved.relative
        if relative is None:
            return ScopeDecision(
                OUTSIDE_ROOT, resolved.absolute, self.intent_id, None, None, self.scope_text, path
            )
        decision = self.check_relative(relative, subtree=subtree, directory=directory)
        decision.given = path
        return decision

    def check_relative(
        self, relative: str, *, subtree: bool = False, directory: bool = False
    ) -> ScopeDecision:
        """Decide for an already normalised root-relative POSIX path (``""`` is the root)."""
        shown = relative or "."
        rule = builtin_protection(relative, subtree=subtree)
        if rule is not None:
            return ScopeDecision(PROTECTED, shown, self.intent_id, None, rule, self.scope_text)
        protected = self.protected
        if protected is not None:
            include, index = protected.match(relative)
            if include and index is not None:
                return ScopeDecision(
                    PROTECTED,
                    shown,
                    self.intent_id,
                    index,
                    protected.patterns[index],
                    self.scope_text,
                )
        include, index = self.scope.match(relative + "/" if directory else relative)
        if index is None:
            return ScopeDecision(OUT_OF_SCOPE, shown, self.intent_id, None, None, self.scope_text)
        return ScopeDecision(
            ALLOWED if include else EXCLUDED,
            shown,
            self.intent_id,
            index,
            self.scope.patterns[index],
            self.scope_text,
        )
