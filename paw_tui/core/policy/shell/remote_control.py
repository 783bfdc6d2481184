"""Programs that ask a running server to act: terminals, editors, desktop automation, the
service bus, process managers and host escapes, read for whether they do.

Like a multiplexer (:mod:`.handoff`), each sends its request to a process that is not the
shell's child: a terminal emulator's remote control (``kitty @``, ``wezterm cli``,
``zellij action``), an editor's server (``emacsclient --eval``, ``nvim --remote-send``), keys
typed into the focused window (``xdotool type``: the person's own terminal runs them), a
D-Bus call (``busctl call``: systemd starts a unit), a process manager (``pm2 start``), a
file watcher's trigger (``watchman trigger``), the host outside a sandbox (``flatpak-spawn
--host``, ``run0``). What that server does is written by a process the kernel boundary does
not hold, after PostToolUse, unseen by drift detection, and what it is asked to do is a
language of its own (keys, Lisp, a bus message), so it cannot be read: under an intent
these are denied. The forms that only list or show (``kitty @ ls``, ``busctl list``, ``pm2
ls``) ask nothing of the server and are allowed.
"""

from __future__ import annotations

from .effects import Effects
from .expansion import Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Handler, Probe

_PANES = "has a terminal run keys or a command"
_EVAL = "has an editor's server run what it is sent"
_KEYS = "types keys into the focused window, where the person's own terminal may run them"
_BUS = "sends a D-Bus call, which a service (systemd, an editor, a terminal) may act on"
_MANAGER = "has a process manager start a program"
_HOST = "runs a command on the host, outside the sandbox"
_TRIGGER = "has a file watcher run a command"
_SERVER_TERMINAL = "has a terminal's running server open a window and run a command"

# program -> (the words that only list or show, why anything else cannot be read)
_VERBS: dict[str, tuple[frozenset[str], str]] = {
    "wezterm": (
        frozenset({"ls", "list", "list-clients", "get-text", "get-pane-direction"}),
        _PANES,
    ),
    "zellij": (frozenset({"ls", "list-sessions", "list-aliases", "query-tab-names"}), _PANES),
    "busctl": (
        frozenset({"list", "status", "monitor", "capture", "tree", "introspect", "get-property"}),
        _BUS,
    ),
    "gdbus": (frozenset({"introspect", "monitor", "wait"}), _BUS),
    "xdotool": (
        frozenset(
            {
                "getactivewindow",
                "getwindowfocus",
                "getwindowname",
                "getwindowpid",
                "getwindowgeometry",
                "getmouselocation",
                "getdisplaygeometry",
                "search",
                "version",
                "help",
            }
        ),
        _KEYS,
    ),
    "pm2": (
        frozenset(
            {
                "ls",
                "list",
                "l",
                "ps",
                "status",
                "jlist",
                "prettylist",
                "logs",
                "log",
                "describe",
                "desc",
                "info",
                "show",
                "monit",
                "env",
                "--version",
                "-v",
            }
        ),
        _MANAGER,
    ),
    "watchman": (
        frozenset(
            {
                "watch",
                "watch-project",
                "watch-list",
                "watch-del",
                "watch-del-all",
                "trigger-list",
                "trigger-del",
                "clock",
                "since",
                "find",
                "query",
                "version",
                "get-sockname",
                "get-config",
                "shutdown-server",
            }
        ),
        _TRIGGER,
    ),
}
# program -> why it cannot be read, whatever it is given
_ALWAYS: dict[str, str] = {
    "ydotool": _KEYS,
    "wtype": _KEYS,
    "dbus-send": _BUS,
    "qdbus": _BUS,
    "osascript": "has macOS applications (Terminal, an editor) run what it is sent",
    "run0": "runs a command through the service manager, outside the shell",
    "flatpak-spawn": _HOST,
    "host-spawn": _HOST,
    "distrobox-host-exec": _HOST,
    "mosh": "runs a command where mosh-server starts it, never as the shell's child",
    "tmate": "hands commands to a tmate server, as tmux does",
    "gnome-terminal": _SERVER_TERMINAL,
    "xfce4-terminal": _SERVER_TERMINAL,
    "tilix": _SERVER_TERMINAL,
    "konsole": _SERVER_TERMINAL,
}
_KITTY_VALUED = frozenset({"--to", "--password", "--password-file", "--password-env"})
"""``kitty @``'s own options that take the next word as their value."""
_EMACS_VALUED = "asfdFwT"
"""emacsclient's short options that take a value."""
_VIM_REMOTE = ("--remote-send", "--remote-expr")


def _first_word(args: list[Field]) -> Field | None:
    for field in args:
        if field.dynamic or not field.text.startswith("-"):
            return field
    return None


def _verbs(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    reads, why = _VERBS[name]
    words = list(args)
    if name == "wezterm":  # wezterm cli VERB; wezterm start / connect: a GUI or mux runs it
        verb = _first_word(words)
        if verb is None or verb.text != "cli":
            if verb is not None and verb.text in ("start", "connect", "ssh", "serial"):
                eff.cannot_read(f"wezterm {verb.text}", why, True)
            else:
                eff.opaque.append(name)  # a terminal of its own, the shell's child
            return
        words = words[words.index(verb) + 1 :]
    if name == "zellij":  # zellij action VERB, zellij run / edit: the session's server runs it
        verb = _first_word(words)
        if verb is None:
            eff.opaque.append(name)  # a session of its own, the shell's child
            return
        if verb.text in ("action", "ac") and not verb.dynamic:
            words = words[words.index(verb) + 1 :]
    verb = _first_word(words)
    if verb is None:
        if name in ("xdotool", "watchman"):  # commands on standard input or in a file
            eff.cannot_read(name, why, True)
        return
    if verb.dynamic or verb.text not in reads:
        eff.cannot_read(f"{name} {verb.text}", why, True)


def _always(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    if name == "flatpak-spawn" and not any(field.text == "--host" for field in args):
        eff.opaque.append(name)  # a new sandbox, started as the shell's child
        return
    if name == "tmate" and [field.text for field in args[:1]] in (["ls"], ["list-sessions"]):
        return
    eff.cannot_read(name, _ALWAYS[name], True)


def _kitty(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """``kitty @ VERB`` / ``kitten @ VERB``: the running terminal acts on it."""
    texts = [field.text for field in args]
    if "@" not in texts:
        if any(
            text in ("-1", "--single-instance") or text.startswith("--single-instance=")
            for text in texts
        ):
            eff.cannot_read(f"{name} --single-instance", _PANES, True)
        else:
            eff.opaque.append(name)  # a new terminal running a program, the shell's child
        return
    index = texts.index("@") + 1  # an index, not slices: a hostile line is long
    while index < len(args) and texts[index].startswith("--") and not args[index].dynamic:
        index += 2 if texts[index] in _KITTY_VALUED else 1
    verb = args[index] if index < len(args) else None
    if verb is None or verb.dynamic or verb.text not in ("ls", "get-text", "get-colors"):
        eff.cannot_read(f"{name} @", _PANES, True)


def _emacsclient(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """Files named are opened in the server (a person saves them); ``--eval`` runs Lisp."""
    for field in args:
        text = field.text
        if field.dynamic and text.startswith("-"):
            eff.cannot_read(name, "is given options known only when it runs", True)
            return
        if text.startswith("--"):
            evaluates = text.partition("=")[0] == "--eval"
        else:  # a group of short options: -e before the first that takes a value
            letters = text[1:] if text.startswith("-") else ""
            cut = min((letters.find(v) for v in _EMACS_VALUED if v in letters), default=-1)
            evaluates = "e" in (letters[:cut] if cut >= 0 else letters)
        if evaluates:
            eff.cannot_read(f"{name} --eval", _EVAL, True)
            return
    eff.opaque.append(name)  # --alternate-editor runs a program of its own


_SOCAT_LOCAL = frozenset(
    {"-", "stdio", "stdin", "stdout", "stderr", "tcp", "tcp4", "tcp6", "tcp-listen",
     "tcp4-listen", "tcp6-listen", "tcp-l", "tcp4-l", "tcp6-l", "udp", "udp4", "udp6",
     "udp-listen", "udp-l", "openssl", "openssl-listen", "ssl", "ssl-l", "socks4", "socks4a",
     "socks5", "proxy", "exec", "system", "create", "open", "pipe", "pty", "readline",
     "sctp-connect", "sctp-listen", "dccp-connect", "dccp-listen"}
)  # fmt: skip
"""socat address types that reach no local server: the network, its own streams, programs and
files (what those run or write makes socat opaque). Any other (``UNIX-CONNECT:``,
``ABSTRACT-CONNECT:``, ``GOPEN:``, a bare path, which socat opens as ``GOPEN`` and so
connects to a socket) may reach one."""
_SOCAT_VALUED = frozenset({"-lf", "-lp", "-t", "-T", "-b"})
"""socat's options that take the next word as their value."""
_SOCKET = (
    "sends a request to a local server's socket (a container engine's API, a terminal's or an "
    "editor's remote control), which acts on it outside the shell"
)


SOCKET_CLIENTS = ("socat", "nc", "nc.openbsd", "ncat", "netcat")


def socket_cannot_read(label: str, eff: Effects) -> None:
    eff.cannot_read(label, _SOCKET, True)


def _socket_client(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """``socat ... UNIX-CONNECT:PATH`` and ``nc -U PATH``: a request to a local server."""
    reaching = _socat_reaches(args) if name == "socat" else _nc_reaches(args)
    if reaching is not None:
        socket_cannot_read(name if reaching.dynamic else f"{name} {reaching.text}", eff)
        return
    eff.opaque.append(name)  # files (socat CREATE:, ncat -o) and programs (EXEC:, -e) it runs


def _socat_reaches(args: list[Field]) -> Field | None:
    """The first of socat's addresses that may reach a local server (or is known only at
    run time); its options are passed over, their values with them."""
    index = 0
    while index < len(args):
        field = args[index]
        index += 1
        text = field.text
        if field.dynamic:
            return field
        if text.startswith("-") and text != "-":
            index += text in _SOCAT_VALUED
            continue
        for address in text.split("!!"):  # a dual address: reading one way, writing another
            if address.partition(":")[0].partition(",")[0].lower() not in _SOCAT_LOCAL:
                return field
    return None


def _nc_reaches(args: list[Field]) -> Field | None:
    for field in args:
        text = field.text
        short = text.startswith("-") and not text.startswith("--")
        if field.dynamic or (short and "U" in text) or text == "--unixsock":
            return field
    return None


def editor_remote(args: list[Field]) -> str | None:
    """The option by which ``vim``/``nvim`` sends keys or an expression to a running
    editor's server, if it does (``--remote-send``, ``--remote-expr``)."""
    for field in args:
        if field.text.startswith(_VIM_REMOTE) or (field.dynamic and field.text.startswith("-")):
            return field.text.partition("=")[0]
    return None


def editor_cannot_read(name: str, option: str, eff: Effects) -> None:
    eff.cannot_read(f"{name} {option}", _EVAL, True)


REMOTE_HANDLERS: dict[str, Handler] = {
    **{name: _verbs for name in _VERBS},
    **{name: _always for name in _ALWAYS},
    "kitty": _kitty,
    "kitten": _kitty,
    "emacsclient": _emacsclient,
    **{name: _socket_client for name in SOCKET_CLIENTS},
}
