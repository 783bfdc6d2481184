"""Searching pathspec's regular expressions in time linear in the path.

A path is agent-controlled and may be long, and a pattern may be one an agent asked for and
a person granted: :func:`searcher` never lets a backtracking engine near a regular
expression that could backtrack on it. A source with at most one unbounded repetition
(``*`` or ``+``: ``src/*.py``, ``**/x``, ``docs/**``) cannot make ``re`` try more than the
path's length times the pattern's, so ``re`` runs it at C speed; any other
(``src/**/test_*.py``, ``*a*a*a*a*a*a*c``) runs on :class:`LinearSearch`.

pathspec turns a gitignore pattern into a regular expression that ``re`` runs by
backtracking: ``src/*a*a*a*a*a*a*a*a*c`` becomes ``^src/[^/]*a[^/]*a...`` and a long file name
of ``a`` makes ``re`` try every way of sharing it between the stars, which never ends in the
time a client waits for its hook. Here the same expression is compiled for a Pike VM
(Thompson's simulation, with threads kept in priority order): every position of the path is
visited once, with at most one thread per instruction, so a search costs at most
``(len(path) + 1) * len(program)`` steps, whatever the pattern.

Keeping the threads in the order a backtracking engine would try them makes the answer the
one ``re.search`` gives, down to whether the directory group (``ps_d``) took part in the match
it reports (pathspec's priority rule depends on it). The syntax understood is what pathspec and
:mod:`~paw_tui.core.policy.scope.compile` write: literal and escaped characters, ``.``,
bracket expressions (each tested by ``re`` on one character, so their meaning, case folding
included, is ``re``'s), ``^``, ``$``, groups (``(?:...)``, ``(?P<name>...)``), ``|`` and the
greedy ``*``, ``+``, ``?``. Anything else is :class:`Unsupported`.
"""

from __future__ import annotations

from paw_tui.core.policy.scope.forms import (
    DIR_GROUP,
    DIRECTORY,
    FILE,
    MISS,
    backtracks_little,
    bracket_end,
    compile_regex,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.policy.scope.forms import Search

    Test = Callable[[str], object]
    Node = tuple[object, ...]

# instructions: (code, argument, argument)
_CHAR = 0  # one character equal to the argument
_TEST = 1  # one character the argument (a function) accepts
_ANY = 2  # one character other than a newline
_SPLIT = 3  # go on at both arguments, the first preferred
_JUMP = 4  # go on at the argument
_BEGIN = 5  # only at the start of the path
_END = 6  # only at its end, or before a newline that ends it (``$``)
_MARK = 7  # the directory group closes here
_MATCH = 8
_OTHER = 9  # one character other than the argument (``[^/]``, most of pathspec's classes)


class Unsupported(ValueError):
    """A regular expression using syntax pathspec does not write."""


class Steps:
    """Counts a search's steps (tests bound the work by counting it, never by timing it)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


class _Parser:
    """Recursive descent over the supported syntax, into a small tree of tuples."""

    def __init__(self, source: str, ignore_case: bool) -> None:
        self.source = source
        self.ignore_case = ignore_case
        self.i = 0

    def parse(self) -> Node:
        node = self.alternation()
        if self.i != len(self.source):
            raise Unsupported(f"unexpected {self.source[self.i]!r} at {self.i}")
        return node

    def alternation(self) -> Node:
        branches = [self.sequence()]
        while self.i < len(self.source) and self.source[self.i] == "|":
            self.i += 1
            branches.append(self.sequence())
        return ("alt", branches) if len(branches) > 1 else branches[0]

    def sequence(self) -> Node:
        items: list[Node] = []
        source = self.source
        while self.i < len(source) and source[self.i] not in "|)":
            atom = self.atom()
            if self.i < len(source) and source[self.i] in "*+?":
                quantifier = source[self.i]
                self.i += 1
                if self.i < len(source) and source[self.i] in "?+":
                    raise Unsupported("lazy or possessive repetition")
                atom = ("repeat", quantifier, atom)
            elif self.i < len(source) and source[self.i] == "{":
                raise Unsupported("counted repetition")
            items.append(atom)
        return ("seq", items)

    def atom(self) -> Node:
        source = self.source
        char = source[self.i]
        self.i += 1
        if char == "^":
            return ("begin",)
        if char == "$":
            return ("end",)
        if char == ".":
            return ("any",)
        if char == "[":
            if self.source.startswith("^/]", self.i):  # pathspec's "any but a slash"
                self.i += 3
                return ("other", "/")
            return ("test", self._bracket())
        if char == "(":
            return self._group()
        if char == "\\":
            if self.i >= len(source):
                raise Unsupported("a trailing backslash")
            char = source[self.i]
            self.i += 1
            if char.isascii() and char.isalnum():
                raise Unsupported(f"the escape \\{char}")
        elif char in "*+?{})":
            raise Unsupported(f"{char!r} with nothing to repeat")
        return self._literal(char)

    def _literal(self, char: str) -> Node:
        if self.ignore_case:  # re's case folding has special cases: let re decide
            return ("test", _one_character(_escape(char), True))
        return ("char", char)

    def _bracket(self) -> Test:
        start = self.i - 1
        end = bracket_end(self.source, start)
        if end > len(self.source):
            raise Unsupported("an unterminated bracket expression")
        self.i = end
        return _one_character(self.source[start:end], self.ignore_case)

    def _group(self) -> Node:
        source = self.source
        named = None
        if source.startswith("?:", self.i):
            self.i += 2
        elif source.startswith("?P<", self.i):
            end = source.find(">", self.i)
            if end < 0:
                raise Unsupported("an unterminated group name")
            named = source[self.i + 3 : end]
            self.i = end + 1
        elif source.startswith("?", self.i):
            raise Unsupported("a group extension")
        inner = self.alternation()
        if self.i >= len(source) or source[self.i] != ")":
            raise Unsupported("an unclosed group")
        self.i += 1
        return ("group", named == DIR_GROUP, inner)


def _escape(char: str) -> str:
    import re

    return re.escape(char)


def _one_character(source: str, ignore_case: bool) -> Test:
    """``re``'s own test of one character against a single-character expression."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        try:
            return compile_regex(source, ignore_case).fullmatch
        except Exception as error:  # re.error: what re refuses, pathspec's users never see
            raise Unsupported(str(error)) from None


class _Emitter:
    """Thompson's construction: a node tree into a list of instructions."""

    def __init__(self) -> None:
        self.program: list[list[object]] = []

    def emit(self, code: int, first: object = None, second: object = None) -> int:
        self.program.append([code, first, second])
        return len(self.program) - 1

    def node(self, node: Node) -> None:  # noqa: C901 - one case per node kind
        kind = node[0]
        if kind == "char":
            self.emit(_CHAR, node[1])
        elif kind == "test":
            self.emit(_TEST, node[1])
        elif kind == "other":
            self.emit(_OTHER, node[1])
        elif kind == "any":
            self.emit(_ANY)
        elif kind == "begin":
            self.emit(_BEGIN)
        elif kind == "end":
            self.emit(_END)
        elif kind == "seq":
            for item in node[1]:  # type: ignore[attr-defined]
                self.node(item)
        elif kind == "group":
            self.node(node[2])  # type: ignore[arg-type]
            if node[1]:
                self.emit(_MARK)
        elif kind == "alt":
            branches: list[Node] = node[1]  # type: ignore[assignment]
            jumps = []
            for index, branch in enumerate(branches):
                if index < len(branches) - 1:
                    split = self.emit(_SPLIT)
                    self.program[split][1] = len(self.program)
                    self.node(branch)
                    jumps.append(self.emit(_JUMP))
                    self.program[split][2] = len(self.program)
                else:
                    self.node(branch)
            for jump in jumps:
                self.program[jump][1] = len(self.program)
        else:  # repeat
            quantifier, inner = node[1], node[2]
            if quantifier == "*":
                split = self.emit(_SPLIT, len(self.program) + 1)
                self.node(inner)  # type: ignore[arg-type]
                self.emit(_JUMP, split)
                self.program[split][2] = len(self.program)
            elif quantifier == "+":
                start = len(self.program)
                self.node(inner)  # type: ignore[arg-type]
                self.emit(_SPLIT, start, len(self.program) + 1)
            else:  # "?"
                split = self.emit(_SPLIT, len(self.program) + 1)
                self.node(inner)  # type: ignore[arg-type]
                self.program[split][2] = len(self.program)


class LinearSearch:
    """A compiled expression; :meth:`search` is ``re.search`` in linear time, answering
    :data:`MISS`, :data:`FILE` or :data:`DIRECTORY` (the directory group took part)."""

    __slots__ = ("program", "anchored")

    def __init__(self, program: list[tuple[int, object, object]]) -> None:
        self.program = program
        self.anchored = program[0][0] == _BEGIN

    def search(self, path: str, steps: Steps | None = None) -> int:  # noqa: C901 - the VM's loop, one frame
        program = self.program
        size = len(path)
        found = MISS
        threads = self._closure([(0, False)], 0, size, path, steps)
        position = 0
        while True:
            following: list[tuple[int, bool]] = []
            char = path[position] if position < size else ""
            for pc, marked in threads:
                code, argument, _ = program[pc]
                if code == _MATCH:
                    found = DIRECTORY if marked else FILE
                    break  # the threads after this one would only give a later-ranked match
                if position >= size:
                    continue
                if steps is not None:
                    steps.count += 1
                if code == _CHAR:
                    if char == argument:
                        following.append((pc + 1, marked))
                elif code == _OTHER:
                    if char != argument:
                        following.append((pc + 1, marked))
                elif code == _ANY:
                    if char != "\n":
                        following.append((pc + 1, marked))
                elif argument(char):  # type: ignore[operator]
                    following.append((pc + 1, marked))
            if position >= size:
                return found
            position += 1
            if found == MISS and not self.anchored:
                following.append((0, False))  # re.search: a match may start here too
            if not following:
                return found
            threads = self._closure(following, position, size, path, steps)

    def _closure(
        self,
        starts: list[tuple[int, bool]],
        position: int,
        size: int,
        path: str,
        steps: Steps | None,
    ) -> list[tuple[int, bool]]:
        """The threads ``starts`` lead to without reading a character, in priority order,
        one per instruction (the first to reach an instruction is the one ``re`` would try)."""
        program = self.program
        seen: set[int] = set()
        out: list[tuple[int, bool]] = []
        for start in starts:
            stack = [start]
            while stack:
                pc, marked = stack.pop()
                if pc in seen:
                    continue
                seen.add(pc)
                if steps is not None:
                    steps.count += 1
                code, first, second = program[pc]
                if code == _SPLIT:
                    stack.append((second, marked))  # type: ignore[arg-type]
                    stack.append((first, marked))  # type: ignore[arg-type]
                elif code == _JUMP:
                    stack.append((first, marked))  # type: ignore[arg-type]
                elif code == _BEGIN:
                    if position == 0:
                        stack.append((pc + 1, marked))
                elif code == _END:
                    if position == size or (position == size - 1 and path[position] == "\n"):
                        stack.append((pc + 1, marked))
                elif code == _MARK:
                    stack.append((pc + 1, True))
                else:
                    out.append((pc, marked))
        return out


def compile_linear(source: str, ignore_case: bool) -> LinearSearch:
    """``source`` compiled for :class:`LinearSearch`; :class:`Unsupported` for syntax
    pathspec does not write."""
    emitter = _Emitter()
    emitter.node(_Parser(source, ignore_case).parse())
    emitter.emit(_MATCH)
    return LinearSearch([(code, first, second) for code, first, second in emitter.program])  # type: ignore[misc]


def searcher(source: str, ignore_case: bool) -> Search:
    """The search of one pattern's regular expression, in time linear in the path."""
    if not backtracks_little(source):
        try:
            return compile_linear(source, ignore_case).search
        except Unsupported:
            pass  # not pathspec's output (nothing it writes is refused): re, as before
    compiled = compile_regex(source, ignore_case)
    search = compiled.search
    if DIR_GROUP not in compiled.groupindex:

        def run(path: str) -> int:
            return MISS if search(path) is None else FILE

        return run

    def run_with_group(path: str) -> int:
        found = search(path)
        if found is None:
            return MISS
        return DIRECTORY if found.group(DIR_GROUP) else FILE

    return run_with_group
