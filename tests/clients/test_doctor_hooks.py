"""``doctor`` reads every client's files through one reader (``core/clients/_hooks_json``):
a gate hook whose matcher lets tools past it is said, in the same words, for every client that
keeps matchers (Claude Code, Gemini CLI, Qwen Code and Codex in matcher groups; Copilot and
Cursor per entry), and so is a paw server switched off where the client has a switch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import paw_state_dir, root

from paw_tui.core.clients import commands

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

HOOK_FILES = {
    "claude-code": (".claude/settings.json", "PreToolUse"),
    "gemini-cli": (".gemini/settings.json", "BeforeTool"),
    "qwen-code": (".qwen/settings.json", "PreToolUse"),
    "codex": (".codex/hooks.json", "PreToolUse"),
    "copilot": (".github/hooks/paw-tui.json", "preToolUse"),
    "cursor": (".cursor/hooks.json", "preToolUse"),
}
"""Where each client's pre-tool gate hook is, and under which event."""
NARROW = "gate hook has a matcher narrower than 'install' writes: tools it misses run unseen"


@pytest.fixture(autouse=True)
def _codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))


def _warnings(run_cli: RunCli, root: Path, client: str) -> list[str]:
    rows = json.loads(run_cli("doctor", "--json", cwd=root).out)
    return [r["detail"] for r in rows if r["check"] == client and r["status"] == "warn"]


@pytest.mark.parametrize("client", sorted(HOOK_FILES))
def test_a_narrowed_pre_tool_matcher_is_a_warning(client: str, root: Path, run_cli: RunCli) -> None:
    assert run_cli("install", client, cwd=root).code == 0
    assert not [w for w in _warnings(run_cli, root, client) if NARROW in w]
    relative, event = HOOK_FILES[client]
    path = root / relative
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["hooks"][event]:
        handlers = entry.get("hooks", [entry])
        if any(commands.is_gate_command(json.dumps(h)) for h in handlers):
            entry["matcher"] = "^Write$"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert f"the {event} {NARROW}" in _warnings(run_cli, root, client)


def _server_file(client: str, root: Path) -> Path:
    from paw_tui.core.clients import cline, kiro, windsurf

    return {
        "cline": Path(cline.mcp_settings_path()),
        "kiro": root / kiro.MCP_CONFIG,
        "windsurf": Path(windsurf.mcp_config_path()),
    }[client]


@pytest.mark.parametrize("client", ["cline", "kiro", "windsurf"])
def test_a_paw_server_switched_off_is_a_warning(client: str, root: Path, run_cli: RunCli) -> None:
    """Cline, Kiro and Windsurf turn a server off with ``disabled: true`` in its entry."""
    assert run_cli("install", client, cwd=root).code == 0
    path = _server_file(client, root)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["mcpServers"]["paw"]["disabled"] = True
    path.write_text(json.dumps(data), encoding="utf-8")
    off = (
        f"the paw MCP server is disabled in {path.relative_to(root) if client == 'kiro' else path}"
    )
    assert any(w.startswith(off) for w in _warnings(run_cli, root, client)), off
