"""Drift detection: each kind of change outside the scope, snapshot files, weird trees."""

from __future__ import annotations

import marshal
import os
import stat
import types
from pathlib import Path

import pytest

from paw_tui.core.confine import drift_fs
from paw_tui.core.confine.drift import (
    Drift,
    Snapshot,
    SnapshotError,
    compare,
    restore,
    take_snapshot,
)

PROTECTED = {".claude/settings.json", ".mcp.json", ".git/config"}


def restorable(path: str) -> bool:
    return path in PROTECTED or path == ".git/hooks" or path.startswith(".git/hooks/")


def in_scope(path: str) -> bool:
    return path == "src" or path.startswith("src/")


def skip_dirs(path: str) -> bool:
    return path == ".git" or path.rpartition("/")[2] == "node_modules"


CALLABLES = {
    "in_scope": in_scope,
    "restorable": restorable,
    "skip_dirs": skip_dirs,
    "owned_dirs": in_scope,
}
PINNED = (".git/config", ".git/hooks")


def write(root: str, rel: str, content: str | bytes = "x\n") -> str:
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content.encode() if isinstance(content, str) else content)
    return path


def read(root: str, rel: str) -> bytes:
    with open(os.path.join(root, rel), "rb") as handle:
        return handle.read()


@pytest.fixture(params=["racy", "settled"])
def racy_ns(request: pytest.FixtureRequest) -> int:
    """Both paths of compare: everything racy (re-listed, hashed) and the directory shortcut."""
    return 50_000_000 if request.param == "racy" else 0


@pytest.fixture
def repo(tmp_path: Path) -> str:
    root = str(tmp_path / "ws")
    for rel in (
        "README.md",
        "docs/guide.md",
        "docs/deep/a/b/c.txt",
        "src/app.py",
        "src/pkg/mod.py",
        "node_modules/lib/index.js",
        ".git/config",
        ".git/HEAD",
        ".git/objects/ab/cdef",
        ".git/hooks/pre-commit.sample",
    ):
        write(root, rel, f"{rel}\n")
    write(root, ".claude/settings.json", '{"hooks": {}}\n')
    write(root, ".mcp.json", "{}\n")
    os.chmod(os.path.join(root, ".mcp.json"), 0o640)
    return root


def snap_of(root: str, racy_ns: int = 50_000_000, **extra: object) -> Snapshot:
    kwargs: dict[str, object] = {**CALLABLES, "pinned": PINNED, "racy_ns": racy_ns, **extra}
    return take_snapshot(root, **kwargs)  # type: ignore[arg-type]


def drift_of(before: Snapshot, root: str) -> Drift:
    return compare(before, root, **CALLABLES)


def test_unchanged_tree_has_no_drift(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    drift = drift_of(before, repo)
    assert not drift
    assert drift.created == drift.modified == drift.deleted == []
    assert not restore(before, drift, repo)


def test_what_is_tracked(repo: str) -> None:
    before = snap_of(repo)
    tracked = set(before.paths())
    assert "README.md" in tracked and "docs/deep/a/b/c.txt" in tracked
    assert "node_modules" in tracked and "node_modules/lib" not in tracked  # skipped
    assert ".git" in tracked and ".git/HEAD" not in tracked  # skipped but for the pinned
    assert {".git/config", ".git/hooks", ".git/hooks/pre-commit.sample"} <= tracked
    assert not any(path == "src" or path.startswith("src/") for path in tracked)
    assert len(before) == len(tracked)


def test_file_created_modified_deleted_outside_scope(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "new.txt")
    write(repo, "docs/guide.md", "changed\n")
    os.unlink(os.path.join(repo, "README.md"))
    drift = drift_of(before, repo)
    assert drift.created == ["new.txt"]
    assert drift.modified == ["docs/guide.md"]
    assert drift.reasons["docs/guide.md"] == "content"
    assert drift.deleted == ["README.md"]
    assert not drift.protected


def test_changes_inside_scope_are_ignored(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "src/app.py", "changed\n")
    write(repo, "src/new/deep/file.py")
    os.unlink(os.path.join(repo, "src/pkg/mod.py"))
    assert not drift_of(before, repo)


def test_directory_created_and_removed(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "build/out/a.o")
    os.mkdir(os.path.join(repo, "empty"))
    import shutil

    shutil.rmtree(os.path.join(repo, "docs/deep"))
    drift = drift_of(before, repo)
    assert drift.created == ["build", "build/out", "build/out/a.o", "empty"]
    assert drift.deleted == ["docs/deep", "docs/deep/a", "docs/deep/a/b", "docs/deep/a/b/c.txt"]
    assert drift.modified == []


def test_same_size_rewrite_and_touch(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "README.md", "README.mX\n")  # same size
    os.link(os.path.join(repo, "docs/guide.md"), os.path.join(repo, "src/alias.md"))
    drift = drift_of(before, repo)
    assert drift.modified == ["README.md", "docs/guide.md"]
    assert drift.reasons["README.md"] == "content"
    assert drift.reasons["docs/guide.md"] == "metadata"  # a new link: only ctime moved


def test_mode_change(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    os.chmod(os.path.join(repo, "README.md"), 0o755)
    os.chmod(os.path.join(repo, "docs"), 0o700)
    drift = drift_of(before, repo)
    assert drift.modified == ["README.md", "docs"]
    assert drift.reasons == {"README.md": "mode", "docs": "mode"}


def test_symlink_created_and_retargeted(repo: str, tmp_path: Path, racy_ns: int) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("s")
    os.symlink("README.md", os.path.join(repo, "link"))
    before = snap_of(repo, racy_ns)
    assert before.extras["link"][2] == "README.md"
    os.unlink(os.path.join(repo, "link"))
    os.symlink("docs/guide.md", os.path.join(repo, "link"))
    os.symlink(str(outside), os.path.join(repo, "out"))  # a link to a directory: not walked
    drift = drift_of(before, repo)
    assert drift.created == ["out"]
    assert drift.modified == ["link"]
    assert drift.reasons["link"] == "target"


def test_type_changes(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    os.unlink(os.path.join(repo, "README.md"))
    write(repo, "README.md/inner.txt")  # a file became a directory
    import shutil

    shutil.rmtree(os.path.join(repo, "docs/deep"))
    write(repo, "docs/deep", "now a file\n")  # a directory became a file
    drift = drift_of(before, repo)
    assert drift.modified == ["README.md", "docs/deep"]
    assert drift.reasons == {"README.md": "type", "docs/deep": "type"}
    assert drift.created == ["README.md/inner.txt"]
    assert drift.deleted == ["docs/deep/a", "docs/deep/a/b", "docs/deep/a/b/c.txt"]


def test_in_scope_name_turned_directory_is_walked(tmp_path: Path, racy_ns: int) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    write(root, "d/notes.md")
    write(root, "d/data.bin")

    def md_scope(path: str) -> bool:
        return path.endswith(".md")

    kwargs = {"in_scope": md_scope, "restorable": lambda p: False}
    before = take_snapshot(root, racy_ns=racy_ns, **kwargs)  # type: ignore[arg-type]
    assert before.paths() == ["d", "d/data.bin"]
    os.unlink(os.path.join(root, "d/notes.md"))
    write(root, "d/notes.md/payload.sh")
    write(root, "d/other.md")
    drift = compare(before, root, **kwargs)
    assert drift.created == ["d/notes.md/payload.sh"]
    assert drift.modified == drift.deleted == []


def test_skipped_directories(repo: str, racy_ns: int) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "node_modules/lib/index.js", "changed")
    write(repo, ".git/objects/ff/0000")
    write(repo, ".git/HEAD", "ref: refs/heads/other\n")
    write(repo, "new/node_modules/x.js")
    drift = drift_of(before, repo)
    assert drift.created == ["new", "new/node_modules"]  # a skipped directory is not entered
    assert drift.modified == drift.deleted == []


def test_pinned_created_when_absent(tmp_path: Path, racy_ns: int) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    write(root, ".git/HEAD")
    before = snap_of(root, racy_ns)
    assert before.pinned == {".git/config": None, ".git/hooks": None}
    write(root, ".git/config", "[core]\n")
    write(root, ".git/hooks/post-checkout", "#!/bin/sh\n")
    drift = drift_of(before, root)
    assert drift.created == [".git/config", ".git/hooks", ".git/hooks/post-checkout"]
    assert drift.protected == set(drift.created)
    done = restore(before, drift, root)
    assert done.failed == []
    assert not os.path.exists(os.path.join(root, ".git/config"))
    assert not os.path.exists(os.path.join(root, ".git/hooks"))
    assert os.path.exists(os.path.join(root, ".git/HEAD"))


def test_protected_in_scope_is_still_tracked(tmp_path: Path) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    write(root, ".mcp.json", "{}")
    everything = {"in_scope": lambda p: True, "restorable": restorable}
    before = take_snapshot(root, **everything)  # type: ignore[arg-type]
    assert before.paths() == [".mcp.json"]
    write(root, ".mcp.json", '{"evil": 1}')
    write(root, "anything.txt")
    drift = compare(before, root, **everything)
    assert drift.modified == [".mcp.json"] and drift.protected == {".mcp.json"}
    assert drift.created == []


def test_tag_and_root_mismatch(repo: str, tmp_path: Path) -> None:
    before = snap_of(repo, tag="toolu_123")
    assert before.tag == "toolu_123"
    with pytest.raises(ValueError, match="snapshot is of"):
        compare(before, str(tmp_path), **CALLABLES)


# --- snapshot files ---------------------------------------------------------------------


def test_dump_load_round_trip(repo: str, tmp_path: Path) -> None:
    before = snap_of(repo, tag="t")
    path = str(tmp_path / "state" / "deep" / "snap.bin")  # the directory is made
    before.dump(path)
    before.dump(path)  # overwrites atomically
    assert os.listdir(os.path.dirname(path)) == ["snap.bin"]
    loaded = Snapshot.load(path)
    assert loaded is not None
    for name in Snapshot.__slots__:
        assert getattr(loaded, name) == getattr(before, name), name
    write(repo, "docs/guide.md", "changed\n")
    assert drift_of(loaded, repo).modified == ["docs/guide.md"]


def test_load_missing_or_corrupt(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.bin")
    assert Snapshot.load(missing) is None
    with pytest.raises(SnapshotError, match="missing.bin: cannot read"):
        Snapshot.load(missing, strict=True)
    cases = {
        "garbage": b"\x00\xffnot marshal at all",
        "empty": b"",
        "truncated": marshal.dumps(("paw-drift", 1, "/r", "", 0, 0, 1, {}, {}, {}, []))[:-3],
        "other": marshal.dumps({"a": 1}),
        "version": marshal.dumps(("paw-drift", 99, "/r", "", 0, 0, 1, {}, {}, {}, [])),
        "shape": marshal.dumps(("paw-drift", 1, "/r", "", 0, 0, 1, {"": (1, 2)}, {}, {}, [])),
        "rec": marshal.dumps(
            ("paw-drift", 1, "/r", "", 0, 0, 1, {"": (1, 2, 3, 4, {"a": (1,)}, ())}, {}, {}, [])
        ),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert Snapshot.load(str(path)) is None, name
        with pytest.raises(SnapshotError, match=name):
            Snapshot.load(str(path), strict=True)


# --- weird trees ------------------------------------------------------------------------


def test_non_utf8_names(tmp_path: Path, racy_ns: int) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    raw = os.fsencode(root) + b"/caf\xe9"
    os.mkdir(raw)
    with open(raw + b"/\xff\xfe.txt", "wb") as handle:
        handle.write(b"1")
    before = snap_of(root, racy_ns)
    assert os.fsdecode(b"caf\xe9/\xff\xfe.txt") in before.paths()
    state = str(tmp_path.parent / "non-utf8-state.bin")
    before.dump(state)
    loaded = Snapshot.load(state)
    assert loaded is not None
    with open(raw + b"/\xff\xfe.txt", "wb") as handle:
        handle.write(b"22")
    with open(raw + b"/new\x80", "wb") as handle:
        handle.write(b"")
    drift = drift_of(loaded, root)
    assert [os.fsencode(path) for path in drift.modified] == [b"caf\xe9/\xff\xfe.txt"]
    assert [os.fsencode(path) for path in drift.created] == [b"caf\xe9/new\x80"]


def test_deep_tree_has_no_recursion_limit(tmp_path: Path, racy_ns: int) -> None:
    root = str(tmp_path / "ws")
    rel = "/".join(["d"] * 1200)  # 2,400 characters: deeper than any recursion limit
    path = root
    os.mkdir(path)
    for _ in range(1200):  # os.makedirs itself recurses
        path += "/d"
        os.mkdir(path)
    write(root, rel + "/leaf.txt")
    before = snap_of(root, racy_ns)
    assert before.errors == []
    write(root, rel + "/leaf.txt", "changed")
    write(root, rel + "/new.txt")
    drift = drift_of(before, root)
    assert drift.modified == [rel + "/leaf.txt"]
    assert drift.created == [rel + "/new.txt"]
    for name in ("leaf.txt", "new.txt"):  # pytest's own clean-up recurses: undo it here
        os.unlink(os.path.join(path, name))
    while path != root:
        os.rmdir(path)
        path = os.path.dirname(path)


def test_path_longer_than_path_max_fails_soft(tmp_path: Path) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(60):  # 60 x 100 characters: past PATH_MAX (4096)
            os.mkdir("n" * 99, dir_fd=fd)
            child = os.open("n" * 99, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    before = snap_of(root)
    assert before.errors  # the too-long directories are reported, not raised
    assert not drift_of(before, root).created


def test_huge_directory(tmp_path: Path, racy_ns: int) -> None:
    root = str(tmp_path / "ws")
    os.makedirs(root)
    for index in range(3000):
        write(root, f"big/f{index}")
    before = snap_of(root, racy_ns)
    assert len(before) == 3001
    os.unlink(os.path.join(root, "big/f1234"))
    write(root, "big/f2000", "changed")
    drift = drift_of(before, root)
    assert drift.deleted == ["big/f1234"] and drift.modified == ["big/f2000"]


# --- failures injected into the walk ---------------------------------------------------


def test_file_vanishing_mid_walk(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_scandir = drift_fs.scandir
    victim = os.path.join(repo, "docs/guide.md")

    class Vanishing:
        """Yields the real entries, removing the victim after getdents listed it."""

        def __init__(self, fd: int) -> None:
            self.inner = real_scandir(fd)

        def __enter__(self) -> Vanishing:
            return self

        def __exit__(self, *_: object) -> None:
            self.inner.close()

        def __iter__(self):  # type: ignore[no-untyped-def]
            for entry in self.inner:
                if entry.name == "guide.md" and os.path.exists(victim):
                    os.unlink(victim)
                yield entry

    def scandir_then_vanish(fd: int) -> Vanishing:
        return Vanishing(fd)

    monkeypatch.setattr(drift_fs, "scandir", scandir_then_vanish)
    before = snap_of(repo)
    monkeypatch.undo()
    assert "docs/guide.md" not in before.paths()
    assert not drift_of(before, repo)


def test_directory_vanishing_mid_walk(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    real_open = drift_fs.open_dir
    victim = os.path.join(repo, "docs/deep")

    def open_after_removal(path: str, follow: bool = False) -> int:
        if path == victim:
            shutil.rmtree(victim)
        return real_open(path, follow)

    monkeypatch.setattr(drift_fs, "open_dir", open_after_removal)
    before = snap_of(repo)
    monkeypatch.undo()
    assert not any(path.startswith("docs/deep") for path in before.paths())
    assert not drift_of(before, repo)


def test_unreadable_directory_at_snapshot(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = drift_fs.open_dir

    def deny(path: str, follow: bool = False) -> int:
        if path.endswith("/docs"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, follow)

    monkeypatch.setattr(drift_fs, "open_dir", deny)
    before = snap_of(repo)
    monkeypatch.undo()
    assert before.errors == [("docs", "Permission denied")]
    assert "docs" in before.paths() and "docs/guide.md" not in before.paths()
    write(repo, "docs/new.md")
    drift = drift_of(before, repo)
    assert not drift  # its content was never known: nothing is claimed about it
    assert drift.unreadable == [("docs", "not listed when the snapshot was taken")]


def test_unreadable_directory_at_compare(
    repo: str, monkeypatch: pytest.MonkeyPatch, racy_ns: int
) -> None:
    before = snap_of(repo, racy_ns)
    write(repo, "docs/guide.md", "changed!\n")
    write(repo, "docs/new.md")
    real_open = drift_fs.open_dir
    real_scandir = drift_fs.scandir

    def deny(path: str, follow: bool = False) -> int:
        if path.endswith("/docs/deep"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, follow)

    def deny_listing(fd: int):  # type: ignore[no-untyped-def]
        if os.path.samestat(os.fstat(fd), os.stat(os.path.join(repo, "docs"))):
            raise PermissionError(13, "Permission denied")
        return real_scandir(fd)

    monkeypatch.setattr(drift_fs, "open_dir", deny)
    monkeypatch.setattr(drift_fs, "scandir", deny_listing)
    drift = drift_of(before, repo)
    assert ("docs/deep", "Permission denied") in drift.unreadable
    assert ("docs", "Permission denied") in drift.unreadable
    assert drift.modified == ["docs/guide.md"]  # tracked names are still checked by name
    assert drift.deleted == []  # nothing is claimed gone because it could not be listed


def test_racy_same_stat_change_is_caught_by_hash(
    repo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change that leaves every timestamp equal (same clock tick) is caught when racy."""
    target = os.path.join(repo, "docs/guide.md")
    old = os.lstat(target)
    racy = snap_of(repo, 10**18)  # everything counts as racy
    settled = snap_of(repo, 0)
    write(repo, "docs/guide.md", b"X" * old.st_size)
    real_lstat = drift_fs.lstat

    def frozen(name: str, *, dir_fd: int | None = None) -> object:
        st = real_lstat(name, dir_fd=dir_fd)
        if name == "guide.md":
            return types.SimpleNamespace(
                st_mode=old.st_mode,
                st_size=old.st_size,
                st_mtime_ns=old.st_mtime_ns,
                st_ctime_ns=old.st_ctime_ns,
                st_ino=old.st_ino,
                st_nlink=old.st_nlink,
            )
        return st

    monkeypatch.setattr(drift_fs, "lstat", frozen)
    assert drift_of(racy, repo).modified == ["docs/guide.md"]
    # The documented limit: settled long ago, equal stat, no hash: not seen.
    assert drift_of(settled, repo).modified == []


def test_fifo_is_never_opened(repo: str) -> None:
    import signal

    def hang(*_: object) -> None:
        raise AssertionError("blocked on a FIFO")

    os.mkfifo(os.path.join(repo, "pipe"))
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(10)
    try:
        before = snap_of(repo, 10**18)  # racy: regular files would be hashed
        os.unlink(os.path.join(repo, "pipe"))
        os.mkfifo(os.path.join(repo, "pipe"))
        drift = drift_of(before, repo)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert drift.modified == ["pipe"]
    assert stat.S_ISFIFO(before.record("pipe")[0])  # type: ignore[index]


def test_compare_asks_the_scope_only_about_new_names(repo: str, racy_ns: int) -> None:
    asked: list[str] = []

    def counting_in_scope(path: str) -> bool:
        asked.append(path)
        return in_scope(path)

    def counting_restorable(path: str) -> bool:
        asked.append(path)
        return restorable(path)

    kwargs = dict(CALLABLES, in_scope=counting_in_scope, restorable=counting_restorable)
    before = snap_of(repo, racy_ns)
    assert not compare(before, repo, **kwargs)
    assert sorted(set(asked)) == []
    write(repo, "docs/new.txt")
    assert compare(before, repo, **kwargs).created == ["docs/new.txt"]
    assert sorted(set(asked)) == ["docs/new.txt"]


def test_pinned_directory_is_walked_even_when_skipped(repo: str, racy_ns: int) -> None:
    def skip_hooks_too(path: str) -> bool:
        return skip_dirs(path) or path == ".git/hooks"

    kwargs = dict(CALLABLES, skip_dirs=skip_hooks_too)
    before = take_snapshot(repo, pinned=PINNED, racy_ns=racy_ns, **kwargs)  # type: ignore[arg-type]
    assert before.pins == PINNED
    assert ".git/hooks/pre-commit.sample" in before.paths()
    write(repo, ".git/hooks/pre-commit", "#!/bin/sh\n")
    drift = compare(before, repo, **kwargs)
    assert drift.created == [".git/hooks/pre-commit"]
    assert drift.protected == {".git/hooks/pre-commit"}
