"""Where paw-tui keeps state outside the workspace (DESIGN §7): the ledger's head.

The base is platformdirs' ``user_state_dir("paw-tui", appauthor=False)``, computed here by
the same rules without importing platformdirs (its import costs more than the gate can
spend):

- Linux and other Unix: ``$XDG_STATE_HOME/paw-tui`` when that variable is an absolute path,
  else ``~/.local/state/paw-tui``;
- macOS: ``~/Library/Application Support/paw-tui`` (platformdirs 4.x also honours an absolute
  ``$XDG_STATE_HOME`` there, and so do we);
- Windows: ``%LOCALAPPDATA%\\paw-tui`` (platformdirs' ``WIN_PD_OVERRIDE_LOCAL_APPDATA`` first,
  and ``%USERPROFILE%\\AppData\\Local`` when the variable is missing).

``PAW_STATE_DIR`` (trimmed, when non-blank) replaces the base. Each workspace gets its own
directory below ``<base>/workspaces/``, named by a readable basename and a hash of the
root's real path, so two checkouts with the same name never share a head.
"""

from __future__ import annotations

import os
import posixpath
import sys

from paw_tui.core.support.hashing import sha256_hex
from paw_tui.core.support.realpath import realpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

APP_NAME = "paw-tui"
STATE_DIR_ENV = "PAW_STATE_DIR"
WORKSPACES_DIR = "workspaces"
_KEY_HASH_CHARS = 16
_KEY_NAME_CHARS = 40
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def _passwd_home() -> str | None:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return None


def _posix_home(environ: Mapping[str, str], passwd_home: Callable[[], str | None]) -> str:
    # Like platformdirs' expand_user: HOME when it is absolute, else the password database.
    home = environ.get("HOME")
    if home is not None and posixpath.isabs(home):
        return home
    fallback = passwd_home()
    if fallback:
        return fallback.rstrip("/") or "/"
    raise OSError("cannot find the home directory: set an absolute HOME")


def _windows_local_appdata(environ: Mapping[str, str]) -> str:
    import ntpath

    override = environ.get("WIN_PD_OVERRIDE_LOCAL_APPDATA", "").strip()
    if override and _fully_qualified_windows(override):
        return override
    local = environ.get("LOCALAPPDATA", "")
    if local:
        return local
    profile = environ.get("USERPROFILE", "")
    if profile:
        return ntpath.join(profile, "AppData", "Local")
    raise OSError("cannot find the local application data directory: set LOCALAPPDATA")


def _fully_qualified_windows(path: str) -> bool:
    import ntpath

    drive, tail = ntpath.splitdrive(path.replace("/", "\\"))
    return bool(drive) and tail.startswith("\\")


def user_state_dir(
    *,
    environ: Mapping[str, str] | None = None,
    system: str | None = None,
    passwd_home: Callable[[], str | None] = _passwd_home,
) -> str:
    """platformdirs' ``user_state_dir("paw-tui", appauthor=False)`` for ``system``."""
    env = os.environ if environ is None else environ
    platform = sys.platform if system is None else system
    if platform in ("win32", "cygwin"):
        import ntpath  # not imported on POSIX: it costs ~0.5 ms there

        return ntpath.join(ntpath.normpath(_windows_local_appdata(env)), APP_NAME)
    xdg = env.get("XDG_STATE_HOME", "")
    if posixpath.isabs(xdg):
        return posixpath.join(xdg, APP_NAME)
    home = _posix_home(env, passwd_home)
    if platform == "darwin":
        return posixpath.join(home, "Library", "Application Support", APP_NAME)
    return posixpath.join(home, ".local", "state", APP_NAME)


def state_base_dir(*, environ: Mapping[str, str] | None = None, system: str | None = None) -> str:
    """``PAW_STATE_DIR`` when set (made absolute), else :func:`user_state_dir`."""
    env = os.environ if environ is None else environ
    override = (env.get(STATE_DIR_ENV) or "").strip()
    if override:
        return os.path.abspath(os.path.expanduser(override))
    return user_state_dir(environ=env, system=system)


def workspace_key(root: str) -> str:
    """``<readable basename>-<16 hex of sha256(realpath(root))>``, safe as a file name.

    The real path is case-folded on Windows, where two spellings name one directory.
    """
    real = os.path.normcase(realpath(os.path.abspath(root)))
    digest = sha256_hex(real.encode("utf-8", "surrogatepass"))[:_KEY_HASH_CHARS]
    base = os.path.basename(real.rstrip("/\\")) or "root"
    name = "".join(ch if ch in _NAME_CHARS else "_" for ch in base)[:_KEY_NAME_CHARS]
    return f"{name.lstrip('.') or 'root'}-{digest}"


def workspace_state_dir(
    root: str,
    *,
    base: str | None = None,
    environ: Mapping[str, str] | None = None,
    system: str | None = None,
) -> str:
    """The directory holding this workspace's state: ``<base>/workspaces/<key>``."""
    if base is None:
        base = state_base_dir(environ=environ, system=system)
    return os.path.join(base, WORKSPACES_DIR, workspace_key(root))
