"""Word expansion as bash does it, as far as it can be done without running anything.

:func:`expand_word` turns a :class:`Word` into the fields bash would pass a command:
brace expansion (on the source text), tilde expansion (``~``, ``~/x``, ``~+``, ``~-``,
``~user``, and after ``=``/``:`` in assignments), parameters the caller can resolve
(``$HOME``, ``$PWD``, ``$OLDPWD``, variables the command assigned literally), word
splitting of unquoted resolved values, and quote removal. What cannot be known (command
substitutions, ``$((...))``, unknown variables, ``${x:-y}`` forms) stays as its source text
and marks the field ``dynamic``. Unquoted ``*``, ``?`` and ``[...]`` mark it ``glob`` and
``pattern`` keeps the glob with quoted characters escaped, for :func:`globbing.expand_glob`.
"""

from __future__ import annotations

from .nodes import ARRAY, EXTGLOB, LIT, PARAM, PARAMX, PROCSUB, Part, Word
from .scanner import is_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Lookup = Callable[[str], "str | None"]

_IFS = " \t\n"


class Field:
    """One word after expansion."""

    __slots__ = ("text", "dynamic", "glob", "pattern")

    def __init__(
        self, text: str, dynamic: bool = False, glob: bool = False, pattern: str | None = None
    ) -> None:
        self.text = text
        self.dynamic = dynamic
        self.glob = glob
        self.pattern = pattern

    def __repr__(self) -> str:
        flags = ("", " dynamic")[self.dynamic] + ("", " glob")[self.glob]
        return f"Field({self.text!r}{flags})"


def joined(fields: list[Field]) -> Field:
    """Words joined with spaces into one command line, as ``eval``, ``watch``, ``ssh`` and
    ``git submodule foreach`` join their arguments (known only at run time when one is)."""
    return Field(" ".join(field.text for field in fields), any(field.dynamic for field in fields))


def escape_pattern(text: str) -> str:
    """``text`` as a glob pattern that matches only itself."""
    if not any(char in text for char in "*?[]\\"):
        return text
    return "".join("\\" + char if char in "*?[]\\" else char for char in text)


def is_glob(pattern: str) -> bool:
    """Whether a pattern (quoted characters escaped) has a glob bash would expand."""
    i = 0
    n = len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "*" or char == "?":
            return True
        if char == "[" and "]" in pattern[i + 2 :]:
            return True
        i += 1
    return False


class _Builder:
    """Accumulates fields the way bash's word splitting does."""

    __slots__ = ("fields", "text", "pattern", "dynamic", "globby", "started")

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.text: list[str] = []
        self.pattern: list[str] = []
        self.dynamic = False
        self.globby = False  # unquoted glob characters went in
        self.started = False

    def add(self, text: str, quoted: bool) -> None:
        self.text.append(text)
        if quoted:
            self.pattern.append(escape_pattern(text))
        else:
            self.pattern.append(text)
            if not self.globby and ("*" in text or "?" in text or "[" in text):
                self.globby = True
        self.started = True

    def end(self) -> None:
        if self.started:
            text = "".join(self.text)
            glob = False
            pattern = None
            if self.globby:
                pattern = "".join(self.pattern)
                glob = is_glob(pattern)
                if not glob:
                    pattern = None
            self.fields.append(Field(text, self.dynamic, glob, pattern))
        self.text = []
        self.pattern = []
        self.dynamic = False
        self.globby = False
        self.started = False

    def split(self, value: str) -> None:
        """An unquoted expansion's value, split on the default IFS."""
        if not value:
            return
        pieces = value.split()
        if value[0] in _IFS:
            self.end()
        for index, piece in enumerate(pieces):
            if index:
                self.end()
            self.add(piece, False)
        if value[-1] in _IFS:
            self.end()


class Expander:
    """Expands words against one shell state: ``lookup(name)`` gives a variable's value, or
    None when it cannot be known; ``home`` is ``$HOME`` (None: unknown)."""

    __slots__ = ("lookup", "split_ok", "users", "reparse")

    def __init__(
        self,
        lookup: Lookup,
        split_ok: bool,
        reparse: Callable[[str], Word],
        users: Mapping[str, str] | None = None,
    ) -> None:
        self.lookup = lookup
        self.split_ok = split_ok  # IFS is the default one
        self.reparse = reparse
        self.users = users

    def expand(self, word: Word, braces: bool = True, assignment: bool = False) -> list[Field]:
        """The fields of ``word``; ``braces`` False for words bash does not brace-expand
        (assignment values, redirection targets still are), ``assignment`` for the tilde
        rules of assignment values and no word splitting."""
        if braces and "{" in word.raw:
            from .braces import brace_expand

            raws = brace_expand(word.raw)  # past its bounds: TooComplex, the command is refused
            if len(raws) != 1 or raws[0] != word.raw:
                fields: list[Field] = []
                for raw in raws:
                    fields.extend(self.fields(self.reparse(raw), assignment))
                return fields
        return self.fields(word, assignment)

    def fields(self, word: Word, assignment: bool) -> list[Field]:
        build = _Builder()
        parts = word.parts
        last = len(parts) - 1
        for index, part in enumerate(parts):
            kind = part.kind
            if kind == LIT:
                text = part.text
                if not part.quoted and "~" in text:
                    text = self._tilde(text, index == 0, index == last, assignment, build)
                build.add(text, part.quoted)
            elif kind == PARAM or (kind == PARAMX and self._operator(part) is not None):
                value = self.lookup(part.text) if kind == PARAM else self._operator(part)
                if value is None:
                    source = part.body if isinstance(part.body, str) else part.text
                    build.add(
                        source if kind == PARAMX or isinstance(part.body, str) else "$" + part.text,
                        True,
                    )
                    build.dynamic = True
                elif part.quoted or assignment:
                    build.add(value, True)
                elif self.split_ok:
                    build.split(value)
                else:
                    build.add(value, False)
                    build.dynamic = True
            elif kind == PROCSUB:
                build.add("/dev/fd/63", True)  # what bash passes: a pipe to the process
            elif kind == EXTGLOB:
                build.add(part.text, False)
                build.globby = True
            else:  # $(...), `...`, $((...)), ${...} forms, arrays
                build.add(part.text, True)
                build.dynamic = True
                if kind == ARRAY:
                    build.dynamic = True
        build.end()
        return build.fields

    def _operator(self, part: Part) -> str | None:
        """``${NAME:-word}``, ``${NAME:+word}`` (and ``-``/``+`` when NAME is non-empty) with
        a known NAME: the value, else None."""
        inner = part.text[2:-1]
        end = 0
        while end < len(inner) and (inner[end].isalnum() or inner[end] == "_"):
            end += 1
        name, rest = inner[:end], inner[end:]
        if (
            not name
            or name[0].isdigit()
            or rest[:2] not in (":-", ":+")
            and rest[:1] not in "-+"
            or not rest
        ):
            return None
        value = self.lookup(name)
        if value is None:
            return None
        colon = rest.startswith(":")
        operator = rest[1] if colon else rest[0]
        word = rest[2:] if colon else rest[1:]
        if not value and not colon:
            return None  # unset or empty: cannot tell which
        use_word = (not value) if operator == "-" else bool(value)
        if not use_word:
            return value if operator == "-" else ""
        fields = self.fields(self.reparse(word), True) if word else []
        if any(field.dynamic or field.glob for field in fields):
            return None
        return " ".join(field.text for field in fields)

    def _tilde(self, text: str, first: bool, last: bool, assignment: bool, build: _Builder) -> str:
        """Tilde expansion inside one unquoted literal part."""
        starts: list[int] = []
        if first and text.startswith("~"):
            starts.append(0)
        elif first and not assignment:  # x=~/a as an argument: bash expands it too
            eq = text.find("=")
            if eq > 0 and text[eq + 1 : eq + 2] == "~" and _assignment_like(text[:eq]):
                starts.append(eq + 1)
        if assignment:
            if first and text.startswith("~"):
                pass
            for index, char in enumerate(text):
                if char == ":" and text[index + 1 : index + 2] == "~":
                    starts.append(index + 1)
        if not starts:
            return text
        out: list[str] = []
        previous = 0
        for start in starts:
            end = text.find("/", start)
            stop = text.find(":", start) if assignment else -1
            if stop >= 0 and (end < 0 or stop < end):
                end = stop
            if end < 0:
                if not last:
                    continue  # the tilde-prefix runs into quoted text: no expansion
                end = len(text)
            prefix = text[start + 1 : end]
            value = self._tilde_value(prefix)
            out.append(text[previous:start])
            if value is None:
                out.append(text[start:end])
                build.dynamic = True
            else:
                out.append(value)
            previous = end
        out.append(text[previous:])
        return "".join(out)

    def _tilde_value(self, prefix: str) -> str | None:
        if prefix == "":
            return self.lookup("HOME")
        if prefix == "+":
            return self.lookup("PWD")
        if prefix == "-":
            return self.lookup("OLDPWD")
        if self.users is not None:
            return self.users.get(prefix)
        try:
            import pwd  # rare: ~user

            return pwd.getpwnam(prefix).pw_dir
        except (ImportError, KeyError):
            return None


def _assignment_like(name: str) -> bool:
    return is_name(name[:-1] if name.endswith("+") else name)


def literal(word: Word) -> str | None:
    """A word's text when it has no expansions at all (quotes removed), else None."""
    for part in word.parts:
        if part.kind != LIT:
            return None
    return "".join(part.text for part in word.parts)
