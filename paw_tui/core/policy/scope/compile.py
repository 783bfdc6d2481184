"""Compiling owned-scope (or protected) patterns with pathspec, once per YAML change.

The slow path only: pathspec is imported here, and the result is stored in the policy cache
so the gate never imports it (:mod:`paw_tui.core.policy.scope.match`).

Each pattern is translated with pathspec's own ``GitIgnoreSpecPattern.pattern_to_regex`` (what
``GitIgnoreSpec.from_lines`` does for every line) without compiling the regex: most patterns
are matched with string operations, and compiling 20,000 regexes for a 5,000-intent file took
most of the first gate call after an edit. Only a pattern left in regex form is compiled,
once, to prove ``re`` accepts it (pathspec itself would raise on ``[z-a]``). A pattern's
compiled form does not depend on its position, so one process translates each text once.
A rebuild after an edit takes the unchanged patterns' translations from the signed cache of
the previous file (:func:`remember`), so its cost follows what changed, not the file's size.
"""

from __future__ import annotations

from paw_tui.core.policy.scope.forms import DIR_GROUP, FORM_REGEX, Entry
from paw_tui.core.policy.scope.match import FORMAT_VERSION, CompiledScope
from paw_tui.core.policy.scope.patterns import (
    ScopePatternError,
    anchor_pattern,
    check_written,
    classify_regex,
    required_runs,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    Translated = tuple[str, str, bool, str, str, tuple[str, ...]]

_translated: dict[tuple[str, bool], Translated | str] = {}
"""Per (pattern, ignore_case): its translation, or why it is unusable."""
TRANSLATIONS = "translations"
COUNTS = {TRANSLATIONS: 0}
"""Patterns translated in this process (tests count them)."""
MAX_REMEMBERED = 100_000
"""A long-lived process (the TUI) forgets them all past this many, rather than grow."""


_version: list[str] = []


def pathspec_version() -> str:
    if not _version:
        from pathspec import __version__

        _version.append(str(__version__))
    return _version[0]


_GLOB_CHARS = frozenset("*?[\\")


def _literal_regex(anchored: str) -> tuple[str, bool] | None:
    """pathspec's ``(regex, include)`` for an anchored pattern made of literal segments, with
    an optional trailing ``/`` or ``/**``, built without pathspec; None for any other.

    pathspec escapes each literal segment as ``re.escape`` does; the equivalence tests hold
    this function to ``GitIgnoreSpecPattern.pattern_to_regex`` on generated patterns.
    """
    include = not anchored.startswith("!")
    body = anchored.removeprefix("!")[1:]  # anchored: it starts with "/"
    if body != body.rstrip():
        return None  # pathspec trims trailing blanks: leave that to it
    suffix = f"(?:(?P<{DIR_GROUP}>/)|$)"
    if body.endswith("/**"):
        body, suffix = body[:-3], "/"
    elif body.endswith("/"):
        body, suffix = body[:-1], f"(?P<{DIR_GROUP}>/)"
    if not body or not _GLOB_CHARS.isdisjoint(body):
        return None
    import re

    return "^" + re.escape(body) + suffix, include


def _translate(pattern: str, ignore_case: bool) -> Translated | str:
    """``(anchored, regex, include, form, literal, needs)`` or the reason it is unusable."""
    import warnings

    anchored = anchor_pattern(pattern)
    literal_form = _literal_regex(anchored)
    if literal_form is not None:
        source, include = literal_form
    else:
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

        try:
            translated, found_include = GitIgnoreSpecPattern.pattern_to_regex(anchored)
        except ValueError as error:  # pathspec's GitIgnorePatternError
            reason = str(error.__cause__ or error)
            if "Escape character" in reason:
                return "a '\\' at the end of the pattern or before a '/' escapes nothing"
            return reason
        if found_include is None or translated is None:
            return "a '[' is never closed (git discards such a pattern)"
        if not isinstance(translated, str):
            return "pathspec produced an unexpected regex"
        source, include = translated, found_include
    if ignore_case:
        form, literal = FORM_REGEX, ""
    else:
        form, literal = classify_regex(source)
    if form == FORM_REGEX and not _GLOB_CHARS.isdisjoint(pattern.replace("*", "").replace("?", "")):
        # Only a bracket expression (or an escape) can make pathspec emit a regex that re
        # refuses, such as "[z-a]"; the rest is escaped text and fixed fragments.
        import re

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # see match.compile_regex
                groups = re.compile(source).groupindex
        except re.error as error:
            return f"not a valid pattern ({error})"
        if set(groups) - {DIR_GROUP}:
            return "pathspec produced an unexpected regex"
    needs = required_runs(source) if form == FORM_REGEX and not ignore_case else ()
    return (anchored, source, include, form, literal, needs)


def compile_scope(
    patterns: Iterable[str], *, ignore_case: bool = False, label: str = "owned_scope"
) -> CompiledScope:
    """Anchor and compile ``patterns`` as pathspec's ``GitIgnoreSpec`` reads them.

    ``ignore_case`` makes the compiled scope match case-insensitively (protected paths).
    Raises :class:`ScopePatternError` for the first unusable pattern, naming its index.
    """
    entries = []
    for index, pattern in enumerate(patterns):
        found = _translation(index, pattern, ignore_case, label)
        if isinstance(found, str):
            raise ScopePatternError(index, pattern, found, label)
        anchored, source, include, form, literal, needs = found
        entries.append(Entry(index, pattern, anchored, source, include, form, literal, needs))
    return CompiledScope(entries, ignore_case=ignore_case, pathspec_version=pathspec_version())


def _translation(index: int, pattern: object, ignore_case: bool, label: str) -> Translated | str:
    """The pattern's translation, or why it is unusable (remembered per process)."""
    found = _translated.get((pattern, ignore_case)) if isinstance(pattern, str) else None
    if found is None:  # only a pattern check_written accepted is ever remembered
        written = check_written(index, pattern, label)
        if len(_translated) >= MAX_REMEMBERED:
            _translated.clear()
        COUNTS[TRANSLATIONS] += 1
        found = _translated[(written, ignore_case)] = _translate(written, ignore_case)
    return found


def remember(scope: object) -> int:
    """Take the translations a scope compiled earlier holds (``CompiledScope.to_dict`` data
    from a signed policy cache of this version), so compiling those patterns again costs
    nothing: an edit to a 5,000-intent file changes a few patterns, not 20,000. Data from
    another pathspec, or malformed, is ignored. The number of patterns taken."""
    if (
        not isinstance(scope, dict)
        or scope.get("format") != FORMAT_VERSION
        or scope.get("dir_group") != DIR_GROUP
        or scope.get("pathspec") != pathspec_version()
        or not isinstance(scope.get("ignore_case"), bool)
        or not isinstance(scope.get("entries"), list)
    ):
        return 0
    ignore_case: bool = scope["ignore_case"]
    taken = 0
    for entry in scope["entries"]:
        found = _remembered_entry(entry)
        if found is None:
            continue
        pattern, translated = found
        if len(_translated) >= MAX_REMEMBERED:
            break
        _translated.setdefault((pattern, ignore_case), translated)
        taken += 1
    return taken


def _remembered_entry(entry: object) -> tuple[str, Translated] | None:
    if not isinstance(entry, dict):
        return None
    get = entry.get
    pattern, anchored, regex, form, literal = (
        get("pattern"), get("anchored"), get("regex"), get("form"), get("literal")
    )  # fmt: skip
    include, needs = get("include"), get("needs")
    if (
        type(pattern) is not str
        or type(anchored) is not str
        or type(regex) is not str
        or type(form) is not str
        or type(literal) is not str
        or type(include) is not bool
        or type(needs) is not list
    ):
        return None
    runs = tuple(needs)
    for run in runs:
        if type(run) is not str:
            return None
    return pattern, (anchored, regex, include, form, literal, runs)


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable owned-scope pattern, or None when it is (its
    translation is then remembered for :func:`compile_scope`)."""
    try:
        found = _translation(0, pattern, False, "owned_scope")
    except ScopePatternError as exc:
        return exc.reason
    return found if isinstance(found, str) else None
