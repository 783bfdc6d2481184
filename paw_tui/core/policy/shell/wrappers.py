"""The wrappers agents put in front of commands, stripped down to the command that runs.

:func:`unwrap` strips ``sudo``, ``doas``, ``env``, ``nice``, ``nohup``, ``time``,
``command``, ``builtin``, ``exec``, ``timeout``, ``stdbuf``, ``ionice``, ``setsid``,
``chronic``, ``flock``, ``xargs`` (whose command runs with extra arguments nobody can see),
the multi-call binaries ``busybox`` and ``toybox`` (``busybox sh -c``, ``toybox cp``), the
programs that start the command after their options (``taskset``, ``setarch``, ``sg``,
``strace``...) and the runners of a project's environment (``uv run``, ``poetry run``,
``direnv exec DIR``...). ``nohup`` and ``setsid`` stay children of the shell (the kernel
boundary holds them), though what they start may outlive the call.
"""

from __future__ import annotations

from .expansion import Field, joined
from .options import Options, getopt

_EMPTY: frozenset[str] = frozenset()

# name: (value-taking short letters, value-taking long options, flags ending the options
# when the wrapper runs no command)
_WRAPPERS: dict[str, tuple[str, frozenset[str]]] = {
    "sudo": (
        "CDghpRrTtUu",
        frozenset(
            {
                "close-from",
                "chdir",
                "group",
                "host",
                "prompt",
                "role",
                "type",
                "other-user",
                "user",
                "chroot",
                "command-timeout",
            }
        ),
    ),
    "doas": ("uC", _EMPTY),
    "env": (
        "uCS",
        frozenset(
            {"unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"}
        ),
    ),
    "nice": ("n", frozenset({"adjustment"})),
    "nohup": ("", _EMPTY),
    "time": ("fo", frozenset({"format", "output"})),
    "builtin": ("", _EMPTY),
    "exec": ("a", _EMPTY),
    "timeout": ("ks", frozenset({"kill-after", "signal"})),
    "stdbuf": ("ioe", frozenset({"input", "output", "error"})),
    "ionice": ("cnpPu", frozenset({"class", "classdata", "pid", "pgid", "uid"})),
    "setsid": ("", _EMPTY),
    "chronic": ("", _EMPTY),
    "command": ("", _EMPTY),
    "flock": ("Ewc", frozenset({"conflict-exit-code", "timeout", "wait", "command"})),
    "xargs": (
        "adEILnPs",
        frozenset(
            {
                "arg-file",
                "delimiter",
                "eof",
                "max-lines",
                "max-args",
                "max-procs",
                "max-chars",
                "process-slot-var",
                "replace",
            }
        ),
    ),
}
# programs that start the command after their options (and an operand: taskset's mask, chrt's
# priority, faketime's time), unless an option says they act on a running process instead
_WRAPPERS.update(
    {
        "taskset": ("", _EMPTY),
        "chrt": ("TPD", frozenset({"sched-runtime", "sched-period", "sched-deadline"})),
        "numactl": (
            "iCNmpPw",
            frozenset(
                {
                    "interleave",
                    "preferred",
                    "physcpubind",
                    "cpunodebind",
                    "membind",
                    "preferred-many",
                    "weighted-interleave",
                }
            ),
        ),  # fmt: skip
        "prlimit": ("po", frozenset({"pid", "output"})),
        "setpriv": (
            "",
            frozenset(
                {
                    "reuid",
                    "regid",
                    "ruid",
                    "rgid",
                    "euid",
                    "egid",
                    "groups",
                    "inh-caps",
                    "ambient-caps",
                    "bounding-set",
                    "securebits",
                    "pdeathsig",
                    "selinux-label",
                    "apparmor-profile",
                    "landlock-access",
                    "landlock-rule",
                }
            ),
        ),  # fmt: skip
        "unshare": (
            "SGRw",
            frozenset(
                {
                    "setuid",
                    "setgid",
                    "root",
                    "wd",
                    "propagation",
                    "setgroups",
                    "map-user",
                    "map-group",
                }
            ),
        ),  # fmt: skip
        "faketime": ("", _EMPTY),
        "setarch": ("", _EMPTY),  # setarch [ARCH] [options] CMD; linux32, linux64: no ARCH
        "linux32": ("", _EMPTY),
        "linux64": ("", _EMPTY),
        "sg": ("", _EMPTY),
        "fakeroot": ("lsib", frozenset({"lib", "faked"})),
        "unbuffer": ("", _EMPTY),
        "catchsegv": ("", _EMPTY),
        "xvfb-run": (
            "efnpsw",
            frozenset(
                {"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}
            ),
        ),  # fmt: skip
        "dbus-run-session": ("", frozenset({"config-file", "dbus-daemon"})),
        "systemd-inhibit": ("", frozenset({"what", "who", "why", "mode"})),
        "pkexec": ("u", frozenset({"user"})),
        "strace": (
            "abeEIoOpPsSuUX",
            frozenset({"output", "attach", "env", "string-limit", "user", "trace", "signal"}),
        ),  # fmt: skip
        "ltrace": ("aAbeFlnopsuwxXD", frozenset({"output", "align", "indent", "library"})),
        "watch": ("nq", frozenset({"interval", "equexit"})),
        "script": (
            "cEIOTBm",
            frozenset(
                {
                    "command",
                    "echo",
                    "log-in",
                    "log-out",
                    "log-io",
                    "log-timing",
                    "logging-format",
                    "output-limit",
                }
            ),
        ),  # fmt: skip
    }
)
# runners of a project's environment: ``uv run CMD``, ``poetry run CMD``, ``bundle exec CMD``
_RUNNERS: dict[str, tuple[str, str, frozenset[str]]] = {
    "uv": (
        "run",
        "pw",
        frozenset(
            {
                "with",
                "with-editable",
                "with-requirements",
                "python",
                "directory",
                "project",
                "env-file",
                "extra",
                "group",
                "only-group",
                "index",
                "index-url",
                "extra-index-url",
                "find-links",
                "package",
                "script",
            }
        ),
    ),  # fmt: skip
    "poetry": ("run", "C", frozenset({"directory", "project"})),
    "pipenv": ("run", "", _EMPTY),
    "conda": ("run", "np", frozenset({"name", "prefix", "cwd"})),
    "mamba": ("run", "np", frozenset({"name", "prefix", "cwd"})),
    "micromamba": ("run", "np", frozenset({"name", "prefix", "cwd"})),
    "bundle": ("exec", "", _EMPTY),
    "pdm": ("run", "p", frozenset({"project", "venv"})),
    "hatch": ("run", "", _EMPTY),
    "rye": ("run", "", _EMPTY),
    "pixi": ("run", "e", frozenset({"manifest-path", "environment"})),
    "direnv": ("exec", "", _EMPTY),  # direnv exec DIR CMD: DIR's environment, same directory
}
MULTICALL = frozenset({"busybox", "toybox"})
"""Multi-call binaries: ``busybox rm -rf x`` is ``rm -rf x`` (``busybox --list`` is itself)."""
for _name in MULTICALL:
    _WRAPPERS[_name] = ("", _EMPTY)


class Unwrapped:
    """The command a wrapped command line runs, and what the wrappers add."""

    __slots__ = (
        "argv", "wrappers", "assigns", "chdir", "extra_args", "writes", "script", "query",
        "opaque",
    )  # fmt: skip

    def __init__(self, argv: list[Field]) -> None:
        self.argv = argv
        self.wrappers: list[str] = []
        self.assigns: list[str] = []  # NAME=VALUE given to env/sudo
        self.chdir: Field | None = None  # env -C DIR, sudo -D DIR
        self.extra_args = False  # xargs: more arguments come from stdin
        self.writes: list[tuple[Field, str]] = []  # time -o F, flock F
        # flock -c CMD, watch CMD: a shell command line the wrapper runs (a Carried's script)
        self.script: Field | None = None
        self.query = False  # command -v / -V: names a command, runs nothing
        self.opaque: str | None = None  # a wrapper that changes what paths mean (unshare -R)


def _basename(text: str) -> str:
    return text.rsplit("/", 1)[-1]


def unwrap(argv: list[Field]) -> Unwrapped:
    """Strip the wrappers at the front of ``argv``."""
    result = Unwrapped(argv)
    while argv and not argv[0].dynamic:
        name = _basename(argv[0].text)
        runner = _RUNNERS.get(name)
        if runner is not None:
            if len(argv) < 2 or argv[1].text != runner[0]:
                break
            argv = argv[1:]  # "uv run" reads its options after "run"
            spec: tuple[str, frozenset[str]] | None = runner[1:]
        else:
            spec = _WRAPPERS.get(name)
        if spec is None or (name in MULTICALL and argv[1:2] and argv[1].text.startswith("-")):
            break
        valued, long_valued = spec
        opts = getopt(argv[1:], valued=valued, long_valued=long_valued, permute=False)
        if name == "command" and opts.has("v", "V"):
            result.query = True
            return result
        if name == "sudo" and opts.has("e", "edit", "l", "list", "V", "v", "version", "validate"):
            result.wrappers.append(name)
            rest = _environment(name, opts, result)
            result.argv = [Field("sudoedit")] + rest if opts.has("e", "edit") else []
            return result
        rest = _AFTER.get(name, _nothing)(name, opts, result)
        result.wrappers.append(name)
        argv = rest
        result.argv = argv
    return result


def _nothing(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    return opts.operands


def _environment(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """sudo and env: NAME=VALUE words, a directory, env -S's split string."""
    rest = opts.operands
    while rest and not rest[0].dynamic and _is_assignment(rest[0].text):
        result.assigns.append(rest[0].text)
        rest = rest[1:]
    directory = opts.value("C", "chdir") if name == "env" else opts.value("D", "chdir")
    if directory is not None:
        result.chdir = directory
    split = opts.value("S", "split-string") if name == "env" else None
    if split is not None:
        rest = [Field(piece, split.dynamic) for piece in split.text.split()] + rest
    return rest


def _is_assignment(text: str) -> bool:
    return "=" in text and text.split("=", 1)[0].replace("_", "a").isalnum()


def _timeout(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    return opts.operands[1:]  # after the duration


def _time(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    output = opts.value("o", "output")
    if output is not None:
        result.writes.append((output, "time"))
    return opts.operands


def _flock(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    rest = opts.operands
    if rest and not (len(rest) == 1 and rest[0].text.isdigit()):  # flock 9: a descriptor
        result.writes.append((rest[0], "flock"))
        rest = rest[1:]
    command = opts.value("c", "command")
    if command is None and rest and rest[0].text in ("-c", "--command"):
        command = rest[1] if len(rest) > 1 else None
        rest = []
    if command is not None:
        result.script = command
    return rest


def _operand_first(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """taskset MASK CMD, chrt PRIORITY CMD, faketime TIME CMD; ``-p``: a running process."""
    if opts.has("p", "pid", "all-tasks", "m", "max"):
        return []
    return opts.operands[1:]


def _setarch(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """``setarch ARCH [options] CMD``: an architecture first unless the first word is an
    option (util-linux); then its options, then the command."""
    if name == "setarch" and not opts.found and opts.operands:
        return getopt(opts.operands[1:], permute=False).operands
    return opts.operands


def _sg(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """``sg [-] GROUP [-c] CMD``: CMD is one word, run by ``/bin/sh -c``; without it, a
    shell reading its input."""
    rest = opts.operands
    if rest[:1] and rest[0].text == "-":
        rest = rest[1:]
    rest = rest[1:]  # the group
    if rest[:1] and rest[0].text == "-c":
        rest = rest[1:]
    if not rest:
        return [Field("sh")]
    result.script = rest[0]
    return []


def _traced(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """strace/ltrace -o FILE CMD (``-p PID``: a running process); prlimit (``--pid``)."""
    for output in opts.values("o", "output"):
        result.writes.append((output, name))
    if opts.has("p", "pid", "attach"):
        return []
    return opts.operands


def _unshare(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """``unshare -R DIR`` changes what every path means: what it runs cannot be read."""
    if opts.has("R", "root"):
        result.opaque = "unshare --root"
        return []
    directory = opts.value("w", "wd")
    if directory is not None:
        result.chdir = directory
    return opts.operands


def _watch(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """``watch CMD ARGS``: the words joined with spaces, run by ``sh -c`` again and again
    (``-x``: run as they are)."""
    if opts.has("x", "exec") or not opts.operands:
        return opts.operands
    result.script = joined(opts.operands)
    return []


def _script(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    """``script -c CMD [FILE]``: the command line, and the typescript it writes (without
    ``-c``, a shell reading its input)."""
    result.writes.append((opts.operands[0] if opts.operands else Field("typescript"), "script"))
    command = opts.value("c", "command")
    if command is None:
        return [Field("sh")]
    result.script = command
    return []


def _runner(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    directory = opts.value("directory", "cwd", "C")
    if directory is not None:
        result.chdir = directory
    return opts.operands


def _xargs(name: str, opts: Options, result: Unwrapped) -> list[Field]:
    result.extra_args = True
    rest = opts.operands or [Field("echo")]
    replace = opts.value("I", "replace") or (Field("{}") if opts.has("i") else None)
    if replace is not None and replace.text:  # words holding it become input lines
        rest = [Field(f.text, True) if replace.text in f.text else f for f in rest]
    return rest


_AFTER = {
    "sudo": _environment,
    "env": _environment,
    "timeout": _timeout,
    "time": _time,
    "flock": _flock,
    "xargs": _xargs,
    "taskset": _operand_first,
    "chrt": _operand_first,
    "faketime": _operand_first,
    "strace": _traced,
    "ltrace": _traced,
    "prlimit": _traced,
    "unshare": _unshare,
    "watch": _watch,
    "script": _script,
    "setarch": _setarch,
    "sg": _sg,
}
for _name in _RUNNERS:
    _AFTER[_name] = _runner
_AFTER["direnv"] = lambda name, opts, result: opts.operands[1:]  # after DIR
