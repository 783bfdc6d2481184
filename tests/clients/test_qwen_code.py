"""Qwen Code (issue 19): its payloads (recorded from the real 0.24.4) through the gate, and its
install. Qwen speaks Claude Code's protocol; what differs is tested here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import RunCli
from gatekit import gate, paw_state_dir, records, root

from paw_tui.core.clients.qwen_code import ENV_FILE, SETTINGS

__all__ = ["paw_state_dir", "root"]

SESSION = "a6f75019-4b3c-4ad9-bc88-3222a5a1e60e"


def _payload(root: Path, event: str, **fields: Any) -> dict[str, Any]:
    """A payload as Qwen Code 0.24.4 sends it (recorded with a probe hook)."""
    return {
        "session_id": SESSION,
        "transcript_path": f"/home/u/.qwen/projects/x/chats/{SESSION}.jsonl",
        "cwd": str(root),
        "hook_event_name": event,
        "timestamp": "2026-11-27T18:25:00.044Z",
        "permission_mode": "yolo",
        **fields,
    }


def _write(root: Path, relative: str) -> dict[str, Any]:
    return _payload(
        root,
        "PreToolUse",
        prompt_id=f"{SESSION}########0",
        tool_name="write_file",
        tool_input={"file_path": str(root / relative), "content": "x\n"},
        tool_use_id="toolu_1795803900043_87ran5srq",
        tool_call_id="call_mock0001",
    )


def test_a_write_before_selection_is_denied_naming_tool_search(root: Path) -> None:
    result = gate(_write(root, "src/auth/a.py"), client="qwen-code")
    assert result.denied
    assert "tool_search" in (result.reason or "") and "tool_call" in (result.reason or "")
    assert [r["client"] for r in records(root)] == ["qwen-code"]


def test_only_the_persons_prompt_gets_the_governance_section(root: Path) -> None:
    asked = _payload(root, "UserPromptSubmit", prompt="Do it.", submitted_prompt="Do it.")
    prompt = gate(asked, client="qwen-code")
    assert "select_active_intent" in (prompt.context or "")
    between = gate(_payload(root, "UserPromptSubmit", prompt=""), client="qwen-code")
    assert (between.code, between.out) == (0, "")


def test_session_start_says_nothing_to_the_model(root: Path) -> None:
    result = gate(_payload(root, "SessionStart", source="startup"), client="qwen-code")
    assert result.code == 0 and result.context is None


def test_stop_releases_the_session_but_a_sub_agents_does_not(root: Path) -> None:
    select = _payload(
        root,
        "PreToolUse",
        tool_name="mcp__paw__select_active_intent",
        tool_input={"intent_id": "INT-001"},
    )
    assert gate(select, client="qwen-code").code == 0
    sub = gate(
        _payload(root, "Stop", agent_id="agent-1", stop_hook_active=False), client="qwen-code"
    )
    assert sub.out == "" and records(root)[-1]["event"] == "intent_selected"
    gate(_payload(root, "Stop", stop_hook_active=False), client="qwen-code")
    assert records(root)[-1]["event"] == "session_released"


def test_the_shell_tools_directory_is_where_the_command_runs(root: Path) -> None:
    select = _payload(
        root,
        "PreToolUse",
        tool_name="mcp__paw__select_active_intent",
        tool_input={"intent_id": "INT-001"},
    )
    gate(select, client="qwen-code")
    shell = _payload(
        root,
        "PreToolUse",
        tool_name="run_shell_command",
        tool_input={"command": "echo x > a.py", "directory": "docs", "description": "d"},
    )
    result = gate(shell, client="qwen-code")
    assert result.denied and "docs/a.py" in (result.reason or ""), result.out
    shell["tool_input"]["directory"] = ["src"]  # where it runs cannot be read: denied
    result = gate(shell, client="qwen-code")
    assert result.denied and "the directory of run_shell_command is not a path" in (
        result.reason or ""
    ), result.out


def test_install_writes_claude_shaped_hooks_and_the_local_env(root: Path, run_cli: RunCli) -> None:
    result = run_cli("install", "qwen-code", cwd=root)
    assert result.code == 0, result.err
    settings = json.loads((root / SETTINGS).read_text(encoding="utf-8"))
    assert set(settings["hooks"]) == {
        "PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"
    }  # fmt: skip
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert "--client qwen-code --event pre_tool" in command and "${" not in command
    assert "BeforeTool" not in settings["hooks"]
    assert settings["mcpServers"]["paw"]["trust"] is True
    assert "PAW_TUI_HOOK=" in (root / ENV_FILE).read_text(encoding="utf-8")
    assert "folderTrust" in result.out
    doctor = run_cli("doctor", cwd=root)
    (canary,) = [line for line in doctor.out.splitlines() if "qwen-code canary" in line]
    assert canary.startswith("ok") and "the gate recorded that deny" in canary, doctor.out


def _trust_rows(root: Path, home: Path, rules: dict[str, str] | None) -> list[tuple[str, str]]:
    """doctor's rows about folder trust, with Qwen's folder trust on and ``rules`` in
    ``~/.qwen/trustedFolders.json`` (none: no such file)."""
    from paw_tui.core.clients import qwen_code

    qwen = home / ".qwen"
    qwen.mkdir(parents=True, exist_ok=True)
    on = {"security": {"folderTrust": {"enabled": True}}}
    (qwen / "settings.json").write_text(json.dumps(on), encoding="utf-8")
    (qwen / "trustedFolders.json").unlink(missing_ok=True)
    if rules is not None:
        (qwen / "trustedFolders.json").write_text(json.dumps(rules), encoding="utf-8")
    rows = qwen_code.doctor(str(root), {"HOME": str(home), "PATH": "/usr/bin:/bin"})
    return [(status, detail) for status, _check, detail in rows if "trustedFolders" in detail]


def test_doctor_reads_qwen_s_trusted_folders_as_qwen_does(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """Qwen Code 0.24.4's ``trust-precedence.ts``: a TRUST_PARENT rule trusts its parent's
    folders, and the deepest rule holding the folder wins, DO_NOT_TRUST over a trust as deep."""
    assert run_cli("install", "qwen-code", cwd=root).code == 0
    home = tmp_path / "qwen-home"
    folder = str(root.resolve())
    sibling = str(root.resolve().parent / "sibling")
    cases: list[tuple[dict[str, str] | None, str]] = [
        (None, "FAIL"),
        ({folder: "TRUST_FOLDER"}, "ok"),
        ({sibling: "TRUST_PARENT"}, "ok"),
        ({str(root.resolve().parent): "TRUST_FOLDER", folder: "DO_NOT_TRUST"}, "FAIL"),
        ({folder: "DO_NOT_TRUST", str(root.resolve() / "sub"): "TRUST_PARENT"}, "FAIL"),
    ]
    for rules, status in cases:
        (row,) = _trust_rows(root, home, rules)
        assert row[0] == status, (rules, row)
