"""Best-effort discovery of the files a shell command would write.

This is a heuristic, and the README says so: it sees redirections (``>``, ``>>``, ``>|``,
``&>``), ``tee``, ``cp``, ``mv`` (both ends: the source disappears), ``rm``, ``rmdir``,
``touch``, ``mkdir``, ``ln``, ``truncate``, ``dd of=`` and ``sed -i``, across ``&&``, ``||``,
``;``, ``|`` and new lines, and follows ``cd DIR`` within the command. It cannot see writes
made by programs the command runs (``python script.py``, ``make``), inside ``$(...)`` or
``bash -c "..."``, or through variables and globs it cannot expand. A command it cannot
tokenise yields None: the gate then allows it under an active intent (DESIGN §6).
"""

from __future__ import annotations

import os
import shlex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_SEPARATORS = frozenset({"&&", "||", ";", "|", "|&", "&", "\n", ";;", "(", ")"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
_HARMLESS_TARGETS = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")
_PREFIXES = frozenset(
    {"sudo", "command", "builtin", "nohup", "time", "exec", "nice", "env", "doas"}
)
_PUNCTUATION = "();<>|&\n"


class ShellTarget:
    """A path a command writes, with the directory it is relative to."""

    __slots__ = ("path", "cwd", "how")

    def __init__(self, path: str, cwd: str, how: str) -> None:
        self.path = path
        self.cwd = cwd
        self.how = how

    def __repr__(self) -> str:
        return f"ShellTarget({self.path!r}, cwd={self.cwd!r}, how={self.how!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShellTarget):
            return NotImplemented
        return (self.path, self.cwd, self.how) == (other.path, other.cwd, other.how)


# Shell operators, longest first: shlex returns a run of punctuation as one token (");",
# ";\n", "&&(", "&&\n"), which is split back into these.
_OPERATORS = (
    "&>>",
    "<<<",
    "<<-",
    "&&",
    "||",
    ";;",
    "|&",
    "&>",
    ">>",
    ">|",
    ">&",
    "<&",
    "<<",
    "<>",
    ">",
    "<",
    "|",
    "&",
    ";",
    "(",
    ")",
    "\n",
)
# Options of a command prefix that take a value (``sudo -u root tee f``: the command is tee).
_PREFIX_VALUE_OPTIONS = {
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "exec": frozenset({"-a"}),
}


def _split_operators(token: str) -> list[str]:
    pieces: list[str] = []
    index = 0
    while index < len(token):
        for operator in _OPERATORS:
            if token.startswith(operator, index):
                pieces.append(operator)
                index += len(operator)
                break
        else:  # not reachable for a run of _PUNCTUATION characters; keep it whole
            pieces.append(token[index:])
            break
    return pieces


def _tokens(command: str) -> list[str] | None:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        raw = list(lexer)
    except ValueError:  # an unclosed quote or escape
        return None
    tokens: list[str] = []
    for token in raw:
        if len(token) > 1 and all(char in _PUNCTUATION for char in token):
            tokens.extend(_split_operators(token))
        else:
            tokens.append(token)
    return tokens


def _drop_heredocs(tokens: list[str]) -> list[str]:
    """Remove here-document bodies (they are data, not commands)."""
    out: list[str] = []
    pending: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("<<", "<<-") and index + 1 < len(tokens):
            delimiter = tokens[index + 1]
            if token == "<<" and delimiter.startswith("-") and len(delimiter) > 1:
                delimiter = delimiter[1:]  # "<<-EOF": shlex reads the dash as part of the word
            pending.append(delimiter)
            index += 2
            continue
        if token == "\n" and pending:
            out.append(token)
            index += 1
            while pending and index < len(tokens):
                # skip whole lines until one is exactly the delimiter
                line: list[str] = []
                while index < len(tokens) and tokens[index] != "\n":
                    line.append(tokens[index])
                    index += 1
                index += 1  # the newline
                if line == [pending[0]]:
                    pending.pop(0)
            continue
        out.append(token)
        index += 1
    return out


def _segments(tokens: list[str]) -> Iterator[list[str]]:
    """Simple commands between separators; each ``(`` and ``)`` comes as its own segment."""
    current: list[str] = []
    for token in tokens:
        if token in _SEPARATORS:
            if current:
                yield current
            current = []
            if token in ("(", ")"):
                yield [token]
        else:
            current.append(token)
    if current:
        yield current


def _strip_prefixes(words: list[str]) -> list[str]:
    index = 0
    while index < len(words):
        word = words[index]
        if "=" in word and not word.startswith("-") and word.split("=", 1)[0].isidentifier():
            index += 1  # VAR=value
        elif word in _PREFIXES:
            index += 1
            takes_value = _PREFIX_VALUE_OPTIONS.get(word, frozenset())
            while index < len(words) and words[index].startswith("-") and words[index] != "-":
                option = words[index]
                index += 1
                if option == "--":
                    break
                if option in takes_value:
                    index += 1  # sudo -u root: skip the option's value too
        else:
            break
    return words[index:]


def _operands(words: list[str]) -> list[str]:
    """Arguments that are not options (everything after ``--`` counts)."""
    result: list[str] = []
    options_done = False
    for word in words:
        if options_done or not word.startswith("-") or word == "-":
            result.append(word)
        elif word == "--":
            options_done = True
    return result


def _command_targets(words: list[str]) -> list[tuple[str, str]]:  # noqa: C901 - replaced by core/policy/shell
    if not words:
        return []
    name = os.path.basename(words[0])
    args = words[1:]
    if name in ("tee", "rm", "rmdir", "touch", "mkdir", "truncate", "unlink", "shred"):
        values = _operands(args)
        if name == "truncate":  # truncate -s SIZE FILE: drop the size operand after -s
            values = [
                w
                for i, w in enumerate(args)
                if not w.startswith("-")
                and (i == 0 or args[i - 1] not in ("-s", "--size", "-r", "--reference"))
            ]
        return [(value, name) for value in values if value != "-"]
    if name in ("cp", "mv", "ln", "install", "rsync"):
        for index, word in enumerate(args):
            if word in ("-t", "--target-directory") and index + 1 < len(args):
                return [(args[index + 1], name)] + (
                    [(w, name) for w in _operands(args[:index] + args[index + 2 :])]
                    if name == "mv"
                    else []
                )
            if word.startswith("--target-directory="):
                return [(word.split("=", 1)[1], name)]
        values = _operands(args)
        if len(values) < 2:
            return []
        if name == "mv":  # the sources disappear: moving them is a write too
            return [(value, name) for value in values]
        return [(values[-1], name)]
    if name == "dd":
        return [(word[3:], name) for word in args if word.startswith("of=")]
    if name in ("sed", "gsed", "perl"):
        in_place = any(
            w == "-i"
            or (w.startswith("-i") and not w.startswith("--"))
            or w.startswith("--in-place")
            for w in args
        )
        if not in_place:
            return []
        files: list[str] = []
        script_given = False
        skip_next = False
        for word in args:
            if skip_next:
                skip_next = False
                continue
            if word in ("-e", "--expression", "-f", "--file"):
                script_given = True
                skip_next = True
            elif word.startswith("-"):
                continue
            elif not script_given:
                script_given = True  # the first operand is the script
            else:
                files.append(word)
        return [(value, name) for value in files]
    return []


def write_targets(command: str, cwd: str) -> list[ShellTarget] | None:  # noqa: C901 - replaced by core/policy/shell
    """Every path ``command`` visibly writes, or None when it cannot be tokenised."""
    tokens = _tokens(command)
    if tokens is None:
        return None
    targets: list[ShellTarget] = []
    current_dir = cwd
    saved_dirs: list[str] = []  # a "cd" inside ( ... ) or $( ... ) ends with the subshell
    for segment in _segments(_drop_heredocs(tokens)):
        if segment == ["("]:
            saved_dirs.append(current_dir)
            continue
        if segment == [")"]:
            if saved_dirs:
                current_dir = saved_dirs.pop()
            continue
        words: list[str] = []
        index = 0
        while index < len(segment):
            token = segment[index]
            if token in _REDIRECTS or (
                token.isdigit()
                and index + 1 < len(segment)
                and segment[index + 1] in (">", ">>", ">|")
            ):
                if token.isdigit():
                    index += 1
                    token = segment[index]
                if index + 1 < len(segment):
                    target = segment[index + 1]
                    if (
                        not target.startswith("&")
                        and target not in _HARMLESS_TARGETS
                        and not target.startswith("/dev/fd/")
                    ):
                        targets.append(ShellTarget(target, current_dir, "redirect"))
                index += 2
                continue
            if token == ">&" and index + 1 < len(segment):
                target = segment[index + 1]
                # ">&2", ">&-" duplicate or close a descriptor; ">& file" writes the file
                if not (target.isdigit() or target == "-" or target in _HARMLESS_TARGETS):
                    targets.append(ShellTarget(target, current_dir, "redirect"))
                index += 2
                continue
            if token in ("<", "<<<", "<&", "<>") and index + 1 < len(segment):
                if token == "<>" and segment[index + 1] not in _HARMLESS_TARGETS:
                    targets.append(ShellTarget(segment[index + 1], current_dir, "redirect"))
                index += 2  # input redirection, or a descriptor duplication such as 0<&3
                continue
            words.append(token)
            index += 1
        words = _strip_prefixes(words)
        if words and words[0] == "cd":
            destination = words[1] if len(words) > 1 else "~"
            current_dir = os.path.normpath(
                os.path.join(current_dir, os.path.expanduser(destination))
            )
            continue
        for path, how in _command_targets(words):
            targets.append(ShellTarget(path, current_dir, how))
    return targets
