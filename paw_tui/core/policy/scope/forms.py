"""What a compiled scope pattern looks like, and how its regular expression is searched.

Shared by the matcher (:mod:`~paw_tui.core.policy.scope.match`), the per-directory plans
(:mod:`~paw_tui.core.policy.scope.combined`), the linear search, the compiler and the
pattern reader, so none of them needs another's module for its vocabulary: the forms an
entry takes, what a search answers, and :class:`Entry` itself. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs ~25 ms at import; the hot paths never pay for it
    import re
    from collections.abc import Callable

    Search = Callable[[str], int]
    """A compiled pattern's search: :data:`MISS`, :data:`FILE` or :data:`DIRECTORY`."""
    Joined = Callable[[str], "re.Match[str] | None"]
    """A per-directory matcher: one regex, an alternative per name-dependent pattern."""
    DirPlan = tuple[
        Joined | None, list[tuple[bool, int, int] | None], tuple[bool | None, int | None]
    ]
    """What :func:`~paw_tui.core.policy.scope.combined.dir_plan` makes of one directory."""

DIR_GROUP = "ps_d"
"""pathspec's regex group marking a match made by a directory pattern."""
DIR_SUFFIX = f"(?P<{DIR_GROUP}>/)"
"""How pathspec ends a directory pattern (``build/``)."""
PATH_SUFFIX = f"(?:(?P<{DIR_GROUP}>/)|$)"
"""How pathspec ends a pattern that matches a file or a directory (``build``)."""

# How an entry is matched. Every form gives the answer ``regex.search`` gives.
FORM_REGEX = "regex"  # the regex, compiled on first use, after the literal pre-filters
FORM_ANY = "any"  # ".": any path holding a character other than a newline
FORM_UNDER = "under"  # "^L" with L literal (from "L/**"): path starts with L
FORM_DIR = "dir"  # "^L(?P<ps_d>/)" (from "L/"): starts with L + "/", directory match
FORM_PATH = "path"  # "^L(?:(?P<ps_d>/)|$)" (from "L"): L itself, or below it as a directory
FORMS = (FORM_REGEX, FORM_ANY, FORM_UNDER, FORM_DIR, FORM_PATH)

MISS = 0
"""The pattern does not match the path."""
FILE = 1
"""The pattern matches the path itself (not through its directory group)."""
DIRECTORY = 2
"""The pattern matches the path as below a directory it names (its ``ps_d`` group took part)."""


def compile_regex(source: str, ignore_case: bool) -> re.Pattern[str]:
    import re
    import warnings

    with warnings.catch_warnings():
        # "[[ab]" is a glob bracket holding "[": re warns it may read it as a nested set one day
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(source, re.IGNORECASE if ignore_case else 0)


def backtracks_little(source: str) -> bool:
    """Whether ``re`` searches ``source`` (pathspec's regex for one pattern) in time linear in
    the path, so it may run it; otherwise :mod:`~paw_tui.core.policy.scope.linear` does.

    pathspec writes a segment's ``*`` as ``[^/]*`` (``[^/]+`` alone), which cannot cross a
    ``/``, and ``**`` as ``.+`` between slashes. With at most one ``*`` in each segment,
    each segment of a path can be shared with the pattern's segment in one way only (the
    star takes what is left before the ``/`` or the end), so ``re`` never retries a segment
    more than its length times; one ``**`` multiplies that by the number of places it can
    stop, each trying the few segments after it: still linear. Two ``**``, two stars in a
    segment, a repetition of anything else, a bracket expression that matches a ``/``
    (``[!a]`` does) or an unanchored repetition make the tries multiply: not linear.
    """
    deep = 0
    stars = 0
    i, end = 0, len(source)
    if not source.startswith("^"):
        return "*" not in source and "+" not in source
    while i < end:
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            close = bracket_end(source, i)
            bracket = source[i:close]
            i = close
            repeated = i < end and source[i] in "*+"
            if bracket == "[^/]":
                if repeated:
                    stars += 1
                    i += 1
                    if stars > 1:
                        return False
                continue
            if repeated or _matches_slash(bracket):
                return False
            continue
        if char == ".":
            if source[i + 1 : i + 2] != "+":
                return False  # one character that may be a "/": not pathspec's
            deep += 1
            if deep > 1:
                return False
            stars = 0  # ".+" ends at a "/" (or at the path's end): a new segment
            i += 2
            continue
        if char == "*" or char == "+" or char == "{":
            return False  # a repetition of something else
        if char == "/":
            stars = 0
        i += 1
    return True


def bracket_end(source: str, start: int) -> int:
    """The index after the bracket expression starting at ``start``, as ``re`` reads it."""
    i = start + 1
    if i < len(source) and source[i] == "^":
        i += 1
    if i < len(source) and source[i] == "]":
        i += 1
    while i < len(source) and source[i] != "]":
        i += 2 if source[i] == "\\" else 1
    return i + 1


def _matches_slash(bracket: str) -> bool:
    try:
        return compile_regex(bracket, False).fullmatch("/") is not None
    except Exception:  # re.error: whatever it is, not a class to trust re with
        return True


class Entry:
    """One compiled pattern. ``search`` is its regex's search
    (:func:`~paw_tui.core.policy.scope.linear.searcher`: linear in the path), bound on first
    use."""

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
