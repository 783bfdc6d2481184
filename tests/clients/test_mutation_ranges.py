"""``mutation`` records carry line ranges for every client's file tools (DESIGN §7, issue 19).

Each client's PostToolUse payload (its fixture in ``tests/data/``) is piped through the gate
after the file was written as the tool would have left it: a tool that writes a whole file
gets 1..(lines of its content); an edit gets the lines its new text occupies in the file now
(every occurrence where the tool replaced them all, only the recorded file's edits for a tool
that edits several). The Agent Trace export then attributes those lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from docpayloads import decide, payload
from gatekit import paw_state_dir, records, root

__all__ = ["paw_state_dir", "root"]  # fixtures

FILE = "src/auth/jwt.py"
BEFORE = "import os\nimport jwt\n\nx = 1\ny = 2\nx = 1\n"
"""What the edited file holds after an edit that put ``import jwt`` (line 2) and ``x = 1``
(lines 4 and 6) in place."""
WRITTEN = "x = 1\ny = 2\nx = 1\n"
EDITED = "x = 3\ny = 2\nx = 3\n"
"""The file after the recorded Qwen Code and opencode writes, and after their edit of every
``x = 1`` into ``x = 3``."""


def _input(data: dict[str, Any], *path: str) -> dict[str, Any]:
    """The tool input object inside a client's payload."""
    found: Any = data
    for key in path:
        found = found[key]
    assert isinstance(found, dict)
    return found


def _gemini_write(data: dict[str, Any]) -> None:
    data["tool_name"] = "write_file"
    data["tool_input"] = {"file_path": FILE, "content": "a\nb\nc\n"}  # relative, as Gemini sends


def _gemini_replace_all(data: dict[str, Any]) -> None:
    data["tool_input"].update(old_string="x = 3", new_string="x = 1", allow_multiple=True)


def _cline_replace(data: dict[str, Any]) -> None:
    _input(data, "tool_result", "input").update(old_text="import base64", new_text="import jwt")


def _kiro_str_replace(data: dict[str, Any]) -> None:
    data["tool_input"] = {
        "command": "str_replace",
        "path": FILE,
        "old_str": "y = 3",
        "new_str": "y = 2",
    }


def _copilot_edit(data: dict[str, Any]) -> None:
    data["toolName"] = "edit"
    data["toolArgs"] = {"path": FILE, "old_str": "import base64", "new_str": "import jwt"}


def _copilot_pascal_write(data: dict[str, Any]) -> None:
    data.pop("toolName")
    data.pop("toolArgs")
    data.update(
        hook_event_name="PostToolUse",
        session_id="copilot-pascal",
        tool_name="Write",
        tool_input={"path": FILE, "file_text": "a\nb\n"},
    )


def _copilot_pascal_edit(data: dict[str, Any]) -> None:
    _copilot_pascal_write(data)
    data.update(
        tool_name="Edit",
        tool_input={"path": FILE, "old_str": "import base64", "new_str": "import jwt"},
    )


PATCH = f"*** Begin Patch\n*** Update File: {FILE}\n@@\n import os\n-import base64\n+import jwt\n*** End Patch\n"
"""A patch whose one ``+`` line stands on line 2 of :data:`BEFORE` after it is applied."""


def _cline_patch(data: dict[str, Any]) -> None:
    """Cline's ``apply_patch`` (gpt and codex models): the patch in ``input``."""
    data["tool_result"] = {"id": "toolu_02", "name": "apply_patch", "input": {"input": PATCH}}
    data["postToolUse"] = {"toolName": "apply_patch", "parameters": {"input": PATCH}}


def _copilot_pascal_patch(data: dict[str, Any]) -> None:
    """Copilot's PascalCase dialect reports its patch tool as ``Edit`` with the patch."""
    _copilot_pascal_write(data)
    data.update(tool_name="Edit", tool_input={"input": PATCH})


def _vscode_patch(data: dict[str, Any]) -> None:
    data["hook_event_name"] = "PostToolUse"
    data["tool_input"]["input"] = PATCH


def _qwen_edit_once(data: dict[str, Any]) -> None:
    data["tool_input"].update(replace_all=False)


def _opencode_edit_once(data: dict[str, Any]) -> None:
    data["args"].pop("replaceAll")


def _vscode_replace(data: dict[str, Any]) -> None:
    data["hook_event_name"] = "PostToolUse"
    data["tool_input"] = {"filePath": FILE, "oldString": "y = 3", "newString": "y = 2"}


def _vscode_multi(data: dict[str, Any]) -> None:
    data["hook_event_name"] = "PostToolUse"
    replacements = data["tool_input"]["replacements"]
    replacements[0].update(filePath=FILE, oldString="x = 3", newString="x = 1")
    replacements[1].update(newString="import jwt")  # docs/x.md's edit: not this file's lines


def _cursor_edit(data: dict[str, Any]) -> None:
    data["edits"] = [{"old_string": "import base64", "new_string": "import jwt"}]


def _windsurf_edit(data: dict[str, Any]) -> None:
    data["tool_info"]["edits"] = [{"old_string": "y = 3", "new_string": "y = 2"}]


Edit = Callable[[dict[str, Any]], None] | None
CASES: list[tuple[str, str, str | None, Edit, str, list[tuple[int, int]]]] = [
    # client, fixture, --event, how the payload is changed, the file after the tool, ranges
    ("gemini-cli", "after_tool_replace", None, _gemini_write, "a\nb\nc\n", [(1, 3)]),
    ("gemini-cli", "after_tool_replace", None, None, "x = 0\nx = 3\n", [(2, 2)]),
    ("gemini-cli", "after_tool_replace", None, _gemini_replace_all, BEFORE, [(4, 4), (6, 6)]),
    ("copilot", "post_tool_use_create", "post_tool", None, "import jwt\n", [(1, 1)]),
    ("copilot", "post_tool_use_create", "post_tool", _copilot_edit, BEFORE, [(2, 2)]),
    ("copilot", "post_tool_use_create", None, _copilot_pascal_write, "a\nb\n", [(1, 2)]),
    ("copilot", "post_tool_use_create", None, _copilot_pascal_edit, BEFORE, [(2, 2)]),
    ("copilot", "post_tool_use_create", None, _copilot_pascal_patch, BEFORE, [(2, 2)]),
    ("qwen-code", "post_tool_use_write_file", None, None, WRITTEN, [(1, 3)]),
    ("qwen-code", "post_tool_use_edit", None, None, EDITED, [(1, 1), (3, 3)]),
    ("qwen-code", "post_tool_use_edit", None, _qwen_edit_once, "x = 3\nx = 3\n", [(1, 1)]),
    ("opencode", "tool_execute_after_write", None, None, WRITTEN, [(1, 3)]),
    ("opencode", "tool_execute_after_edit", None, None, EDITED, [(1, 1), (3, 3)]),
    ("opencode", "tool_execute_after_edit", None, _opencode_edit_once, "x = 3\nx = 3\n", [(1, 1)]),
    ("cline", "tool_result_editor", None, None, "import jwt\n", [(1, 1)]),
    ("cline", "tool_result_editor", None, _cline_replace, BEFORE, [(2, 2)]),
    ("cline", "tool_result_editor", None, _cline_patch, BEFORE, [(2, 2)]),
    ("cursor", "post_tool_use_write", None, None, "import jwt\n", [(1, 1)]),
    ("cursor", "after_file_edit", None, _cursor_edit, BEFORE, [(2, 2)]),
    ("windsurf", "post_write_code", None, None, "import jwt\n", [(1, 1)]),
    ("windsurf", "post_write_code", None, _windsurf_edit, BEFORE, [(5, 5)]),
    ("kiro", "post_tool_use_fs_write", None, None, "import jwt\n", [(1, 1)]),
    ("kiro", "post_tool_use_fs_write", None, _kiro_str_replace, BEFORE, [(5, 5)]),
    ("vscode", "post_tool_use_create_file", None, None, "import jwt\n", [(1, 1)]),
    ("vscode", "pre_tool_use_replace_string", None, _vscode_replace, BEFORE, [(5, 5)]),
    ("vscode", "pre_tool_use_multi_replace", None, _vscode_multi, BEFORE, [(4, 4)]),
    ("vscode", "pre_tool_use_apply_patch", None, _vscode_patch, BEFORE, [(2, 2)]),
]


@pytest.mark.parametrize(
    ("client", "name", "event", "change", "after", "expected"),
    CASES,
    ids=[f"{c[0]}-{c[1]}-{c[3].__name__.strip('_') if c[3] else 'as-is'}" for c in CASES],
)
def test_a_file_tool_s_mutation_records_the_lines_it_wrote(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    client: str,
    name: str,
    event: str | None,
    change: Edit,
    after: str,
    expected: list[tuple[int, int]],
) -> None:
    monkeypatch.chdir(root)  # Windsurf's payloads name no folder: the gate starts from here
    data = payload(client, name, root)
    if change is not None:
        change(data)
    target = root / FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(after, encoding="utf-8")
    assert decide(client, data, event).code == 0
    mutations = [r for r in records(root) if r["event"] == "mutation" and r["paths"] == [FILE]]
    assert mutations, records(root)
    ranges = [(r["start_line"], r["end_line"]) for r in mutations[-1]["ranges"]]  # type: ignore[attr-defined]
    assert ranges == expected


def _cline_replace_in_file(data: dict[str, Any]) -> None:
    data["postToolUse"]["toolName"] = "replace_in_file"
    data["postToolUse"]["parameters"] = {"path": FILE, "diff": "------- SEARCH\na\n=======\nb\n"}


def test_a_tool_no_adapter_describes_gets_no_invented_lines(root: Path) -> None:
    """Cline's ``replace_in_file`` carries a diff, not the new text: no ranges at all."""
    data = payload("cline", "post_tool_use_write_to_file", root)
    _cline_replace_in_file(data)
    (root / "src" / "auth").mkdir(parents=True)
    (root / FILE).write_text("b\n", encoding="utf-8")
    assert decide("cline", data).code == 0
    (mutation,) = [r for r in records(root) if r["event"] == "mutation"]
    assert mutation["paths"] == [FILE]
    assert "ranges" not in mutation and mutation["content_hash"]


def test_opencode_s_patch_gets_the_lines_its_hunks_leave(root: Path) -> None:
    """opencode's ``apply_patch`` (gpt models) is read as Codex's: an added file is 1..n."""
    data = payload("opencode", "tool_execute_after_write", root)
    data["tool"] = "apply_patch"
    data["args"] = {"patchText": f"*** Begin Patch\n*** Add File: {FILE}\n+a\n+b\n*** End Patch\n"}
    (root / "src" / "auth").mkdir(parents=True)
    (root / FILE).write_text("a\nb\n", encoding="utf-8")
    assert decide("opencode", data).code == 0
    (mutation,) = [r for r in records(root) if r["event"] == "mutation"]
    assert mutation["paths"] == [FILE]
    assert mutation["ranges"] == [{"start_line": 1, "end_line": 2}]


def test_the_agent_trace_export_attributes_the_lines(root: Path, run_cli: Any) -> None:
    for client, name, event, change, after, _expected in CASES[:2]:
        data = payload(client, name, root)
        if change is not None:
            change(data)
        (root / "src" / "auth").mkdir(parents=True, exist_ok=True)
        (root / FILE).write_text(after, encoding="utf-8")
        assert decide(client, data, event).code == 0
    result = run_cli("trace", "export", "--format", "agent-trace", cwd=root)
    assert result.code == 0, result.err
    traces = [json.loads(line) for line in result.out.splitlines()]
    attributed = [
        (t["metadata"]["dev.paw-tui"]["tool"], t["files"][0]["conversations"][0]["ranges"])
        for t in traces
    ]
    assert attributed == [
        ("write_file", [{"start_line": 1, "end_line": 3}]),
        ("replace", [{"start_line": 2, "end_line": 2}]),
    ]
