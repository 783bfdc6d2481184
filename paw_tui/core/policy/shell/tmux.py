"""``tmux``: the commands it hands its server, read as the server will run them.

A tmux command line goes to the tmux server, which is not a child of the shell: what the server
runs (a new window's command, ``run-shell``, ``if-shell``, ``pipe-pane``, ``display-popup``,
text typed into a pane by ``send-keys``) runs outside the kernel boundary, after PostToolUse,
unseen by drift detection. Many people run their agent inside tmux, where ``$TMUX`` already
points at their own server.

So each command of the line (``;`` separates them, ``\\;`` is a literal one; names and their
unique prefixes and aliases are tmux's) is read for what it carries: a shell command line
(:class:`~.effects.Carried` ``script``), a command's words (``argv``), tmux commands in a
string (read here with tmux's quoting), or text typed into a pane (``send-keys``; the pane is
taken to run a shell: what a line holds runs there when ``Enter`` ends it). Whatever cannot be
read whole is ``unreadable``: a format's ``#(...)`` (tmux runs it), special keys (history,
completion, editing keys), text left at a prompt without ``Enter``, a buffer pasted, a
configuration file, an option or hook or key binding set for later, an environment set for the
next command. Commands that carry nothing (listing, selecting, killing, resizing) are inert;
the listing forms (``ls``, ``list-windows``, ``show-options``, ``display -p``...) only read.
"""

from __future__ import annotations

from .effects import Carried, Effects
from .expansion import Field
from .options import Options, getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Probe

LABEL = "tmux"
# name: (alias, value-taking flags, what it is)
_RUNS = "runs"  # [shell-command [argument ...]] as its last operands
_READS = "reads"  # lists or shows: only reads
_INERT = "inert"  # carries no command and writes no file
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "attach-session": ("attach", "cft", _INERT),
    "bind-key": ("bind", "NT", ""),
    "break-pane": ("breakp", "Fnst", _INERT),
    "capture-pane": ("capturep", "bEStd", _INERT),
    "choose-buffer": ("", "FfKOt", ""),
    "choose-client": ("", "FfKOt", ""),
    "choose-tree": ("", "FfKOt", ""),
    "clear-history": ("clearhist", "t", _INERT),
    "clear-prompt-history": ("clearphist", "T", _INERT),
    "clock-mode": ("", "t", _INERT),
    "command-prompt": ("", "ItpT", ""),
    "confirm-before": ("confirm", "cpt", ""),
    "copy-mode": ("", "st", _INERT),
    "customize-mode": ("", "Fft", ""),
    "delete-buffer": ("deleteb", "b", _INERT),
    "detach-client": ("detach", "Est", _INERT),
    "display-menu": ("menu", "bcCHsStTxy", ""),
    "display-message": ("display", "cdtF", _READS),
    "display-popup": ("popup", "bcdehsStTwxy", _RUNS),
    "display-panes": ("displayp", "dt", ""),
    "find-window": ("findw", "t", ""),
    "has-session": ("has", "t", _READS),
    "if-shell": ("if", "t", "if"),
    "join-pane": ("joinp", "lst", _INERT),
    "kill-pane": ("killp", "t", _INERT),
    "kill-server": ("", "", _INERT),
    "kill-session": ("", "t", _INERT),
    "kill-window": ("killw", "t", _INERT),
    "last-pane": ("lastp", "t", _INERT),
    "last-window": ("last", "t", _INERT),
    "link-window": ("linkw", "st", _INERT),
    "list-buffers": ("lsb", "Ff", _READS),
    "list-clients": ("lsc", "Fft", _READS),
    "list-commands": ("lscm", "F", _READS),
    "list-keys": ("lsk", "PT", _READS),
    "list-panes": ("lsp", "Fft", _READS),
    "list-sessions": ("ls", "Ff", _READS),
    "list-windows": ("lsw", "Fft", _READS),
    "load-buffer": ("loadb", "bt", _INERT),
    "lock-client": ("lockc", "t", _INERT),
    "lock-server": ("lock", "", _INERT),
    "lock-session": ("locks", "t", _INERT),
    "move-pane": ("movep", "lst", _INERT),
    "move-window": ("movew", "st", _INERT),
    "new-session": ("new", "cefFnstxy", _RUNS),
    "new-window": ("neww", "cenFt", _RUNS),
    "next-layout": ("nextl", "t", _INERT),
    "next-window": ("next", "t", _INERT),
    "paste-buffer": ("pasteb", "bst", ""),
    "pipe-pane": ("pipep", "t", "pipe"),
    "previous-layout": ("prevl", "t", _INERT),
    "previous-window": ("prev", "t", _INERT),
    "refresh-client": ("refresh", "ACcflt", _INERT),
    "rename-session": ("rename", "t", _INERT),
    "rename-window": ("renamew", "t", _INERT),
    "resize-pane": ("resizep", "txy", _INERT),
    "resize-window": ("resizew", "txy", _INERT),
    "respawn-pane": ("respawnp", "cet", _RUNS),
    "respawn-window": ("respawnw", "cet", _RUNS),
    "rotate-window": ("rotatew", "t", _INERT),
    "run-shell": ("run", "cdt", "run"),
    "save-buffer": ("saveb", "b", ""),
    "select-layout": ("selectl", "t", _INERT),
    "select-pane": ("selectp", "Tt", _INERT),
    "select-window": ("selectw", "t", _INERT),
    "send-keys": ("send", "cNt", "keys"),
    "send-prefix": ("", "t", ""),
    "server-access": ("", "", ""),
    "set-buffer": ("setb", "btn", _INERT),
    "set-environment": ("setenv", "Ft", ""),
    "set-hook": ("", "t", ""),
    "set-option": ("set", "t", ""),
    "set-window-option": ("setw", "t", ""),
    "show-buffer": ("showb", "b", _READS),
    "show-environment": ("showenv", "t", _READS),
    "show-hooks": ("", "t", _READS),
    "show-messages": ("showmsgs", "t", _READS),
    "show-options": ("show", "t", _READS),
    "show-prompt-history": ("showphist", "T", _READS),
    "show-window-options": ("showw", "t", _READS),
    "source-file": ("source", "t", ""),
    "split-window": ("splitw", "celFpt", _RUNS),
    "start-server": ("start", "", _INERT),
    "suspend-client": ("suspendc", "t", _INERT),
    "swap-pane": ("swapp", "st", _INERT),
    "swap-window": ("swapw", "st", _INERT),
    "switch-client": ("switchc", "ctT", _INERT),
    "unbind-key": ("unbind", "T", _INERT),
    "unlink-window": ("unlinkw", "t", _INERT),
    "wait-for": ("wait", "", _INERT),
}
_ALIASES = {alias: name for name, (alias, _, _) in _COMMANDS.items() if alias}
_GLOBAL_VALUED = "cfLSTs"
# keys that end a line in a shell, and those that only clear what waits at the prompt
_ENTER = frozenset({"enter", "c-m", "^m", "kpenter", "c-j", "^j"})
_CLEAR = frozenset({"c-c", "^c", "c-u", "^u"})
_NAMED_KEYS = frozenset(
    "escape space tab btab bspace up down left right home end ppage pageup pgup npage pagedown "
    "pgdn ic insert dc delete any kp* kp/ kp- kp+ kp. kpenter".split()
)


def resolve(word: str) -> str | None:
    """A tmux command's full name from what was typed (a name, an alias or a unique
    prefix), or None when tmux would not know it."""
    if word in _COMMANDS:
        return word
    if word in _ALIASES:
        return _ALIASES[word]
    found = [name for name in _COMMANDS if name.startswith(word)]
    return found[0] if len(found) == 1 else None


def split_commands(words: list[Field]) -> list[list[Field]]:
    """A tmux argument list split into commands: a word ``;`` separates them, a word ending
    in ``;`` ends one (``\\;`` at its end is a literal ``;``)."""
    commands: list[list[Field]] = []
    current: list[Field] = []
    for field in words:
        text = field.text
        if text.endswith(";") and not field.dynamic:
            if text.endswith("\\;"):
                current.append(Field(text[:-2] + ";", field.dynamic, field.glob))
                continue
            if text[:-1]:
                current.append(Field(text[:-1], field.dynamic, field.glob))
            commands.append(current)
            current = []
            continue
        current.append(field)
    commands.append(current)
    return [command for command in commands if command]


def _flags(args: list[Field], valued: str) -> tuple[Options, bool]:
    """tmux's getopt (grouped flags, values attached or next, stopping at the first operand),
    and whether an option word was known only at run time."""
    opts = getopt(args, valued=valued, permute=False)
    first = opts.operands[:1]
    return opts, bool(first) and first[0].dynamic and first[0].text.startswith("-")


def tmux(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    flags, unknown = _flags(args, _GLOBAL_VALUED)
    if unknown:
        eff.cannot_read(LABEL, "is given options known only when it runs", True)
        return
    configs = [value for name, value in flags.found if name == "f"]
    if any(config is None or config.dynamic or config.text != "/dev/null" for config in configs):
        eff.cannot_read(LABEL + " -f", "would read tmux commands from a file", True)
    shell = flags.value("c")
    if shell is not None:  # the client runs it itself, with the server's default shell
        eff.carry(Carried(LABEL + " -c", script=shell))
        return
    commands = split_commands(flags.operands) or [[Field("new-session")]]
    for command in commands:
        _command(command, eff)


def _command(words: list[Field], eff: Effects) -> None:
    head = words[0]
    if head.dynamic:
        eff.cannot_read(
            LABEL, f"would run a tmux command known only when it runs ({head.text})", True
        )
        return
    full = resolve(head.text)
    label = f"{LABEL} {head.text}"
    if full is None:
        eff.cannot_read(label, "is not a tmux command paw-tui knows", True)
        return
    _alias, valued, kind = _COMMANDS[full]
    args = words[1:]
    if any("#(" in field.text for field in args):
        eff.cannot_read(label, "holds a format's #(...), which the tmux server runs", True)
        return
    if kind in (_READS, _INERT):
        return
    flags, unknown = _flags(args, valued)
    operands = flags.operands
    if unknown or any(field.dynamic for field in args):
        eff.cannot_read(label, "has arguments known only when it runs", True)
        return
    if kind == _RUNS:
        _runs(label, full, flags, eff)
    elif kind == "run":
        if flags.has("C"):
            _tmux_string(label, operands[:1], eff)
        elif operands:
            eff.carry(_outside(label, operands[0], flags.value("c")))
    elif kind == "if":
        if operands and not flags.has("F"):
            eff.carry(_outside(label, operands[0], None))
        _tmux_string(label, operands[1:3], eff)
    elif kind == "pipe":
        if operands:
            eff.carry(_outside(label, operands[0], None))
    elif kind == "keys":
        _keys(label, flags, eff)
    else:
        eff.cannot_read(label, _LATER.get(full, _DEFAULT_LATER), True)


_DEFAULT_LATER = "makes the tmux server run commands later that paw-tui cannot see"
_LATER = {
    "paste-buffer": "types a buffer paw-tui cannot see into a pane",
    "save-buffer": "has the tmux server write a file",
    "source-file": "would read tmux commands from a file",
    "set-environment": "sets the environment of the commands the tmux server runs next",
    "send-prefix": "sends a key to a pane, whose effect paw-tui cannot see",
    "server-access": "lets other users drive the tmux server",
}


def _outside(label: str, script: Field, cwd: Field | None) -> Carried:
    """A shell command line the tmux server runs (in ``cwd`` when it is a literal absolute
    path; a format such as ``#{pane_current_path}`` or nothing: a directory nobody knows)."""
    known = cwd is not None and cwd.text.startswith("/") and "#" not in cwd.text
    return Carried(label, script=script, outside=True, cwd=cwd if known else None, here=False)


def _runs(label: str, full: str, flags: Options, eff: Effects) -> None:
    """new-session, new-window, split-window, respawn-*, display-popup: one operand runs in
    the default shell, several are a command's words; none is the default shell alone."""
    if flags.has("e"):
        eff.cannot_read(label, "sets the environment of the command it runs (-e)", True)
        return
    operands = flags.operands
    carried = _outside(label, Field(""), flags.value("d" if full == "display-popup" else "c"))
    if len(operands) == 1:
        carried.script = operands[0]
        eff.carry(carried)
    elif operands:
        carried.script, carried.argv = None, operands
        eff.carry(carried)


def _tmux_string(label: str, strings: list[Field], eff: Effects) -> None:
    """Arguments that are tmux command lines (``if-shell``'s, ``run-shell -C``'s)."""
    for string in strings:
        commands = tmux_words(string.text)
        if commands is None:
            eff.cannot_read(label, "carries tmux commands paw-tui cannot read", True)
            continue
        for words in commands:
            if words:
                _command([Field(word) for word in words], eff)


def tmux_words(text: str) -> list[list[str]] | None:
    """A tmux command string read the way tmux's parser reads it, as far as paw-tui follows
    it: quotes, backslashes, ``;`` and newlines between commands, ``#`` comments. None for
    what it does not follow (``{ }`` blocks, ``%if``, ``$VAR``, ``~``)."""
    commands: list[list[str]] = [[]]
    word: list[str] | None = None
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        if char in "'\"\\":
            found = _quoted(text, index - 1)
            if found is None:
                return None
            piece, index = found
            word = (word or []) + [piece]
        elif char in "{}$~%":
            return None
        elif char in " \t;\n":
            if word is not None:
                commands[-1].append("".join(word))
                word = None
            if char in ";\n":
                commands.append([])
        elif char == "#" and word is None:
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
        else:
            word = (word or []) + [char]
    if word is not None:
        commands[-1].append("".join(word))
    return commands


def _quoted(text: str, start: int) -> tuple[str, int] | None:
    """The text of a quoted piece (or an escaped character) starting at ``start``, and the
    index after it; None when it does not close or expands a variable."""
    quote = text[start]
    if quote == "\\":
        return (text[start + 1], start + 2) if start + 1 < len(text) else None
    out: list[str] = []
    index = start + 1
    while index < len(text):
        char = text[index]
        index += 1
        if char == quote:
            return "".join(out), index
        if quote == '"' and char == "$":
            return None
        if quote == '"' and char == "\\" and index < len(text):
            char = text[index]
            index += 1
        out.append(char)
    return None


def _keys(label: str, flags: Options, eff: Effects) -> None:
    """``send-keys``: the text typed into a pane, read as shell command lines, one per
    ``Enter``. What already waits at the prompt is unknown until ``C-c`` or ``C-u`` drops it:
    ``Enter`` on nothing typed would run it."""
    if flags.has("H", "X", "K"):
        eff.cannot_read(label, "sends keys whose effect paw-tui cannot see (-H, -X, -K)", True)
        return
    keys = flags.operands
    literal = flags.has("l")
    lines: list[str] = []
    pending = ""
    known = False  # the prompt was cleared, or a line already ran
    for key in keys:
        text = key.text
        lowered = text.lower()
        if literal:
            typed = text
        elif lowered in _ENTER:
            typed = "\n"
        elif lowered in _CLEAR:
            pending, known = "", True
            continue
        elif lowered == "space":
            typed = " "
        elif _special(lowered):
            why = f"sends the key {text}, whose effect in the pane paw-tui cannot see"
            eff.cannot_read(label, why, True)
            return
        else:
            typed = text
        for char in typed:
            if char != "\n":
                pending += char
                continue
            if not pending and not known:
                why = "presses Enter on whatever already waits at the pane's prompt"
                eff.cannot_read(label, why, True)
                return
            lines.append(pending)
            pending, known = "", True
    if pending:
        why = "leaves text at the pane's prompt, where whatever is typed next completes it"
        eff.cannot_read(label, why, True)
        return
    script = "\n".join(lines)
    if script.strip():
        eff.carry(Carried(label, script=Field(script), outside=True, here=False))


def _special(lowered: str) -> bool:
    """Whether a send-keys argument names a key rather than text to type."""
    if lowered in _NAMED_KEYS or lowered.startswith(("c-", "m-", "s-", "0x", "u+")):
        return len(lowered) > 1
    if lowered.startswith("kp") and len(lowered) <= 6:
        return True
    if lowered.startswith("^") and len(lowered) == 2:
        return True
    return len(lowered) in (2, 3) and lowered[0] == "f" and lowered[1:].isdigit()


def tmux_read_only(args: list[Field]) -> bool:
    """Whether a tmux command line only lists or shows (``tmux ls``, ``list-windows``,
    ``display -p``)."""
    flags, unknown = _flags(args, _GLOBAL_VALUED)
    if unknown or flags.has("c", "f"):
        return False
    commands = split_commands(flags.operands)
    if not commands:
        return False
    for words in commands:
        full = None if words[0].dynamic else resolve(words[0].text)
        if full is None or not _listing(full, words[1:]):
            return False
        if any(field.dynamic or "#(" in field.text for field in words):
            return False
        if full == "display-message" and not _flags(words[1:], "cdtF")[0].has("p"):
            return False
    return True


def _listing(full: str, args: list[Field]) -> bool:
    kind = _COMMANDS[full][2]
    if full == "capture-pane":
        return _flags(args, _COMMANDS[full][1])[0].has("p")
    return kind == _READS
