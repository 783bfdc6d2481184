"""Where the ledger head lives: platformdirs' rules without platformdirs, per workspace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest
from platformdirs.macos import MacOS

from paw_tui.core.workspace import statedir

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("XDG_STATE_HOME", statedir.STATE_DIR_ENV):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_equals_platformdirs_on_this_machine(clean_env: pytest.MonkeyPatch) -> None:
    expected = platformdirs.user_state_dir("paw-tui", appauthor=False)
    assert statedir.user_state_dir() == expected


@pytest.mark.parametrize("xdg", ["/tmp/xdg-state", "relative/state", "", "  "])
def test_xdg_state_home_like_platformdirs(clean_env: pytest.MonkeyPatch, xdg: str) -> None:
    clean_env.setenv("XDG_STATE_HOME", xdg)
    assert statedir.user_state_dir() == platformdirs.user_state_dir("paw-tui", appauthor=False)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX home rules")
def test_relative_home_falls_back_to_the_password_database(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("HOME", "not/absolute")
    assert (
        statedir.user_state_dir(passwd_home=lambda: "/home/pw") == "/home/pw/.local/state/paw-tui"
    )
    assert statedir.user_state_dir() == platformdirs.user_state_dir("paw-tui", appauthor=False)


def test_no_home_at_all_is_an_oserror() -> None:
    with pytest.raises(OSError):
        statedir.user_state_dir(environ={}, system="linux", passwd_home=lambda: None)


def test_linux_rules() -> None:
    assert (
        statedir.user_state_dir(environ={"HOME": "/home/u"}, system="linux")
        == "/home/u/.local/state/paw-tui"
    )
    env = {"HOME": "/home/u", "XDG_STATE_HOME": "/var/xdg"}
    assert statedir.user_state_dir(environ=env, system="linux") == "/var/xdg/paw-tui"
    env = {"HOME": "/home/u", "XDG_STATE_HOME": "~/rel"}
    assert (
        statedir.user_state_dir(environ=env, system="freebsd14") == "/home/u/.local/state/paw-tui"
    )


def test_macos_rules_match_platformdirs_macos_class(clean_env: pytest.MonkeyPatch) -> None:
    home = os.path.expanduser("~")
    ours = statedir.user_state_dir(environ={"HOME": home}, system="darwin")
    assert ours == os.path.join(home, "Library", "Application Support", "paw-tui")
    assert ours == MacOS("paw-tui", appauthor=False).user_state_dir
    clean_env.setenv("XDG_STATE_HOME", "/opt/xdg")
    assert (
        statedir.user_state_dir(system="darwin") == MacOS("paw-tui", appauthor=False).user_state_dir
    )


def test_windows_rules() -> None:
    env = {"LOCALAPPDATA": "C:\\Users\\Ann\\AppData\\Local", "USERPROFILE": "C:\\Users\\Ann"}
    assert (
        statedir.user_state_dir(environ=env, system="win32")
        == "C:\\Users\\Ann\\AppData\\Local\\paw-tui"
    )
    env = {"USERPROFILE": "C:\\Users\\Ann"}
    assert (
        statedir.user_state_dir(environ=env, system="win32")
        == "C:\\Users\\Ann\\AppData\\Local\\paw-tui"
    )
    env = {"LOCALAPPDATA": "C:/Users/Ann/AppData/Local/"}
    assert (
        statedir.user_state_dir(environ=env, system="win32")
        == "C:\\Users\\Ann\\AppData\\Local\\paw-tui"
    )
    env = {"LOCALAPPDATA": "C:\\L", "WIN_PD_OVERRIDE_LOCAL_APPDATA": "D:\\Override"}
    assert statedir.user_state_dir(environ=env, system="win32") == "D:\\Override\\paw-tui"
    env = {"LOCALAPPDATA": "C:\\L", "WIN_PD_OVERRIDE_LOCAL_APPDATA": "relative"}
    assert statedir.user_state_dir(environ=env, system="win32") == "C:\\L\\paw-tui"
    with pytest.raises(OSError):
        statedir.user_state_dir(environ={}, system="win32")


def test_paw_state_dir_overrides(tmp_path: Path) -> None:
    env = {"HOME": "/home/u", statedir.STATE_DIR_ENV: f"  {tmp_path}  "}
    assert statedir.state_base_dir(environ=env) == str(tmp_path)
    env[statedir.STATE_DIR_ENV] = "   "
    assert statedir.state_base_dir(environ=env, system="linux") == "/home/u/.local/state/paw-tui"


def test_workspace_key_is_readable_stable_and_follows_symlinks(tmp_path: Path) -> None:
    one = tmp_path / "a" / "my project"
    two = tmp_path / "b" / "my project"
    one.mkdir(parents=True)
    two.mkdir(parents=True)
    key = statedir.workspace_key(str(one))
    assert key.startswith("my_project-")
    assert len(key.rsplit("-", 1)[1]) == 16
    assert statedir.workspace_key(str(one)) == key
    assert statedir.workspace_key(str(one) + os.sep) == key
    assert statedir.workspace_key(str(two)) != key, "same basename, different checkout"
    link = tmp_path / "link"
    link.symlink_to(one, target_is_directory=True)
    assert statedir.workspace_key(str(link)) == key
    assert statedir.workspace_key("/").startswith("root-")


def test_workspace_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(statedir.STATE_DIR_ENV, str(tmp_path / "state"))
    root = tmp_path / "ws"
    root.mkdir()
    expected = os.path.join(
        str(tmp_path / "state"), "workspaces", statedir.workspace_key(str(root))
    )
    assert statedir.workspace_state_dir(str(root)) == expected
    assert statedir.workspace_state_dir(str(root), base="/x") == os.path.join(
        "/x", "workspaces", statedir.workspace_key(str(root))
    )
    assert not os.path.exists(expected), "computing the directory creates nothing"


def test_import_does_not_pull_platformdirs_or_hashlib() -> None:
    """Nothing heavy beyond what the interpreter's start-up already loaded (an editable
    install's finder, for one, imports pathlib before any of our code runs)."""
    heavy = ("platformdirs", "hashlib", "typing", "pathlib", "dataclasses", "datetime", "tempfile")

    def loaded(code: str) -> set[str]:
        probe = f"import sys, json\n{code}\nprint(json.dumps([m for m in {heavy!r} if m in sys.modules]))"
        out = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO_ROOT
        ).stdout
        return set(json.loads(out))

    baseline = loaded("pass")
    assert loaded("import paw_tui.core.ledger.store") - baseline == set()
    assert loaded("import paw_tui.core.ledger.store, paw_tui.core.ledger.read") - baseline == set()
