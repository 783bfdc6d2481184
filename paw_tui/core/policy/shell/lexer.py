"""Bash's tokens: words, operators, newlines and descriptor numbers, read on demand.

The :class:`Lexer` gives the parser one token at a time (what a character means depends on
where the parser is): operators (longest first), comments (``#`` only where a word could
start), line continuations, file-descriptor numbers before redirections (``2>``,
``{fd}>``), and words with their quoting and expansions (:mod:`.scanner`), process
substitutions, ``NAME=(...)`` arrays and, with extglob, ``@(...)`` patterns.
"""

from __future__ import annotations

from .nodes import ARRAY, EXTGLOB, LIT, PROCSUB, Part, Word
from .scanner import Scanner, ShellSyntaxError, eof_error, is_name

WORD = 0
OP = 1
NEWLINE = 2
EOF = 3
IONUMBER = 4  # "2" in "2>f", "{fd}" in "{fd}>f"

METACHARS = frozenset(" \t\n|&;()<>")
_WORD_SPECIAL = frozenset(" \t\n|&;()<>'\"\\$`")
_REGEX_SPECIAL = frozenset(" \t\n&;<>'\"\\$`")  # the word after =~ in [[ ]] may hold ( ) |
_OPERATORS = {
    ";": (";;&", ";;", ";&", ";"),
    "&": ("&&", "&>>", "&>", "&"),
    "|": ("||", "|&", "|"),
    "(": ("(",),
    ")": (")",),
    "<": ("<<<", "<<-", "<<", "<>", "<&", "<"),
    ">": (">>", ">|", ">&", ">"),
}
REDIRECT_OPS = frozenset({"<", ">", ">>", ">|", "<>", "<<", "<<-", "<<<", "<&", ">&", "&>", "&>>"})
_DIGITS = frozenset("0123456789")


class Token:
    __slots__ = ("kind", "value", "word", "pos")

    def __init__(self, kind: int, value: str, word: Word | None, pos: int) -> None:
        self.kind = kind
        self.value = value
        self.word = word
        self.pos = pos


class Lexer(Scanner):
    """Tokens for the parser, one at a time."""

    def lex(self) -> Token:
        text, n = self.text, self.n
        i = self.pos
        while i < n:
            char = text[i]
            if char == " " or char == "\t":
                i += 1
            elif char == "\\" and i + 1 < n and text[i + 1] == "\n":
                i += 2
            else:
                break
        if i < n and text[i] == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        if i >= n:
            self.pos = n
            return Token(EOF, "", None, n)
        char = text[i]
        if char == "\n":
            self.pos = i + 1
            self.after_dup = False
            if self.pending:
                self.read_heredocs()
            return Token(NEWLINE, "\n", None, i)
        ops = None if self.regex and char in "(|" else _OPERATORS.get(char)
        if ops is not None and not (
            (char == "<" or char == ">") and i + 1 < n and text[i + 1] == "("
        ):
            for op in ops:
                if text.startswith(op, i):
                    self.pos = i + len(op)
                    self.after_dup = op == ">&" or op == "<&"
                    return Token(OP, op, None, i)
        word, end = self.read_word(i)
        self.pos = end
        if end < n and (text[end] == "<" or text[end] == ">") and not self.cond:
            raw = word.raw
            if not self.after_dup and all(c in _DIGITS for c in raw):
                return Token(IONUMBER, raw, word, i)
            if len(raw) > 2 and raw[0] == "{" and raw[-1] == "}" and is_name(raw[1:-1]):
                self.after_dup = False
                return Token(IONUMBER, raw, word, i)
        self.after_dup = False
        return Token(WORD, word.raw, word, i)

    # words

    def read_word(self, start: int) -> tuple[Word, int]:
        text, n = self.text, self.n
        special = _REGEX_SPECIAL if self.regex else _WORD_SPECIAL
        parts: list[Part] = []
        buf: list[str] = []  # unquoted literal text not yet in parts
        depth = 0  # parentheses in a =~ regex
        i = start
        while i < n:
            char = text[i]
            if char not in special:
                if self.regex:  # ( ) | belong to the regex; an unmatched ) ends it
                    depth += (char == "(") - (char == ")")
                    if depth < 0:
                        break
                    buf.append(char)
                    i += 1
                    continue
                j = i + 1
                while j < n and text[j] not in special:
                    j += 1
                buf.append(text[i:j])
                i = j
                continue
            if char in METACHARS:
                i = self._word_metachar(i, parts, buf)
                if i < 0:
                    i = -i - 1
                    break
                continue
            _flush(buf, parts)
            i = self._word_quoting(i, parts, buf)
        _flush(buf, parts)
        if i == start:
            raise ShellSyntaxError(f"syntax error near unexpected token `{text[i : i + 1]}'", i)
        return Word(text[start:i], parts, start), i

    def _word_metachar(self, i: int, parts: list[Part], buf: list[str]) -> int:
        """A metacharacter inside a word: where the word goes on, or ``-i - 1`` when the
        word ends here (process substitution, extglob group, array assignment go on)."""
        text = self.text
        char = text[i]
        following = text[i + 1 : i + 2]
        if (char == "<" or char == ">") and following == "(":
            _flush(buf, parts)
            body, end = self.parse_nested(i + 2)
            parts.append(Part(PROCSUB, text[i:end], False, body))
            return end
        if char != "(" or not buf:
            return -i - 1
        last = buf[-1][-1]
        if self.extglob and last in "?*+@!":
            end = self._skip_group(i + 1)
            _flush(buf, parts)
            parts.append(Part(EXTGLOB, text[i:end], False))
            return end
        if self.assign_ok and not parts and last == "=" and _assignment_prefix("".join(buf)):
            _flush(buf, parts)
            words, end = self._read_array(i + 1)
            parts.append(Part(ARRAY, text[i:end], False, words))
            return end
        return -i - 1

    def _word_quoting(self, i: int, parts: list[Part], buf: list[str]) -> int:
        """Quotes, a backslash, ``$`` or a backquote at ``i``: the index after it."""
        text, n = self.text, self.n
        char = text[i]
        if char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise eof_error("'", i)
            parts.append(Part(LIT, text[i + 1 : end], True))
            return end + 1
        if char == '"':
            return self.read_dq(i + 1, parts, '"')
        if char == "\\":
            if i + 1 >= n:
                buf.append("\\")  # a backslash at the very end stays (bash agrees)
                return i + 1
            if text[i + 1] != "\n":
                parts.append(Part(LIT, text[i + 1], True))
            return i + 2
        if char == "$":
            end = self.read_dollar(i, parts, False)
            if end < 0:
                buf.append("$")
                return i + 1
            return end
        return self.read_backquote(i, parts, False)

    def _read_array(self, i: int) -> tuple[list[Word], int]:
        """The words of ``NAME=( ... )`` from ``i``; the index after the ``)``."""
        text, n = self.text, self.n
        words: list[Word] = []
        saved = self.assign_ok
        self.assign_ok = False
        try:
            while True:
                while i < n and text[i] in " \t\n":
                    i += 1
                if i + 1 < n and text[i] == "\\" and text[i + 1] == "\n":
                    i += 2
                    continue
                if i >= n:
                    raise eof_error(")", i)
                char = text[i]
                if char == ")":
                    return words, i + 1
                if char == "#":
                    end = text.find("\n", i)
                    i = n if end < 0 else end
                    continue
                if char in METACHARS and not (
                    (char == "<" or char == ">") and text[i + 1 : i + 2] == "("
                ):
                    raise ShellSyntaxError(f"syntax error near unexpected token `{char}'", i)
                word, i = self.read_word(i)
                words.append(word)
        finally:
            self.assign_ok = saved


def _flush(buf: list[str], parts: list[Part]) -> None:
    if buf:
        parts.append(Part(LIT, "".join(buf), False))
        buf.clear()


def _assignment_prefix(text: str) -> bool:
    """``NAME=``, ``NAME+=`` or ``NAME[...]=`` (what may precede an array's ``(``)."""
    text = text[:-1]
    if text.endswith("+"):
        text = text[:-1]
    if text.endswith("]") and "[" in text:
        text = text[: text.index("[")]
    return is_name(text)


def plain(word: Word | None) -> str | None:
    """The text of a word made of one unquoted literal (what a reserved word must be)."""
    if word is None or len(word.parts) != 1:
        return None
    part = word.parts[0]
    return part.text if part.kind == LIT and not part.quoted else None
