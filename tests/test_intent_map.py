"""``intent_map.md`` is rebuilt after every mutation at the same cost with 5 and 2,000 intents
(DESIGN §10), counted, never timed: intent records read from the policy cache
(``compiled.COUNTS``), skeletons built (``map_skeleton.COUNTS``) and files hashed
(``hash_memo.COUNTS``); and what it says is byte for byte what a full render from the policy
says."""

from __future__ import annotations

import marshal
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from gatekit import (
    claude_payload,
    gate,
    many_intents_yaml,
    paw_state_dir,
    select_payload,
    write_workspace,
)

from paw_tui.core.intents import map_skeleton
from paw_tui.core.intents.intent_map import (
    HASHES_FILE,
    SKELETON_FILE,
    STATE_SUBDIR,
    render_intent_map,
)
from paw_tui.core.ledger import hash_memo
from paw_tui.core.ledger.touched import touched_files
from paw_tui.core.policy import compiled
from paw_tui.core.workspace.state import WorkspaceState
from paw_tui.core.workspace.statedir import workspace_state_dir

__all__ = ["paw_state_dir"]

HELD = ("INT-0001", "INT-0002", "INT-0006")  # IN_PROGRESS or PENDING: selectable


def full_render(root: Path) -> str:
    """The map as rendered before the skeleton and the memo: every intent from the policy,
    every touched file hashed (the reference a cached render must equal byte for byte)."""
    state = WorkspaceState(str(root))
    parts = [map_skeleton.HEADER]
    for intent in state.policy.intents:
        parts.append(map_skeleton.section_head(intent))
        touched = [entry.to_dict() for entry in touched_files(state.ledger, intent.id)]
        if not touched:
            parts.append("\nNo files touched yet.\n")
            continue
        parts.append("\n| file | last recorded hash | changed since |\n|---|---|---|\n")
        for entry in touched:
            digest = str(entry.get("content_hash") or "")
            short = digest.split(":", 1)[-1][:12] if digest else "(none)"
            since = "yes" if entry["changed"] else "no"
            parts.append(f"| `{entry['path']}` | `{short}` | {since} |\n")
    return "".join(parts)


def mutate(root: Path, intent_id: str, name: str, content: str) -> None:
    """Write ``src/f<n>/<name>`` for ``intent_id`` and send the PostToolUse that records it."""
    path = root / "src" / f"f{int(intent_id[4:])}" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    payload = claude_payload(
        "post_tool_use_write",
        root,
        session=f"s-{intent_id}",
        tool_input={"file_path": str(path), "content": content},
    )
    assert gate(payload).code == 0


def workspace(base: Path, count: int) -> Path:
    """``count`` intents, three of which touched two files each."""
    root = write_workspace(base / f"ws{count}", many_intents_yaml(count))
    (root / ".git").mkdir()
    held = HELD if count >= 6 else HELD[:2]
    for intent_id in held:
        assert gate(select_payload(root, intent_id, session=f"s-{intent_id}")).code == 0
        mutate(root, intent_id, "a.py", f"a {intent_id}\n")
        mutate(root, intent_id, "b.py", f"b {intent_id}\n")
    return root


def renderer(root: Path) -> Callable[[], str]:
    """A render as a new gate process makes it (a fresh state: no intent in memory)."""
    return lambda: render_intent_map(WorkspaceState(str(root)))


def map_text(root: Path) -> str:
    return (root / ".orchestration" / "intent_map.md").read_text(encoding="utf-8")


def state_file(root: Path, name: str) -> Path:
    return Path(workspace_state_dir(str(root))) / STATE_SUBDIR / name


def counted(action: Callable[[], object]) -> dict[str, int]:
    """What ``action()`` cost: records read, skeletons built, files hashed."""
    counters = {
        "records": (compiled.COUNTS, compiled.RECORDS),
        "builds": (map_skeleton.COUNTS, map_skeleton.BUILDS),
        "hashes": (hash_memo.COUNTS, hash_memo.HASHES),
    }
    before = {name: counts[key] for name, (counts, key) in counters.items()}
    action()
    return {name: counts[key] - before[name] for name, (counts, key) in counters.items()}


@pytest.fixture
def quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as written long before it is hashed (outside the racy window), as
    the files of a real project's history are; tests must not sleep for it."""
    monkeypatch.setattr(hash_memo, "RACY_NS", -60 * 10**9)


def test_a_mutation_rebuilds_the_map_without_reading_intent_records(
    tmp_path: Path, quiet: None
) -> None:
    small, large = workspace(tmp_path, 5), workspace(tmp_path, 2000)
    by_size = {
        root: counted(partial(mutate, root, "INT-0001", "a.py", "changed\n"))
        for root in (small, large)
    }
    assert by_size[large] == by_size[small]
    assert by_size[large]["records"] <= 1  # the held intent's, at most, as any call
    assert by_size[large]["builds"] == 0
    # the render itself, as a fresh process makes it: no record, one file hashed
    (large / "src" / "f2" / "b.py").write_text("edited by hand\n", encoding="utf-8")
    rendered: list[str] = []
    work = counted(lambda: rendered.append(render_intent_map(WorkspaceState(str(large)))))
    assert work == {"records": 0, "builds": 0, "hashes": 1}
    assert rendered[0] == full_render(large)
    assert "## INT-2000: Feature 2000\n" in rendered[0]


def test_only_a_changed_file_is_hashed_again(tmp_path: Path, quiet: None) -> None:
    root = workspace(tmp_path, 10)
    render = renderer(root)
    assert counted(render)["hashes"] == 0  # all six vouched for by the last mutation's render
    (root / "src" / "f6" / "a.py").write_text("longer than it was\n", encoding="utf-8")
    assert counted(render)["hashes"] == 1
    assert counted(render)["hashes"] == 0
    (root / "src" / "f2" / "b.py").unlink()
    assert counted(render)["hashes"] == 0  # gone: nothing to hash
    assert render() == full_render(root)
    rows = [line for line in render().splitlines() if line.startswith("| `src/")]
    assert sorted(rows) == sorted(
        [
            f"| `src/f{n}/{name}.py` | `{short}` | {since} |"
            for n, name, short, since in [
                (1, "a", short_hash("a INT-0001\n"), "no"),
                (1, "b", short_hash("b INT-0001\n"), "no"),
                (2, "a", short_hash("a INT-0002\n"), "no"),
                (2, "b", short_hash("b INT-0002\n"), "yes"),
                (6, "a", short_hash("a INT-0006\n"), "yes"),
                (6, "b", short_hash("b INT-0006\n"), "no"),
            ]
        ]
    )


def short_hash(content: str) -> str:
    import hashlib

    return hashlib.sha256(content.encode()).hexdigest()[:12]


def test_a_file_written_within_the_racy_window_is_hashed_every_time(tmp_path: Path) -> None:
    root = workspace(tmp_path, 10)  # every file written a moment ago
    render = renderer(root)
    assert counted(render)["hashes"] == 6
    assert counted(render)["hashes"] == 6  # its stamp does not stand for its content yet
    assert not state_file(root, HASHES_FILE).exists()


def test_a_stamp_that_moved_is_not_trusted(tmp_path: Path, quiet: None) -> None:
    root = workspace(tmp_path, 10)
    target = root / "src" / "f1" / "a.py"
    info = target.stat()
    while target.stat().st_ctime_ns == info.st_ctime_ns:  # file times tick in jiffies
        time.sleep(0.005)
        target.write_text("b INT-0001\n", encoding="utf-8")  # the same size
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))  # and the same mtime
    assert target.stat().st_size == info.st_size
    text = render_intent_map(WorkspaceState(str(root)))
    recorded = short_hash("a INT-0001\n")
    assert f"| `src/f1/a.py` | `{recorded}` | yes |" in text  # its ctime moved


def test_a_policy_edit_renders_the_policy_again(tmp_path: Path, quiet: None) -> None:
    root = workspace(tmp_path, 2000)
    (root / ".orchestration" / "active_intents.yaml").write_text(many_intents_yaml(2000, renamed=7))
    work = counted(lambda: mutate(root, "INT-0001", "a.py", "again\n"))
    assert work["builds"] == 1
    assert "## INT-0007: Renamed\n" in map_text(root)
    assert map_text(root) == full_render(root)
    work = counted(lambda: mutate(root, "INT-0001", "a.py", "once more\n"))
    assert work["builds"] == 0 and work["records"] <= 1


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not marshal data",
        marshal.dumps(("paw-intent-map-skeleton", 1, "another key", "x", "")),
        "table",  # the right key, a table that points elsewhere
        "truncated",
    ],
    ids=["empty", "garbage", "another key", "table", "truncated"],
)
def test_a_damaged_skeleton_is_ignored(tmp_path: Path, quiet: None, damage: bytes | str) -> None:
    root = workspace(tmp_path, 50)
    path = state_file(root, SKELETON_FILE)
    if damage == "table":
        magic, version, key, text, table = marshal.loads(path.read_bytes())
        lines = [line.split(" ") for line in table.splitlines()]
        # every offset one past its "No files touched yet."
        table = "".join(f"{name} {int(at) + 1} {iid}\n" for name, at, iid in lines)
        path.write_bytes(marshal.dumps((magic, version, key, text, table)))
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:-100])
    else:
        assert isinstance(damage, bytes)
        path.write_bytes(damage)
    work = counted(lambda: mutate(root, "INT-0002", "c.py", "new\n"))
    assert work["builds"] == 1
    assert map_text(root) == full_render(root)
    assert counted(lambda: mutate(root, "INT-0002", "c.py", "newer\n"))["builds"] == 0


def test_a_damaged_memo_means_hashing_again(tmp_path: Path, quiet: None) -> None:
    root = workspace(tmp_path, 10)
    state_file(root, HASHES_FILE).write_bytes(b"\x00garbage")
    render = renderer(root)
    assert counted(render)["hashes"] == 6
    assert counted(render)["hashes"] == 0
    assert render() == full_render(root)


def test_the_map_equals_a_full_render_at_every_step(tmp_path: Path, quiet: None) -> None:
    root = workspace(tmp_path, 2000)
    assert map_text(root) == full_render(root)
    (root / "src" / "f6" / "b.py").write_text("by hand\n", encoding="utf-8")
    mutate(root, "INT-0002", "c.py", "third\n")
    assert map_text(root) == full_render(root)
    assert map_text(root).count("No files touched yet.") == 2000 - 3


def test_without_a_state_directory_the_map_is_rendered_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = workspace(tmp_path, 10)
    from paw_tui.core.workspace import statedir

    def no_home(*_args: object, **_kwargs: object) -> str:
        raise OSError("cannot find the home directory")

    monkeypatch.setattr(statedir, "workspace_state_dir", no_home)
    work = counted(lambda: render_intent_map(WorkspaceState(str(root))))
    assert work["builds"] == 1 and work["hashes"] == 0  # hashed by file_sha256, uncounted
    assert render_intent_map(WorkspaceState(str(root))) == full_render(root)


def test_the_skeleton_finds_every_intent_by_its_index_file() -> None:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.ledger.touched import safe_name

    unique = [
        Intent.from_dict({"id": f"I-{n}", "name": f"n{n}", "status": "PENDING"})
        for n in [*range(300), 3000]
    ]

    class FakePolicy:
        def __init__(self, intents: list[Intent]) -> None:
            self.intents = intents

    skeleton = map_skeleton.build(FakePolicy(unique))  # type: ignore[arg-type]
    names = [safe_name(intent.id) for intent in reversed(unique)] + ["_index.json", "zz.jsonl"]
    places = skeleton.places(names)
    assert places is not None
    assert [intent_id for _offset, intent_id in places] == [intent.id for intent in unique]
    assert all(skeleton.text.startswith(map_skeleton.NO_FILES, at) for at, _id in places)
    assert skeleton.places([]) == []
