"""One bash pattern against one name, in time linear in the name for a given pattern.

A pattern holds ``*``, ``?``, bracket expressions (``[a-z]``, ``[!x]``, ``[^x]``,
``[[:alpha:]]``) and escaped characters (``\\*``), as bash reads one path component of a
glob (dotglob off is the caller's rule). A backtracking matcher (a regular expression with a
``.*`` per star) tries every way of sharing the name between the stars:
``*a*a*a*a*a*a*a*a*a*a*c`` against one long name of ``a``\\ s never answers in the time a
client waits for the gate, and a client that times its hook out runs the tool.

Here the pattern is cut at its stars into pieces of fixed length. The first piece must
match at the start of the name and the last at its end; each piece between them is placed
at its leftmost possible position after the one before. That is enough: a later position
only leaves less room for the pieces after it, and the stars on either side take whatever
a piece skips. Each piece is tried at each position at most once, so a match costs at most
``(len(name) + 1) * len(pattern)`` character tests (:class:`Steps` counts them).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Token = str | Callable[[str], object] | None
    """A literal character, a bracket expression's test, or None for ``?``."""

_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "xdigit": "0-9a-fA-F",
    "punct": "!-/:-@\\[-`{-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "print": " -~",
    "graph": "!-~",
    "word": "a-zA-Z0-9_",
}


class Steps:
    """Counts the character tests of the matches it is passed to (tests bound the work
    by counting it, never by timing it)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


def bracket(component: str, j: int) -> tuple[str | None, int]:
    """The bracket expression whose text starts at ``j`` (after ``[``) as a regular
    expression class, and the index after it; None when it is not one (then ``[`` is an
    ordinary character)."""
    import re

    n = len(component)
    negate = j < n and component[j] in "!^"
    if negate:
        j += 1
    items: list[str] = []
    if j < n and component[j] == "]":
        items.append("\\]")
        j += 1
    while j < n:
        c = component[j]
        if c == "]":
            return "[" + ("^" if negate else "") + "".join(items) + "]", j + 1
        if c == "[" and component[j + 1 : j + 2] == ":":
            end = component.find(":]", j + 2)
            if end > 0 and component[j + 2 : end] in _CLASSES:
                items.append(_CLASSES[component[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\" and j + 1 < n:
            j += 1
            c = component[j]
        if component[j + 1 : j + 2] == "-" and j + 2 < n and component[j + 2] != "]":
            items.append(re.escape(c) + "-" + re.escape(component[j + 2]))
            j += 3
            continue
        items.append(re.escape(c))
        j += 1
    return None, j


def _class_test(source: str) -> Callable[[str], object]:
    """The test of one character against a class: a single-character regular expression,
    which cannot backtrack. A class ``re`` refuses (a reversed range, ``[z-a]``) matches
    nothing, as in bash."""
    import re

    try:
        return re.compile(source).fullmatch
    except re.error:
        return lambda char: False


class _Piece:
    """Pattern text between two stars: its tokens, and the text itself when every token is
    a literal character (then ``str`` methods do the comparing)."""

    __slots__ = ("tokens", "literal")

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tuple(tokens)
        self.literal = "".join(tokens) if all(isinstance(t, str) for t in tokens) else None  # type: ignore[arg-type]

    def at(self, name: str, position: int, steps: Steps | None) -> bool:
        """Whether the piece matches ``name`` at ``position`` (the name is long enough)."""
        if steps is not None:
            steps.count += len(self.tokens)
        if self.literal is not None:
            return name.startswith(self.literal, position)
        for offset, token in enumerate(self.tokens):
            char = name[position + offset]
            if token is None:
                continue
            if isinstance(token, str):
                if token != char:
                    return False
            elif not token(char):
                return False
        return True

    def find(self, name: str, start: int, last: int, steps: Steps | None) -> int:
        """The leftmost position from ``start`` to ``last`` where the piece matches; -1."""
        if last < start:
            return -1
        if self.literal is not None:
            if steps is not None:  # what a naive search would compare, at most
                steps.count += (last - start + 1) * len(self.literal)
            return name.find(self.literal, start, last + len(self.literal))
        for position in range(start, last + 1):
            if self.at(name, position, steps):
                return position
        return -1


class ComponentGlob:
    """A compiled pattern for one path component; :meth:`match` tests a name."""

    __slots__ = ("pieces", "starred")

    def __init__(self, pieces: list[_Piece], starred: bool) -> None:
        self.pieces = pieces
        self.starred = starred

    def match(self, name: str, steps: Steps | None = None) -> bool:
        """Whether the whole of ``name`` matches, as bash's pattern matching decides."""
        pieces = self.pieces
        size = len(name)
        if not self.starred:
            piece = pieces[0]
            return len(piece.tokens) == size and piece.at(name, 0, steps)
        first, last = pieces[0], pieces[-1]
        position = len(first.tokens)
        end = size - len(last.tokens)  # where the last piece must start
        if position > end or not first.at(name, 0, steps) or not last.at(name, end, steps):
            return False
        for piece in pieces[1:-1]:
            found = piece.find(name, position, end - len(piece.tokens), steps)
            if found < 0:
                return False
            position = found + len(piece.tokens)
        return True


def compile_component(component: str) -> ComponentGlob:
    """A bash pattern for one path component (quoted characters escaped with ``\\``)."""
    pieces: list[_Piece] = []
    tokens: list[Token] = []
    starred = False
    i = 0
    n = len(component)
    while i < n:
        char = component[i]
        i += 1
        if char == "\\" and i < n:
            tokens.append(component[i])
            i += 1
        elif char == "*":
            pieces.append(_Piece(tokens))
            tokens = []
            starred = True
        elif char == "?":
            tokens.append(None)
        elif char == "[":
            source, end = bracket(component, i)
            if source is None:
                tokens.append("[")
            else:
                tokens.append(_class_test(source))
                i = end
        else:
            tokens.append(char)
    pieces.append(_Piece(tokens))
    return ComponentGlob(pieces, starred)
