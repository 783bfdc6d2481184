"""Programs that hand a command to a process outside the shell's tree, read as what they carry.

A terminal multiplexer's server (:mod:`.tmux`, ``screen``), a scheduler (``at``, ``batch``,
``crontab``), a service manager (``systemd-run``, ``systemctl``) or ``sshd`` (``ssh HOST
CMD``, on this machine or another) runs what it is given itself: not as a child of the shell, so outside the kernel boundary, after PostToolUse, unseen
by drift detection. Each hand-over is a :class:`~.effects.Carried` marked ``outside``: the walk
reads it as the program will run it, and anything it cannot read whole (a file of commands,
standard input that is not a here-document, a unit's configuration) is ``unreadable``.

``systemd-run --scope`` runs its command as the shell's own child: a wrapper, read as one.
``nohup`` and ``setsid`` are children too (:mod:`.wrappers` unwraps them). The listing forms
(``screen -ls``, ``atq``, ``at -l``, ``crontab -l``, ``systemctl status``, ``tmux ls``) only
read (:func:`handoff_read_only`).
"""

from __future__ import annotations

from .effects import Carried, Effects
from .expansion import Field, joined
from .options import getopt
from .tmux import tmux, tmux_read_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Handler, Probe

_STDIN = "reads its commands from standard input, which paw-tui sees only as a here-document"


def _stdin_script(label: str, eff: Effects, here: bool = True) -> None:
    """The commands a here-document (or here-string) gives a scheduler, else unreadable."""
    if eff.stdin is None:
        eff.cannot_read(label, _STDIN, True)
        return
    text, dynamic = eff.stdin
    eff.carry(Carried(label, script=Field(text, dynamic), outside=True, here=here))


# -- screen -------------------------------------------------------------------------------------

_SCREEN_VALUED = "cehpsStT"
_SCREEN_INERT = frozenset(
    {"quit", "kill", "detach", "select", "title", "windows", "info", "next", "prev", "other",
     "clear", "redisplay", "version", "lastmsg", "number", "remove", "only", "focus", "split",
     "width", "height", "wipe"}
)  # fmt: skip


def _screen(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    found = _screen_options(args)
    if found is None:
        eff.cannot_read("screen", "is given options paw-tui does not follow", True)
        return
    letters, values, rest, command = found
    config = values.get("c")
    if config is not None and config.text != "/dev/null":
        eff.cannot_read("screen -c", "would read screen commands from a file", True)
    if "L" in letters or "Logfile" in values:
        eff.cannot_read("screen -L", "has the screen session write a log file", True)
    if command is not None:
        _screen_command(command, eff)
        return
    if letters & {"ls", "list", "v", "wipe"}:
        return
    shell = values.get("s")
    if rest:
        eff.carry(Carried("screen", argv=rest, outside=True, here=True))
    elif shell is not None:
        eff.carry(Carried("screen -s", argv=[shell], outside=True, here=True))


def _screen_options(
    args: list[Field],
) -> tuple[set[str], dict[str, Field], list[Field], list[Field] | None] | None:
    """screen's options: (flags, values, the command for a new session, the ``-X``/``-Q``
    command), or None when an option is known only at run time."""
    letters: set[str] = set()
    values: dict[str, Field] = {}
    index = 0
    while index < len(args):
        field = args[index]
        text = field.text
        if field.dynamic and text.startswith("-"):
            return None
        if field.dynamic or not text.startswith("-") or text == "-":
            break
        index += 1
        if text in ("-ls", "-list", "-wipe", "-Logfile", "-version"):
            letters.add(text[1:])
            if text == "-Logfile" and index < len(args):
                values["Logfile"] = args[index]
                index += 1
            continue
        if text in ("-X", "-Q"):
            return letters, values, [], args[index:]
        for position in range(1, len(text)):
            letter = text[position]
            if letter in _SCREEN_VALUED:
                if position + 1 < len(text):
                    values[letter] = Field(text[position + 1 :], field.dynamic)
                elif index < len(args):
                    values[letter] = args[index]
                    index += 1
                break
            letters.add(letter)
        if letters & set("drxRD") and "m" not in letters:
            if index < len(args) and not args[index].text.startswith("-"):
                index += 1  # the session to reattach or detach
    return letters, values, args[index:], None


def _screen_command(words: list[Field], eff: Effects) -> None:
    """``screen -X COMMAND ARGS``: a command to a running session (the person's, perhaps)."""
    if not words or words[0].dynamic:
        eff.cannot_read("screen -X", "sends a command known only when it runs", True)
        return
    command = words[0].text
    label = "screen -X " + command
    if any(field.dynamic for field in words):
        eff.cannot_read(label, "has arguments known only when it runs", True)
    elif command in _SCREEN_INERT:
        return
    elif command == "stuff":
        _stuff(label, "".join(field.text for field in words[1:]), eff)
    elif command == "screen":
        rest = words[1:]
        while rest and rest[0].text.startswith("-"):
            skip = 2 if rest[0].text in ("-t", "-T", "-h") else 1
            rest = rest[skip:]
        if rest and rest[0].text.isdigit():
            rest = rest[1:]
        if rest:
            eff.carry(Carried(label, argv=rest, outside=True, here=False))
    else:
        eff.cannot_read(label, "makes the screen session run commands paw-tui cannot see", True)


def _stuff(label: str, text: str, eff: Effects) -> None:
    """``stuff STRING``: typed into the window; ``^M``, ``\\n``, ``\\r`` end a line."""
    typed: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        if char in "^\\" and index < len(text):
            following = text[index]
            index += 1
            if char == "^" and following in "MmJj" or char == "\\" and following in "nr":
                typed.append("\n")
            elif following == char:
                typed.append(char)
            else:
                eff.cannot_read(
                    label, f"types the key {char}{following}, whose effect paw-tui cannot see", True
                )
                return
        else:
            typed.append(char)
    lines, _, pending = "".join(typed).rpartition("\n")
    if pending or not lines.strip():
        eff.cannot_read(
            label, "types text that waits at (or runs) whatever is at the window's prompt", True
        )
        return
    eff.carry(Carried(label, script=Field(lines), outside=True, here=False))


# -- at, batch, crontab -------------------------------------------------------------------------


def _at(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="qfut", flags="mMlvVrdcbo")
    if opts.has("l", "c", "V", "r", "d"):
        return  # lists, prints or removes jobs
    if opts.has("f"):
        eff.cannot_read(name + " -f", "would read its commands from a file", True)
        return
    _stdin_script(name, eff)  # at keeps the working directory of the call


def _crontab(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="uc", flags="lreinsxT")
    if opts.has("l", "T", "n", "c") and not opts.has("r", "e"):
        return
    if opts.has("r"):
        eff.cannot_read(
            "crontab -r", "would remove the person's crontab, which nothing restores", True
        )
        return
    if opts.has("e"):
        eff.cannot_read("crontab -e", "opens an editor on the person's crontab", True)
        return
    source = opts.operands[0] if opts.operands else Field("-")
    if source.text != "-" or source.dynamic:
        eff.cannot_read("crontab", "would install jobs from a file", True)
        return
    if eff.stdin is None:
        eff.cannot_read("crontab", _STDIN, True)
        return
    text, dynamic = eff.stdin
    if dynamic:
        eff.cannot_read("crontab", "would install jobs known only when it runs", True)
        return
    for line in text.splitlines():
        _cron_line(line.strip(), eff)
    eff.cannot_read(
        "crontab",
        "would replace the person's crontab, outside the workspace (their own jobs go)",
        True,
    )


_CRON_SPECIALS = ("@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily",
                  "@midnight", "@hourly")  # fmt: skip
_CRON_ENV = ("SHELL", "BASH_ENV", "ENV", "LD_", "PATH")


def _cron_line(line: str, eff: Effects) -> None:
    if not line or line.startswith("#"):
        return
    name, eq, _ = line.partition("=")
    if eq and " " not in name.strip():
        if name.strip().startswith(_CRON_ENV):
            eff.cannot_read("crontab", f"sets {name.strip()} for its jobs", True)
        return
    fields = line.split(None, 1 if line.startswith(_CRON_SPECIALS) else 5)
    command = fields[-1] if len(fields) > (1 if line.startswith(_CRON_SPECIALS) else 5) else ""
    if "%" in command.replace("\\%", ""):
        eff.cannot_read(
            "crontab", "gives a job standard input (%), which paw-tui does not follow", True
        )
    elif command:
        eff.carry(Carried("crontab", script=Field(command), outside=True, here=False))


# -- systemd ------------------------------------------------------------------------------------

_RUN_VALUED = frozenset(
    {"unit", "property", "description", "slice", "service-type", "uid", "gid", "nice",
     "working-directory", "setenv", "on-active", "on-boot", "on-startup", "on-unit-active",
     "on-unit-inactive", "on-calendar", "path-property", "socket-property", "timer-property",
     "host", "machine", "expand-environment", "json", "job-mode", "capsule"}
)  # fmt: skip
_UNSAFE_PROPERTIES = ("Exec", "Environment", "Working", "Root", "Bind", "Pass", "Load",
                      "Import", "Set", "User", "Group")  # fmt: skip


def _systemd_run(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="upEHM", long_valued=_RUN_VALUED, permute=False)
    scope = opts.has("scope")
    label = "systemd-run" + (" --scope" if scope else "")
    if opts.has("H", "host", "M", "machine", "S", "shell", "capsule"):
        eff.cannot_read(label, "runs a command elsewhere (-H, -M, --shell, --capsule)", True)
        return
    if opts.has("version", "h", "help"):
        return
    for prop in opts.values("p", "property", "path-property", "socket-property", "timer-property"):
        if prop.dynamic or prop.text.startswith(_UNSAFE_PROPERTIES):
            eff.cannot_read(label, f"sets the property {prop.text}", True)
            return
    assigns = opts.values("E", "setenv")
    if not opts.operands:
        return
    workdir = opts.value("working-directory")
    if scope:  # the command is the shell's own child, with these variables
        words = [Field("env"), *assigns, *opts.operands] if assigns else opts.operands
        eff.carry(Carried(label, argv=words, cwd=workdir))
        return
    if assigns:
        eff.cannot_read(label, "sets the environment of the command it runs (-E)", True)
        return
    here = opts.has("d", "same-dir")
    eff.carry(Carried(label, argv=opts.operands, outside=True, cwd=workdir, here=here))


_SYSTEMCTL_READS = frozenset(
    {"status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets",
     "list-jobs", "list-dependencies", "list-machines", "list-paths", "list-automounts",
     "is-active", "is-enabled", "is-failed", "is-system-running", "show-environment",
     "get-default"}
)  # fmt: skip
_SYSTEMCTL_VALUED = frozenset(
    {"type", "state", "property", "host", "machine", "signal", "kill-whom", "job-mode", "root",
     "output", "lines", "boot-loader-entry", "boot-loader-menu", "reboot-argument", "when",
     "timestamp", "preset-mode", "what", "image", "image-policy", "drop-in", "message", "kill-value"}
)  # fmt: skip


def _systemctl_verb(args: list[Field]) -> Field | None:
    opts = getopt(args, valued="tpHMsnoP", long_valued=_SYSTEMCTL_VALUED)
    return opts.operands[0] if opts.operands else Field("list-units")


def _systemctl(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    verb = _systemctl_verb(args)
    if verb is not None and not verb.dynamic and verb.text in _SYSTEMCTL_READS:
        return
    shown = verb.text if verb is not None else ""
    eff.cannot_read(
        f"systemctl {shown}", "makes the service manager run programs its units name", True
    )


# -- ssh ----------------------------------------------------------------------------------------

_SSH_VALUED = "BbcDEeFIiJLlmOoPpQRSWw"
_SSH_LOCAL = frozenset({"proxycommand", "localcommand", "knownhostscommand"})


def _ssh(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """``ssh HOST CMD``: the command runs where sshd starts it (this machine or another),
    never as the shell's child; options may follow the host, as OpenSSH reads them."""
    opts = getopt(args, valued=_SSH_VALUED, permute=False)
    host = opts.operands[:1]
    command = opts.operands[1:]
    if host and command and command[0].text.startswith("-") and not command[0].dynamic:
        more = getopt(command, valued=_SSH_VALUED, permute=False)
        opts.found.extend(more.found)
        command = more.operands
    for option in opts.values("o"):
        _ssh_option(option, eff)
    config = opts.value("F")
    if config is not None and config.text != "/dev/null":
        eff.cannot_read(
            "ssh -F", "would read a configuration (its ProxyCommand...) from a file", True
        )
    for log in opts.values("E"):
        eff.hit(log, "ssh")
    if not host or opts.has("N", "V", "G", "Q"):
        return
    label = "ssh " + host[0].text
    if command:
        eff.carry(Carried(label, script=joined(command), outside=True, here=False))
    elif eff.stdin is not None:
        eff.carry(Carried(label, script=Field(*eff.stdin), outside=True, here=False))
    else:
        eff.cannot_read(
            label, "runs a remote shell that reads its commands from standard input", True
        )


def _ssh_option(option: Field, eff: Effects) -> None:
    key, _, value = option.text.replace("=", " ", 1).partition(" ")
    lowered = key.strip().lower()
    if option.dynamic and lowered in _SSH_LOCAL | {"include", "remotecommand"}:
        eff.cannot_read("ssh -o " + key, "is given a command known only when it runs", True)
    elif lowered in _SSH_LOCAL:
        eff.carry(Carried("ssh -o " + key, script=Field(value.strip())))
    elif lowered == "remotecommand":
        eff.carry(Carried("ssh -o " + key, script=Field(value.strip()), outside=True, here=False))
    elif lowered == "include":
        eff.cannot_read("ssh -o Include", "would read a configuration from a file", True)


def _inert(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """Commands that hand nothing over (``atrm``): known, so not opaque."""


HANDOFF_HANDLERS: dict[str, Handler] = {
    "tmux": tmux,
    "screen": _screen,
    "at": _at,
    "batch": _at,
    "atrm": _inert,
    "crontab": _crontab,
    "systemd-run": _systemd_run,
    "systemctl": _systemctl,
    "ssh": _ssh,
}


def handoff_read_only(name: str, args: list[Field]) -> bool:
    """Whether a hand-over program is run only to list or show (``tmux ls``, ``screen -ls``,
    ``at -l``, ``crontab -l``, ``systemctl --user status``)."""
    if any(field.dynamic for field in args):
        return False
    texts = [field.text for field in args]
    if name == "tmux":
        return tmux_read_only(args)
    if name == "screen":
        return bool(texts) and texts[0] in ("-ls", "-list", "-v", "-version")
    if name == "at":
        opts = getopt(args, valued="qfut")
        return opts.has("l", "c", "V") and not opts.has("f", "r", "d")
    if name == "crontab":
        opts = getopt(args, valued="uc")
        return opts.has("l", "T") and not opts.has("r", "e", "i") and not opts.operands
    if name == "systemctl":
        verb = _systemctl_verb(args)
        return verb is not None and verb.text in _SYSTEMCTL_READS
    return False
