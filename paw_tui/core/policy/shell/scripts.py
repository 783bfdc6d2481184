"""The little languages inside ``sed`` and ``perl`` command lines that decide what they write.

:func:`sed_script` reads a sed script far enough to find its ``w``/``W`` commands, the
``w`` flag of ``s``, and ``e`` (which runs commands); it gives up (None) on anything it does
not understand, and callers then treat the script as able to do anything.
:func:`perl_switches` reads perl's switch clusters (``-pi.bak -e CODE``) the way perl does.
"""

from __future__ import annotations

from .expansion import Field

_SIMPLE = frozenset("=dDgGhHnNpPxzF")
_SPACE = " \t"


def _line_end(script: str, i: int) -> int:
    end = script.find("\n", i)
    return len(script) if end < 0 else end


def _regex_end(script: str, i: int, delimiter: str) -> int:
    """Index after the ``delimiter`` closing a regex or replacement that starts at ``i``."""
    n = len(script)
    while i < n:
        char = script[i]
        if char == "\\":
            i += 2
            continue
        if char == delimiter:
            return i + 1
        if char == "\n" and delimiter != "\n":
            return -1
        i += 1
    return -1


def _address(script: str, i: int) -> int:
    n = len(script)
    if i < n and script[i] == "$":
        return i + 1
    if i < n and script[i].isdigit():
        while i < n and (script[i].isdigit() or script[i] == "~"):
            i += 1
        return i
    if i < n and (script[i] == "/" or script[i] == "\\"):
        if script[i] == "\\":
            i += 1
            if i >= n:
                return -1
        end = _regex_end(script, i + 1, script[i])
        if end < 0:
            return -1
        while end < n and script[end] in "IM":
            end += 1
        return end
    return i


class _Unreadable(Exception):
    pass


def sed_script(script: str) -> tuple[list[str], bool] | None:
    """``(files written, runs commands)`` for a sed script, or None when unreadable."""
    reader = _Sed(script)
    try:
        reader.read()
    except _Unreadable:
        return None
    return reader.writes, reader.runs


class _Sed:
    __slots__ = ("script", "n", "i", "writes", "runs")

    def __init__(self, script: str) -> None:
        self.script = script
        self.n = len(script)
        self.i = 0
        self.writes: list[str] = []
        self.runs = False

    def read(self) -> None:
        script = self.script
        while self.i < self.n:
            char = script[self.i]
            if char in _SPACE or char in ";\n{}":
                self.i += 1
            elif char == "#":
                self.i = _line_end(script, self.i)
            else:
                self.addresses()
                self.command()

    def addresses(self) -> None:
        script, n = self.script, self.n
        i = _address(script, self.i)
        if i >= 0 and i < n and script[i] == ",":
            i += 1
            if i < n and script[i] in "+~":
                i += 1
            i = _address(script, i)
        if i < 0:
            raise _Unreadable
        while i < n and (script[i] in _SPACE or script[i] == "!"):
            i += 1
        if i >= n:
            raise _Unreadable
        self.i = i

    def file_name(self) -> str:
        """The rest of the line: a file name (``w FILE``, ``r FILE``)."""
        end = _line_end(self.script, self.i)
        name = self.script[self.i : end].strip(_SPACE)
        self.i = end
        return name

    def command(self) -> None:
        script, n = self.script, self.n
        command = script[self.i]
        self.i += 1
        if command in _SIMPLE or command in "{}":
            return
        if command in "aic":
            self.text()
        elif command in "rRwW":
            name = self.file_name()
            if command in "wW":
                self.written(name)
        elif command == "e":
            self.runs = True
            self.i = _line_end(script, self.i)
        elif command in "btT:v":
            while self.i < n and script[self.i] not in ";\n":
                self.i += 1
        elif command in "qQlL":
            while self.i < n and (script[self.i] in _SPACE or script[self.i].isdigit()):
                self.i += 1
        elif command == "s" or command == "y":
            self.substitution(command)
        else:
            raise _Unreadable

    def written(self, name: str) -> None:
        if not name:
            raise _Unreadable
        self.writes.append(name)

    def text(self) -> None:
        """``a``/``i``/``c`` text: to the end of the line, a trailing backslash goes on."""
        script, n = self.script, self.n
        while True:
            end = _line_end(script, self.i)
            if end > self.i and script[end - 1] == "\\" and end < n:
                self.i = end + 1
                continue
            self.i = end
            return

    def substitution(self, command: str) -> None:
        script, n = self.script, self.n
        if self.i >= n or script[self.i] in "\n\\":
            raise _Unreadable
        delimiter = script[self.i]
        i = _regex_end(script, self.i + 1, delimiter)
        if i >= 0:
            i = _regex_end(script, i, delimiter)
        if i < 0:
            raise _Unreadable
        self.i = i
        if command == "y":
            return
        while self.i < n and script[self.i] not in ";\n}#" and script[self.i] not in _SPACE:
            flag = script[self.i]
            self.i += 1
            if flag == "e":
                self.runs = True
            elif flag == "w":
                self.written(self.file_name())
            elif not (flag in "gpiImM" or flag.isdigit()):
                raise _Unreadable


class PerlSwitches:
    __slots__ = ("in_place", "suffix", "code", "files")

    def __init__(self) -> None:
        self.in_place = False
        self.suffix = ""
        self.code: list[str] = []  # -e / -E programs
        self.files: list[Field] = []  # @ARGV: the files -n/-p/-i read (and -i rewrites)


def perl_switches(args: list[Field]) -> PerlSwitches:
    """Perl's switches, as perl reads them: clusters, ``-e`` taking the rest or the next
    argument, ``-i`` taking the rest of its cluster as the backup extension."""
    result = PerlSwitches()
    index = 0
    count = len(args)
    while index < count:
        field = args[index]
        text = field.text
        if field.dynamic or len(text) < 2 or text[0] != "-":
            break
        index += 1
        if text == "--":
            break
        position = 1
        while position < len(text):
            letter = text[position]
            position += 1
            if letter in "eE":
                if position < len(text):
                    result.code.append(text[position:])
                elif index < count:
                    result.code.append(args[index].text)
                    index += 1
                break
            if letter == "i":
                result.in_place = True
                result.suffix = text[position:]
                break
            if letter == "I" and position >= len(text):
                index += 1  # -I DIR
                break
            if letter in "IMmxdDCFV":
                break  # the rest of the cluster is this switch's value
            if letter in "l0":  # -l[octal], -0[octal] or -0x[hex]
                digits = "01234567"
                if letter == "0" and text[position : position + 1] in ("x", "X"):
                    position += 1
                    digits = "0123456789abcdefABCDEF"
                while position < len(text) and text[position] in digits:
                    position += 1
    if not result.code and index < count:
        index += 1  # the program file
    result.files = args[index:]
    return result
