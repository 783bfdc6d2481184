"""The content store of drift snapshots: protected contents kept once, by hash, beside them.

Counted, never timed: :data:`paw_tui.core.confine.drift_store.COUNTS` says how many protected
files a snapshot read and how many bytes it wrote to the store.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw_tui.core.confine import drift_fs, drift_store
from paw_tui.core.confine.drift import Snapshot, compare, restore, take_snapshot
from paw_tui.core.confine.drift_store import INDEX_WRITES, READS, WRITTEN

INTENTS = ".orchestration/active_intents.yaml"
SETTINGS = ".claude/settings.json"
PROTECTED = {INTENTS, SETTINGS, ".git/config"}
BIG = b"".join(b"  - id: INT-%04d\n    owned_scope: [src/f%d/**]\n" % (n, n) for n in range(20000))
OLD_NS = 1_600_000_000_000_000_000


def restorable(path: str) -> bool:
    return path in PROTECTED


def skip_dirs(path: str) -> bool:
    return path in (".git", ".orchestration")


CALLABLES = {
    "in_scope": lambda path: path == "src" or path.startswith("src/"),
    "restorable": restorable,
    "skip_dirs": skip_dirs,
}


def write(root: str, rel: str, content: bytes) -> str:
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content)
    return path


def read(root: str, rel: str) -> bytes:
    with open(os.path.join(root, rel), "rb") as handle:
        return handle.read()


@pytest.fixture
def ws(tmp_path: Path) -> str:
    root = str(tmp_path / "ws")
    write(root, INTENTS, BIG)
    write(root, SETTINGS, b'{"hooks": {}}\n')
    write(root, ".git/config", b"[core]\n")
    write(root, "src/app.py", b"x = 1\n")
    return root


@pytest.fixture
def store(tmp_path: Path) -> str:
    return str(tmp_path / "state" / "drift" / "store")


@pytest.fixture(autouse=True)
def counts() -> Iterator[dict[str, int]]:
    saved = dict(drift_store.COUNTS)
    for key in drift_store.COUNTS:
        drift_store.COUNTS[key] = 0
    yield drift_store.COUNTS
    drift_store.COUNTS.update(saved)


def snap(root: str, store: str, racy_ns: int = 0, limit: int = 1 << 20) -> Snapshot:
    """A snapshot; ``racy_ns=0``: every file counts as quiet (written before the walk)."""
    return take_snapshot(
        root,
        **CALLABLES,  # type: ignore[arg-type]
        pinned=(INTENTS, ".git/config"),
        store=store,
        racy_ns=racy_ns,
        max_restore_bytes=limit,
    )


def zero(counts: dict[str, int]) -> None:
    for key in counts:
        counts[key] = 0


def test_a_second_snapshot_does_not_read_or_copy_the_protected_files(
    ws: str, store: str, counts: dict[str, int], tmp_path: Path
) -> None:
    first = snap(ws, store)
    assert counts[READS] == len(PROTECTED)
    assert counts[WRITTEN] == len(BIG) + len(b'{"hooks": {}}\n') + len(b"[core]\n")
    assert counts[INDEX_WRITES] == 1
    zero(counts)
    second = snap(ws, store)
    assert counts == {READS: 0, WRITTEN: 0, INDEX_WRITES: 0}
    for before in (first, second):
        flags, _, data = before.extras[INTENTS]
        assert flags & drift_fs.STORED and type(data) is str and data.startswith("sha256:")
    # the snapshot file holds hashes, not the 1 MiB intents file
    path = str(tmp_path / "state" / "drift" / "s.snap")
    second.dump(path)
    assert len(BIG) > 900_000 and os.path.getsize(path) < 16_384
    loaded = Snapshot.load(path, strict=True)
    assert loaded is not None and loaded.store == store


def test_rewrite_is_restored_byte_identical_from_the_store(
    ws: str, store: str, counts: dict[str, int]
) -> None:
    snap(ws, store)
    zero(counts)
    before = snap(ws, store)
    write(ws, INTENTS, BIG.replace(b"INT-0001", b"INT-9999"))  # same size
    write(ws, SETTINGS, b"{}")
    drift = compare(before, ws, **CALLABLES)
    assert drift.modified == [SETTINGS, INTENTS] and drift.protected == {SETTINGS, INTENTS}
    done = restore(before, drift, ws)
    assert sorted(done.restored) == [SETTINGS, INTENTS] and done.failed == []
    assert read(ws, INTENTS) == BIG and read(ws, SETTINGS) == b'{"hooks": {}}\n'
    assert not compare(before, ws, **CALLABLES)
    assert counts[WRITTEN] == 0  # restoring copies out of the store, never into it


def test_deleted_protected_file_is_restored(ws: str, store: str) -> None:
    before = snap(ws, store)
    os.unlink(os.path.join(ws, INTENTS))
    drift = compare(before, ws, **CALLABLES)
    assert drift.deleted == [INTENTS]
    assert restore(before, drift, ws).restored == [INTENTS]
    assert read(ws, INTENTS) == BIG


def test_a_changed_stamp_is_read_again_even_with_the_mtime_put_back(
    ws: str, store: str, counts: dict[str, int]
) -> None:
    """ctime moves with any write and cannot be set back: size and mtime are not enough."""
    path = os.path.join(ws, SETTINGS)
    os.utime(path, ns=(OLD_NS, OLD_NS))
    snap(ws, store)
    zero(counts)
    write(ws, SETTINGS, b'{"hooks": []}\n')  # same size
    os.utime(path, ns=(OLD_NS, OLD_NS))
    before = snap(ws, store)
    assert counts[READS] == 1 and counts[WRITTEN] == len(b'{"hooks": []}\n')
    write(ws, SETTINGS, b"evil")
    drift = compare(before, ws, **CALLABLES)
    restore(before, drift, ws)
    assert read(ws, SETTINGS) == b'{"hooks": []}\n'


def test_a_racy_file_is_read_every_time_and_hashed_on_compare(
    ws: str, store: str, counts: dict[str, int]
) -> None:
    """Written within the racy window: its stamp may not change with a write in the same
    clock tick, so the index never vouches for it and the comparison hashes it."""
    snap(ws, store, racy_ns=60_000_000_000)
    zero(counts)
    before = snap(ws, store, racy_ns=60_000_000_000)
    assert counts[READS] == len(PROTECTED) and counts[WRITTEN] == 0
    flags = before.extras[SETTINGS][0]
    assert flags & drift_fs.RACY and flags & drift_fs.STORED
    # a same-size rewrite that keeps every field of the stamp (as within one clock tick)
    path = os.path.join(ws, SETTINGS)
    st = os.lstat(path)
    rec = before.record(SETTINGS)
    assert rec is not None
    with open(path, "r+b") as handle:
        handle.write(b'{"hooks": 1}\n ')
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    fake = (rec[0], rec[1], rec[2], os.lstat(path).st_ctime_ns, rec[4])
    parent = before.dirs[".claude"]
    assert parent[4] is not None
    parent[4][os.path.basename(SETTINGS)] = fake  # as if the ctime had not moved either
    drift = compare(before, ws, **CALLABLES)
    assert drift.modified == [SETTINGS] and drift.reasons[SETTINGS] == "content"
    restore(before, drift, ws)
    assert read(ws, SETTINGS) == b'{"hooks": {}}\n'


def test_tampered_or_missing_copy_is_never_restored(ws: str, store: str) -> None:
    before = snap(ws, store)
    digest = before.extras[SETTINGS][2]
    assert type(digest) is str
    blob = os.path.join(store, digest.split(":", 1)[1])
    os.chmod(blob, 0o600)
    with open(blob, "wb") as handle:
        handle.write(b'{"hooks": {"evil": 1}}')
    write(ws, SETTINGS, b"changed")
    drift = compare(before, ws, **CALLABLES)
    done = restore(before, drift, ws)
    assert done.restored == [] and len(done.failed) == 1
    assert "missing or damaged" in done.failed[0][1]
    assert read(ws, SETTINGS) == b"changed"
    os.unlink(blob)
    assert restore(before, drift, ws).failed[0][0] == SETTINGS


def test_a_lost_copy_is_made_again(ws: str, store: str, counts: dict[str, int]) -> None:
    before = snap(ws, store)
    digest = before.extras[INTENTS][2]
    assert type(digest) is str
    os.unlink(os.path.join(store, digest.split(":", 1)[1]))
    zero(counts)
    again = snap(ws, store)
    assert counts[READS] == 1 and counts[WRITTEN] == len(BIG)
    assert drift_store.fetch(store, digest) == BIG
    assert again.extras[INTENTS][2] == digest


def test_oversized_protected_file_keeps_its_hash_only(ws: str, store: str) -> None:
    before = snap(ws, store, limit=1024)
    flags, _, data = before.extras[INTENTS]
    assert not flags & drift_fs.STORED and type(data) is str
    assert drift_store.fetch(store, data) is None
    write(ws, INTENTS, b"short")
    drift = compare(before, ws, **CALLABLES)
    assert drift.reasons[INTENTS] == "content"
    assert "only its hash was kept" in restore(before, drift, ws).failed[0][1]


def test_unwritable_store_falls_back_to_inline_content(
    ws: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(drift_store.ContentStore, "put", refuse)
    before = snap(ws, str(tmp_path / "nowhere"))
    assert before.extras[SETTINGS][2] == b'{"hooks": {}}\n'
    write(ws, SETTINGS, b"x")
    drift = compare(before, ws, **CALLABLES)
    assert restore(before, drift, ws).restored == [SETTINGS]
    assert read(ws, SETTINGS) == b'{"hooks": {}}\n'


def test_retired_copies_are_kept_then_pruned(ws: str, store: str) -> None:
    first = snap(ws, store)
    old = first.extras[SETTINGS][2]
    assert type(old) is str
    old_blob = os.path.join(store, old.split(":", 1)[1])
    os.utime(old_blob, ns=(OLD_NS, OLD_NS))
    stray = os.path.join(store, "0" * 64)
    with open(stray, "wb") as handle:
        handle.write(b"from long ago")
    os.utime(stray, ns=(OLD_NS, OLD_NS))
    write(ws, SETTINGS, b"{}\n")
    snap(ws, store)  # the index changes: the old copy is retired (kept), the stray removed
    assert os.path.exists(old_blob) and not os.path.exists(stray)
    assert drift_store.fetch(store, old) == b'{"hooks": {}}\n'  # a pending snapshot's copy
    os.utime(old_blob, ns=(OLD_NS, OLD_NS))
    write(ws, SETTINGS, b"{ }\n")
    snap(ws, store)
    assert not os.path.exists(old_blob)


def test_corrupt_index_is_ignored(ws: str, store: str, counts: dict[str, int]) -> None:
    snap(ws, store)
    with open(os.path.join(store, drift_store.INDEX), "wb") as handle:
        handle.write(b"\x00garbage")
    zero(counts)
    before = snap(ws, store)
    assert counts[READS] == len(PROTECTED) and counts[WRITTEN] == 0
    assert counts[INDEX_WRITES] == 1
    assert before.extras[INTENTS][0] & drift_fs.STORED


def test_old_snapshot_format_is_refused(tmp_path: Path) -> None:
    import marshal

    path = str(tmp_path / "old.snap")
    with open(path, "wb") as handle:
        handle.write(marshal.dumps(("paw-drift", 1, "/", "", 0, 0, 0, {}, {}, {}, [], ())))
    assert Snapshot.load(path) is None
    with pytest.raises(ValueError, match="format 1"):
        Snapshot.load(path, strict=True)
