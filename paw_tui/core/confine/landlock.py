"""Linux Landlock, for file writes only: raw syscalls through ``_ctypes``, no other dependency.

``restrict_writes(allowed)`` puts the calling thread (and everything it later ``exec``s or
forks) in a Landlock domain where only the listed trees and files can be written: created,
removed, renamed, linked, truncated or opened for writing. Reading and executing stay
unrestricted: no read or execute right is *handled*, so the kernel never checks them. The domain
is irreversible and inherited; nesting stacks a new layer that can only restrict further.

Landlock restricts root as well: it is an LSM check made after the DAC checks, and root holds
no capability that bypasses it.

Rights handled (each only when the running ABI knows it):

- ABI 1: ``WRITE_FILE``, ``REMOVE_DIR``, ``REMOVE_FILE``, ``MAKE_CHAR``, ``MAKE_DIR``,
  ``MAKE_REG``, ``MAKE_SOCK``, ``MAKE_FIFO``, ``MAKE_BLOCK``, ``MAKE_SYM``. With ABI 1 a file
  can never change directory by ``rename`` or ``link`` (``EXDEV``; ``mv`` falls back to a copy);
  ``truncate(2)`` by path is not checked at all.
- ABI 2: ``REFER`` (granted wherever the tree is writable, so ``mv`` between two writable
  directories works; moving or linking a file from a read-only place into a writable one fails
  with ``EXDEV`` because it would gain rights there).
- ABI 3: ``TRUNCATE``.
- ABI 5: ``IOCTL_DEV``: ``ioctl`` on a device file opened *after* the restriction is allowed
  only where a rule grants it (the terminal devices and ``/dev/null`` in the default set; see
  ``writable.py``). Descriptors opened before the restriction (the inherited stdin, stdout and
  stderr) keep every right, so the shell's own terminal keeps working.

Network rights (ABI 4) and scopes (ABI 6) are not handled: sockets, signals and abstract unix
sockets are untouched. The syscall numbers 444/445/446 are the same on x86_64 and on every
architecture that uses ``asm-generic/unistd.h`` (aarch64, riscv64, loongarch64) and on i386,
arm, ppc and s390; mips and alpha differ and are reported as unsupported (ABI 0).

Standard library only, and cheap to import: ``os``, ``sys`` and ``_ctypes`` (``import ctypes``
costs about 4 ms more at start-up, and the launcher runs once per shell command).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13
TRUNCATE = 1 << 14
IOCTL_DEV = 1 << 15

RIGHT_NAMES = {
    WRITE_FILE: "write_file",
    REMOVE_DIR: "remove_dir",
    REMOVE_FILE: "remove_file",
    MAKE_CHAR: "make_char",
    MAKE_DIR: "make_dir",
    MAKE_REG: "make_reg",
    MAKE_SOCK: "make_sock",
    MAKE_FIFO: "make_fifo",
    MAKE_BLOCK: "make_block",
    MAKE_SYM: "make_sym",
    REFER: "refer",
    TRUNCATE: "truncate",
    IOCTL_DEV: "ioctl_dev",
}

_ABI1_WRITE = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SYM
_ABI1_WRITE |= MAKE_CHAR | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK
# Rights that make sense on a file rule; directory rights on a file give EINVAL.
FILE_RIGHTS = WRITE_FILE | TRUNCATE | IOCTL_DEV

_SYSCALLS = (444, 445, 446)  # create_ruleset, add_rule, restrict_self
_MACHINES = frozenset(
    "x86_64 amd64 aarch64 arm64 aarch64_be riscv64 loongarch64 i386 i486 i586 i686 armv6l armv7l"
    " armv8l ppc ppc64 ppc64le s390x".split()
)
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
_ENOSYS, _EOPNOTSUPP, _E2BIG = 38, 95, 7

_ORDER = sys.byteorder


class LandlockError(OSError):
    """A Landlock step failed; ``errno`` is the kernel's error, the message names the step."""


class LandlockUnavailable(LandlockError):
    """Landlock is not usable here: not Linux, an unknown architecture, or not enabled."""


class TooManyLayers(LandlockError):
    """The process already runs in 16 stacked Landlock domains (so it is confined already)."""


def handled_rights(abi: int) -> int:
    """Every write-type right the given ABI knows (0 when ``abi`` is 0)."""
    if abi < 1:
        return 0
    rights = _ABI1_WRITE
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def unenforced(abi: int) -> list[str]:
    """Write operations the kernel with this ABI cannot stop, in words (for ``doctor``)."""
    if abi < 1:
        return ["every write: Landlock is unavailable"]
    gaps = []
    if abi < 2:
        gaps.append("rename or link between two writable directories fails (EXDEV)")
    if abi < 3:
        gaps.append("truncate(2) by path outside the writable set")
    if abi < 5:
        gaps.append("ioctl on any device")
    return gaps


class _Libc:
    """``syscall`` and ``prctl`` from the C library, through ``_ctypes`` (loaded on first use)."""

    def __init__(self) -> None:
        import _ctypes

        class CLong(_ctypes._SimpleCData):  # type: ignore[type-arg]
            _type_ = "l"

        class CFunc(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
            _restype_ = CLong

        handle = _ctypes.dlopen(None, 0)  # type: ignore[arg-type]  # NULL: the program
        self.long = CLong
        self.syscall = CFunc(_ctypes.dlsym(handle, "syscall"))
        self.prctl = CFunc(_ctypes.dlsym(handle, "prctl"))
        self.get_errno = _ctypes.get_errno
        self.set_errno = _ctypes.set_errno

    def call(self, func: object, *args: int | bytes | None) -> tuple[int, int]:
        """Call ``func`` with ints widened to C ``long``; return (result, errno)."""
        converted = [self.long(a) if isinstance(a, int) else a for a in args]
        self.set_errno(0)
        result: int = func(*converted)  # type: ignore[operator]
        return result, self.get_errno()


_libc: _Libc | None = None
_abi: int | None = None


def _lib() -> _Libc:
    global _libc
    if _libc is None:
        _libc = _Libc()
    return _libc


def abi_version() -> int:
    """The running kernel's Landlock ABI version; 0 when Landlock cannot be used here."""
    global _abi
    if _abi is None:
        _abi = _probe_abi()
    return _abi


def _probe_abi() -> int:
    if sys.platform != "linux" or os.uname().machine not in _MACHINES:
        return 0
    try:
        lib = _lib()
    except (ImportError, AttributeError, OSError):
        return 0
    result, err = lib.call(lib.syscall, _SYSCALLS[0], None, 0, _CREATE_RULESET_VERSION)
    if result < 0:
        return 0  # ENOSYS (not built), EOPNOTSUPP (disabled at boot), or a seccomp filter
    return result


def _fail(step: str, err: int, cls: type[LandlockError] = LandlockError) -> LandlockError:
    return cls(err, f"Landlock {step} failed: {os.strerror(err)}")


def restrict_writes(
    allowed: Sequence[tuple[str | bytes, bool]], *, ioctl_everywhere: bool = False
) -> list[tuple[str | bytes, str]]:
    """Confine the calling thread's writes to ``allowed``: ``(path, is_directory)`` entries.

    A directory entry grants every handled right beneath it; a file entry grants the rights a
    file can hold (write, truncate, device ioctl). The kernel's view decides: an entry marked
    as a directory that is a file gets file rights; one marked as a file that is a directory is
    skipped (granting a whole tree was not asked for). Paths are opened ``O_PATH | O_CLOEXEC``
    and symlinks are followed, so a link grants its target. Entries that cannot be opened are
    skipped and returned as ``(path, reason)``; nothing is raised for them.

    ``ioctl_everywhere`` leaves device ioctls unhandled (for callers that need ioctls on
    arbitrary devices). Raises ``LandlockUnavailable`` when ABI is 0, ``TooManyLayers`` at the
    kernel's stacking limit, ``LandlockError`` for any other failure, in which case the
    process is not restricted (no partial domain is ever installed).
    """
    abi = abi_version()
    if abi < 1:
        raise LandlockUnavailable(_ENOSYS, "Landlock is not available on this system")
    lib = _lib()
    handled = handled_rights(abi)
    if ioctl_everywhere:
        handled &= ~IOCTL_DEV
    attr = handled.to_bytes(8, _ORDER)  # struct landlock_ruleset_attr, handled_access_fs only
    ruleset, err = lib.call(lib.syscall, _SYSCALLS[0], attr, len(attr), 0)
    if ruleset < 0:
        raise _fail("create_ruleset", err)
    skipped: list[tuple[str | bytes, str]] = []
    try:
        for path, is_dir in allowed:
            why = _add_rule(lib, ruleset, path, is_dir, handled)
            if why:
                skipped.append((path, why))
        result, err = lib.call(lib.prctl, _PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if result != 0:
            raise _fail("prctl(PR_SET_NO_NEW_PRIVS)", err)
        result, err = lib.call(lib.syscall, _SYSCALLS[2], ruleset, 0)
        if result != 0:
            cls = TooManyLayers if err == _E2BIG else LandlockError
            raise _fail("restrict_self", err, cls)
    finally:
        os.close(ruleset)
    return skipped


def _add_rule(lib: _Libc, ruleset: int, path: str | bytes, is_dir: bool, handled: int) -> str:
    """Add one path-beneath rule; return why it was skipped, or "" when added."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    try:
        is_real_dir = _is_dir(os.fstat(fd).st_mode)
        if is_real_dir and not is_dir:
            return "is a directory (a file rule was asked for)"
        rights = handled if is_real_dir else handled & FILE_RIGHTS
        # struct landlock_path_beneath_attr: __u64 allowed_access; __s32 parent_fd; (packed)
        attr = rights.to_bytes(8, _ORDER) + fd.to_bytes(4, _ORDER, signed=True)
        result, err = lib.call(lib.syscall, _SYSCALLS[1], ruleset, _RULE_PATH_BENEATH, attr, 0)
        if result != 0:
            raise _fail(f"add_rule({os.fsdecode(path)!r})", err)
        return ""
    finally:
        os.close(fd)


def _is_dir(mode: int) -> bool:
    return (mode & 0o170000) == 0o040000
