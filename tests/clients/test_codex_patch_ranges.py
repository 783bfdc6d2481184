"""The ``ranges`` of a Codex patch's ``mutation`` records (DESIGN §7, issue 19): the lines
each file holds from the patch after the write. An Add File: 1..n; an Update File: the lines
its ``+`` lines occupy in the file as written; and the Agent Trace export attributes them.

The payloads are Codex's own (``tests/data/codex/``, recorded from the real 0.169.0); the
file is written here as Codex would have written it before its PostToolUse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gatekit import gate, paw_state_dir, records, root

__all__ = ["paw_state_dir", "root"]  # fixtures

DATA = Path(__file__).resolve().parent.parent / "data" / "codex"


def codex(name: str, root: Path, **tool_input: object) -> dict[str, Any]:
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text.replace("__ROOT__", json.dumps(str(root))[1:-1]))
    body: dict[str, Any] = data["payload"]
    if tool_input:
        body["tool_input"] = dict(tool_input)
    return body


def apply(root: Path, patch: str, files: dict[str, str]) -> list[dict[str, object]]:
    """Select INT-001, let the patch through PreToolUse, write ``files`` as Codex would, send
    PostToolUse; the mutation records it left."""
    selected = gate(codex("pre_tool_use_mcp_select", root, intent_id="INT-001"), client="codex")
    assert selected.code == 0, selected.err
    before = len(records(root))
    pre = gate(codex("pre_tool_use_apply_patch", root, command=patch), client="codex")
    assert pre.code == 0, pre.out
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    post = gate(codex("post_tool_use_apply_patch", root, command=patch), client="codex")
    assert post.code == 0, post.err
    return [r for r in records(root)[before:] if r["event"] == "mutation"]


def test_an_added_file_is_attributed_whole(root: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Add File: src/auth/jwt.py\n+import jwt\n+\n+KEY = 1\n*** End Patch\n"
    )
    (record,) = apply(root, patch, {"src/auth/jwt.py": "import jwt\n\nKEY = 1\n"})
    assert record["paths"] == ["src/auth/jwt.py"]
    assert record["ranges"] == [{"start_line": 1, "end_line": 3}]


def test_an_update_is_attributed_its_added_lines_where_they_stand_now(root: Path) -> None:
    before = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    (root / "src" / "auth").mkdir(parents=True)
    (root / "src" / "auth" / "m.py").write_text(before, encoding="utf-8")
    patch = (
        "*** Begin Patch\n*** Update File: src/auth/m.py\n"
        "@@ def a():\n-    return 1\n+    x = 1\n+    return x\n"
        "@@ def c():\n-    return 3\n+    return 33\n*** End Patch\n"
    )
    after = before.replace("    return 1\n", "    x = 1\n    return x\n").replace("3\n", "33\n")
    (record,) = apply(root, patch, {"src/auth/m.py": after})
    assert after.splitlines()[1:3] == ["    x = 1", "    return x"]
    assert after.splitlines()[10] == "    return 33"
    assert record["ranges"] == [
        {"start_line": 2, "end_line": 3},
        {"start_line": 11, "end_line": 11},
    ]


def test_each_file_of_a_patch_gets_its_own_ranges_and_a_move_its_target(root: Path) -> None:
    (root / "src" / "auth").mkdir(parents=True)
    (root / "src" / "auth" / "old.py").write_text("a\nb\n", encoding="utf-8")
    (root / "src" / "auth" / "gone.py").write_text("x\n", encoding="utf-8")
    patch = (
        "*** Begin Patch\n*** Add File: src/auth/new.py\n+one\n+two\n"
        "*** Update File: src/auth/old.py\n*** Move to: src/auth/moved.py\n@@\n a\n-b\n+B\n"
        "*** Delete File: src/auth/gone.py\n*** End Patch\n"
    )
    (root / "src" / "auth" / "gone.py").unlink()
    (root / "src" / "auth" / "old.py").unlink()
    written = {"src/auth/new.py": "one\ntwo\n", "src/auth/moved.py": "a\nB\n"}
    found = {r["paths"][0]: r.get("ranges") for r in apply(root, patch, written)}  # type: ignore[index]
    assert found == {
        "src/auth/new.py": [{"start_line": 1, "end_line": 2}],
        "src/auth/old.py": None,  # gone: no lines to attribute
        "src/auth/moved.py": [{"start_line": 2, "end_line": 2}],
        "src/auth/gone.py": None,
    }


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("completely\ndifferent\n", None),  # the file changed again: nothing guessed
        ("b\nNEW\nb\n", [{"start_line": 2, "end_line": 2}]),
    ],
    ids=["not found", "found"],
)
def test_an_update_whose_lines_are_not_in_the_file_has_no_ranges(
    root: Path, written: str, expected: list[dict[str, int]] | None
) -> None:
    (root / "src" / "auth").mkdir(parents=True)
    (root / "src" / "auth" / "f.py").write_text("b\nb\n", encoding="utf-8")
    patch = "*** Begin Patch\n*** Update File: src/auth/f.py\n@@\n b\n+NEW\n*** End Patch\n"
    (record,) = apply(root, patch, {"src/auth/f.py": written})
    assert record.get("ranges") == expected


def test_the_agent_trace_export_attributes_a_patch_s_lines(root: Path, run_cli: Any) -> None:
    patch = "*** Begin Patch\n*** Add File: src/auth/jwt.py\n+import jwt\n+KEY = 1\n*** End Patch\n"
    apply(root, patch, {"src/auth/jwt.py": "import jwt\nKEY = 1\n"})
    done = run_cli("trace", "export", "--format", "agent-trace", "--workspace", str(root))
    assert done.code == 0, done.err
    (exported,) = [json.loads(line) for line in done.out.splitlines() if line.strip()]
    (file,) = exported["files"]
    assert file["path"] == "src/auth/jwt.py"
    (conversation,) = file["conversations"]
    assert conversation["ranges"] == [{"start_line": 1, "end_line": 2}]
    assert exported["metadata"]["dev.paw-tui"]["ranges_known"] is True


def test_a_search_that_would_cost_too_much_leaves_the_ranges_out() -> None:
    """Thousands of chunks hunting a run that is nowhere in a long file of identical lines:
    the search stops at its budget (a hostile patch cannot tie up the hook) and the ranges are
    unknown, not guessed."""
    from paw_tui.gate.patch_ranges import BUDGET, patch_ranges

    run = " x\n" * 40 + "+y\n"
    chunks = "".join(f"@@\n{run}" for _ in range(2000))
    body = f"*** Begin Patch\n*** Update File: f.txt\n{chunks}*** End Patch\n"
    text = "x\n" * 60_000
    assert 2000 * 60_000 > BUDGET
    assert patch_ranges(body, lambda path: path == "f.txt", text) is None
    small = "*** Begin Patch\n*** Update File: f.txt\n@@\n x\n+y\n*** End Patch\n"
    found = patch_ranges(small, lambda path: path == "f.txt", "x\ny\nx\n")
    assert found == [{"start_line": 2, "end_line": 2}]


def test_vs_code_s_apply_patch_with_absolute_paths_gets_the_same_ranges(root: Path) -> None:
    """VS Code's agent took Codex's patch tool (``input``), naming files by absolute path:
    a hunk is matched to the recorded file by where it resolves, not by its spelling."""
    from docpayloads import payload

    selected = gate(codex("pre_tool_use_mcp_select", root, intent_id="INT-001"), client="codex")
    assert selected.code == 0, selected.err
    (root / "src" / "auth").mkdir(parents=True)
    (root / "src" / "auth" / "jwt.py").write_text("a\nB\nc\n", encoding="utf-8")
    patch = (
        f"*** Begin Patch\n*** Update File: {root}/src/auth/jwt.py\n@@\n a\n-b\n+B\n*** End Patch\n"
    )
    post = payload(
        "vscode",
        "pre_tool_use_apply_patch",
        root,
        hook_event_name="PostToolUse",
        session_id=codex("pre_tool_use_mcp_select", root)["session_id"],
        tool_input={"input": patch, "explanation": "edit"},
    )
    assert gate(post, client="vscode").code == 0
    (record,) = [r for r in records(root) if r["event"] == "mutation"]
    assert (record["tool"], record["paths"]) == ("apply_patch", ["src/auth/jwt.py"])
    assert record["ranges"] == [{"start_line": 2, "end_line": 2}]
