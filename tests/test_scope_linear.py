"""Scope matching in bounded time (issue 17): work is counted, never timed.

A pattern an agent asked for and a person granted (``src/*a*a*a*a*a*a*a*a*c``) against a
long path an agent chose made ``re`` backtrack past any client's hook timeout. The regexes
that can backtrack run on the Pike VM of :mod:`paw_tui.core.policy.scope.linear`, whose steps
are bounded by the path's length times the program's; the others (one repetition at most)
stay on ``re``. Equivalence with ``re.search`` and pathspec is in
``test_scope_equivalence.py``.
"""

from __future__ import annotations

import pytest

from paw_tui.core.policy.scope.compile import compile_scope
from paw_tui.core.policy.scope.forms import MISS, backtracks_little
from paw_tui.core.policy.scope.linear import LinearSearch, Steps, compile_linear

STALLING = "src/" + "*a" * 10 + "*c"


def regex_of(pattern: str) -> str:
    (entry,) = compile_scope([pattern]).entries
    return entry.regex


def counted(search: LinearSearch, path: str) -> tuple[int, int]:
    steps = Steps()
    return search.search(path, steps), steps.count


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        (STALLING, "src/" + "a" * 4000 + "c.x"),
        ("**/" + "*a" * 8 + "*c", "a/" * 500 + "a" * 1000),
        ("src/**/" + "*a" * 6 + "/**/x", "src/" + "aa/" * 700),
        ("a/**/b/**/c/**/d", "a/" + "b/c/" * 600 + "e"),
    ],
)
def test_a_search_costs_at_most_path_times_program(pattern: str, path: str) -> None:
    source = regex_of(pattern)
    assert not backtracks_little(source)  # these are the ones re must not run
    search = compile_linear(source, False)
    verdict, steps = counted(search, path)
    assert verdict == MISS
    # per position: each instruction once in the closure and once reading the character
    assert steps <= 2 * (len(path) + 1) * len(search.program)


def test_doubling_the_path_at_most_doubles_the_work() -> None:
    search = compile_linear(regex_of(STALLING), False)
    _, small = counted(search, "src/" + "a" * 1000 + "c.x")
    _, large = counted(search, "src/" + "a" * 2000 + "c.x")
    assert large <= 2 * small + 2 * len(search.program)


def test_re_keeps_the_patterns_it_cannot_backtrack_on() -> None:
    """One ``**`` and one ``*`` per segment at most, no class that matches a ``/``."""
    for pattern in (
        "src/*.py",
        "**/x",
        "docs/**",
        "src/auth/**",
        "*.md",
        "src/api/v[12]/**",
        "docs/**/*.md",
        "src/**/test_*.py",
        "!web/static/**/*.map",
        "a*/b*/**/c*d",
    ):
        assert backtracks_little(regex_of(pattern)), pattern
    for pattern in (STALLING, "a/**/b/**/c", "src/*a*b", "src/a[!x]*", "src/x[--0]y*"):
        assert not backtracks_little(regex_of(pattern)), pattern


def test_a_granted_stalling_pattern_answers_on_a_long_path() -> None:
    """Through the compiled scope as the gate uses it: the step-by-step walk (a scope with
    such a pattern never builds the per-directory alternation, which re would run)."""
    scope = compile_scope(["src/auth/**", STALLING]).prepare()
    long_name = "src/" + "a" * 4000 + "c.x"
    assert scope.match(long_name) == (None, None)
    assert scope.match("src/auth/x.py") == (True, 0)
    assert scope.match("src/" + "a" * 12 + "c") == (True, 1)
