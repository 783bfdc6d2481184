"""Reading quoted text, expansions and here-document bodies, as bash's reader does.

The :class:`Scanner` holds the source and the reader's state, and reads what a word is made
of apart from plain characters: double-quoted text (``read_dq``), ``$`` expansions
(``$NAME``, ``${...}``, ``$(...)``, ``$((...))``, ``$[...]``, ``$'...'``, ``$"..."``),
backquotes, and here-document bodies (read after the newline that ends their line; an
unquoted body's expansions are kept, the rest is data). Command substitutions are parsed
right away by the parser (:meth:`Scanner.parse_nested`), as bash 5.2 does.
"""

from __future__ import annotations

from .nodes import ARITH, CMDSUB, LIT, PARAM, PARAMX, CommandList, Heredoc, Part

_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")


class ShellSyntaxError(Exception):
    """Bash would refuse the source: ``message`` says why, ``pos`` is where."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


def is_name(text: str) -> bool:
    """A shell variable name."""
    return bool(text) and text[0] in _NAME_START and all(char in _NAME_CHARS for char in text)


def eof_error(what: str, pos: int) -> ShellSyntaxError:
    return ShellSyntaxError(f"unexpected EOF while looking for matching `{what}'", pos)


class Scanner:
    """The source and the reader's state; the parser supplies :meth:`parse_nested` and
    :meth:`parse_source` for the commands inside substitutions."""

    def __init__(self, text: str, extglob: bool = False) -> None:
        self.text = text
        self.n = len(text)
        self.pos = 0
        self.extglob = extglob
        self.pending: list[Heredoc] = []  # here-documents waiting for their bodies
        self.after_dup = False  # the last token was >& or <& (a number after it is a word)
        self.cond = False  # inside [[ ]]: no fd numbers
        self.regex = False  # reading the word after =~
        self.assign_ok = True  # NAME=( here starts an array assignment

    def parse_nested(self, pos: int) -> tuple[CommandList, int]:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_source(self, text: str, pos: int) -> CommandList:  # pragma: no cover - abstract
        raise NotImplementedError

    def read_dq(self, i: int, parts: list[Part], stop: str | None) -> int:
        """Double-quoted text from ``i`` up to ``stop`` (None: to the end, as in a here-document
        body, where a double quote is an ordinary character). Returns the index after it."""
        text, n = self.text, self.n
        escapable = '$`"\\\n' if stop else "$`\\\n"
        buf: list[str] = []
        added = len(parts)
        while True:
            if i >= n:
                if stop is None:
                    break
                raise eof_error('"', i)
            char = text[i]
            if char == stop:
                i += 1
                break
            if char == "\\":
                if i + 1 < n and text[i + 1] in escapable:
                    if text[i + 1] != "\n":
                        buf.append(text[i + 1])
                    i += 2
                else:
                    buf.append("\\")
                    i += 1
            elif char == "$" or char == "`":
                if buf:
                    parts.append(Part(LIT, "".join(buf), True))
                    buf = []
                if char == "`":
                    i = self.read_backquote(i, parts, True)
                    continue
                end = self.read_dollar(i, parts, True)
                if end < 0:
                    buf.append("$")
                    i += 1
                else:
                    i = end
            else:
                j = i + 1
                while j < n and text[j] not in '\\$`"':
                    j += 1
                if stop is None and j < n and text[j] == '"':
                    j += 1
                buf.append(text[i:j])
                i = j
        if buf or len(parts) == added:
            parts.append(Part(LIT, "".join(buf), True))
        return i

    def read_dollar(self, i: int, parts: list[Part], quoted: bool) -> int:
        """The expansion at ``text[i] == '$'`` appended to ``parts``; -1 for a plain ``$``."""
        text, n = self.text, self.n
        j = i + 1
        if j >= n:
            return -1
        char = text[j]
        if char == "(":
            if j + 1 < n and text[j + 1] == "(":
                end = self.arith_end(j + 2)
                if end >= 0:
                    parts.append(
                        Part(
                            ARITH,
                            text[i : end + 2],
                            quoted,
                            self.expansions_in(text[j + 2 : end], j + 2),
                        )
                    )
                    return end + 2
            body, end = self.parse_nested(j + 1)
            parts.append(Part(CMDSUB, text[i:end], quoted, body))
            return end
        if char == "{":
            nested: list[Part] = []
            end = self._brace_param_end(j + 1, quoted, nested)
            inner = text[j + 1 : end - 1]
            if is_name(inner) or (len(inner) == 1 and inner in _SPECIAL_PARAMS):
                parts.append(Part(PARAM, inner, quoted, text[i:end]))
            else:
                parts.append(Part(PARAMX, text[i:end], quoted, nested))
            return end
        if char == "[":
            end = self._bracket_end(j + 1)
            parts.append(
                Part(ARITH, text[i:end], quoted, self.expansions_in(text[j + 1 : end - 1], j + 1))
            )
            return end
        if not quoted and char == "'":
            value, end = _ansi_c(text, j + 1)
            parts.append(Part(LIT, value, True))
            return end
        if not quoted and char == '"':
            return self.read_dq(j + 1, parts, '"')
        if char in _NAME_START:
            end = j + 1
            while end < n and text[end] in _NAME_CHARS:
                end += 1
            parts.append(Part(PARAM, text[j:end], quoted, text[i:end]))
            return end
        if char in _SPECIAL_PARAMS:
            parts.append(Part(PARAM, char, quoted, text[i : j + 1]))
            return j + 1
        return -1

    def read_backquote(self, i: int, parts: list[Part], quoted: bool) -> int:
        text, n = self.text, self.n
        buf: list[str] = []
        j = i + 1
        while True:
            if j >= n:
                raise eof_error("`", i)
            char = text[j]
            if char == "`":
                break
            if char == "\\" and j + 1 < n:
                following = text[j + 1]
                if following in "$`\\" or (quoted and following == '"'):
                    buf.append(following)
                    j += 2
                    continue
                if following == "\n":
                    j += 2
                    continue
            buf.append(char)
            j += 1
        source = "".join(buf)
        parts.append(Part(CMDSUB, text[i : j + 1], quoted, self.parse_source(source, i + 1)))
        return j + 1

    def expansions_in(self, source: str, pos: int) -> list[Part]:
        """The expansions in arithmetic text or a here-document body (the rest is data)."""
        if "$" not in source and "`" not in source:
            return [Part(LIT, source, True)]
        sub = type(self)(source, self.extglob)
        parts: list[Part] = []
        try:
            sub.read_dq(0, parts, None)
        except ShellSyntaxError as error:
            raise ShellSyntaxError(error.message, pos + error.pos) from None
        return parts

    def arith_end(self, i: int) -> int:
        """Index of the first ``)`` of the ``))`` closing ``$((``/``((`` whose text starts at
        ``i``; -1 when the text is not arithmetic (``((a) (b))`` is two subshells)."""
        text, n = self.text, self.n
        depth = 0
        while i < n:
            char = text[i]
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    return i if i + 1 < n and text[i + 1] == ")" else -1
                depth -= 1
            elif char == "\\":
                i += 1
            elif char == "'" or char == '"':
                end = text.find(char, i + 1)
                if end < 0:
                    raise eof_error(char, i)
                i = end
            i += 1
        raise eof_error(")", i)

    def _bracket_end(self, i: int) -> int:
        text, n = self.text, self.n
        depth = 0
        while i < n:
            char = text[i]
            if char == "[":
                depth += 1
            elif char == "]":
                if depth == 0:
                    return i + 1
                depth -= 1
            i += 1
        raise eof_error("]", i)

    def _brace_param_end(self, i: int, quoted: bool, nested: list[Part]) -> int:
        """Index after the ``}`` closing a ``${``; substitutions inside go to ``nested``."""
        text, n = self.text, self.n
        depth = 0
        while i < n:
            char = text[i]
            if char == "}":
                if depth == 0:
                    return i + 1
                depth -= 1
            elif char == "\\":
                i += 1
            elif char == "'" and not quoted:
                end = text.find("'", i + 1)
                if end < 0:
                    raise eof_error("'", i)
                i = end
            elif char == '"':
                i = self.read_dq(i + 1, nested, '"')
                continue
            elif char == "$":
                if i + 1 < n and text[i + 1] == "{":
                    depth += 1
                    i += 2
                    continue
                end = self.read_dollar(i, nested, True)
                if end > 0:
                    i = end
                    continue
            elif char == "`":
                i = self.read_backquote(i, nested, quoted)
                continue
            i += 1
        raise eof_error("}", i)

    def _skip_group(self, i: int) -> int:
        """Index after the ``)`` closing an extglob group opened before ``i``."""
        text, n = self.text, self.n
        depth = 0
        while i < n:
            char = text[i]
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    return i + 1
                depth -= 1
            elif char == "\\":
                i += 1
            elif char == "'" or char == '"':
                end = text.find(char, i + 1)
                if end < 0:
                    raise eof_error(char, i)
                i = end
            i += 1
        raise eof_error(")", i)

    # here-documents

    def read_heredocs(self) -> None:
        """Read the bodies of the pending here-documents, starting at ``self.pos`` (just
        after a newline). A missing delimiter ends the body at the end of the text: bash
        warns and goes on."""
        text, n = self.text, self.n
        i = self.pos
        for doc in self.pending:
            lines: list[str] = []
            while i < n:
                end = text.find("\n", i)
                line_end = n if end < 0 else end
                line = text[i:line_end]
                i = n if end < 0 else end + 1
                if not doc.quoted:
                    while (
                        line.endswith("\\") and (len(line) - len(line.rstrip("\\"))) % 2 and i < n
                    ):
                        end = text.find("\n", i)
                        line_end = n if end < 0 else end
                        line = line[:-1] + text[i:line_end]
                        i = n if end < 0 else end + 1
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                if line == doc.delimiter:
                    break
                lines.append(line + "\n")
            doc.body = "".join(lines)
            if not doc.quoted:
                try:
                    doc.parts = self.expansions_in(doc.body, self.pos)
                except ShellSyntaxError:  # bash reads them only when it expands the body,
                    doc.broken = True  # and then fails that one command
                    doc.parts = [Part(LIT, doc.body, True)]
        self.pos = i
        self.pending = []


def _ansi_c(text: str, i: int) -> tuple[str, int]:
    """The value of ``$'...'`` whose text starts at ``i``; the index after the quote."""
    n = len(text)
    out: list[str] = []
    truncated = False
    while True:
        if i >= n:
            raise eof_error("'", i)
        char = text[i]
        if char == "'":
            return "".join(out), i + 1
        if char != "\\" or i + 1 >= n:
            if not truncated:
                out.append(char)
            i += 1
            continue
        code = text[i + 1]
        i += 2
        value: str
        if code in _ANSI_SIMPLE:
            value = _ANSI_SIMPLE[code]
        elif code in "01234567":
            end = i
            while end < n and end < i + 2 and text[end] in "01234567":
                end += 1
            value = chr(int(text[i - 1 : end], 8) & 0xFF)
            i = end
        elif code in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[code]
            end = i
            while end < n and end < i + limit and text[end] in _HEX:
                end += 1
            if end == i:
                value = "\\" + code
            else:
                number = int(text[i:end], 16)
                value = chr(number) if number < 0x110000 else "\ufffd"
            i = end
        elif code == "c" and i < n:
            value = chr(ord(text[i]) & 0x1F) if text[i] != "?" else "\x7f"
            i += 1
        else:
            value = "\\" + code
        if value == "\x00":
            truncated = True  # bash stops the string at a NUL
        if not truncated:
            out.append(value)
