"""Bash's compound commands, and the token access the grammar is written with.

:class:`Grammar` reads ``if``/``elif``/``else``, ``while``/``until``, ``for`` (with ``in``,
without it, ``for ((;;))``, a ``{ }`` body), ``select``, ``case`` (``(pattern|pattern)``,
``;;``, ``;&``, ``;;&``), ``[[ ]]`` (its own expression grammar: ``!``, ``&&``, ``||``,
``( )``, unary and binary operators; ``<`` and ``>`` compare, the word after ``=~`` may hold
``( ) |``), ``function`` definitions and ``coproc``. Lists, pipelines and simple commands are
the :class:`~.parser.Parser`'s.
"""

from __future__ import annotations

from .lexer import EOF, NEWLINE, OP, WORD, Lexer, Token, plain
from .nodes import ArithFor, Case, CommandList, Cond, Coproc, For, FuncDef, If, Redirect, Word
from .scanner import ShellSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .nodes import Node

COMPOUND_START = frozenset(
    {"{", "if", "while", "until", "for", "select", "case", "[[", "function", "coproc"}
)
_COND_UNARY = frozenset("-" + c for c in "abcdefghkprstuwxGLNOSnozvR")
_COND_BINARY = frozenset(
    {"==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"}
)
_CASE_END = frozenset({";;", ";&", ";;&", "esac"})


class Grammar(Lexer):
    """Token access, and the compound commands; the parser supplies the rest."""

    def __init__(self, text: str, extglob: bool = False) -> None:
        super().__init__(text, extglob)
        self.tok: Token | None = None

    def parse_list(self, closers: frozenset[str]) -> CommandList:  # pragma: no cover
        raise NotImplementedError

    def parse_body(self, closers: frozenset[str]) -> CommandList:  # pragma: no cover
        raise NotImplementedError

    def parse_command(self) -> Node:  # pragma: no cover
        raise NotImplementedError

    def parse_simple(self, first: Word | None) -> Node:  # pragma: no cover
        raise NotImplementedError

    def parse_redirects(self) -> list[Redirect]:  # pragma: no cover
        raise NotImplementedError

    # token access

    def peek(self) -> Token:
        tok = self.tok
        if tok is None:
            tok = self.tok = self.lex()
        return tok

    def take(self) -> Token:
        tok = self.peek()
        self.tok = None
        return tok

    def skip_newlines(self) -> None:
        while self.peek().kind == NEWLINE:
            self.tok = None

    def unexpected(self, tok: Token) -> ShellSyntaxError:
        if tok.kind == EOF:
            return ShellSyntaxError("syntax error: unexpected end of file", tok.pos)
        shown = "newline" if tok.kind == NEWLINE else tok.value
        return ShellSyntaxError(f"syntax error near unexpected token `{shown}'", tok.pos)

    def at_reserved(self, name: str) -> bool:
        tok = self.peek()
        return tok.kind == WORD and plain(tok.word) == name

    def expect(self, name: str) -> None:
        tok = self.take()
        if not (
            (tok.kind == WORD and plain(tok.word) == name) or (tok.kind == OP and tok.value == name)
        ):
            raise self.unexpected(tok)

    def is_closer(self, tok: Token, closers: frozenset[str]) -> bool:
        if tok.kind == WORD:
            text = plain(tok.word)
            return text is not None and text in closers
        return tok.kind == OP and tok.value in closers

    def parse_if(self) -> If:
        clauses: list[tuple[CommandList, CommandList]] = []
        while True:
            condition = self.parse_body(frozenset({"then"}))
            self.expect("then")
            body = self.parse_body(frozenset({"elif", "else", "fi"}))
            clauses.append((condition, body))
            if self.at_reserved("elif"):
                self.tok = None
                continue
            break
        otherwise = None
        if self.at_reserved("else"):
            self.tok = None
            otherwise = self.parse_body(frozenset({"fi"}))
        self.expect("fi")
        return If(clauses, otherwise)

    def parse_loop_body(self) -> CommandList:
        if self.at_reserved("{"):
            self.tok = None
            body = self.parse_body(frozenset({"}"}))
            self.expect("}")
            return body
        self.expect("do")
        body = self.parse_body(frozenset({"done"}))
        self.expect("done")
        return body

    def parse_for(self, select: bool) -> Node:
        tok = self.peek()
        if (
            not select
            and tok.kind == OP
            and tok.value == "("
            and self.text.startswith("((", tok.pos)
        ):
            end = self.arith_end(tok.pos + 2)
            if end < 0:
                raise self.unexpected(tok)
            self.tok = None
            self.pos = end + 2
            source = self.text[tok.pos + 2 : end]
            expression = Word(source, self.expansions_in(source, tok.pos + 2), tok.pos + 2)
            tok = self.peek()
            if tok.kind == OP and tok.value == ";":
                self.tok = None
            self.skip_newlines()
            return ArithFor(expression, self.parse_loop_body())
        tok = self.take()
        if tok.kind != WORD or tok.word is None:
            raise self.unexpected(tok)
        name = tok.word.raw
        self.skip_newlines()
        words: list[Word] | None = None
        if self.at_reserved("in"):
            self.tok = None
            self.assign_ok = False
            words = []
            while True:
                tok = self.take()
                if tok.kind == WORD and tok.word is not None:
                    words.append(tok.word)
                elif tok.kind == NEWLINE or (tok.kind == OP and tok.value == ";"):
                    break
                else:
                    raise self.unexpected(tok)
            self.assign_ok = True
        else:
            tok = self.peek()
            if tok.kind == OP and tok.value == ";":
                self.tok = None
        self.skip_newlines()
        return For(name, words, self.parse_loop_body(), select)

    def parse_case(self) -> Case:
        self.assign_ok = False
        tok = self.take()
        if tok.kind != WORD or tok.word is None:
            raise self.unexpected(tok)
        subject = tok.word
        self.skip_newlines()
        self.expect("in")
        items: list[tuple[list[Word], CommandList]] = []
        while True:
            self.skip_newlines()
            if self.at_reserved("esac"):
                self.tok = None
                break
            tok = self.peek()
            if tok.kind == OP and tok.value == "(":
                self.tok = None
            patterns: list[Word] = []
            while True:
                self.assign_ok = False
                tok = self.take()
                if tok.kind != WORD or tok.word is None:
                    raise self.unexpected(tok)
                patterns.append(tok.word)
                tok = self.take()
                if tok.kind == OP and tok.value == "|":
                    continue
                if tok.kind == OP and tok.value == ")":
                    break
                raise self.unexpected(tok)
            self.assign_ok = True
            body = self.parse_list(_CASE_END)
            items.append((patterns, body))
            tok = self.peek()
            if tok.kind == OP and tok.value in (";;", ";&", ";;&"):
                self.tok = None
                continue
            self.expect("esac")
            break
        self.assign_ok = True
        return Case(subject, items)

    def parse_cond(self) -> Cond:
        self.cond = True
        self.assign_ok = False
        words: list[Word] = []
        if not self.at_reserved("]]"):
            self.cond_or(words)
        self.cond = False
        self.expect("]]")
        self.assign_ok = True
        return Cond(words)

    def cond_or(self, words: list[Word]) -> None:
        self.cond_and(words)
        while True:
            tok = self.peek()
            if tok.kind == OP and tok.value == "||":
                self.tok = None
                self.skip_newlines()
                self.cond_and(words)
            else:
                return

    def cond_and(self, words: list[Word]) -> None:
        self.cond_term(words)
        while True:
            tok = self.peek()
            if tok.kind == OP and tok.value == "&&":
                self.tok = None
                self.skip_newlines()
                self.cond_term(words)
            else:
                return

    def cond_term(self, words: list[Word]) -> None:
        tok = self.take()
        text = plain(tok.word) if tok.kind == WORD else None
        if text == "!":
            return self.cond_term(words)
        if tok.kind == OP and tok.value == "(":
            self.skip_newlines()
            self.cond_or(words)
            self.skip_newlines()
            self.expect(")")
            return None
        if tok.kind != WORD or tok.word is None or text == "]]":
            raise self.cond_error(tok, "unexpected token in conditional command")
        words.append(tok.word)
        following = self.peek()
        if text in _COND_UNARY:
            if following.kind != WORD or plain(following.word) == "]]" or following.word is None:
                raise self.cond_error(
                    following, "unexpected argument to conditional unary operator"
                )
            self.tok = None
            words.append(following.word)
            return None
        operator = plain(following.word) if following.kind == WORD else None
        if operator in _COND_BINARY or (following.kind == OP and following.value in ("<", ">")):
            self.tok = None
            if operator == "=~":
                self.regex = True
                try:
                    tok = self.peek()
                finally:
                    self.regex = False
            else:  # a pattern: bash reads @(...) and the like here even without extglob
                extglob, self.extglob = self.extglob, True
                try:
                    tok = self.peek()
                finally:
                    self.extglob = extglob
            if tok.kind != WORD or tok.word is None or plain(tok.word) == "]]":
                raise self.cond_error(tok, "unexpected argument to conditional binary operator")
            self.tok = None
            words.append(tok.word)
            return None
        if following.kind == WORD and plain(following.word) != "]]":
            raise self.cond_error(following, "conditional binary operator expected")
        return None

    def cond_error(self, tok: Token, message: str) -> ShellSyntaxError:
        if tok.kind == EOF:
            return self.unexpected(tok)
        return ShellSyntaxError(f"syntax error in conditional expression: {message}", tok.pos)

    def parse_function(self) -> Node:
        tok = self.take()
        if tok.kind != WORD or tok.word is None:
            raise self.unexpected(tok)
        tok2 = self.peek()
        if (
            tok2.kind == OP
            and tok2.value == "("
            and self.text[tok2.pos + 1 :].lstrip(" \t")[:1] == ")"
        ):
            self.tok = None
            self.expect(")")  # "function f ( cmd )" is a subshell body, "function f ()" is not
        return self.function_body(tok.word.raw)

    def function_body(self, name: str) -> FuncDef:
        self.skip_newlines()
        tok = self.peek()
        text = plain(tok.word) if tok.kind == WORD else None
        if not (
            (tok.kind == OP and tok.value == "(")
            or (text in COMPOUND_START and text not in ("function", "coproc"))
        ):
            raise self.unexpected(tok)
        node = FuncDef(name, self.parse_command())
        node.redirects = self.parse_redirects()
        return node

    def parse_coproc(self) -> Node:
        tok = self.peek()
        text = plain(tok.word) if tok.kind == WORD else None
        if (tok.kind == OP and tok.value == "(") or text in COMPOUND_START:
            return Coproc("COPROC", self.parse_command())
        if tok.kind != WORD or tok.word is None:
            raise self.unexpected(tok)
        self.tok = None
        following = self.peek()
        text = plain(following.word) if following.kind == WORD else None
        if (following.kind == OP and following.value == "(") or (
            text in COMPOUND_START and text not in ("function", "coproc")
        ):
            return Coproc(tok.word.raw, self.parse_command())
        return Coproc("COPROC", self.parse_simple(tok.word))
