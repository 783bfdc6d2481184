"""Per-directory matchers for a scope that checks many paths (drift comparison, ``check``).

For the files of one directory ``D``, most patterns decide before the file's name is read:
``src/auth/**`` matches every file under ``src/auth/`` and none elsewhere, ``build/`` makes
every file under ``build/`` a directory match, a pattern whose literal prefix leads elsewhere
matches nothing. :func:`dir_plan` walks the patterns as pathspec does (last first) for ``D``:
it keeps those that depend on the name (globs, a literal file name), in order, until one
decides for every file there. The name-dependent ones become one regex, an alternative each,
tried first; when none matches, the directory's own verdict stands. A scope prepares these
only when every pattern's regex is one ``re`` cannot backtrack on at length
(:func:`~paw_tui.core.policy.scope.forms.backtracks_little`), so their alternation cannot. A match through a
directory group (pathspec's priority rule) is left to the step-by-step walk of
:meth:`~paw_tui.core.policy.scope.match.CompiledScope.match_relative`.

The equivalence tests check a prepared scope against pathspec like the plain one.
"""

from __future__ import annotations

from paw_tui.core.policy.scope.forms import (
    DIR_GROUP,
    DIR_SUFFIX,
    DIRECTORY,
    FORM_ANY,
    FORM_DIR,
    FORM_PATH,
    FORM_REGEX,
    FORM_UNDER,
    MISS,
    PATH_SUFFIX,
    compile_regex,
)
from paw_tui.core.policy.scope.linear import searcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw_tui.core.policy.scope.forms import DirPlan, Entry, Joined

    Table = list[tuple[bool, int, int] | None]


def _reaches(literal: str, prefix: str) -> bool:
    """Whether a path ``prefix + name`` (a name without ``/``) can start with ``literal``."""
    if len(literal) <= len(prefix):
        return prefix.startswith(literal)
    return literal.startswith(prefix) and "/" not in literal[len(prefix) :]


def fixed_segments(source: str) -> int | None:
    """How many path segments every match of ``source`` spans before its directory suffix,
    when that number is fixed (``^src/[^/]*\\.py`` + suffix: 2); None when it is not (``**``
    becomes ``.+``, or any other construct that can cross a ``/``)."""
    for suffix in (PATH_SUFFIX, DIR_SUFFIX):
        if source.endswith(suffix) and source.startswith("^"):
            body = source[1 : -len(suffix)]
            break
    else:
        return None
    count, i, end = 1, 0, len(body)
    while i < end:
        char = body[i]
        if char == "\\":
            i += 2
        elif char == "[":
            close = i + 1
            if close < end and body[close] == "^":
                close += 1
            if close < end and body[close] == "]":
                close += 1
            while close < end and body[close] != "]":
                close += 2 if body[close] == "\\" else 1
            negated = body[i + 1 : i + 2] == "^"
            if ("/" in body[i + 1 : close]) != negated:
                # a class that could match a "/": one naming it, or a negated one that does
                # not exclude it (pathspec turns "[!a]" into "[^a]", which matches a "/")
                return None
            i = close + 1
        elif char in ".()|":
            return None
        else:
            count += char == "/"
            i += 1
    return count


def dir_plan(
    entries: Sequence[Entry],
    prefix: str,
    ignore_case: bool,
    combined: dict[tuple[int, ...], tuple[Joined, Table]],
) -> DirPlan:
    """``(matcher of the name-dependent patterns or None, its table, the directory's own
    verdict)`` for the files directly in the directory ``prefix`` (``src/auth/``; ``""``
    is the root). ``combined`` keeps the regexes built so far by the patterns they join:
    most directories of a tree need one of a few sets, compiled once."""
    by_name: list[Entry] = []
    decided: tuple[bool | None, int | None] = (None, None)
    by_dir: Entry | None = None
    for entry in sorted(entries, key=lambda entry: entry.index, reverse=True):
        literal, form = entry.literal, entry.form
        if not _reaches(literal, prefix):
            continue
        inside = bool(prefix)
        if inside and (
            (form == FORM_UNDER and literal.endswith("/") and prefix.startswith(literal))
            or form == FORM_ANY  # the path holds a "/", a character other than a newline
        ):
            decided = (entry.include, entry.index)
            break
        if form == FORM_DIR or (form == FORM_PATH and inside and prefix.startswith(literal + "/")):
            # "L/" matches below L only (a name holds no "/"); "L" below L is a directory match
            if inside and prefix.startswith(literal + "/") and by_dir is None:
                by_dir = entry
            continue
        if form == FORM_REGEX and not ignore_case:
            # a pattern spanning a fixed number of segments, say k, either needs the file's
            # name (the directory has k - 1 segments), or is settled by the directory alone:
            # it cannot match (fewer), or matches as a directory or not at all (as many or more)
            spans = fixed_segments(entry.regex)
            depth = prefix.count("/")
            if spans is not None and depth + 1 != spans:
                if depth + 1 < spans:
                    continue
                verdict = searcher(entry.regex, False)(prefix)
                if verdict == MISS:
                    continue
                if verdict == DIRECTORY:
                    by_dir = by_dir or entry
                    continue
        by_name.append(entry)
    if decided == (None, None) and by_dir is not None:
        decided = (by_dir.include, by_dir.index)
    if not by_name:
        return None, [None], decided
    key = tuple(entry.index for entry in by_name)
    found_before = combined.get(key)
    if found_before is None:
        found_before = combined[key] = _combine(by_name, ignore_case)
    matcher, table = found_before
    return matcher, table, decided


def _combine(entries: Sequence[Entry], ignore_case: bool) -> tuple[Joined, Table]:
    """One regex whose alternatives are ``entries`` in order, and per alternative's group
    number ``(include, index, mode)``: mode 0, this pattern decides; otherwise the number of
    its directory group, and it decides unless that group took part.

    Alternation tries the alternatives in order and the first that matches at the start
    wins: the last matching pattern. A literal path ``L`` is ``L$`` here (below ``L`` was
    settled for the directory). ``.`` (``regex.search``) becomes its anchored equivalent: a
    character other than a newline after any newlines.
    """
    parts = []
    for entry in entries:
        number = entry.index
        source = entry.regex
        if entry.form == FORM_PATH and source.endswith(PATH_SUFFIX):
            parts.append(f"(?P<e{number}>{source[: -len(PATH_SUFFIX)]}$)")
            continue
        if source == ".":
            source = r"\n*[^\n]"
        source = source.replace(f"(?P<{DIR_GROUP}>", f"(?P<d{number}>")
        parts.append(f"(?P<e{number}>{source})")
    regex = compile_regex("|".join(parts), ignore_case)
    names = regex.groupindex
    table: Table = [None] * (regex.groups + 1)
    for entry in entries:
        number = entry.index
        table[names[f"e{number}"]] = (entry.include, number, names.get(f"d{number}", 0))
    return regex.match, table
