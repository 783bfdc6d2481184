"""Glob matching in linear time (issue 17): the same answers as before, and as ``fnmatch``
where bash and ``fnmatch`` agree, with the work counted, never timed.

The reference for bash's reading is the regular-expression translation the gate used until
it was found to backtrack (kept here, for small inputs only); the real bash checks are in
``test_expansion.py`` and ``test_bash_table.py``.
"""

from __future__ import annotations

import fnmatch
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from paw_tui.core.policy.shell.glob_match import Steps, bracket, compile_component


def backtracking(component: str) -> str:
    """The translation the gate used before: a regular expression with a ``.*`` per star."""
    out: list[str] = []
    i, n = 0, len(component)
    while i < n:
        char = component[i]
        i += 1
        if char == "\\" and i < n:
            out.append(re.escape(component[i]))
            i += 1
        elif char == "*":
            if not out or out[-1] != ".*":
                out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[":
            source, end = bracket(component, i)
            out.append(source if source is not None else "\\[")
            i = end if source is not None else i
        else:
            out.append(re.escape(char))
    return "(?s:" + "".join(out) + ")\\Z"


def old_answer(component: str, name: str) -> bool | None:
    try:
        return re.match(backtracking(component), name) is not None
    except re.error:
        return None  # the old code crashed (a reversed range): no answer to compare with


PATTERN_PIECES = ["a", "b", "-", "*", "?", "[ab]", "[!a]", "[^b]", "[a-b]", "[]a]", "[", "]"]
PATTERN_PIECES += ["\\*", "\\?", "\\[", "\\", "[[:alpha:]]", "[[:digit:]x]", "[b-a]", "."]
NAME_CHARS = ["a", "b", "-", "]", "[", "*", "?", "\\", "1", ".", "\n"]

patterns = st.lists(st.sampled_from(PATTERN_PIECES), max_size=8).map("".join)
names = st.lists(st.sampled_from(NAME_CHARS), max_size=10).map("".join)


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(pattern=patterns, name=names)
def test_the_same_answer_as_the_backtracking_translation(pattern: str, name: str) -> None:
    expected = old_answer(pattern, name)
    if expected is not None:
        assert compile_component(pattern).match(name) is expected, (pattern, name)


FNMATCH_PIECES = ["a", "b", "-", "*", "?", "[ab]", "[!a]", "[a-b]", "[]a]", "[!]a]", "[", "]"]


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(
    pattern=st.lists(st.sampled_from(FNMATCH_PIECES), max_size=8).map("".join),
    name=st.lists(st.sampled_from(["a", "b", "-", "]", "["]), max_size=10).map("".join),
)
def test_the_same_answer_as_fnmatch_where_bash_and_fnmatch_agree(pattern: str, name: str) -> None:
    """No backslash (an escape to bash, a character to fnmatch), no ``[^`` (negation to
    bash, a caret to fnmatch), no character class."""
    assert compile_component(pattern).match(name) is fnmatch.fnmatchcase(name, pattern), (
        pattern,
        name,
    )


def counted(pattern: str, name: str) -> tuple[bool, int]:
    steps = Steps()
    return compile_component(pattern).match(name, steps), steps.count


def test_the_stalling_pattern_costs_at_most_name_times_pattern() -> None:
    """``*a*a*a*a*a*a*a*a*a*a*c`` against a long name of ``a``: a backtracking matcher
    tries every split (about n^10); this one at most (n + 1) x len(pattern) tests."""
    pattern = "*a" * 10 + "*c"
    for size in (50, 200, 255, 4000):
        name = "a" * size
        matched, steps = counted(pattern, name)
        assert not matched
        assert steps <= (size + 1) * len(pattern)
    assert counted(pattern, "a" * 30 + "c")[0]


def test_bracket_pieces_are_linear_too() -> None:
    """Pieces that are not plain text (``?``, classes) are tested position by position."""
    pattern = "*[ab]?" * 8 + "*[c]"
    for size in (100, 1000):
        matched, steps = counted(pattern, "ab" * size)
        assert not matched
        assert steps <= (2 * size + 1) * len(pattern)


def test_doubling_the_name_at_most_doubles_the_work() -> None:
    pattern = "*a*b*a*b*a*b*c"
    _, small = counted(pattern, "ab" * 500)
    _, large = counted(pattern, "ab" * 1000)
    assert large <= 2 * small + len(pattern)


def test_a_reversed_range_matches_nothing() -> None:
    """bash: ``[b-a]`` matches no character (the old translation crashed on it)."""
    assert not compile_component("[b-a]").match("a")
    assert not compile_component("x[b-a]").match("xb")
    assert compile_component("[b-a]*").match("[b-a]") is False
