"""Scope patterns as written, and what their compiled regular expressions look like.

Patterns are gitignore syntax evaluated as pathspec's ``GitIgnoreSpec`` does, with one change
made before pathspec sees them: every pattern is **anchored at the workspace root**
(:func:`anchor_pattern`). A pattern is rejected, naming its index (0-based) and text, when
pathspec rejects it (a trailing ``\\``), when pathspec would silently ignore it (an
unterminated ``[``, a lone ``/``), when it is blank, starts with ``#`` (a comment in a
``.gitignore``; write ``\\#`` for a literal ``#``), has nothing after the ``!``, or holds an
empty, ``.`` or ``..`` segment (valid gitignore, but dead against the normalised paths the
gate checks).

:func:`classify_regex` and :func:`required_runs` read pathspec's regex sources so most
patterns can be matched with string operations and the rest only after cheap, sound
pre-filters (see :mod:`paw_tui.core.policy.scope.match`). Standard library only.
"""

from __future__ import annotations

from paw_tui.core.errors import ValidationError
from paw_tui.core.policy.scope.forms import (
    DIR_SUFFIX,
    FORM_ANY,
    FORM_DIR,
    FORM_PATH,
    FORM_REGEX,
    FORM_UNDER,
    PATH_SUFFIX,
)

_REGEX_SPECIALS = frozenset(".^$*+?{}[]|()")
_QUANTIFIERS = frozenset("*+?{")


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


def anchor_pattern(pattern: str) -> str:
    """The pattern as handed to pathspec: anchored at the root, a leading ``!`` kept."""
    negated = pattern.startswith("!")
    body = pattern.removeprefix("!")
    if not body.startswith("/"):
        body = "/" + body
    return "!" + body if negated else body


def check_written(index: int, pattern: object, label: str) -> str:
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
        return FORM_ANY, ""
    if not source.startswith("^"):
        return FORM_REGEX, ""
    literal, stop = _literal_prefix(source, 1)
    if stop < 0:
        return FORM_REGEX, literal
    rest = source[stop:]
    if literal and not rest:
        return FORM_UNDER, literal
    if literal and rest == DIR_SUFFIX:
        return FORM_DIR, literal
    if literal and rest == PATH_SUFFIX:
        return FORM_PATH, literal
    return FORM_REGEX, literal


def required_runs(source: str) -> tuple[str, ...]:  # noqa: C901 - one pass of a small scanner over a regex source; its states read best together
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
