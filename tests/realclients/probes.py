"""Wire the probe hook and the probe MCP server into a workspace, and read what they logged.

``Probes(log_dir)`` owns three files: ``hooks.jsonl`` (one line per hook call, written by
``probe_hook.py``), ``mcp.jsonl`` (every JSON-RPC message ``probe_mcp.py`` received) and
``hook_rules.json`` (what the hook answers: :meth:`Probes.deny`, :meth:`Probes.context`).
``wire_claude`` / ``wire_gemini`` / ``wire_codex`` write the client's project files so that
every hook event of interest runs the probe and an MCP server named ``probe`` is configured.
Codex hooks must also be trusted: see :func:`tests.realclients.codex_trust.trust_codex_hooks`.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROBE_HOOK = HERE / "probe_hook.py"
PROBE_MCP = HERE / "probe_mcp.py"
MCP_SERVER = "probe"

# The hook events each client is wired for (tool events match every tool).
CLAUDE_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
)
GEMINI_EVENTS = ("SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent")
CODEX_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "BeforeTool", "AfterTool")

# The name a client gives the probe's MCP tool, for the model to call.
MCP_TOOL_NAMES = {
    "claude": "mcp__probe__probe_echo",
    "gemini": "mcp_probe_probe_echo",
    "codex": "mcp__probe__probe_echo",
}


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


@dataclass
class Probes:
    """The probe files of one session, and what the probes logged."""

    log_dir: Path
    python: str = sys.executable
    mcp_delay: float = 0.0  # seconds the probe MCP server sleeps before answering anything

    def __post_init__(self) -> None:
        self.log_dir = Path(self.log_dir).resolve()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.rules: list[dict[str, Any]] = []
        self._save_rules()

    @property
    def hook_log(self) -> Path:
        return self.log_dir / "hooks.jsonl"

    @property
    def mcp_log(self) -> Path:
        return self.log_dir / "mcp.jsonl"

    @property
    def rules_file(self) -> Path:
        return self.log_dir / "hook_rules.json"

    # Configuring the answers ----------------------------------------------------------------
    def _save_rules(self) -> None:
        self.rules_file.write_text(json.dumps({"rules": self.rules}, indent=2), encoding="utf-8")

    def deny(
        self,
        reason: str,
        events: tuple[str, ...] = ("PreToolUse", "BeforeTool"),
        tool: str | None = None,
    ) -> Probes:
        """Deny the pre-tool events (of tools whose name matches regex ``tool``)."""
        rule: dict[str, Any] = {"event": list(events), "action": "deny", "reason": reason}
        if tool:
            rule["tool"] = tool
        self.rules.append(rule)
        self._save_rules()
        return self

    def context(self, event: str, text: str, tool: str | None = None) -> Probes:
        """Answer ``event`` with ``additionalContext = text``."""
        rule: dict[str, Any] = {"event": event, "action": "context", "text": text}
        if tool:
            rule["tool"] = tool
        self.rules.append(rule)
        self._save_rules()
        return self

    # Commands -----------------------------------------------------------------------------------
    def hook_command(self, client: str, label: str) -> str:
        parts = [
            self.python,
            str(PROBE_HOOK),
            "--log",
            str(self.hook_log),
            "--config",
            str(self.rules_file),
            client,
            label,
        ]
        return shlex.join(parts)

    def mcp_server(self) -> dict[str, Any]:
        """``{"command", "args"}`` starting the probe MCP server (absolute paths only)."""
        args = [str(PROBE_MCP), "--log", str(self.mcp_log)]
        if self.mcp_delay:
            args += ["--delay", str(self.mcp_delay)]
        return {"command": self.python, "args": args}

    # Reading the logs -----------------------------------------------------------------------------
    def hook_calls(self, event: str | None = None) -> list[dict[str, Any]]:
        calls = _read_jsonl(self.hook_log)
        return [c for c in calls if event is None or c.get("event") == event]

    def events(self) -> list[str]:
        return [str(c.get("event")) for c in self.hook_calls()]

    def mcp_messages(self) -> list[dict[str, Any]]:
        return [r["message"] for r in _read_jsonl(self.mcp_log) if r.get("direction") == "in"]

    def mcp_starts(self) -> list[dict[str, Any]]:
        return [r for r in _read_jsonl(self.mcp_log) if r.get("direction") == "start"]

    def mcp_tool_calls(self) -> list[dict[str, Any]]:
        return [m for m in self.mcp_messages() if m.get("method") == "tools/call"]


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def wire_claude(
    workspace: Path, probes: Probes, events: tuple[str, ...] = CLAUDE_EVENTS, mcp: bool = True
) -> None:
    """``.claude/settings.json`` hooks for ``events`` and ``.mcp.json`` with the probe server."""
    hooks: dict[str, Any] = {}
    for event in events:
        group: dict[str, Any] = {
            "hooks": [
                {"type": "command", "command": probes.hook_command("claude", event), "timeout": 30}
            ]
        }
        if event in TOOL_EVENTS:
            group["matcher"] = "*"
        hooks[event] = [group]
    _write_json(workspace / ".claude" / "settings.json", {"hooks": hooks})
    if mcp:
        _write_json(workspace / ".mcp.json", {"mcpServers": {MCP_SERVER: probes.mcp_server()}})


def wire_gemini(
    workspace: Path, probes: Probes, events: tuple[str, ...] = GEMINI_EVENTS, mcp: bool = True
) -> None:
    """``.gemini/settings.json`` with ``hooks`` (timeouts in ms) and ``mcpServers``."""
    hooks: dict[str, Any] = {}
    for event in events:
        handler = {
            "name": f"probe-{event}",
            "type": "command",
            "command": probes.hook_command("gemini", event),
            "timeout": 30000,
        }
        group: dict[str, Any] = {"hooks": [handler]}
        if event in TOOL_EVENTS:
            group["matcher"] = ".*"
        hooks[event] = [group]
    settings: dict[str, Any] = {"hooks": hooks}
    if mcp:
        settings["mcpServers"] = {MCP_SERVER: {**probes.mcp_server(), "trust": True}}
    _write_json(workspace / ".gemini" / "settings.json", settings)


def wire_codex(
    workspace: Path, probes: Probes, events: tuple[str, ...] = CODEX_EVENTS, mcp: bool = True
) -> None:
    """``.codex/hooks.json`` (trust it afterwards!) and ``[mcp_servers.probe]`` in
    ``.codex/config.toml`` (read only for a trusted project)."""
    hooks: dict[str, Any] = {}
    for event in events:
        hooks[event] = [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": probes.hook_command("codex", event),
                        "timeout": 30,
                    }
                ]
            }
        ]
    _write_json(workspace / ".codex" / "hooks.json", {"hooks": hooks})
    if mcp:
        server = probes.mcp_server()
        toml = (
            f"[mcp_servers.{MCP_SERVER}]\n"
            f"command = {json.dumps(server['command'])}\n"
            f"args = {json.dumps(server['args'])}\n"
            "startup_timeout_sec = 20\n"
            'default_tools_approval_mode = "approve"\n'
        )
        (workspace / ".codex" / "config.toml").write_text(toml, encoding="utf-8")


def wire_mcp_only(kind: str, workspace: Path, probes: Probes, home: Path) -> None:
    """The probe MCP server where Copilot CLI, Cline, opencode or Qwen Code reads it (their
    hooks do not speak the probe hook's protocols): enough for the tool inventory."""
    server = probes.mcp_server()
    if kind == "copilot":
        entry = {"type": "local", **server, "tools": ["*"]}
        _write_json(workspace / ".github" / "mcp.json", {"mcpServers": {MCP_SERVER: entry}})
    elif kind == "cline":
        settings = home / ".cline" / "data" / "settings" / "cline_mcp_settings.json"
        entry = {"type": "stdio", **server, "disabled": False}
        _write_json(settings, {"mcpServers": {MCP_SERVER: entry}})
    elif kind == "opencode":
        entry = {"type": "local", "command": [server["command"], *server["args"]], "enabled": True}
        _write_json(workspace / "opencode.json", {"mcp": {MCP_SERVER: entry}})
    elif kind == "qwen":
        _write_json(workspace / ".qwen" / "settings.json", {"mcpServers": {MCP_SERVER: server}})
    else:
        raise ValueError(kind)


def wire(
    kind: str, workspace: Path, probes: Probes, mcp: bool = True, home: Path | None = None
) -> None:
    """``wire_claude`` / ``wire_gemini`` / ``wire_codex`` by client kind, default events; the
    other clients get the probe MCP server only (:func:`wire_mcp_only`, into ``home``)."""
    wirings = {"claude": wire_claude, "gemini": wire_gemini, "codex": wire_codex}
    if kind in wirings:
        wirings[kind](workspace, probes, mcp=mcp)
    elif mcp:
        wire_mcp_only(kind, workspace, probes, home or workspace.parent / "home")
