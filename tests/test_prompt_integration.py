"""Prompt assembly wired into the gate, ``paw-tui prompt`` and the MCP server (DESIGN §8, §9)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from gatekit import (
    claude_payload,
    gate,
    paw_state_dir,
    root,
    select,
    write_workspace,
)

from paw_tui.cli import main

INSTRUCTIONS = """\
Use the read replica for every query.

### Aggregations
**Keywords**: "average", mean
Compute {metric} over {window} for "{question}".

### Exports
**Keywords**: csv
Write CSV with a header row.
"""


def _prompt(root: Path, session: str, text: str) -> str:
    result = gate(claude_payload("user_prompt_submit", root, session=session, prompt=text))
    assert result.code == 0
    return result.context or ""


def test_pre_tool_use_injects_matching_execution_guidance(root: Path) -> None:
    tool_dir = root / ".paw" / "tools" / "run_query"
    tool_dir.mkdir(parents=True)
    (tool_dir / "execution_instructions.md").write_text(INSTRUCTIONS)
    select(root, "s1", "INT-001")
    _prompt(root, "s1", "What is the average latency?")
    result = gate(
        claude_payload(
            "pre_tool_use_unknown_mcp",
            root,
            session="s1",
            tool_name="mcp__db__run_query",
            replace_input={"metric": "p95", "window": "7d"},
        )
    )
    assert result.code == 0
    context = result.context or ""
    # named as the client calls it; its instructions are found by the MCP tool's base name
    assert context.startswith("TOOL EXECUTION GUIDANCE for mcp__db__run_query:\n\n")
    assert 'Compute p95 over 7d for "What is the average latency?".' in context


def test_run_query_guidance_uses_the_latest_prompt_and_the_call_arguments(root: Path) -> None:
    tool_dir = root / ".paw" / "tools" / "run_query"
    tool_dir.mkdir(parents=True)
    (tool_dir / "execution_instructions.md").write_text(INSTRUCTIONS)
    select(root, "s1", "INT-001")
    _prompt(root, "s1", "What is the average latency?")
    result = gate(
        claude_payload(
            "pre_tool_use_unknown_mcp",
            root,
            session="s1",
            tool_name="run_query",
            replace_input={"metric": "p95", "window": "7d"},
        )
    )
    assert result.code == 0
    context = result.context or ""
    assert context.startswith("TOOL EXECUTION GUIDANCE for run_query:\n\n")
    assert context.endswith("\n\nUse this guidance when interpreting the tool results.")
    assert "Use the read replica for every query." in context
    assert 'Compute p95 over 7d for "What is the average latency?".' in context
    assert "Write CSV" not in context  # its keyword did not match the question


def test_no_guidance_without_an_instructions_file(root: Path) -> None:
    select(root, "s1", "INT-001")
    result = gate(
        claude_payload(
            "pre_tool_use_unknown_mcp", root, session="s1", tool_name="run_query", replace_input={}
        )
    )
    assert result.code == 0
    assert result.out == ""


def test_prompt_context_carries_tool_defaults_and_the_supervisor(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_workspace(root, governance="tool_defaults:\n  run_query:\n    limit: 100\n")
    assert main(["prompt", "--supervisor", "Keep changes small.", "--workspace", str(root)]) == 0
    context = _prompt(root, "s9", "hello")
    assert "When calling run_query, use these default values:" in context
    assert "- limit: 100" in context
    assert "<supervisor_instruction>\nKeep changes small.\n</supervisor_instruction>" in context
    # a session's own instruction replaces the global one
    assert (
        main(["prompt", "--session", "s9", "--supervisor", "Only s9.", "--workspace", str(root)])
        == 0
    )
    context = _prompt(root, "s9", "again")
    assert "Only s9." in context and "Keep changes small." not in context
    assert main(["prompt", "--session", "s9", "--clear-supervisor", "--workspace", str(root)]) == 0
    assert "Keep changes small." in _prompt(root, "s9", "third")
    capsys.readouterr()


def test_prompt_json_lists_layers_in_order(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    select(root, "s1", "INT-001")
    assert main(["prompt", "--supervisor", "Be careful.", "--workspace", str(root)]) == 0
    capsys.readouterr()
    assert main(["prompt", "--session", "s1", "--json", "--workspace", str(root)]) == 0
    layers = json.loads(capsys.readouterr().out)
    assert [layer["name"] for layer in layers] == [
        "governance",
        "intent context",
        "supervisor instruction",
    ]
    assert all(layer["chars"] == len(layer["text"]) for layer in layers)
    assert "Active intent: INT-001" in layers[0]["text"]


def test_prompt_needs_a_session_to_print(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompt", "--workspace", str(root)]) == 2
    assert "--session" in capsys.readouterr().err


def test_mcp_get_handoff_context(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paw_tui.mcp.tools import PawTools, tool_listing

    docs = root / "docs"
    docs.mkdir()
    (docs / "project.json").write_text(
        json.dumps({"stack": "Python", "commands": {"test": "pytest"}})
    )
    (docs / "CONVENTIONS.md").write_text("Keep functions small. Test every branch.\n")
    monkeypatch.setenv("PAW_WORKSPACE_PATH", str(root))
    names = [str(tool["name"]) for tool in tool_listing()]
    result = PawTools(cwd=str(root)).call("get_handoff_context", {})
    is_error, text = result.is_error, result.text
    assert "get_handoff_context" in names
    assert not is_error
    assert text.startswith("<context>\n") and text.endswith("\n</context>")
    assert f"path: {root}" in text and "stack: Python" in text
