"""paw-tui with the real Claude Code: the kernel boundary and drift detection (issue 9).

``paw-tui install claude-code`` wires the gate, the MCP server and (``settings.local.json``)
the shell's ``BASH_ENV``. A scripted model then selects an intent and tries, through Claude
Code's own Bash tool, the writes the gate cannot see; the workspace and the ledger show what
held them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paw_tui.core.confine import boundary

from .install import CLIENTS
from .pawsetup import SOURCE_INTENT, git, paw_workspace
from .recipes import shell
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = [
    pytest.mark.realclient,
    pytest.mark.skipif(not boundary.available(), reason="this kernel offers no Landlock"),
]

GOVERNANCE = "approval: none\n"


def _workspace(root: Path, state: Path) -> dict[str, str]:
    """Files, a git repository and ``paw-tui install claude-code``; the session's extra env."""
    files = {
        ".orchestration/active_intents.yaml": SOURCE_INTENT,
        ".orchestration/governance.yaml": GOVERNANCE,
        "src/a.py": "print('a')\n",
        "docs/d.md": "docs\n",
    }
    env = paw_workspace(root, state, files)
    local = json.loads((root / ".claude" / "settings.local.json").read_text(encoding="utf-8"))
    assert local["env"]["BASH_ENV"] == boundary.bash_env_path(str(root))
    return env


def _records(root: Path) -> list[dict[str, object]]:
    path = root / ".orchestration" / "agent_trace.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("key", [k for k in CLIENTS if k.startswith("claude-code")])
def test_claude_code_shell_runs_inside_the_intent(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "paw-state"))
    root = tmp_path / "ws"
    root.mkdir()
    root = root.resolve()
    env = _workspace(root, tmp_path / "paw-state")
    governance = (root / ".orchestration" / "governance.yaml").read_bytes()
    escape_docs = "python3 -c \"open('docs/d.md','a').write('x')\"; echo rc=$?"
    escape_policy = (
        "python3 -c \"open('.orchestration/governance.yaml','a').write('approval: none')\"; "
        "echo rc=$?"
    )
    commit = "echo ok > src/a.py && git add src/a.py && git commit -qm x && echo committed"
    script: list[Step] = [
        ToolCall("mcp__paw__select_active_intent", {"intent_id": "INT-001"}),
        shell("claude", escape_docs),
        shell("claude", escape_policy),
        shell("claude", commit),
        shell("claude", "echo x > docs/d.md"),
        Text("done"),
    ]
    result = run_session(
        key, root, "work on INT-001", script, env=env, timeout=120,
        home=tmp_path / "client-home",
    )  # fmt: skip
    assert result.ok, result.describe()
    docs_result = "\n".join(result.request_for_step(2).tool_results())
    policy_result = "\n".join(result.request_for_step(3).tool_results())
    commit_result = "\n".join(result.request_for_step(4).tool_results())
    denied_result = "\n".join(result.request_for_step(5).tool_results())
    # the kernel held both invisible writes: nothing changed, nothing to restore
    assert "Permission denied" in docs_result and "rc=1" in docs_result, docs_result
    assert "Permission denied" in policy_result, policy_result
    assert (root / "docs" / "d.md").read_text(encoding="utf-8") == "docs\n"
    assert (root / ".orchestration" / "governance.yaml").read_bytes() == governance
    # ordinary work inside the scope, git included
    assert "committed" in commit_result, commit_result
    assert (root / "src" / "a.py").read_text(encoding="utf-8") == "ok\n"
    assert git(root, "log", "--oneline", env={**os.environ, **env}).count("\n") == 1
    # the write the gate can see is denied before it runs
    assert "Scope Violation" in denied_result, denied_result
    records = _records(root)
    shells = [r for r in records if r.get("tool") == "Bash" and r.get("event") == "tool_allowed"]
    assert len(shells) == 3 and {r.get("protection") for r in shells} == {"kernel boundary"}
    assert not [r for r in records if r.get("event") == "scope_breach"], records


@pytest.mark.parametrize("key", ["claude-code@2.1.330"])
def test_without_the_boundary_drift_records_and_undoes(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same escapes with the shell left unconfined (no BASH_ENV): the protected file is put
    back, the out-of-scope one stays changed, one scope_breach each, and the model is told."""
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "paw-state"))
    root = tmp_path / "ws"
    root.mkdir()
    root = root.resolve()
    env = _workspace(root, tmp_path / "paw-state")
    local = root / ".claude" / "settings.local.json"
    settings = json.loads(local.read_text(encoding="utf-8"))
    del settings["env"]["BASH_ENV"]
    local.write_text(json.dumps(settings), encoding="utf-8")
    governance = (root / ".orchestration" / "governance.yaml").read_bytes()
    escape_policy = (
        "python3 -c \"open('.orchestration/governance.yaml','a').write('approval: none')\""
    )
    script: list[Step] = [
        ToolCall("mcp__paw__select_active_intent", {"intent_id": "INT-001"}),
        shell("claude", "python3 -c \"open('docs/d.md','a').write('x')\""),
        shell("claude", escape_policy),
        Text("done"),
    ]
    result = run_session(
        key, root, "work on INT-001", script, env=env, timeout=120,
        home=tmp_path / "client-home",
    )  # fmt: skip
    assert result.ok, result.describe()
    assert (root / "docs" / "d.md").read_text(encoding="utf-8") == "docs\nx"
    assert (root / ".orchestration" / "governance.yaml").read_bytes() == governance
    breaches = [r for r in _records(root) if r.get("event") == "scope_breach"]
    assert [r.get("paths") for r in breaches] == [
        ["docs/d.md"],
        [".orchestration/governance.yaml"],
    ]
    assert breaches[1].get("restored") == [".orchestration/governance.yaml"]
    shells = [
        r for r in _records(root) if r.get("tool") == "Bash" and r.get("event") == "tool_allowed"
    ]
    assert {r.get("protection") for r in shells} == {"gate + drift detection"}
    told = result.request_for_step(3)
    assert told.contains("recorded as a scope breach") and told.contains("were undone")
