"""The syntax tree the parser builds: plain ``__slots__`` classes, no behaviour.

A :class:`Word` keeps its source text (``raw``, which brace expansion works on, as bash's
does) and its pieces after lexing (``parts``): literal text marked quoted or not, and the
expansions bash would perform (``$NAME``, ``${...}``, ``$(...)``, backquotes, ``$((...))``,
``<(...)``/``>(...)``), with the commands inside substitutions already parsed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Union

    Node = Union[
        "Simple",
        "Group",
        "If",
        "Loop",
        "For",
        "ArithFor",
        "Case",
        "Arith",
        "Cond",
        "Coproc",
        "FuncDef",
    ]

# Part kinds (ints, not an enum: enum is too slow to import in a hook process)
LIT = 0  # literal text (``quoted`` tells whether quoting protected it)
PARAM = 1  # $NAME, ${NAME}, $1, $@ ... (text: the name)
PARAMX = 2  # any other ${...} (text: the source; body: the parts of nested expansions)
CMDSUB = 3  # $(...) or `...` (text: the source; body: the parsed commands)
ARITH = 4  # $((...)) or $[...] (text: the source; body: the parts of nested expansions)
PROCSUB = 5  # <(...) or >(...) (text: the source; body: the parsed commands)
ARRAY = 6  # the (...) of NAME=(...) (body: the element words)
EXTGLOB = 7  # ?(...) *(...) +(...) @(...) !(...) with extglob on (text: the source)


class Part:
    """One piece of a word."""

    __slots__ = ("kind", "text", "quoted", "body")

    def __init__(self, kind: int, text: str, quoted: bool, body: object = None) -> None:
        self.kind = kind
        self.text = text
        self.quoted = quoted
        # CommandList for CMDSUB/PROCSUB, list[Part] for PARAMX/ARITH, list[Word] for ARRAY
        self.body = body

    def __repr__(self) -> str:
        return f"Part({self.kind}, {self.text!r}, quoted={self.quoted})"


class Word:
    """A shell word: its source text and its lexed parts."""

    __slots__ = ("raw", "parts", "pos")

    def __init__(self, raw: str, parts: list[Part], pos: int) -> None:
        self.raw = raw
        self.parts = parts
        self.pos = pos

    def __repr__(self) -> str:
        return f"Word({self.raw!r})"


class Heredoc:
    """A here-document body: data, though an unquoted one has expansions (``parts``)."""

    __slots__ = ("delimiter", "quoted", "strip_tabs", "body", "parts", "broken")

    def __init__(self, delimiter: str, quoted: bool, strip_tabs: bool) -> None:
        self.delimiter = delimiter
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.body = ""
        self.parts: list[Part] = []
        self.broken = False  # an expansion in it cannot be parsed (bash fails it when run)


class Redirect:
    """``[fd|{name}]op target``; ``heredoc`` for ``<<`` and ``<<-``."""

    __slots__ = ("fd", "name", "op", "target", "heredoc")

    def __init__(
        self,
        fd: int | None,
        name: str | None,
        op: str,
        target: Word,
        heredoc: Heredoc | None = None,
    ) -> None:
        self.fd = fd
        self.name = name
        self.op = op
        self.target = target
        self.heredoc = heredoc


class Assign:
    """``NAME=value``, ``NAME+=value`` or ``NAME=(...)`` (``array``)."""

    __slots__ = ("name", "value", "array", "append", "word")

    def __init__(
        self, name: str, value: Word | None, array: list[Word] | None, append: bool, word: Word
    ) -> None:
        self.name = name
        self.value = value
        self.array = array
        self.append = append
        self.word = word


class Simple:
    """A simple command: assignments, words and redirections in source order."""

    __slots__ = ("assigns", "words", "redirects")

    def __init__(self, assigns: list[Assign], words: list[Word], redirects: list[Redirect]) -> None:
        self.assigns = assigns
        self.words = words
        self.redirects = redirects


class CommandList:
    """``and_or ; and_or & and_or ...``: each item with the separator that ended it."""

    __slots__ = ("items",)

    def __init__(self, items: list[tuple[AndOr, str]]) -> None:
        self.items = items


class Pipeline:
    """``[time] [!] command | command ...``."""

    __slots__ = ("commands", "negated")

    def __init__(self, commands: list[Node], negated: bool) -> None:
        self.commands = commands
        self.negated = negated


class AndOr:
    """``pipeline && pipeline || pipeline ...``."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Pipeline, rest: list[tuple[str, Pipeline]]) -> None:
        self.first = first
        self.rest = rest


class Group:
    """``{ list; }`` (``subshell`` False) or ``( list )`` (True)."""

    __slots__ = ("body", "subshell", "redirects")

    def __init__(self, body: CommandList, subshell: bool) -> None:
        self.body = body
        self.subshell = subshell
        self.redirects: list[Redirect] = []


class If:
    """``if c; then b; elif c; then b; else b; fi``."""

    __slots__ = ("clauses", "otherwise", "redirects")

    def __init__(
        self, clauses: list[tuple[CommandList, CommandList]], otherwise: CommandList | None
    ) -> None:
        self.clauses = clauses
        self.otherwise = otherwise
        self.redirects: list[Redirect] = []


class Loop:
    """``while c; do b; done`` or ``until c; do b; done``."""

    __slots__ = ("condition", "body", "until", "redirects")

    def __init__(self, condition: CommandList, body: CommandList, until: bool) -> None:
        self.condition = condition
        self.body = body
        self.until = until
        self.redirects: list[Redirect] = []


class For:
    """``for NAME [in WORDS]; do b; done`` and ``select`` (same shape)."""

    __slots__ = ("name", "words", "body", "select", "redirects")

    def __init__(
        self, name: str, words: list[Word] | None, body: CommandList, select: bool
    ) -> None:
        self.name = name
        self.words = words
        self.body = body
        self.select = select
        self.redirects: list[Redirect] = []


class ArithFor:
    """``for ((init; test; step)); do b; done``."""

    __slots__ = ("expression", "body", "redirects")

    def __init__(self, expression: Word, body: CommandList) -> None:
        self.expression = expression
        self.body = body
        self.redirects: list[Redirect] = []


class Case:
    """``case WORD in pattern|pattern) list ;; ... esac``."""

    __slots__ = ("word", "items", "redirects")

    def __init__(self, word: Word, items: list[tuple[list[Word], CommandList]]) -> None:
        self.word = word
        self.items = items
        self.redirects: list[Redirect] = []


class Arith:
    """``(( expression ))``: the expression as a word of its nested expansions."""

    __slots__ = ("expression", "redirects")

    def __init__(self, expression: Word) -> None:
        self.expression = expression
        self.redirects: list[Redirect] = []


class Cond:
    """``[[ ... ]]``: its words (operators included, ``<`` and ``>`` are not redirections)."""

    __slots__ = ("words", "redirects")

    def __init__(self, words: list[Word]) -> None:
        self.words = words
        self.redirects: list[Redirect] = []


class Coproc:
    """``coproc [NAME] command``."""

    __slots__ = ("name", "command", "redirects")

    def __init__(self, name: str, command: Node) -> None:
        self.name = name
        self.command = command
        self.redirects: list[Redirect] = []


class FuncDef:
    """``name () compound`` or ``function name [()] compound``."""

    __slots__ = ("name", "body", "redirects")

    def __init__(self, name: str, body: Node) -> None:
        self.name = name
        self.body = body
        self.redirects: list[Redirect] = []
