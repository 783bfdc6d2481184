"""Each client is told how to reach paw-tui's tools in its own terms (DESIGN §4, §5; issues 18
and 19): the must-cite deny names the client's own name for ``select_active_intent`` (and,
where the client defers MCP tools, how to load it), and a Scope Violation ends with the tool
that asks for more scope under that client's name for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docpayloads import payload
from gatekit import NO_INTENT, GateResult, claude_payload, gate, paw_state_dir, root

from paw_tui.core.handshake.messages import must_cite, scope_expansion_how
from paw_tui.core.handshake.reach import handshake_hint

__all__ = ["paw_state_dir", "root"]  # fixtures

BEFORE_SELECTION = {
    "claude-code": (
        "Call mcp__paw__select_active_intent with one of:",
        'load it first with ToolSearch (query "select:mcp__paw__select_active_intent")',
    ),
    "codex": ("Call mcp__paw__select_active_intent with one of:", "find it with tool_search"),
    "gemini-cli": ("Call mcp_paw_select_active_intent with one of:", None),
    "vscode": ("Call mcp_paw_select_active_intent with one of:", "start and trust the paw server"),
    "copilot": ("Call paw-select_active_intent with one of:", None),
    "cline": ("Call paw__select_active_intent with one of:", None),
    "cursor": ("Call select_active_intent with one of:", "Cursor's MCP settings"),
    "kiro": ("Call select_active_intent with one of:", None),
}
WRITES = {
    "codex": "pre_tool_use_apply_patch",
    "gemini-cli": "before_tool_write_file",
    "vscode": "pre_tool_use_create_file",
    "copilot": "pre_tool_use_create_args_text",
    "cline": "tool_call_editor",
    "cursor": "pre_tool_use_write",
    "kiro": "pre_tool_use_fs_write",
}


def _write_before_selection(client: str, root: Path) -> dict[str, object]:
    if client == "claude-code":
        return claude_payload("pre_tool_use_write", root, session="s-alpha")
    return payload(client, WRITES[client], root)


def _reason(result: GateResult) -> str:
    """The deny's reason: on stderr, or in the JSON answer (Gemini CLI's ``reason``, Cline's
    ``contextModification``, the per-call refusal that keeps its session going)."""
    if result.err.strip():
        return result.err.strip()
    answer = json.loads(result.out)
    reason = answer["contextModification"] if "contextModification" in answer else answer["reason"]
    assert isinstance(reason, str)
    return reason


@pytest.mark.parametrize("client", list(BEFORE_SELECTION))
def test_the_must_cite_deny_speaks_the_client_s_words(root: Path, client: str) -> None:
    event = "pre_tool" if client == "copilot" else None  # its camelCase payloads name no event
    result = gate(_write_before_selection(client, root), client=client, event=event)
    reason = _reason(result)
    assert reason.startswith(f"{NO_INTENT} "), (client, result.out, result.err)
    call, hint = BEFORE_SELECTION[client]
    assert call in reason
    if hint is not None:
        assert hint in reason
    if client != "claude-code":
        assert "ToolSearch" not in reason  # Claude Code's tool, nobody else's


@pytest.mark.parametrize(
    ("client", "call", "hint"),
    [
        (
            "qwen-code",
            "Call mcp__paw__select_active_intent with one of:",
            'load it with tool_search (query "select:mcp__paw__select_active_intent"), then '
            "call it through tool_call.",
        ),
        ("opencode", "Call paw_select_active_intent with one of:", None),
        ("generic", "Call select_active_intent with one of:", None),
    ],
)
def test_clients_without_an_adapter_yet_are_told_in_their_words(
    client: str, call: str, hint: str | None
) -> None:
    """Qwen Code's hooks speak Claude Code's protocol, but its tool search is ``tool_search``
    (it was told ``ToolSearch``); opencode names MCP tools ``<server>_<tool>``."""
    from paw_tui.core.intents.model import Intent

    intent = Intent.from_dict({"id": "INT-001", "name": "Auth", "status": "PENDING"})
    reason = must_cite([intent], "edit", client=client, hint=handshake_hint(client))
    assert reason.startswith(f"{NO_INTENT} {call} INT-001 (Auth) before using edit.")
    assert "ToolSearch" not in reason
    if hint is not None:
        assert reason.endswith(hint)


@pytest.mark.parametrize(
    ("client", "name"),
    [
        ("claude-code", "mcp__paw__request_scope_expansion"),
        ("codex", "mcp__paw__request_scope_expansion"),
        ("qwen-code", "mcp__paw__request_scope_expansion"),
        ("gemini-cli", "mcp_paw_request_scope_expansion"),
        ("copilot", "paw-request_scope_expansion"),
        ("cline", "paw__request_scope_expansion"),
        ("opencode", "paw_request_scope_expansion"),
        ("generic", "request_scope_expansion"),
    ],
)
def test_the_scope_violation_names_the_tool_that_asks_for_more(client: str, name: str) -> None:
    assert scope_expansion_how(client) == f"To ask a person for it, call {name}(pattern, reason)."
