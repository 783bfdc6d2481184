"""The compiled policy cache: keyed by content, self-healing, and the reason the gate needs
neither PyYAML nor pathspec on its hot path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gatekit import REPO, claude_payload, gate, paw_state_dir, root, select

from paw_tui.core.policy.compiled import Policy, load_policy
from paw_tui.core.workspace.layout import POLICY_CACHE

HOT_PATH_FORBIDDEN = {"yaml", "pathspec", "textual", "rich", "mcp", "platformdirs"}


def test_the_cache_is_written_and_used(root: Path) -> None:
    first = load_policy(str(root))
    cache = root / POLICY_CACHE
    assert cache.is_file()
    data = json.loads(cache.read_text())
    assert data["key"] == first.key
    second = load_policy(str(root))
    assert [i.to_dict() for i in second.intents] == [i.to_dict() for i in first.intents]


def test_a_same_size_edit_changes_the_key(root: Path) -> None:
    path = root / ".orchestration" / "active_intents.yaml"
    before = load_policy(str(root))
    text = path.read_text()
    stat = path.stat()
    edited = text.replace("status: PENDING", "status: BLOCKED", 1)
    assert len(edited) == len(text)
    path.write_text(edited)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    after = load_policy(str(root))
    assert after.key != before.key
    statuses = {i.id: i.status for i in after.intents}
    assert "BLOCKED" in statuses.values()
    assert statuses != {i.id: i.status for i in before.intents}


def test_a_cache_from_another_compiler_version_is_rebuilt_not_trusted(root: Path) -> None:
    load_policy(str(root))
    cache = root / POLICY_CACHE
    data = json.loads(cache.read_text())
    first = next(iter(data["scopes"]))
    data["scopes"][first]["entries"][0] = {"pattern": "x"}  # what an older format might hold
    cache.write_text(json.dumps(data))
    select(root, "s1", "INT-001")
    result = gate(
        claude_payload(
            "pre_tool_use_write",
            root,
            session="s1",
            replace_input={"file_path": str(root / "src/auth/a.py"), "content": "x"},
        )
    )
    assert result.code == 0, result.out
    assert json.loads(cache.read_text())["scopes"][first]["entries"][0] != {"pattern": "x"}


def test_a_torn_cache_is_rebuilt(root: Path) -> None:
    load_policy(str(root))
    cache = root / POLICY_CACHE
    cache.write_bytes(cache.read_bytes()[:40])
    assert load_policy(str(root)).valid
    json.loads(cache.read_text())  # rewritten whole


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_intents_file_does_not_hang_the_gate(root: Path) -> None:
    path = root / ".orchestration" / "active_intents.yaml"
    path.unlink()
    os.mkfifo(path)
    done: list[Policy] = []
    worker = threading.Thread(target=lambda: done.append(load_policy(str(root))), daemon=True)
    worker.start()
    worker.join(timeout=30)  # generous: a hang would block forever
    assert done, "load_policy blocked on a FIFO"
    policy = done[0]
    assert not policy.valid
    assert "not a regular file" in policy.problems[0]


def test_the_gate_hot_path_imports_only_the_standard_library(root: Path) -> None:
    select(root, "s1", "INT-001")  # warms the policy cache
    payload = claude_payload(
        "pre_tool_use_write",
        root,
        session="s1",
        replace_input={"file_path": str(root / "src/auth/a.py"), "content": "x"},
    )
    code = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        "from paw_tui.gate.main import decide_payload\n"
        f"answer = decide_payload({json.dumps(json.dumps(payload))}.encode())\n"
        "assert answer.exit_code == 0, answer.stdout\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before})))\n"
    )
    env = dict(os.environ, PYTHONPATH=REPO, CLAUDE_PROJECT_DIR=str(root))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(root)
    )
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert "paw_tui" in loaded
    assert not loaded & HOT_PATH_FORBIDDEN, sorted(loaded & HOT_PATH_FORBIDDEN)
    # nor the heavier standard-library modules the start-up budget rules out
    assert not loaded & {
        "typing",
        "dataclasses",
        "pathlib",
        "hashlib",
        "argparse",
        "tempfile",
        "re",
        "json",
    }


def test_mkdir_of_an_owned_directory_is_allowed(root: Path) -> None:
    from gatekit import bash_payload

    select(root, "s1", "INT-001")
    allowed = gate(bash_payload(root, "mkdir -p tests/auth/fixtures", session="s1"))
    assert allowed.code == 0, allowed.out
    denied = gate(bash_payload(root, "mkdir -p tests/other", session="s1"))
    assert denied.code == 2


def test_a_handshake_on_broken_state_is_one_selection_refused_record(root: Path) -> None:
    from gatekit import records

    (root / ".orchestration" / "active_intents.yaml").write_text("active_intents: [\n")
    result = gate(
        claude_payload(
            "pre_tool_use_select_active_intent",
            root,
            session="s1",
            replace_input={"intent_id": "INT-001"},
        )
    )
    assert result.code == 2
    written = records(root)
    assert [r["event"] for r in written] == ["selection_refused"]
    assert str(written[0]["reason"]).startswith("Orchestration state unavailable: ")


def test_a_shell_denial_before_selection_records_the_visible_targets(root: Path) -> None:
    from gatekit import bash_payload, records

    result = gate(bash_payload(root, "echo hi > docs/notes.md && rm -rf build", session="s1"))
    assert result.code == 2
    (record,) = records(root)
    assert record["event"] == "tool_denied"
    assert record["paths"] == ["docs/notes.md", "build"]
