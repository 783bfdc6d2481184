"""``doctor``'s canary for Copilot CLI, Cline, Qwen Code and opencode, against their real
binaries (issue 19).

After ``paw-tui install <client>`` the canary row is ok. Then the committed hook's paw-tui
loses its package (the venv the hook script runs is left with the launcher alone, as on a
teammate's clone whose venv broke): the hook, Cline's hook file and opencode's plugin still
refuse every call through their fail-closed fallbacks, and ``doctor`` must say so (the deny is
the fallback's, not the gate's) instead of passing. One real session per client shows what
doctor said: the write is refused and the gate, which never ran, recorded nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gatekit import launcher_only_hook

from . import pawkit
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = pytest.mark.realclient

KEYS = {
    "copilot": "copilot@1.0.102",
    "cline": "cline@3.0.65",
    "qwen-code": "qwen-code@0.24.4",
    "opencode": "opencode@1.18.33",
}
FALLBACK = "the deny came from its fail-closed fallback, not from the gate"


def _write(client: str, root: Path) -> ToolCall:
    """An in-scope write, as each client's model calls its file tool."""
    path = str(root / "src" / "x.txt")
    return {
        "copilot": ToolCall("create", {"path": path, "file_text": "x\n"}),
        "cline": ToolCall("editor", {"path": path, "new_text": "x\n"}),
        "qwen-code": ToolCall("write_file", {"file_path": path, "content": "x\n"}),
        "opencode": ToolCall("write", {"filePath": "src/x.txt", "content": "x\n"}),
    }[client]


def _point_hook(root: Path, client: str, env: dict[str, str], hook: str) -> None:
    """Where each client finds this machine's hook script: what its install wrote, or the
    exported ``PAW_TUI_HOOK`` its install asks for."""
    if client == "qwen-code":
        env_file = root / ".qwen" / ".env"
        lines = [
            line
            for line in env_file.read_text(encoding="utf-8").splitlines()
            if not line.startswith("PAW_TUI_HOOK=")
        ]
        env_file.write_text("\n".join([*lines, f"PAW_TUI_HOOK={hook}"]) + "\n", encoding="utf-8")
    elif client == "opencode":
        (root / ".opencode" / "paw-tui.hook").write_text(hook + "\n", encoding="utf-8")
    else:
        env["PAW_TUI_HOOK"] = hook


@pytest.mark.parametrize("client", sorted(KEYS))
def test_doctor_says_what_the_client_does_when_the_hook_s_paw_tui_is_gone(
    client: str, tmp_path: Path
) -> None:
    root, env = pawkit.workspace(tmp_path)
    home = (tmp_path / "home").resolve()
    env["COPILOT_HOME"] = str(home / ".copilot")  # the trusted folder goes there
    env["CLINE_DATA_DIR"] = str(home / ".cline" / "data")  # and Cline's MCP settings here
    pawkit.install(root, env, client)
    env["PATH"] = pawkit.without_paw_on_path()
    _point_hook(root, client, env, str(tmp_path / "paw-state" / "hook"))
    status, detail = pawkit.canary_row(root, env, client)
    assert status == "ok" and "the gate recorded that deny" in detail, detail

    _point_hook(root, client, env, launcher_only_hook(tmp_path / "gone"))
    status, detail = pawkit.canary_row(root, env, client)
    assert status == "FAIL" and FALLBACK in detail, detail
    assert "every tool call is denied" in detail
    script: list[Step] = [_write(client, root), Text("done")]
    result = run_session(
        KEYS[client], root, "write src/x.txt", script, env=env, home=home, timeout=120,
        trust=client != "copilot",
    )  # fmt: skip
    assert result.ok, result.describe()
    # what doctor said: the call was refused, and nothing was decided by the gate
    assert not (root / "src" / "x.txt").exists()
    assert not (root / ".orchestration" / "agent_trace.jsonl").exists()
