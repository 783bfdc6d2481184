"""opencode runs a tool whenever paw-tui's plugin lets it (issue 19): the plugin must refuse
when the gate cannot answer. Each way the gate can fail is tried through the committed plugin,
loaded as opencode loads it (an ES module, here under node) and called as opencode calls
``tool.execute.before``: a missing paw-tui, a crash (exit 1), an answer that is not JSON, one
that is JSON but not an answer, and two answers; and the gate's own deny is passed through."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from paw_tui.core.clients.opencode import plugin_text

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="the plugin runs in node")

RUNNER = """
const mod = await import(process.argv[2]);
const hooks = await Object.values(mod)[0]({ directory: process.argv[3], worktree: process.argv[3] });
let thrown = null;
try {
  await hooks["tool.execute.before"](
    { tool: "write", sessionID: "s", callID: "c" }, { args: { filePath: "a.txt", content: "x" } });
} catch (error) { thrown = String(error.message || error); }
console.log(JSON.stringify({ thrown }));
"""


def _run(tmp_path: Path, hook: str) -> str | None:
    plugin = tmp_path / "paw-tui.mjs"
    plugin.write_text(plugin_text(), encoding="utf-8")
    runner = tmp_path / "runner.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    env = dict(os.environ, PAW_TUI_HOOK=hook)
    done = subprocess.run(
        ["node", str(runner), str(plugin), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    thrown: str | None = json.loads(done.stdout.strip().splitlines()[-1])["thrown"]
    return thrown


def _fake_gate(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-paw-tui"
    script.write_text("#!/bin/sh\ncat > /dev/null\n" + body + "\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("exit 1", "exit 1"),
        ("echo 'Traceback: boom'; exit 0", "without an answer"),
        ("echo '{\"ok\": true}'; exit 0", "without an answer"),
        ('echo \'{"decision": "allow"}{"decision": "allow"}\'; exit 0', "without an answer"),
        ("kill -9 $$", "exit null"),
    ],
)
def test_a_gate_that_gives_no_answer_refuses_the_call(tmp_path: Path, body: str, why: str) -> None:
    thrown = _run(tmp_path, _fake_gate(tmp_path, body))
    assert thrown is not None and thrown.startswith("paw-tui policy: the paw-tui gate could not")
    assert why in thrown


def test_a_missing_paw_tui_refuses_the_call(tmp_path: Path) -> None:
    thrown = _run(tmp_path, str(tmp_path / "no-such-paw-tui"))
    assert thrown is not None and "could not run here" in thrown and "ENOENT" in thrown


def test_the_gates_deny_is_thrown_and_its_allow_runs_the_tool(tmp_path: Path) -> None:
    deny = '{"decision": "deny", "reason": "Scope Violation: no"}'
    assert _run(tmp_path, _fake_gate(tmp_path, f"echo '{deny}'; exit 2")) == "Scope Violation: no"
    allow = '{"decision": "allow", "reason": null}'
    assert _run(tmp_path, _fake_gate(tmp_path, f"echo '{allow}'; exit 0")) is None
