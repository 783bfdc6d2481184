"""The builtins that change the shell the walk tracks: ``cd``, ``pushd``, ``popd``, variable
assignment (``export``, ``declare``, ``local``, ``readonly``, ``typeset``, ``unset``,
``read``, ``mapfile``, ``getopts``, ``printf -v``, ``let``), and those that run strings as
commands (``eval``, ``trap``) or files (``source``, ``.``).

``cd DIR`` into a directory the file system says does not exist may fail; the place it
leaves is then as likely as the one it reaches. ``cd`` alone goes to ``$HOME``, ``cd -`` to
``$OLDPWD``; an unknown destination makes the place lost (relative paths become dynamic).
"""

from __future__ import annotations

import os

from .expansion import Field, joined
from .nodes import Word
from .state import Place, assigns_in_arithmetic, identifiers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .record import Flow
    from .record import Record as Walker

    Builtin = Callable[[Walker, list[Field], Place], Flow]

# builtins that touch no file and run nothing (not opaque, though not all read-only)
QUIET_BUILTINS = frozenset(
    {
        "set",
        "shopt",
        "umask",
        "ulimit",
        "kill",
        "wait",
        "jobs",
        "alias",
        "unalias",
        "hash",
        "return",
        "exit",
        "break",
        "continue",
        "shift",
        "times",
        "caller",
        "disown",
        "fg",
        "bg",
        "suspend",
        "logout",
        "help",
        "bind",
        "complete",
        "compgen",
        "compopt",
        "echo",
        "printf",
        "test",
        "[",
        "true",
        "false",
        ":",
        "type",
        "dirs",
    }
)
SHELLS = frozenset(
    {"bash", "sh", "dash", "zsh", "ksh", "mksh", "yash", "ash", "hush", "rbash", "su", "runuser"}
)


def assign(
    walker: Walker, place: Place, name: str, value: Word | None, append: bool, array: bool
) -> Place:
    """``name=value`` (or ``+=``, or an array) in ``place``."""
    text: str | None = None
    if not array and value is not None:
        fields = walker.expander(place).expand(value, braces=False, assignment=True)
        if len(fields) == 1 and not fields[0].dynamic:
            text = fields[0].text
        elif not fields:
            text = ""
        else:
            text = _mktemp_value(walker, place, value)
        if append and text is not None:
            old = place.lookup(name, walker.strict)
            text = None if old is None else old + text
    variables = dict(place.vars)
    variables[name] = text
    return place.with_vars(variables)


def _mktemp_value(walker: Walker, place: Place, value: Word) -> str | None:
    """``NAME=$(mktemp ...)``: the name mktemp makes, template ``X``s kept (see
    :mod:`.tempfiles`); None for any other value known only at run time."""
    from .nodes import CMDSUB, CommandList, Simple
    from .tempfiles import temp_name

    if len(value.parts) != 1 or value.parts[0].kind != CMDSUB:
        return None
    body = value.parts[0].body
    if not isinstance(body, CommandList) or len(body.items) != 1:
        return None
    and_or, _separator = body.items[0]
    if and_or.rest or len(and_or.first.commands) != 1:
        return None
    command = and_or.first.commands[0]
    if not isinstance(command, Simple) or command.assigns or not command.words:
        return None
    fields = [f for word in command.words for f in walker.expander(place).expand(word)]
    if any(field.dynamic for field in fields) or fields[0].text != "mktemp":
        return None
    made = temp_name(fields[1:], place.vars)
    return made.path if made is not None and not made.dynamic else None


def _options(args: list[Field], valued: str = "") -> tuple[str, list[Field]]:
    """Letters of leading ``-x``/``+x`` options, and the operands after them."""
    letters: list[str] = []
    index = 0
    while index < len(args):
        text = args[index].text
        if args[index].dynamic or len(text) < 2 or text[0] not in "-+":
            break
        index += 1
        if text == "--":
            break
        letters.append(text[1:])
        if text[-1] in valued:
            index += 1
    return "".join(letters), args[index:]


def _cd(walker: Walker, argv: list[Field], place: Place) -> Flow:
    letters, operands = _options(argv[1:])
    name = argv[0].text
    field: Field | None
    if operands:
        field = operands[0]
        if name == "cd" and field.text == "-" and not field.dynamic:
            oldpwd = place.oldpwd
            field = Field("$OLDPWD", True) if oldpwd is None else Field(oldpwd)
    else:
        home = place.lookup("HOME", walker.strict)
        field = Field("~", True) if home is None else Field(home)
    if field.dynamic:
        moved = place.moved(place.resolve(field.text), True)
        return [moved], [place]
    text = field.text
    lost = place.lost and not text.startswith("/")
    cdpath = place.lookup("CDPATH", walker.strict)
    if cdpath and not text.startswith(("/", "./", "../")) and text not in (".", ".."):
        lost = True
    target = place.resolve(text)
    if "P" in letters and walker.fs and not lost:
        target = os.path.realpath(target)
    moved = place.moved(target, lost)
    if not walker.fs or lost:
        return [moved], [place.marked(True)]
    exists = os.path.isdir(target)
    if walker.may_have_changed(target, exists):  # something before may have made or removed it
        return [moved], [place]
    if exists:
        return [moved], [place.marked(True)]  # it exists: cd fails only by surprise
    return [moved.marked(True)], [place]  # it does not: cd fails


def _pushd(walker: Walker, argv: list[Field], place: Place) -> Flow:
    letters, operands = _options(argv[1:])
    stack = place.stack
    if operands and operands[0].text[:1] in "+-" and operands[0].text[1:].isdigit():
        lost = Place(
            place.cwd + "/...", True, place.oldpwd, None, place.vars, place.blind, place.unlikely
        )
        return [lost], [place]
    if not operands:
        if not stack:
            return [place], [place]  # no other directory: an error
        target = Field(stack[0])
        rest: tuple[str, ...] = stack[1:]
    else:
        target = operands[0]
        rest = stack or ()
    new_stack = None if stack is None or place.lost else (place.cwd,) + rest
    if "n" in letters:
        if stack is None or target.dynamic:
            return [place.with_stack(None)], [place]
        return [place.with_stack((place.resolve(target.text),) + stack)], [place]
    ok, fail = _cd(walker, [Field("cd"), target], place)
    return [ok[0].with_stack(new_stack)], fail


def _popd(walker: Walker, argv: list[Field], place: Place) -> Flow:
    letters, operands = _options(argv[1:])
    stack = place.stack
    if operands or stack is None:
        if operands and operands[0].text not in ("+0", "-0") and stack is not None:
            return [place.with_stack(None)], [place]
        lost = Place(
            place.cwd + "/...", True, place.oldpwd, None, place.vars, place.blind, place.unlikely
        )
        return [lost], [place]
    if not stack:
        return [place], [place]  # empty stack: an error, nothing moves
    if "n" in letters:
        return [place.with_stack(stack[1:])], [place]
    ok, fail = _cd(walker, [Field("cd"), Field(stack[0])], place)
    return [ok[0].with_stack(stack[1:])], fail


def _eval(walker: Walker, argv: list[Field], place: Place) -> Flow:
    walker.read_only = False
    if len(argv) < 2:
        return [place], [place]
    script = joined(argv[1:])
    ok, fail = walker.script(script, place, "eval", child=False)
    if script.dynamic:
        ok = [p.with_vars(p.vars, blind=True) for p in ok]
        fail = [p.with_vars(p.vars, blind=True) for p in fail]
    return ok, fail


def _source(walker: Walker, argv: list[Field], place: Place) -> Flow:
    walker.read_only = False
    walker.add_opaque("source")
    blind = place.with_vars({name: None for name in place.vars}, blind=True)
    return [blind], [blind]


def _trap(walker: Walker, argv: list[Field], place: Place) -> Flow:
    walker.read_only = False
    letters, operands = _options(argv[1:])
    if "l" not in letters and "p" not in letters and len(operands) >= 2 and operands[0].text != "-":
        walker.script(operands[0], place, "trap")
    return [place], [place]


def _declare(walker: Walker, argv: list[Field], place: Place) -> Flow:
    walker.read_only = False
    letters, operands = _options(argv[1:])
    if "f" in letters or "p" in letters.replace("-", "") and not operands:
        return [place], [place]
    odd = any(letter not in "xrg-" for letter in letters)  # -i -a -A -n -l -u change values
    variables = dict(place.vars)
    for field in operands:
        name, eq, value = field.text.partition("=")
        if not name.replace("_", "a").isalnum():
            continue
        if eq:
            variables[name] = None if (odd or field.dynamic) else value
        elif odd:
            variables[name] = None
    return [place.with_vars(variables)], [place.with_vars(variables)]


def _unset(walker: Walker, argv: list[Field], place: Place) -> Flow:
    walker.read_only = False
    letters, operands = _options(argv[1:])
    variables = dict(place.vars)
    for field in operands:  # unset -f: functions stay known (the unset may not run)
        if "f" not in letters and not field.dynamic:
            variables[field.text] = ""
    return [place.with_vars(variables)], [place.with_vars(variables)]


def _forget(valued: str, default: str, last_only: bool = False) -> Builtin:
    """Builtins that read values into variables nobody can predict."""

    def builtin(walker: Walker, argv: list[Field], place: Place) -> Flow:
        name = argv[0].text
        if name not in ("read",):
            walker.read_only = False
        letters, operands = _options(argv[1:], valued)
        names = [field.text for field in operands]
        if last_only:
            names = names[-1:]
        if name == "getopts":
            names = names[1:2] + ["OPTARG", "OPTIND"]
        for index, field in enumerate(argv[1:-1]):
            if field.text in ("-a", "-v"):
                names.append(argv[index + 2].text)
        names = names or [default]
        forgotten = place.forget(names)
        return [forgotten], [forgotten]

    return builtin


def _printf(walker: Walker, argv: list[Field], place: Place) -> Flow:
    if len(argv) > 2 and argv[1].text == "-v":
        walker.read_only = False
        place = place.forget([argv[2].text])
    return [place], [place]


def _let(walker: Walker, argv: list[Field], place: Place) -> Flow:
    text = " ".join(field.text for field in argv[1:])
    if assigns_in_arithmetic(text):
        walker.read_only = False
        place = place.forget(identifiers(text))
    return [place], [place]


def _true(walker: Walker, argv: list[Field], place: Place) -> Flow:
    return [place], [place.marked(True)]


def _false(walker: Walker, argv: list[Field], place: Place) -> Flow:
    return [place.marked(True)], [place]


def _shopt(walker: Walker, argv: list[Field], place: Place) -> Flow:
    """``shopt -s expand_aliases``: later lines run whatever an ``alias`` says, which the walk
    does not follow, so such a command cannot be read (the gate then denies it)."""
    texts = [field.text for field in argv[1:]]
    if "-s" in texts and ("expand_aliases" in texts or any(f.dynamic for f in argv[1:])):
        if walker.error is None:
            walker.error = (
                "the command turns on alias expansion (shopt -s expand_aliases), which "
                "paw-tui does not follow"
            )
    return [place], [place]


BUILTINS: dict[str, Builtin] = {
    "shopt": _shopt,
    "true": _true,
    ":": _true,
    "false": _false,
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "eval": _eval,
    "source": _source,
    ".": _source,
    "trap": _trap,
    "export": _declare,
    "declare": _declare,
    "typeset": _declare,
    "local": _declare,
    "readonly": _declare,
    "unset": _unset,
    "read": _forget("adinNptu", "REPLY"),
    "mapfile": _forget("dnOsuCc", "MAPFILE", True),
    "readarray": _forget("dnOsuCc", "MAPFILE", True),
    "getopts": _forget("", "OPTARG"),
    "printf": _printf,
    "let": _let,
}
