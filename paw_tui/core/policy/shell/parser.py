"""Bash's grammar, by recursive descent over the :class:`Lexer`'s tokens.

:func:`parse` returns the :class:`CommandList` of a whole script or raises
:class:`ShellSyntaxError` where bash would report a syntax error: lists (``;``, ``&``,
newlines, ``&&``, ``||``), pipelines (``|``, ``|&``, ``!``, ``time [-p]``), simple
commands (assignments, words and redirections in any order), the compound commands
(``{ }``, ``( )``, ``if``, ``while``, ``until``, ``for``, ``for ((;;))``, ``select``,
``case``, ``(( ))``, ``[[ ]]``, ``coproc``) with their redirections, and function
definitions. Reserved words count only where bash recognises them (first word of a
command, after a compound command's end).
"""

from __future__ import annotations

from .compound import COMPOUND_START, Grammar
from .lexer import EOF, IONUMBER, NEWLINE, OP, REDIRECT_OPS, WORD, Token, plain
from .nodes import (
    ARRAY,
    LIT,
    AndOr,
    Arith,
    Assign,
    CommandList,
    Group,
    Heredoc,
    Loop,
    Part,
    Pipeline,
    Redirect,
    Simple,
    Word,
)
from .scanner import ShellSyntaxError, is_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .nodes import Node

_MISPLACED = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]", "!"})
_DECLARATIONS = frozenset({"declare", "typeset", "local", "export", "readonly"})
_TOP: frozenset[str] = frozenset()
_PAREN = frozenset({")"})


def parse(text: str, extglob: bool = False) -> CommandList:
    """The commands of ``text``; raises :class:`ShellSyntaxError` where bash would."""
    return Parser(text, extglob).parse_all()


def parse_word(text: str, extglob: bool = False) -> Word:
    """``text`` read as one word (used to re-read the words brace expansion makes)."""
    parser = Parser(text, extglob)
    parser.assign_ok = False
    word, end = parser.read_word(0)
    if end != len(text):  # a metacharacter bash's brace expansion left in: keep it literal
        return Word(text, word.parts + [Part(LIT, text[end:], True)], 0)
    return word


def assignment(word: Word) -> Assign | None:
    """``NAME=value``, ``NAME+=value``, ``NAME[sub]=value``, ``NAME=(...)``, or None."""
    raw = word.raw
    eq = raw.find("=")
    if eq <= 0:
        return None
    name = raw[:eq]
    append = name.endswith("+")
    if append:
        name = name[:-1]
    if name.endswith("]") and "[" in name:
        name = name[: name.index("[")]
    if not is_name(name):
        return None
    first = word.parts[0]
    if first.kind != LIT or first.quoted or len(first.text) <= eq:
        if first.kind == LIT and not first.quoted and len(first.text) == eq + 1:
            rest = word.parts[1:]
        else:
            return (
                Assign(name, parse_word(raw[eq + 1 :]), None, append, word)
                if raw[eq + 1 :]
                else Assign(name, Word("", [], word.pos), None, append, word)
            )
    else:
        rest = word.parts[1:]
        if len(first.text) > eq + 1:
            rest = [Part(LIT, first.text[eq + 1 :], False)] + rest
    if rest and rest[-1].kind == ARRAY:
        body = rest[-1].body
        return Assign(name, None, body if isinstance(body, list) else [], append, word)
    return Assign(name, Word(raw[eq + 1 :], rest, word.pos + eq + 1), None, append, word)


def dequote(raw: str) -> str:
    """Quote removal without expansion: what a here-document delimiter matches."""
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\" and i + 1 < n:
            out.append(raw[i + 1])
            i += 2
        elif char == "'":
            end = raw.find("'", i + 1)
            end = n if end < 0 else end
            out.append(raw[i + 1 : end])
            i = end + 1
        elif char == '"':
            i += 1
            while i < n and raw[i] != '"':
                if raw[i] == "\\" and i + 1 < n and raw[i + 1] in '"\\$`':
                    i += 1
                out.append(raw[i])
                i += 1
            i += 1
        elif char == "$" and i + 1 < n and raw[i + 1] in "'\"":
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


class Parser(Grammar):
    # nesting hooks used by the lexer

    def parse_nested(self, pos: int) -> tuple[CommandList, int]:
        saved = (self.tok, self.pending, self.cond, self.regex, self.assign_ok, self.after_dup)
        self.tok, self.pending, self.cond, self.regex = None, [], False, False
        self.assign_ok, self.after_dup = True, False
        self.pos = pos
        body = self.parse_list(_PAREN)
        tok = self.take()
        if tok.kind != OP or tok.value != ")":
            if tok.kind == EOF:
                raise ShellSyntaxError("unexpected EOF while looking for matching `)'", tok.pos)
            raise self.unexpected(tok)
        end = self.pos
        leftover = self.pending
        self.tok, self.pending, self.cond, self.regex, self.assign_ok, self.after_dup = saved
        self.pending = self.pending + leftover
        return body, end

    def parse_source(self, text: str, pos: int) -> CommandList:
        try:
            return Parser(text, self.extglob).parse_all()
        except ShellSyntaxError as error:
            raise ShellSyntaxError(error.message, pos + error.pos) from None

    # grammar

    def parse_all(self) -> CommandList:
        body = self.parse_list(_TOP)
        tok = self.peek()
        if tok.kind != EOF:
            raise self.unexpected(tok)
        return body

    def parse_list(self, closers: frozenset[str]) -> CommandList:
        items: list[tuple[AndOr, str]] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if tok.kind == EOF or self.is_closer(tok, closers):
                break
            node = self.parse_and_or()
            tok = self.peek()
            if tok.kind == OP and (tok.value == ";" or tok.value == "&"):
                self.tok = None
                items.append((node, tok.value))
            elif tok.kind == NEWLINE:
                self.tok = None
                items.append((node, "\n"))
            else:
                items.append((node, ""))
                break
        return CommandList(items)

    def parse_body(self, closers: frozenset[str]) -> CommandList:
        """A list that must not be empty (``if then`` is a syntax error)."""
        body = self.parse_list(closers)
        if not body.items:
            raise self.unexpected(self.peek())
        return body

    def parse_and_or(self) -> AndOr:
        first = self.parse_pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while True:
            tok = self.peek()
            if tok.kind == OP and (tok.value == "&&" or tok.value == "||"):
                self.tok = None
                self.skip_newlines()
                rest.append((tok.value, self.parse_pipeline()))
            else:
                return AndOr(first, rest)

    def parse_pipeline(self) -> Pipeline:
        negated = False
        prefixed = False
        while True:
            tok = self.peek()
            text = plain(tok.word) if tok.kind == WORD else None
            if text == "!":
                self.tok = None
                negated = not negated
                prefixed = True
            elif text == "time":
                self.tok = None
                prefixed = True
                if self.at_reserved("-p"):
                    self.tok = None
                if self.at_reserved("--"):
                    self.tok = None
            else:
                break
        tok = self.peek()
        if prefixed and (
            tok.kind in (NEWLINE, EOF) or (tok.kind == OP and tok.value in (";", "&"))
        ):
            return Pipeline([], negated)
        commands = [self.parse_command()]
        while True:
            tok = self.peek()
            if tok.kind == OP and (tok.value == "|" or tok.value == "|&"):
                self.tok = None
                self.skip_newlines()
                commands.append(self.parse_command())
            else:
                return Pipeline(commands, negated)

    def parse_command(self) -> Node:
        tok = self.peek()
        if tok.kind == WORD:
            text = plain(tok.word)
            if text is not None:
                if text in COMPOUND_START:
                    return self.parse_compound(text)
                if text in _MISPLACED:
                    raise self.unexpected(tok)
            return self.parse_simple(None)
        if tok.kind == OP:
            if tok.value == "(":
                return self.parse_paren(tok)
            if tok.value in REDIRECT_OPS:
                return self.parse_simple(None)
        elif tok.kind == IONUMBER:
            return self.parse_simple(None)
        raise self.unexpected(tok)

    def parse_paren(self, tok: Token) -> Node:
        node: Node
        if self.text.startswith("((", tok.pos):
            end = self.arith_end(tok.pos + 2)
            if end >= 0:
                self.tok = None
                self.pos = end + 2
                source = self.text[tok.pos + 2 : end]
                node = Arith(Word(source, self.expansions_in(source, tok.pos + 2), tok.pos + 2))
                node.redirects = self.parse_redirects()
                return node
        self.tok = None
        node = Group(self.parse_body(_PAREN), True)
        self.expect(")")
        node.redirects = self.parse_redirects()
        return node

    def parse_compound(self, text: str) -> Node:
        self.tok = None
        node: Node
        if text == "{":
            node = Group(self.parse_body(frozenset({"}"})), False)
            self.expect("}")
        elif text == "if":
            node = self.parse_if()
        elif text == "while" or text == "until":
            condition = self.parse_body(frozenset({"do"}))
            self.expect("do")
            body = self.parse_body(frozenset({"done"}))
            self.expect("done")
            node = Loop(condition, body, text == "until")
        elif text == "for" or text == "select":
            node = self.parse_for(text == "select")
        elif text == "case":
            node = self.parse_case()
        elif text == "[[":
            node = self.parse_cond()
        elif text == "function":
            return self.parse_function()
        else:
            return self.parse_coproc()
        node.redirects = self.parse_redirects()
        return node

    def parse_simple(self, first: Word | None) -> Node:
        assigns: list[Assign] = []
        words: list[Word] = [] if first is None else [first]
        redirects: list[Redirect] = []
        self.assign_ok = first is None
        while True:
            tok = self.peek()
            if tok.kind == WORD and tok.word is not None:
                self.tok = None
                word = tok.word
                found = assignment(word) if not words else None
                if found is not None:
                    assigns.append(found)
                    continue
                words.append(word)
                if len(words) == 1:
                    name = plain(word)
                    self.assign_ok = name in _DECLARATIONS
                    if not assigns and not redirects:
                        following = self.peek()
                        if following.kind == OP and following.value == "(":
                            self.tok = None
                            self.expect(")")
                            self.assign_ok = True
                            return self.function_body(word.raw)
            elif tok.kind == IONUMBER or (tok.kind == OP and tok.value in REDIRECT_OPS):
                redirects.append(self.parse_redirect())
            else:
                break
        self.assign_ok = True
        return Simple(assigns, words, redirects)

    def parse_redirects(self) -> list[Redirect]:
        redirects: list[Redirect] = []
        while True:
            tok = self.peek()
            if tok.kind == IONUMBER or (tok.kind == OP and tok.value in REDIRECT_OPS):
                redirects.append(self.parse_redirect())
            else:
                return redirects

    def parse_redirect(self) -> Redirect:
        tok = self.take()
        fd: int | None = None
        name: str | None = None
        if tok.kind == IONUMBER:
            if tok.value.startswith("{"):
                name = tok.value[1:-1]
            else:
                fd = int(tok.value)
            tok = self.take()
            if tok.kind != OP or tok.value not in REDIRECT_OPS:
                raise self.unexpected(tok)
        op = tok.value
        saved = self.assign_ok
        self.assign_ok = False
        target = self.take()
        self.assign_ok = saved
        if target.kind != WORD or target.word is None:
            raise self.unexpected(target)
        word = target.word
        if op == "<<" or op == "<<-":
            raw = word.raw
            quoted = "'" in raw or '"' in raw or "\\" in raw
            doc = Heredoc(dequote(raw) if quoted else raw, quoted, op == "<<-")
            self.pending.append(doc)
            return Redirect(fd, name, op, word, doc)
        return Redirect(fd, name, op, word)
