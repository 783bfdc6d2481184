"""The per-intent index of touched files under ``.orchestration/.cache/intents/``."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from paw_tui.core.ledger import touched as ledger_index
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.touched import rebuild_index, touched_files


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    return Ledger.for_workspace(str(root), durable=False)


def write(ledger: Ledger, relpath: str, text: str) -> str:
    path = os.path.join(ledger.workspace_root, relpath)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def mutation(
    ledger: Ledger, intent: str, relpath: str, text: str, **extra: object
) -> dict[str, object]:
    content_hash = write(ledger, relpath, text)
    record: dict[str, object] = {"event": "mutation", "session_id": "s", "intent_id": intent, "tool": "Write",
              "paths": [relpath], "content_hash": content_hash,
              "ranges": [{"start_line": 1, "end_line": text.count("\n") or 1}]}  # fmt: skip
    record.update(extra)
    return ledger.append(record)


def snapshot(ledger: Ledger) -> dict[str, object]:
    """Every intent's index, folded (the incremental files are logs, rebuilt ones compact)."""
    directory = ledger_index.index_dir(ledger)
    names = sorted(name for name in os.listdir(directory) if name.endswith(ledger_index.SUFFIX))
    return {name: ledger_index._read(os.path.join(directory, name)) for name in names}


def must_load(ledger: Ledger, intent: str) -> dict[str, object]:
    """The stored index of ``intent`` (which must exist)."""
    index = ledger_index.load_index(ledger, intent)
    assert index is not None
    return index


def files_of(index: dict[str, object]) -> dict[str, dict[str, object]]:
    """The ``files`` map of a loaded index: path -> what the index knows of it."""
    files = index["files"]
    assert isinstance(files, dict)
    return files


def populate(ledger: Ledger) -> None:
    mutation(ledger, "INT-001", "src/a.py", "a = 1\n")
    ledger.append(
        {"event": "tool_denied", "intent_id": "INT-001", "paths": ["x"], "decision": "deny"}
    )
    mutation(ledger, "INT-002", "src/b.py", "b = 1\n")
    mutation(ledger, "INT-001", "src/a.py", "a = 2\n")
    mutation(ledger, "INT-001", "src/c.py", "c = 1\n")
    mutation(ledger, "INT:odd/id", "docs/d.md", "# d\n")
    ledger.append({"event": "mutation", "intent_id": "INT-002", "tool": "Bash", "paths": ["m1", "m2"],
                   "content_hash": "sha256:" + "0" * 64})  # fmt: skip
    ledger.append({"event": "mutation", "tool": "Write", "paths": ["no-intent.py"]})


def test_incremental_index_equals_a_rebuild(ledger: Ledger) -> None:
    populate(ledger)
    incremental = snapshot(ledger)
    assert ledger_index.index_status(ledger) == "complete"
    shutil.rmtree(ledger_index.index_dir(ledger))
    assert ledger_index.index_status(ledger) == "absent"
    assert rebuild_index(ledger) == 3
    assert snapshot(ledger) == incremental and len(incremental) == 3
    index = ledger_index.load_index(ledger, "INT-001")
    assert index is not None
    assert sorted(files_of(index)) == ["src/a.py", "src/c.py"]
    assert files_of(index)["src/a.py"]["seq"] == 4
    multi = files_of(must_load(ledger, "INT-002"))
    assert "content_hash" not in multi["m1"], "a hash shared by several paths is no file's hash"


def test_touched_files_reports_unchanged_changed_deleted_and_unknown(ledger: Ledger) -> None:
    populate(ledger)
    touched = {item.path: item for item in touched_files(ledger, "INT-001")}
    assert {path: item.status for path, item in touched.items()} == {
        "src/a.py": "unchanged",
        "src/c.py": "unchanged",
    }
    assert touched["src/a.py"].content_hash == "sha256:" + hashlib.sha256(b"a = 2\n").hexdigest()
    write(ledger, "src/a.py", "a = 3\n")
    os.unlink(os.path.join(ledger.workspace_root, "src/c.py"))
    result = touched_files(ledger, "INT-001")
    assert [(item.path, item.status, item.changed) for item in result] == [
        ("src/c.py", "deleted", True),  # newest first
        ("src/a.py", "changed", True),
    ]
    assert result[0].to_dict()["seq"] == 5
    assert [item.path for item in touched_files(ledger, "INT-001", limit=1)] == ["src/c.py"]
    write(ledger, "m1", "exists")
    statuses = {item.path: item.status for item in touched_files(ledger, "INT-002")}
    assert statuses == {"src/b.py": "unchanged", "m1": "unknown", "m2": "deleted"}
    assert touched_files(ledger, "INT-404") == []


def test_index_started_late_is_partial_until_rebuilt(ledger: Ledger) -> None:
    populate(ledger)
    shutil.rmtree(ledger.cache_dir)
    mutation(ledger, "INT-001", "src/e.py", "e\n")
    assert ledger_index.index_status(ledger) == "partial"
    assert [item.path for item in touched_files(ledger, "INT-001")] == ["src/e.py"]
    rebuild_index(ledger)
    assert ledger_index.index_status(ledger) == "complete"
    assert sorted(item.path for item in touched_files(ledger, "INT-001")) == [
        "src/a.py",
        "src/c.py",
        "src/e.py",
    ]


def test_a_new_ledger_starts_a_new_index(ledger: Ledger) -> None:
    populate(ledger)
    os.unlink(ledger.path)
    mutation(ledger, "INT-009", "z.py", "z\n")
    assert touched_files(ledger, "INT-001") == []
    assert [item.path for item in touched_files(ledger, "INT-009")] == ["z.py"]
    assert ledger_index.index_status(ledger) == "complete"


def test_safe_names_are_distinct_and_portable() -> None:
    names = {
        ledger_index.safe_name(i)
        for i in ("INT-001", "int-001", "INT:001", "INT_001", "../x", ".hidden")
    }
    assert len(names) == 6
    for name in names:
        assert name.endswith(ledger_index.SUFFIX) and not name.startswith(".")
        assert all(ch.isalnum() or ch in "._-" for ch in name), name


def test_rebuild_of_a_missing_ledger(ledger: Ledger) -> None:
    assert rebuild_index(ledger) == 0
    assert ledger_index.index_status(ledger) == "complete"


def test_index_log_is_compacted_and_survives_a_torn_entry(ledger: Ledger) -> None:
    for n in range(200):
        mutation(ledger, "INT-001", f"src/{n % 3}.py", f"v{n}\n")
    path = ledger_index.index_path(ledger, "INT-001")
    size = os.path.getsize(path)
    compacted = len(ledger_index._compacted(must_load(ledger, "INT-001")))
    assert size <= 2 * compacted + ledger_index.COMPACT_SLACK + 200
    with open(path, "ab") as handle:
        handle.write(b'{"path":"src/9.py","se')  # a crash mid-append
    mutation(ledger, "INT-001", "src/0.py", "last\n")
    index = must_load(ledger, "INT-001")
    assert sorted(files_of(index)) == ["src/0.py", "src/1.py", "src/2.py"]
    assert index["seq"] == 201 and files_of(index)["src/0.py"]["seq"] == 201
    assert [item.status for item in touched_files(ledger, "INT-001")] == ["unchanged"] * 3
    folded = snapshot(ledger)
    rebuild_index(ledger)
    assert snapshot(ledger) == folded
