"""Where the user layer lives on Windows, macOS, Linux and WSL.

Every fact about the machine comes through a :class:`PlatformProbe`, so each platform's
rules run in tests on Linux with injected readers (``/proc/version``, the environment, the
``/mnt/c/Users`` listing).
"""

from __future__ import annotations

import os
import posixpath
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

USER_HOME_ENV = "PAW_USER_HOME"
WSL_USERS_DIR = "/mnt/c/Users"
# Profiles every Windows machine has that are never a person's.
_WINDOWS_SYSTEM_PROFILES = frozenset({"public", "default", "default user", "all users"})


def _read_proc_version() -> str | None:
    try:
        with open("/proc/version", encoding="utf-8", errors="replace") as handle:
            return handle.read(4096)
    except OSError:
        return None


def _list_dir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _passwd_home() -> str | None:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return None


class PlatformProbe:
    """The machine facts platform detection needs; the defaults read the real machine."""

    __slots__ = ("system", "environ", "read_proc_version", "list_dir", "is_dir", "passwd_home")

    def __init__(
        self,
        system: str | None = None,
        environ: Mapping[str, str] | None = None,
        read_proc_version: Callable[[], str | None] = _read_proc_version,
        list_dir: Callable[[str], Sequence[str]] = _list_dir,
        is_dir: Callable[[str], bool] = os.path.isdir,
        passwd_home: Callable[[], str | None] = _passwd_home,
    ) -> None:
        self.system = system if system is not None else sys.platform
        self.environ = environ if environ is not None else os.environ
        self.read_proc_version = read_proc_version
        self.list_dir = list_dir
        self.is_dir = is_dir
        self.passwd_home = passwd_home


def _env(probe: PlatformProbe, name: str) -> str:
    return (probe.environ.get(name) or "").strip()


def is_windows(probe: PlatformProbe) -> bool:
    return probe.system in ("win32", "cygwin")


def is_wsl(probe: PlatformProbe) -> bool:
    """Linux under WSL: a WSL variable is set, or the kernel version names Microsoft/WSL."""
    if not probe.system.startswith("linux"):
        return False
    if _env(probe, "WSL_DISTRO_NAME") or _env(probe, "WSL_INTEROP"):
        return True
    version = (probe.read_proc_version() or "").lower()
    return "microsoft" in version or "wsl" in version


def platform_name(probe: PlatformProbe) -> str:
    """``windows``, ``macos``, ``wsl``, ``linux`` or ``posix`` (any other Unix)."""
    if is_windows(probe):
        return "windows"
    if probe.system == "darwin":
        return "macos"
    if probe.system.startswith("linux"):
        return "wsl" if is_wsl(probe) else "linux"
    return "posix"


def path_module(probe: PlatformProbe):  # type: ignore[no-untyped-def]
    """The ``os.path`` flavour of the probed platform (``ntpath`` or ``posixpath``)."""
    if is_windows(probe):
        import ntpath

        return ntpath
    return posixpath


def home_directory(probe: PlatformProbe) -> str | None:
    """The user's home, as ``Path.home()`` finds it, or ``PAW_USER_HOME`` when set."""
    override = probe.environ.get(USER_HOME_ENV)
    if override:
        return override
    if is_windows(probe):
        profile = _env(probe, "USERPROFILE")
        if profile:
            return profile
        drive, rest = _env(probe, "HOMEDRIVE"), _env(probe, "HOMEPATH")
        return drive + rest if rest else None
    return _env(probe, "HOME") or probe.passwd_home()


def windows_user_on_wsl(probe: PlatformProbe) -> str | None:
    """The Windows account whose profile this WSL user shares, found as PAW finds it:
    the only person's profile under ``/mnt/c/Users``, else the one named by LOGNAME."""
    people = sorted(
        name
        for name in probe.list_dir(WSL_USERS_DIR)
        if name.lower() not in _WINDOWS_SYSTEM_PROFILES
        and not name.startswith(".")
        and name.lower() != "desktop.ini"
    )
    if len(people) == 1:
        return people[0]
    login = _env(probe, "LOGNAME") or _env(probe, "USER")
    if login:
        for name in people:
            if name.lower() == login.lower():
                return name
    return None


def user_instructions_dir(probe: PlatformProbe) -> str | None:
    """The user layer's directory (``<home>/.paw/instructions``), or None with no home.

    On WSL the Windows profile's ``.paw/instructions`` is preferred when it exists, so the
    user layer is the same one VS Code on Windows reads; else the Linux home is used.
    ``PAW_USER_HOME`` bypasses all detection.
    """
    if not probe.environ.get(USER_HOME_ENV) and is_wsl(probe):
        user = windows_user_on_wsl(probe)
        if user:
            candidate = posixpath.join(WSL_USERS_DIR, user, ".paw", "instructions")
            if probe.is_dir(candidate):
                return candidate
    home = home_directory(probe)
    if not home:
        return None
    return str(path_module(probe).join(home, ".paw", "instructions"))
