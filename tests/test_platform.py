"""Where the user layer lives: Windows, macOS, Linux, WSL, through injected readers (DESIGN §1, §3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TypedDict, Unpack

import pytest

from paw_tui.core.workspace.platform import (
    PlatformProbe,
    home_directory,
    is_wsl,
    platform_name,
    user_instructions_dir,
    windows_user_on_wsl,
)

WSL_KERNEL = "Linux version 5.15.90.1-microsoft-standard-WSL2 (oe-user@oe-host) (gcc 11.2.0) #1 SMP"
WSL1_KERNEL = (
    "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0) #1237"
)
PLAIN_KERNEL = "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (gcc 13.2.0) #45-Ubuntu SMP"


class ProbeReaders(TypedDict, total=False):
    """The readers of a :class:`PlatformProbe` a test may replace."""

    read_proc_version: Callable[[], str | None]
    list_dir: Callable[[str], Sequence[str]]
    is_dir: Callable[[str], bool]
    passwd_home: Callable[[], str | None]


def forbidden(*_args: object) -> NoReturn:
    raise AssertionError("this probe reader must not be consulted")


def probe(
    system: str = "linux",
    environ: dict[str, str] | None = None,
    proc_version: str | None = PLAIN_KERNEL,
    users: list[str] | None = None,
    dirs: set[str] | None = None,
    passwd: str | None = None,
    listed: list[str] | None = None,
    **overrides: Unpack[ProbeReaders],
) -> PlatformProbe:
    """A probe answering from the arguments; ``listed`` records the directories listed."""
    if listed is None:
        listed = []

    def list_dir(path: str) -> list[str]:
        listed.append(path)
        return list(users or []) if path == "/mnt/c/Users" else []

    readers: ProbeReaders = {
        "read_proc_version": lambda: proc_version,
        "list_dir": list_dir,
        "is_dir": lambda path: path in (dirs or set()),
        "passwd_home": lambda: passwd,
    }
    readers.update(overrides)
    return PlatformProbe(system=system, environ=environ if environ is not None else {}, **readers)


# --------------------------------------------------------------------------- Windows


def test_windows_userprofile() -> None:
    p = probe("win32", {"USERPROFILE": "C:\\Users\\me", "HOME": "/should/not/win"})
    assert platform_name(p) == "windows"
    assert user_instructions_dir(p) == "C:\\Users\\me\\.paw\\instructions"


def test_windows_homedrive_homepath_fallback() -> None:
    p = probe("win32", {"HOMEDRIVE": "C:", "HOMEPATH": "\\Users\\me"})
    assert home_directory(p) == "C:\\Users\\me"
    assert user_instructions_dir(p) == "C:\\Users\\me\\.paw\\instructions"


def test_windows_blank_userprofile_falls_back() -> None:
    p = probe("win32", {"USERPROFILE": "  ", "HOMEDRIVE": "D:", "HOMEPATH": "\\home\\x"})
    assert user_instructions_dir(p) == "D:\\home\\x\\.paw\\instructions"


def test_windows_without_any_home_has_no_user_layer() -> None:
    assert user_instructions_dir(probe("win32", {})) is None


def test_windows_never_probes_wsl() -> None:
    p = probe(
        "win32",
        {"USERPROFILE": "C:\\Users\\me", "WSL_DISTRO_NAME": "Ubuntu"},
        read_proc_version=forbidden,
        list_dir=forbidden,
    )
    assert is_wsl(p) is False
    assert user_instructions_dir(p) == "C:\\Users\\me\\.paw\\instructions"


# --------------------------------------------------------------------------- macOS / Linux


def test_macos_home() -> None:
    p = probe("darwin", {"HOME": "/Users/alice"}, read_proc_version=forbidden)
    assert platform_name(p) == "macos"
    assert user_instructions_dir(p) == "/Users/alice/.paw/instructions"


def test_linux_home() -> None:
    p = probe("linux", {"HOME": "/home/bob"})
    assert platform_name(p) == "linux"
    assert user_instructions_dir(p) == "/home/bob/.paw/instructions"


def test_linux_without_home_uses_passwd_entry() -> None:
    p = probe("linux", {}, passwd="/home/carol")
    assert user_instructions_dir(p) == "/home/carol/.paw/instructions"


def test_linux_without_any_home() -> None:
    assert user_instructions_dir(probe("linux", {}, passwd=None)) is None


def test_other_unix() -> None:
    p = probe("freebsd14", {"HOME": "/usr/home/dan"})
    assert platform_name(p) == "posix"
    assert user_instructions_dir(p) == "/usr/home/dan/.paw/instructions"


# --------------------------------------------------------------------------- WSL detection


@pytest.mark.parametrize(
    ("environ", "proc", "expected"),
    [
        ({}, WSL_KERNEL, True),
        ({}, WSL1_KERNEL, True),
        ({}, "Linux version 5.10 (someone) MICROSOFT build", True),
        ({}, "Linux version 5.10 wsl kernel", True),
        ({"WSL_DISTRO_NAME": "Ubuntu"}, PLAIN_KERNEL, True),
        ({"WSL_INTEROP": "/run/WSL/8_interop"}, PLAIN_KERNEL, True),
        ({"WSL_DISTRO_NAME": "Ubuntu"}, None, True),
        ({}, PLAIN_KERNEL, False),
        ({}, None, False),
        ({"WSL_DISTRO_NAME": "  "}, PLAIN_KERNEL, False),
    ],
)
def test_wsl_detection(environ: dict[str, str], proc: str | None, expected: bool) -> None:
    p = probe("linux", environ, proc)
    assert is_wsl(p) is expected
    assert platform_name(p) == ("wsl" if expected else "linux")


def test_wsl_markers_ignored_on_macos() -> None:
    p = probe("darwin", {"WSL_DISTRO_NAME": "x", "HOME": "/Users/a"}, WSL_KERNEL)
    assert is_wsl(p) is False


# --------------------------------------------------------------------------- WSL user layer

WSL_ENV = {"WSL_DISTRO_NAME": "Ubuntu", "HOME": "/home/me", "LOGNAME": "me"}


def test_wsl_sole_profile() -> None:
    users = ["Public", "Default", "Default User", "All Users", "Jane", "desktop.ini"]
    target = "/mnt/c/Users/Jane/.paw/instructions"
    listed: list[str] = []
    p = probe("linux", WSL_ENV, users=users, dirs={target}, listed=listed)
    assert windows_user_on_wsl(p) == "Jane"
    assert user_instructions_dir(p) == target
    assert "/mnt/c/Users" in listed


def test_wsl_sole_profile_detected_from_proc_version() -> None:
    target = "/mnt/c/Users/Jane/.paw/instructions"
    p = probe("linux", {"HOME": "/home/jane"}, WSL_KERNEL, users=["Public", "Jane"], dirs={target})
    assert user_instructions_dir(p) == target


def test_wsl_several_profiles_logname_chooses() -> None:
    users = ["Public", "alice", "Me", "zed"]
    dirs = {f"/mnt/c/Users/{u}/.paw/instructions" for u in users}
    p = probe("linux", {**WSL_ENV, "LOGNAME": "me"}, users=users, dirs=dirs)
    assert windows_user_on_wsl(p) == "Me"
    assert user_instructions_dir(p) == "/mnt/c/Users/Me/.paw/instructions"


def test_wsl_several_profiles_no_match_uses_linux_home() -> None:
    users = ["alice", "zed"]
    dirs = {f"/mnt/c/Users/{u}/.paw/instructions" for u in users}
    p = probe("linux", {**WSL_ENV, "LOGNAME": "me"}, users=users, dirs=dirs)
    assert windows_user_on_wsl(p) is None
    assert user_instructions_dir(p) == "/home/me/.paw/instructions"


def test_wsl_windows_dir_missing_uses_linux_home() -> None:
    p = probe("linux", WSL_ENV, users=["Jane"], dirs=set())
    assert windows_user_on_wsl(p) == "Jane"
    assert user_instructions_dir(p) == "/home/me/.paw/instructions"


def test_wsl_no_windows_profiles_uses_linux_home() -> None:
    p = probe("linux", WSL_ENV, users=["Public", "Default", "Default User", "All Users"])
    assert windows_user_on_wsl(p) is None
    assert user_instructions_dir(p) == "/home/me/.paw/instructions"


def test_not_wsl_never_looks_at_windows_profiles() -> None:
    p = probe(
        "linux",
        {"HOME": "/home/me"},
        PLAIN_KERNEL,
        list_dir=forbidden,
        is_dir=forbidden,
    )
    assert user_instructions_dir(p) == "/home/me/.paw/instructions"


# --------------------------------------------------------------------------- PAW_USER_HOME


@pytest.mark.parametrize("system", ["linux", "darwin", "win32"])
def test_paw_user_home_bypasses_detection(system: str) -> None:
    p = probe(
        system,
        {
            "PAW_USER_HOME": "/tmp/fake-home",
            "WSL_DISTRO_NAME": "Ubuntu",
            "HOME": "/home/real",
            "USERPROFILE": "C:\\Users\\real",
        },
        read_proc_version=forbidden,
        list_dir=forbidden,
        is_dir=forbidden,
        passwd_home=forbidden,
    )
    assert home_directory(p) == "/tmp/fake-home"
    expected = (
        "/tmp/fake-home\\.paw\\instructions"
        if system == "win32"
        else "/tmp/fake-home/.paw/instructions"
    )
    assert user_instructions_dir(p) == expected


def test_paw_user_home_beats_a_wsl_windows_profile() -> None:
    target = "/mnt/c/Users/Jane/.paw/instructions"
    p = probe(
        "linux", {**WSL_ENV, "PAW_USER_HOME": "/x/home"}, WSL_KERNEL, users=["Jane"], dirs={target}
    )
    assert user_instructions_dir(p) == "/x/home/.paw/instructions"


def test_default_probe_reads_the_process_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PAW_USER_HOME", str(tmp_path / "h"))
    assert user_instructions_dir(PlatformProbe()) == str(tmp_path / "h" / ".paw" / "instructions")
