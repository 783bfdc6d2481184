"""Confine this process's writes with Landlock, then exec a program: one shell call's wrapper.

Usage (run as a file, so no package import or ``site`` is needed; ``-I -S`` keep start-up at
about 10 ms and keep ``PYTHONPATH``, ``.pth`` files and user site-packages out of it)::

    python -I -S .../confine/launcher.py [OPTIONS] -- PROGRAM [ARGS...]

Options:

``--spec FILE``
    the spec to apply (format in ``spec.py``), written by the gate.
``--spec-dir DIR`` with ``--session-var NAME`` (repeatable)
    the spec is ``DIR/<value of the first NAME set>.spec`` (values limited to ``[A-Za-z0-9._-]``,
    not starting with a dot), else ``DIR/default.spec``. ``--spec`` wins over ``--spec-dir``.
``--marker NAME``
    environment variable exported to PROGRAM as ``<pid>:<start time>`` of this process once it is
    confined (default ``PAW_CONFINED``); the BASH_ENV guard (``bash_env.py``) checks that this
    pid is the shell itself or one of its ancestors before skipping the re-exec.
``--canary FILE``
    created (empty, 0600) before confining when missing. It must lie outside every writable
    set (the state directory): the BASH_ENV guard skips a re-exec only when this file exists
    and cannot be opened for writing, a fact of the kernel no environment variable can fake.
``--warn``
    print one line on stderr when the program runs unconfined (no Landlock) or with the minimal
    set (spec missing or unreadable), or when the private temp directory is refused.
``--no-stdio``
    do not grant the regular files that stdout and stderr already write to (granted by default,
    so ``echo x > /dev/stderr`` keeps working when the client captures output in a file;
    this adds no power: the process holds those descriptors open for writing already).

Failure policy: a missing or unreadable spec gives the minimal set (the terminal, ``/dev/null``,
``/dev/zero``, ``/dev/full``): fail closed, the command still runs. No Landlock in the kernel:
PROGRAM runs unconfined (only ``--warn`` says so) with ``BASH_ENV`` removed from its
environment, so nested shells do not come back here for nothing. Landlock present but the
restriction fails, or the canary is missing or writable inside the new domain (the guard
could then never recognise the shell, which would re-exec itself for ever): nothing is run,
exit status 126. PROGRAM cannot be executed: 127 (not found) or 126. Otherwise
the process *becomes* PROGRAM (``execvp``): its exit status, output and signals are PROGRAM's.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.confine import landlock, spec
elif __package__:
    from . import landlock, spec
else:  # run as a file: the sibling modules are imported from this file's directory
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import landlock
    import spec

PREFIX = "paw-tui confine: "
DEFAULT_MARKER = "PAW_CONFINED"
MINIMAL: list[tuple[bytes, bool]] = [
    (b"/dev/null", False),
    (b"/dev/zero", False),
    (b"/dev/full", False),
    (b"/dev/tty", False),
    (b"/dev/ptmx", False),
    (b"/dev/pts", True),
]
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_VALUED = ("--spec", "--spec-dir", "--session-var", "--marker", "--canary")
USAGE = (
    "usage: launcher.py [--spec FILE | --spec-dir DIR [--session-var NAME]...] [--marker NAME]"
    " [--canary FILE] [--warn] [--no-stdio] -- PROGRAM [ARGS...]"
)


class Options:
    __slots__ = ("spec", "spec_dir", "session_vars", "marker", "canary", "warn", "stdio", "program")

    def __init__(self) -> None:
        self.spec: str | None = None
        self.spec_dir: str | None = None
        self.session_vars: list[str] = []
        self.marker = DEFAULT_MARKER
        self.canary: str | None = None
        self.warn = False
        self.stdio = True
        self.program: list[str] = []


def parse_args(argv: list[str]) -> Options:
    """Parse the options; ``ValueError`` carries the usage text."""
    opts = Options()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            opts.program = argv[i + 1 :]
            break
        if arg == "--warn":
            opts.warn = True
        elif arg == "--no-stdio":
            opts.stdio = False
        elif arg in _VALUED and i + 1 < len(argv):
            i += 1
            value = argv[i]
            if arg == "--spec":
                opts.spec = value
            elif arg == "--spec-dir":
                opts.spec_dir = value
            elif arg == "--session-var":
                opts.session_vars.append(value)
            elif arg == "--canary":
                opts.canary = value
            else:
                opts.marker = value
        else:
            raise ValueError(f"unexpected argument {arg!r}\n{USAGE}")
        i += 1
    if not opts.program:
        raise ValueError(f"no program given after --\n{USAGE}")
    return opts


def spec_path(opts: Options, environ: Mapping[str, str]) -> str | None:
    """Which spec file applies (it may not exist); None when no spec option was given."""
    if opts.spec is not None:
        return opts.spec
    if opts.spec_dir is None:
        return None
    for name in opts.session_vars:
        value = environ.get(name, "")
        if value and value[0] != "." and len(value) <= 200 and set(value) <= _NAME_CHARS:
            candidate = os.path.join(opts.spec_dir, value + ".spec")
            if os.path.exists(candidate):
                return candidate
            break
    return os.path.join(opts.spec_dir, "default.spec")


def load_rules(path: str | None) -> tuple[list[tuple[bytes, bool]], bytes | None, str]:
    """The spec's rules and tmpdir, or the minimal set and why it was used."""
    if path is None:
        return list(MINIMAL), None, "no spec given"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(fd)
        parsed = spec.parse_spec(b"".join(chunks))
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return list(MINIMAL), None, f"spec {path}: {why}"
    return parsed.rules, parsed.tmpdir, ""


def private_tmpdir(path: bytes) -> str:
    """Create ``path`` (0700) when missing; return why it cannot be used, or ""."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        return f"cannot create {os.fsdecode(path)}: {exc.strerror}"
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"{os.fsdecode(path)}: {exc.strerror}"
    if (st.st_mode & 0o170000) != 0o040000:
        return f"{os.fsdecode(path)} is not a directory (a symlink?)"
    if st.st_uid != os.geteuid() or st.st_mode & 0o022:
        return f"{os.fsdecode(path)} is not a private directory of this user"
    return ""


def stdio_rules() -> list[tuple[bytes, bool]]:
    """File rules for stdout and stderr when they are regular files open for writing."""
    rules = []
    for fd in (1, 2):
        try:
            if (os.fstat(fd).st_mode & 0o170000) != 0o100000:
                continue
            with open(f"/proc/self/fdinfo/{fd}", "rb") as info:
                flags = next((ln for ln in info if ln.startswith(b"flags:")), b"flags: 0")
            if int(flags.split()[1], 8) & 0o3:  # O_WRONLY or O_RDWR
                rules.append((b"/proc/self/fd/%d" % fd, False))
        except (OSError, ValueError, IndexError):
            continue
    return rules


def marker_value() -> str:
    """``<pid>:<start time>`` of this process (its start time survives ``exec``), or ""."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return f"{os.getpid()}:{int(fields[19])}"
    except (OSError, ValueError, IndexError):
        return ""


def touch(path: str) -> None:
    """Create ``path`` empty (0600) when missing; never follow a symlink, never truncate."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        os.close(os.open(path, flags, 0o600))
    except OSError:
        pass


def say(message: str) -> None:
    try:
        os.write(2, (PREFIX + message + "\n").encode(errors="replace"))
    except OSError:
        pass


def use_tmpdir(
    tmpdir: bytes, rules: list[tuple[bytes, bool]], environ: os._Environ[str], warn: bool
) -> None:
    """The private TMPDIR: made writable and exported, unless it is not safe to use."""
    refused = private_tmpdir(tmpdir)
    if refused:
        if warn:
            say(f"private TMPDIR refused: {refused}")
        return
    rules.append((tmpdir, True))
    for name in ("TMPDIR", "TMP", "TEMP"):
        if name == "TMPDIR" or name in environ:
            environ[name] = os.fsdecode(tmpdir)


def main(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except ValueError as exc:
        say(str(exc))
        return 126
    environ = os.environ
    rules, tmpdir, degraded = load_rules(spec_path(opts, environ))
    if degraded and opts.warn:
        say(f"{degraded}; writes limited to the terminal and /dev/null")
    if tmpdir is not None:
        use_tmpdir(tmpdir, rules, environ, opts.warn)
    if opts.stdio:
        rules.extend(stdio_rules())
    if opts.canary is not None:
        touch(opts.canary)
    try:
        landlock.restrict_writes(rules)
    except landlock.LandlockUnavailable:
        if opts.warn:
            say("Landlock is unavailable: this command runs unconfined")
        # nothing below can be confined either: stop every nested bash from coming back here
        environ.pop("BASH_ENV", None)
        return run(opts.program)
    except landlock.TooManyLayers:
        pass  # sixteen domains already stacked: confined already, and further layers are refused
    except landlock.LandlockError as exc:
        say(f"{exc.strerror}; the command was not run")
        return 126
    if opts.canary is not None:
        broken = canary_problem(opts.canary)
        if broken:
            say(f"{broken}; the command was not run")
            return 126
    marker = marker_value()
    if marker:
        environ[opts.marker] = marker
    return run(opts.program)


def canary_problem(path: str) -> str:
    """Inside the domain the canary must exist and refuse writes; else the BASH_ENV guard
    could never recognise this shell and it would re-exec itself forever. Return what is
    wrong, or ""."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC))
    except (PermissionError, FileNotFoundError) as exc:
        if isinstance(exc, PermissionError):
            return ""
        return f"canary {path} is missing and cannot be created"
    except OSError as exc:
        if exc.errno == 30:  # EROFS: refused as well, which is all the guard asks
            return ""
        return f"canary {path}: {exc.strerror}"
    return f"canary {path} is writable inside the domain (it must lie outside the writable set)"


def run(program: list[str]) -> int:
    try:
        os.execvp(program[0], program)
    except OSError as exc:
        say(f"{program[0]}: {exc.strerror}")
        return 127 if isinstance(exc, FileNotFoundError) else 126
    return 126  # not reached: execvp returns only by raising


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
