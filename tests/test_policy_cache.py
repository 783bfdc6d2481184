"""The compiled policy cache: keyed by content, self-healing, and the reason the gate needs
neither PyYAML nor pathspec on its hot path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from gatekit import REPO, claude_payload, gate, paw_state_dir, root, select, write_payload

from paw_tui.core.policy.compiled import Policy, load_policy, policy_cache_path

HOT_PATH_FORBIDDEN = {"yaml", "pathspec", "textual", "rich", "mcp", "platformdirs"}


def test_the_cache_is_written_and_used(root: Path) -> None:
    first = load_policy(str(root))
    cache = Path(policy_cache_path(str(root)))
    assert cache.is_file()
    data = json.loads(cache.read_text())  # one JSON document, read in parts by the gate
    assert data["header"]["key"] == first.key
    assert [record["id"] for record in data["intents"]] == [i.id for i in first.intents]
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


def test_a_signed_cache_holding_a_scope_from_another_compiler_is_rebuilt(root: Path) -> None:
    """A record that passes every check but whose compiled scope this version cannot read
    (what another scope compiler could leave): the gate compiles the YAML, never denies
    everything or allows more."""
    from paw_tui.core.policy.cache_file import encode
    from paw_tui.core.workspace.secret import load_key

    policy = load_policy(str(root))
    records = policy.cache_records()
    for _id, _status, _name, record in records:
        record["scope"] = {"format": 1, "entries": [{"pattern": "x"}]}
    header = policy.cache_header()
    signer = load_key(str(root))
    assert signer is not None
    (Path(policy_cache_path(str(root)))).write_bytes(encode(header, records, signer))
    select(root, "s1", "INT-001")
    allowed = gate(write_payload(root, "src/auth/a.py", session="s1"))
    assert allowed.code == 0, allowed.out
    denied = gate(write_payload(root, "docs/a.md", session="s1"))
    assert denied.code == 2 and str(denied.reason).startswith("Scope Violation: INT-001")
    rewritten = json.loads((Path(policy_cache_path(str(root)))).read_text())["intents"][0]["scope"]
    assert rewritten["entries"][0]["pattern"] == "src/auth/**"  # compiled again


def test_a_torn_cache_is_rebuilt(root: Path) -> None:
    load_policy(str(root))
    cache = Path(policy_cache_path(str(root)))
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


# -- the cache's parts are each checked: an edit anywhere never widens a scope ----------------


def widened(root: Path, edit: Callable[[bytes], bytes]) -> None:
    """INT-001 is held; ``edit`` rewrites the cache bytes; out-of-scope writes stay denied."""
    select(root, "s1", "INT-001")
    cache = Path(policy_cache_path(str(root)))
    cache.write_bytes(edit(cache.read_bytes()))
    denied = gate(write_payload(root, "docs/x.md", session="s1"))
    assert denied.code == 2 and str(denied.reason).startswith("Scope Violation: INT-001"), (
        denied.out
    )
    assert gate(write_payload(root, "src/auth/a.py", session="s1")).code == 0


def own_scope_record(data: bytes, intent_id: str) -> tuple[int, int]:
    """Where INT-001's record starts and ends in the cache bytes."""
    start = data.index(b'{"id":"' + intent_id.encode() + b'"')
    return start, data.index(b"\n", start)


def test_an_edited_record_is_not_trusted(root: Path) -> None:
    def edit(data: bytes) -> bytes:
        start, end = own_scope_record(data, "INT-001")
        # same length; matched as "starts with docs/x.md" were it trusted
        record = data[start:end].replace(b'"literal":"src/auth/"', b'"literal":"docs/x.md"')
        assert record != data[start:end]
        return data[:start] + record + data[end:]

    widened(root, edit)


def test_an_index_line_pointing_at_another_record_is_not_trusted(root: Path) -> None:
    """INT-001's index line rewritten to point at INT-006's record (``**``)."""

    def edit(data: bytes) -> bytes:
        header_end = data.index(b'","intents":[') if b'","intents":[' in data else len(data)
        index = data[: header_end + 1]
        lines = {line.split(b" ")[0]: line for line in index.split(b",") if b" " in line}
        own, other = lines[b"INT-001"], lines[b"INT-006"]
        fields = other.split(b" ")
        forged = b" ".join([b"INT-001", fields[1], *fields[2:]])
        return data.replace(own, forged, 1)

    widened(root, edit)


def test_a_cache_signed_for_an_older_yaml_is_not_trusted(root: Path) -> None:
    """A genuine cache from when INT-001 owned ``**``, put back after the YAML narrowed it."""
    path = root / ".orchestration" / "active_intents.yaml"
    narrow = path.read_text()
    path.write_text(
        narrow.replace('owned_scope: ["src/auth/**"', 'owned_scope: ["**", "src/auth/**"', 1)
    )
    load_policy(str(root))
    old = (Path(policy_cache_path(str(root)))).read_bytes()
    path.write_text(narrow)
    widened(root, lambda _data: old)


def test_a_header_without_the_protected_patterns_is_not_trusted(root: Path) -> None:
    (root / ".orchestration" / "governance.yaml").write_text('protected: ["secrets/**"]\n')
    select(root, "s1", "INT-006")
    cache = Path(policy_cache_path(str(root)))
    cache.write_bytes(cache.read_bytes().replace(b'"secrets/**"', b'"nothing/**"'))
    denied = gate(write_payload(root, "secrets/key.pem", session="s1"))
    assert denied.code == 2 and "protected" in str(denied.reason), denied.out


def test_quiet_files_are_not_read_again_and_an_edit_is_still_seen(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stamps stand for content only once a file has been quiet: with the quiet period at
    zero, the second load reads neither YAML file; a same-size edit with the old mtime
    restored changes the ctime, so the third load reads and compiles it."""
    from paw_tui.core.policy import compiled, sources

    monkeypatch.setattr(sources, "RACY_NS", 0)
    path = root / ".orchestration" / "active_intents.yaml"
    load_policy(str(root))
    reads = compiled.COUNTS[compiled.READS]
    again = load_policy(str(root))
    assert compiled.COUNTS[compiled.READS] == reads  # the stamps vouched for both files
    assert again.intent("INT-001") is not None
    info = path.stat()
    path.write_text(path.read_text().replace("status: PENDING", "status: BLOCKED", 1))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = load_policy(str(root))
    assert compiled.COUNTS[compiled.READS] == reads + 1
    assert after.key != again.key
    intent = after.intent("INT-002")
    assert intent is not None and intent.status == "BLOCKED"


def test_a_cache_made_while_the_file_was_changing_carries_no_stamps(root: Path) -> None:
    load_policy(str(root))  # the file was written a moment ago: not quiet yet
    assert json.loads((Path(policy_cache_path(str(root)))).read_text())["header"]["stamps"] is None


def test_an_edited_list_of_selectable_intents_is_not_trusted(root: Path) -> None:
    """The index part a denial lists intents from: renaming one there changes nothing."""
    load_policy(str(root))
    cache = Path(policy_cache_path(str(root)))
    name = "Documentation Refresh".encode().hex().encode()
    data = cache.read_bytes()
    assert name in data
    cache.write_bytes(data.replace(name, "Take everything".encode().hex().encode(), 1))
    denied = gate(write_payload(root, "src/auth/a.py", session="s9"))
    assert denied.code == 2
    assert "INT-002 (Documentation Refresh)" in str(denied.reason)
    assert "Take everything" not in str(denied.reason)
