"""opencode (issue 19): what paw-tui's plugin sends the gate, and the install.

The plugin's payloads are ``{"event", "sessionID", "callID", "tool", "args", "directory"}``
with opencode 1.18.33's tool names and arguments (recorded with a probe plugin); the answer is
the generic protocol's, exit 2 for a deny (the plugin throws its reason).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import RunCli
from gatekit import gate, paw_state_dir, records, root

from paw_tui.core.clients.opencode import CONFIG, LOCAL_SETTINGS, PLUGIN

__all__ = ["paw_state_dir", "root"]

needs_node = pytest.mark.skipif(
    shutil.which("node") is None, reason="doctor loads the plugin with node"
)

SESSION = "ses_de1b00f68fferQg0ONItYP1VaQ"


def _call(
    root: Path, tool: str, args: dict[str, Any], event: str = "tool.execute.before"
) -> dict[str, Any]:
    return {
        "event": event,
        "sessionID": SESSION,
        "callID": "call_mock0001",
        "tool": tool,
        "args": args,
        "directory": str(root),
    }


def _answer(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.out)
    return data


def _select(root: Path) -> None:
    result = gate(
        _call(root, "paw_select_active_intent", {"intent_id": "INT-001"}), client="opencode"
    )
    assert _answer(result)["decision"] == "allow", result.out


def test_a_relative_write_before_selection_is_denied(root: Path) -> None:
    result = gate(
        _call(root, "write", {"filePath": "src/auth/a.py", "content": "x"}), client="opencode"
    )
    assert result.code == 2 and _answer(result)["decision"] == "deny"
    assert "paw_select_active_intent" in _answer(result)["reason"]
    (record,) = records(root)
    assert (record["client"], record["tool"], record["paths"]) == (
        "opencode",
        "write",
        ["src/auth/a.py"],
    )


def test_the_handshake_then_edits_and_patches_inside_and_outside(root: Path) -> None:
    _select(root)
    assert records(root)[-1]["tool"] == "mcp__paw__select_active_intent"
    inside = _call(root, "edit", {"filePath": "src/auth/a.py", "oldString": "a", "newString": "b"})
    assert gate(inside, client="opencode").code == 0
    patch = "*** Begin Patch\n*** Add File: docs/x.md\n+x\n*** End Patch\n"
    outside = gate(_call(root, "apply_patch", {"patchText": patch}), client="opencode")
    assert outside.code == 2 and "Scope Violation" in _answer(outside)["reason"]
    shell = _call(root, "bash", {"command": "echo x > a.py", "workdir": "docs", "description": "d"})
    denied = gate(shell, client="opencode")
    assert denied.code == 2 and "docs/a.py" in _answer(denied)["reason"]


def test_a_prompt_gets_the_governance_section_and_the_end_releases(root: Path) -> None:
    prompt = {
        "event": "chat.message",
        "sessionID": SESSION,
        "prompt": "Do it.",
        "directory": str(root),
    }
    assert "select_active_intent" in _answer(gate(prompt, client="opencode"))["context"]
    _select(root)
    end = {"event": "session.end", "sessionID": SESSION, "directory": str(root)}
    assert gate(end, client="opencode").code == 0
    assert records(root)[-1]["event"] == "session_released"


def test_an_unknown_event_is_denied(root: Path) -> None:
    result = gate({"event": "tool.execute.around", "sessionID": SESSION}, client="opencode")
    assert result.code == 2 and "unknown opencode plugin event" in _answer(result)["reason"]


@needs_node
def test_install_writes_the_plugin_the_server_and_the_local_hook(
    root: Path, run_cli: RunCli
) -> None:
    result = run_cli("install", "opencode", cwd=root)
    assert result.code == 0, result.err
    plugin = (root / PLUGIN).read_text(encoding="utf-8")
    assert "tool.execute.before" in plugin and '"read"' in plugin and '"write"' not in plugin
    server = json.loads((root / CONFIG).read_text(encoding="utf-8"))["mcp"]["paw"]
    assert server["type"] == "local" and server["command"][0] == "sh"
    assert "paw-tui.hook" in server["command"][2]
    assert (root / LOCAL_SETTINGS).read_text(encoding="utf-8").strip().endswith("hook")
    doctor = run_cli("doctor", cwd=root)
    assert "is paw-tui's current plugin" in doctor.out
    (canary,) = [line for line in doctor.out.splitlines() if "opencode canary" in line]
    assert canary.startswith("ok") and "the gate recorded that deny" in canary, doctor.out
    assert "the committed plugin's tool.execute.before, run as opencode runs it" in canary


@needs_node
def test_doctor_fails_a_plugin_that_does_not_load(root: Path, run_cli: RunCli) -> None:
    run_cli("install", "opencode", cwd=root)
    path = root / PLUGIN
    path.write_text(path.read_text(encoding="utf-8") + "\n}} paw-tui broken\n", encoding="utf-8")
    doctor = run_cli("doctor", cwd=root)
    (canary,) = [line for line in doctor.out.splitlines() if "opencode canary" in line]
    assert doctor.code == 2 and canary.startswith("FAIL"), doctor.out
    assert "opencode would run the tool: the plugin exited 1" in canary, canary
