"""Cline CLI lets a tool run on any hook failure: no output, two JSON objects, one it cannot
read, a crash, a timeout (observed with 3.0.65). The installed PreToolUse file must give Cline
exactly one answer that refuses the call whenever the gate did not decide it, however the gate
failed: missing, crashed after printing an allow, or denying in another client's format (the
gate's own last-resort answer is Claude Code's)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from paw_tui.core.clients.cline import hook_script


def _run(tmp_path: Path, gate_body: str | None) -> list[dict[str, object]]:
    hook = tmp_path / "PreToolUse"
    hook.write_text(hook_script("PreToolUse"), encoding="utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH="/usr/bin:/bin")
    env.pop("PAW_TUI_HOOK", None)
    if gate_body is not None:
        fake = tmp_path / "fake-paw-tui"
        fake.write_text("#!/bin/sh\ncat > /dev/null\n" + gate_body + "\n", encoding="utf-8")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
        env["PAW_TUI_HOOK"] = str(fake)
    payload = {"hookName": "tool_call", "taskId": "t", "tool_call": {"name": "editor", "input": {}}}
    done = subprocess.run(
        [str(hook)], input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=30
    )
    assert done.returncode == 0
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "gate_body",
    [
        None,  # no paw-tui here
        "echo '{\"cancel\": false}'; exit 1",  # an allow, then a crash
        'echo \'{"hookSpecificOutput": {"permissionDecision": "deny"}}\'; exit 2',
        "exit 0",  # no answer at all
    ],
)
def test_no_decision_from_the_gate_is_one_cancel(tmp_path: Path, gate_body: str | None) -> None:
    (answer,) = _run(tmp_path, gate_body)
    assert answer["cancel"] is True
    assert str(answer["errorMessage"]).startswith("paw-tui policy: the paw-tui gate could not")


def test_the_gates_answer_is_passed_on_alone(tmp_path: Path) -> None:
    refusal = {"cancel": False, "overrideInput": {}, "contextModification": "Scope Violation"}
    assert _run(tmp_path, f"echo '{json.dumps(refusal)}'; exit 0") == [refusal]
