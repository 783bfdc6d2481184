"""Codex CLI: the gate on Codex's payloads (recorded from the real 0.169.0 in
``tests/data/codex/``), and ``paw-tui install codex`` / ``doctor``."""

from __future__ import annotations

import copy
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from gatekit import NO_INTENT, events, paw_state_dir, records, root

from paw_tui.core.clients import codex_trust
from paw_tui.core.clients.commands import portable_hook_command, portable_mcp_command
from paw_tui.gate.main import decide_payload

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

DATA = Path(__file__).resolve().parent.parent / "data" / "codex"
SESSION = "01a20bc0-d4d0-71f2-a0cd-b834dadbb42e"  # the recorded thread id
SELECT = "mcp__paw__select_active_intent"
GATE = portable_hook_command("codex")


def payload(name: str, root: Path, **fields: object) -> dict[str, Any]:
    """A recorded payload with ``__ROOT__`` replaced; ``fields`` set top-level keys."""
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text.replace("__ROOT__", json.dumps(str(root))[1:-1]))
    body: dict[str, Any] = data["payload"]
    body.update(copy.deepcopy(fields))
    return body


def patch_payload(root: Path, *lines: str, through_shell: bool = False) -> dict[str, Any]:
    body = "*** Begin Patch\n" + "".join(f"{line}\n" for line in lines) + "*** End Patch\n"
    if through_shell:
        command = f"apply_patch <<'EOF'\n{body}EOF\n"
        return payload("pre_tool_use_bash_apply_patch", root, tool_input={"command": command})
    return payload("pre_tool_use_apply_patch", root, tool_input={"command": body})


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.out)
        return data

    def denial(self) -> str:
        """The deny reason, after checking both channels carry it (JSON and exit 2 + stderr)."""
        assert self.code == 2, (self.code, self.out, self.err)
        specific = self.json["hookSpecificOutput"]
        assert specific["hookEventName"] == "PreToolUse"
        assert specific["permissionDecision"] == "deny"
        reason: str = specific["permissionDecisionReason"]
        assert self.err == reason + "\n"
        return reason

    def context(self) -> str | None:
        if not self.out:
            return None
        specific = self.json.get("hookSpecificOutput", {})
        value = specific.get("additionalContext")
        return value if isinstance(value, str) else None


def gate(data: object, event: str | None = None) -> Result:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    answer = decide_payload(raw, client="codex", event_override=event, environ=dict(os.environ))
    return Result(answer.exit_code, answer.stdout, answer.stderr)


def select(root: Path, intent_id: str = "INT-001") -> Result:
    result = gate(payload("pre_tool_use_mcp_select", root, tool_input={"intent_id": intent_id}))
    assert result.code == 0, (result.out, result.err)
    return result


# --- the gate on Codex's payloads ---------------------------------------------------------


def test_a_patch_before_selection_is_denied_with_the_way_to_the_handshake(root: Path) -> None:
    reason = gate(payload("pre_tool_use_apply_patch", root)).denial()
    assert NO_INTENT in reason
    assert "tool_search" in reason and "mcp__paw" in reason  # Codex defers MCP tools
    assert not (root / "src" / "auth" / "jwt.py").exists()
    denied = [r for r in records(root) if r["event"] == "tool_denied"]
    assert [(r["tool"], r["paths"], r["session_id"]) for r in denied] == [
        ("apply_patch", ["src/auth/jwt.py"], SESSION)
    ]


@pytest.mark.parametrize("tool", ["paw_get_context", "list_intents", "check_scope"])
def test_paw_s_read_only_tools_under_codex_s_mcp_name_need_no_intent(root: Path, tool: str) -> None:
    result = gate(payload("pre_tool_use_mcp_select", root, tool_name=f"mcp__paw__{tool}"))
    assert (result.code, result.out) == (0, ""), result.out


def test_the_handshake_under_codex_s_mcp_name_selects_the_intent(root: Path) -> None:
    select(root)
    selected = [r for r in records(root) if r["event"] == "intent_selected"]
    assert [(r["tool"], r["intent_id"], r["session_id"]) for r in selected] == [
        (SELECT, "INT-001", SESSION)
    ]
    allowed = gate(payload("pre_tool_use_apply_patch", root))
    assert allowed.code == 0 and "permissionDecision" not in allowed.out, allowed.out
    posted = gate(payload("post_tool_use_apply_patch", root))
    assert posted.code == 0, posted.err
    mutations = [r for r in records(root) if r["event"] == "mutation"]
    assert [(r["tool"], r["paths"], r["session_id"]) for r in mutations] == [
        ("apply_patch", ["src/auth/jwt.py"], SESSION)
    ]


@pytest.mark.parametrize(
    ("lines", "outside"),
    [
        (("*** Add File: src/auth/a.py", "+x", "*** Add File: docs/b.md", "+y"), "docs/b.md"),
        (("*** Update File: src/auth/a.py", "*** Move to: old/a.py", "@@", "-x", "+y"), "old/a.py"),
        (("*** Delete File: README.md",), "README.md"),
    ],
    ids=["add", "move", "delete"],
)
def test_a_patch_is_denied_as_a_whole_when_one_file_is_out_of_scope(
    root: Path, lines: tuple[str, ...], outside: str
) -> None:
    select(root)
    reason = gate(patch_payload(root, *lines)).denial()
    assert reason.startswith(f"Scope Violation: INT-001 is not authorized to edit {outside}")
    assert "mutation" not in events(root)


def test_apply_patch_through_the_shell_is_read_as_a_patch(root: Path) -> None:
    select(root)
    through = patch_payload(root, "*** Add File: docs/x.md", "+x", through_shell=True)
    reason = gate(through).denial()
    assert "Scope Violation: INT-001 is not authorized to edit docs/x.md" in reason
    inside = gate(payload("pre_tool_use_bash_apply_patch", root))
    assert inside.code == 0, inside.out


def test_a_shell_write_out_of_scope_is_a_scope_violation(root: Path) -> None:
    select(root)
    inside = gate(payload("pre_tool_use_bash", root))
    assert inside.code == 0, inside.out
    outside = payload("pre_tool_use_bash", root, tool_input={"command": "echo x > docs/s.md"})
    reason = gate(outside).denial()
    assert reason.startswith("Scope Violation: INT-001 is not authorized to edit docs/s.md")
    assert reason.endswith("call mcp__paw__request_scope_expansion(pattern, reason).")


def test_a_shell_command_is_placed_in_its_workdir(root: Path) -> None:
    """Codex sends an ``exec_command``'s ``workdir`` as the payload's ``cwd`` (observed)."""
    select(root)
    (root / "src" / "auth").mkdir(parents=True)
    inside = payload("pre_tool_use_bash", root, cwd=str(root / "src" / "auth"))
    inside["tool_input"] = {"command": "echo x > notes.txt"}
    assert gate(inside).code == 0
    inside["tool_input"] = {"command": "echo x > ../../docs/a.md"}
    assert "not authorized to edit docs/a.md" in gate(inside).denial()


def test_session_start_and_prompt_inject_governance_and_never_block(root: Path) -> None:
    started = gate(payload("session_start", root))
    assert started.code == 0
    context = started.context()
    assert context is not None and "INT-001" in context
    assert started.json.get("systemMessage")  # the person is told too
    prompted = gate(payload("user_prompt_submit", root))
    assert prompted.code == 0, prompted.out


def test_stop_ends_a_turn_not_the_session(root: Path) -> None:
    select(root)
    before = records(root)
    stopped = gate(payload("stop", root))
    assert (stopped.code, stopped.out) == (0, "")
    assert records(root) == before
    assert gate(payload("pre_tool_use_apply_patch", root)).code == 0  # still holds INT-001


def test_session_end_releases_the_intent(root: Path) -> None:
    select(root)
    ended = gate(payload("session_end", root))
    assert (ended.code, ended.out) == (0, "")
    assert events(root)[-1] == "session_released"
    assert NO_INTENT in gate(payload("pre_tool_use_apply_patch", root)).denial()


def test_a_post_tool_event_of_another_tool_is_quiet(root: Path) -> None:
    select(root)
    result = gate(payload("post_tool_use_mcp_select", root))
    assert result.code == 0 and result.err == "", result.err


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"hook_event_name": None}, "hook_event_name"),
        ({"hook_event_name": "BeforeEverything"}, "unknown Codex hook event 'BeforeEverything'"),
        ({"session_id": ""}, "session_id"),
        ({"tool_name": None}, "tool_name"),
        ({"tool_input": ["x"]}, "the tool_input of apply_patch is not an object"),
        ({"tool_input": {}}, "apply_patch has no patch"),
        ({"tool_input": {"command": "*** Add File: a"}}, "the patch of apply_patch cannot be read"),
        ({"tool_input": {"command": "*** Begin Patch\n*** End Patch\n"}}, "names no file"),
    ],
)
def test_a_malformed_pre_tool_payload_is_denied_naming_the_problem(
    root: Path, change: dict[str, object], named: str
) -> None:
    data = payload("pre_tool_use_apply_patch", root)
    for key, value in change.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    reason = gate(data).denial()
    assert reason.startswith("paw-tui policy: cannot classify this event"), reason
    assert named in reason


def test_a_shell_call_without_a_command_is_denied(root: Path) -> None:
    reason = gate(payload("pre_tool_use_bash", root, tool_input={"command": 7})).denial()
    assert "Bash has no command to run" in reason


def test_bytes_that_are_not_json_are_denied(root: Path) -> None:
    assert "not valid JSON" in gate(b"{not json").denial()


def test_a_hook_configured_for_one_event_refuses_another(root: Path) -> None:
    reason = gate(payload("session_start", root), event="pre_tool").denial()
    assert "configured for pre_tool" in reason


def test_a_broken_prompt_event_is_answered_with_context_not_a_block(root: Path) -> None:
    data = payload("user_prompt_submit", root)
    data.pop("session_id")
    result = gate(data)
    assert result.code == 0
    assert "Orchestration state unavailable" in (result.context() or "")


# --- Codex's trust hash -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "matcher", "handler", "reported"),
    [
        (
            "pre_tool_use",
            None,
            {"type": "command", "command": "/tmp/codexprobe/hook.py", "timeout": 10},
            "sha256:b9b0ef1ed7c84901f08bfd9b27e5703b98ac0933e549fdd14d936e5dea71077c",
        ),
        (
            "post_tool_use",
            "^(Bash|apply_patch)$",
            {"type": "command", "command": "/tmp/codexprobe/hook.py x", "timeout": 10},
            "sha256:f2d389453f26abff46e3e9eee7bb2c6f10d9b054ff3faa569daab5a63b3df9cc",
        ),
        (
            "session_end",
            None,
            {"type": "command", "command": "/tmp/codexprobe/hook.py", "timeout": 10},
            "sha256:5bf8f6ebe1281b75d72419c802ddf3ddc78eaf91d4b39e6ba325c38c1f1a81e8",
        ),
        (
            "session_end",
            None,
            {"type": "command", "command": "b"},
            "sha256:60c18d5d3666ebfcf71a492a0608800064315d5c8ea3b917b7ef513605e712fe",
        ),
        (
            "user_prompt_submit",
            "abc",  # Codex ignores a prompt hook's matcher, and leaves it out of the hash
            {"type": "command", "command": "/tmp/codexprobe/hook.py", "timeout": 10},
            "sha256:be821107ffcf83d78cef1d65fd2e437679d97c07d38b87f0ff575b7cb99521c3",
        ),
        (
            "session_start",
            "*",
            {"type": "command", "command": "d"},
            "sha256:883c92a6fbf306de7c46f37241316370dbdbd683aaadda9b3e91abcde8e5166d",
        ),
    ],
)
def test_the_trust_hash_is_the_one_codex_reports(
    label: str, matcher: str | None, handler: dict[str, object], reported: str
) -> None:
    """The hashes ``codex app-server`` (0.169.0) reported in ``hooks/list`` for these hooks."""
    assert codex_trust.hook_hash(label, matcher, handler) == reported


# --- paw-tui install codex ----------------------------------------------------------------


@pytest.fixture
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def install(run_cli: RunCli, root: Path, *extra: str) -> Any:
    return run_cli("install", "codex", *extra, cwd=root)


def hooks_json(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / ".codex" / "hooks.json").read_text("utf-8"))
    return data


def toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def trusted_hashes(codex_home: Path) -> dict[str, str]:
    states = toml(codex_home / "config.toml").get("hooks", {}).get("state", {})
    return {key: value["trusted_hash"] for key, value in states.items()}


def our_handlers(root: Path) -> dict[str, tuple[int, dict[str, Any], str | None]]:
    """event -> (group index, handler, matcher) of paw-tui's gate handler."""
    found = {}
    for event, groups in hooks_json(root)["hooks"].items():
        for index, group in enumerate(groups):
            for handler in group["hooks"]:
                if handler["command"] == GATE:
                    found[event] = (index, handler, group.get("matcher"))
    return found


LABELS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "SessionEnd": "session_end",
}


def expected_trust(root: Path) -> dict[str, str]:
    hooks_file = root / ".codex" / "hooks.json"
    return {
        f"{hooks_file}:{LABELS[event]}:{index}:0": codex_trust.hook_hash(
            LABELS[event], matcher, handler
        )
        for event, (index, handler, matcher) in our_handlers(root).items()
    }


def test_install_writes_hooks_server_and_trust(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    for path in (".codex/hooks.json", ".codex/config.toml"):
        assert f"created    {root / path}" in result.out
        text = (root / path).read_text(encoding="utf-8")
        assert str(root) not in text and os.path.dirname(sys.executable) not in text
    handlers = our_handlers(root)
    assert sorted(handlers) == sorted(LABELS)
    assert handlers["PreToolUse"][2] is None  # every tool Codex hooks
    assert handlers["PostToolUse"][2] == "^(Bash|apply_patch)$"
    assert all("(?" not in (matcher or "") for _, _, matcher in handlers.values())
    assert handlers["SessionEnd"][1]["timeout"] <= 3  # Codex cuts SessionEnd hooks to 3 s
    server = toml(root / ".codex" / "config.toml")["mcp_servers"]["paw"]
    assert server == {
        "command": "sh",
        "args": portable_mcp_command()[1:],
        "env_vars": ["PAW_TUI_HOOK", "PAW_STATE_DIR", "XDG_STATE_HOME"],
        "default_tools_approval_mode": "approve",
    }
    user = toml(codex_home / "config.toml")
    assert user["projects"][str(root)] == {"trust_level": "trusted"}
    assert trusted_hashes(codex_home) == expected_trust(root)
    assert "export PAW_TUI_HOOK=" in result.out  # the variable Codex's config cannot hold
    assert "this project is now trusted" in result.out
    assert "the hashes of paw-tui's 5 hooks are recorded as trusted" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli, codex_home: Path) -> None:
    install(run_cli, root)
    before = {p: p.read_bytes() for p in (root / ".codex").iterdir()}
    user = (codex_home / "config.toml").read_bytes()
    again = install(run_cli, root)
    assert again.code == 0
    assert "created" not in again.out and "updated" not in again.out
    assert "now trusted" not in again.out and "recorded as trusted" not in again.out
    assert {p: p.read_bytes() for p in (root / ".codex").iterdir()} == before
    assert (codex_home / "config.toml").read_bytes() == user


USER_HOOKS: dict[str, Any] = {
    "hooks": {
        "PreToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "lint"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}],
    },
    "note": "kept",
}
PROJECT_TOML = """\
# the team's Codex settings
model = "gpt-5.5"

[mcp_servers.docs]
command = "docs-server"   # keep me

[mcp_servers.paw.env]
EXTRA = "1"

[mcp_servers.paw]
command = "old"
args = [
  "a",
  "b",
]
startup_timeout_sec = 30
"""
USER_TOML = """\
# my Codex
model = "gpt-5.5"
[projects."/elsewhere"]
trust_level = "trusted"
"""


def test_install_merges_and_never_clobbers(root: Path, run_cli: RunCli, codex_home: Path) -> None:
    (root / ".codex").mkdir()
    (root / ".codex" / "hooks.json").write_text(json.dumps(USER_HOOKS), encoding="utf-8")
    (root / ".codex" / "config.toml").write_text(PROJECT_TOML, encoding="utf-8")
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(USER_TOML, encoding="utf-8")
    assert install(run_cli, root).code == 0
    hooks = hooks_json(root)
    assert hooks["note"] == "kept"
    assert hooks["hooks"]["Stop"] == USER_HOOKS["hooks"]["Stop"]
    assert hooks["hooks"]["PreToolUse"][0] == USER_HOOKS["hooks"]["PreToolUse"][0]
    assert our_handlers(root)["PreToolUse"][0] == 1  # after the person's group: key index 1
    project = (root / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert project.startswith("# the team's Codex settings\n")
    assert 'command = "docs-server"   # keep me' in project
    data = tomllib.loads(project)
    assert data["mcp_servers"]["docs"] == {"command": "docs-server"}
    paw = data["mcp_servers"]["paw"]
    assert paw["env"] == {"EXTRA": "1"} and paw["startup_timeout_sec"] == 30
    assert paw["command"] == "sh" and paw["default_tools_approval_mode"] == "approve"
    user_text = (codex_home / "config.toml").read_text(encoding="utf-8")
    assert user_text.startswith(USER_TOML)
    user = tomllib.loads(user_text)
    assert user["projects"]["/elsewhere"] == {"trust_level": "trusted"}
    assert user["model"] == "gpt-5.5"
    assert trusted_hashes(codex_home) == expected_trust(root)


def test_install_replaces_an_older_paw_hook_and_trusts_the_new_one(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    install(run_cli, root)
    hooks = hooks_json(root)
    hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = "paw-tui gate --client codex"
    (root / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    assert install(run_cli, root).code == 0
    assert our_handlers(root)["PreToolUse"][0] == 0
    assert len(hooks_json(root)["hooks"]["PreToolUse"]) == 1
    assert set(expected_trust(root).items()) <= set(trusted_hashes(codex_home).items())


@pytest.mark.parametrize(
    ("where", "text", "message"),
    [
        ("hooks", '{"hooks": [,]}', "hooks.json:1: not valid JSON"),
        ("hooks", '{"hooks": {"PreToolUse": {}}}', "'hooks.PreToolUse' in"),
        ("project", "[mcp_servers\n", "config.toml: not valid TOML"),
        ("project", "mcp_servers = { paw = { command = 'x' } }\n", "written inline"),
        ("user", "model = \n", "config.toml: not valid TOML"),
    ],
)
def test_install_refuses_a_file_it_cannot_merge_and_writes_nothing(
    root: Path, run_cli: RunCli, codex_home: Path, where: str, text: str, message: str
) -> None:
    target = {
        "hooks": root / ".codex" / "hooks.json",
        "project": root / ".codex" / "config.toml",
        "user": codex_home / "config.toml",
    }[where]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code != 0 and result.out == ""
    assert str(target) in result.err and message in result.err, result.err
    assert "nothing was changed" in result.err
    assert target.read_text(encoding="utf-8") == text
    written = {
        p for folder in (root / ".codex", codex_home) if folder.is_dir() for p in folder.iterdir()
    }
    assert written == {target}


def test_a_project_the_person_marked_untrusted_stays_so_and_doctor_fails(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        f'[projects.{json.dumps(str(root))}]\ntrust_level = "untrusted"\n', encoding="utf-8"
    )
    result = install(run_cli, root)
    assert result.code == 0
    assert "marks this project untrusted" in result.out
    assert toml(codex_home / "config.toml")["projects"][str(root)]["trust_level"] == "untrusted"
    from paw_tui.core.clients import codex

    rows = codex.doctor(str(root))
    assert any(s == "FAIL" and "marked untrusted" in d for s, _, d in rows), rows


def test_dry_run_writes_nothing(root: Path, run_cli: RunCli, codex_home: Path) -> None:
    result = install(run_cli, root, "--dry-run")
    assert result.code == 0 and "would create" in result.out
    assert not (root / ".codex").exists() and not codex_home.exists()


# --- doctor -------------------------------------------------------------------------------


def doctor_rows(root: Path) -> list[tuple[str, str, str]]:
    from paw_tui.core.clients import codex

    return codex.doctor(str(root))


def failures(root: Path) -> list[str]:
    return [detail for status, _, detail in doctor_rows(root) if status == "FAIL"]


def test_doctor_says_nothing_where_codex_is_not_set_up(root: Path, codex_home: Path) -> None:
    assert doctor_rows(root) == []


def test_doctor_passes_after_install(
    root: Path,
    run_cli: RunCli,
    codex_home: Path,
    paw_state_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install(run_cli, root)
    # as the install's step says: PAW_TUI_HOOK exported where Codex starts (else every call
    # is denied, and the canary says so)
    monkeypatch.setenv("PAW_TUI_HOOK", str(paw_state_dir / "hook"))
    rows = doctor_rows(root)
    assert failures(root) == []
    assert (
        "ok",
        "codex",
        f"project and gate hooks trusted in {codex_home / 'config.toml'}",
    ) in rows
    assert ("ok", "codex", "the paw MCP server is configured in .codex/config.toml") in rows


def _edit_hooks(root: Path, change: Any) -> None:
    hooks = hooks_json(root)
    change(hooks["hooks"])
    (root / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")


def test_doctor_fails_on_a_hook_codex_would_skip_silently(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    install(run_cli, root)
    _edit_hooks(root, lambda h: h["PostToolUse"][0]["hooks"][0].update(timeout=11))
    assert any("PostToolUse gate hook is changed since it was trusted" in f for f in failures(root))
    user = codex_home / "config.toml"
    user.write_text(user.read_text("utf-8").replace("trusted_hash", "other"), "utf-8")
    assert any("PreToolUse gate hook is not trusted" in f for f in failures(root))
    result = run_cli("doctor", cwd=root)
    assert result.code == 2 and "Codex skips it silently" in result.out


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda h: h.pop("PreToolUse"), "no gate hook on PreToolUse"),
        (lambda h: h["PreToolUse"][0].update(matcher="^(?!Read$).*"), "look-around"),
    ],
    ids=["missing", "look-ahead"],
)
def test_doctor_fails_when_pre_tool_calls_would_run_unseen(
    root: Path, run_cli: RunCli, codex_home: Path, change: Any, named: str
) -> None:
    install(run_cli, root)
    _edit_hooks(root, change)
    assert any(named in f for f in failures(root)), doctor_rows(root)


def test_doctor_fails_when_the_project_or_hooks_feature_is_off(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    install(run_cli, root)
    user = codex_home / "config.toml"
    text = user.read_text("utf-8")
    user.write_text(text.replace('trust_level = "trusted"', 'trust_level = "x"'), "utf-8")
    assert any("Codex ignores .codex/ here" in f for f in failures(root))
    user.write_text(text + "\n[features]\nhooks = false\n", "utf-8")
    assert any("hooks are turned off" in f for f in failures(root))


def test_doctor_warns_when_the_paw_server_cannot_be_called(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    install(run_cli, root)
    config = root / ".codex" / "config.toml"
    config.write_text(config.read_text("utf-8").replace('"approve"', '"prompt"'), "utf-8")
    rows = doctor_rows(root)
    assert any(s == "warn" and "default_tools_approval_mode" in d for s, _, d in rows)
    config.write_text("", "utf-8")
    assert any(s == "warn" and "no [mcp_servers.paw]" in d for s, _, d in doctor_rows(root))


def test_doctor_fails_on_a_config_codex_cannot_read(
    root: Path, run_cli: RunCli, codex_home: Path
) -> None:
    install(run_cli, root)
    config = root / ".codex" / "config.toml"
    config.write_text("[mcp_servers.paw\n", "utf-8")
    assert any(f.startswith(f"{config}: not valid TOML") for f in failures(root)), failures(root)


def test_paw_tui_doctor_runs_the_codex_hook_on_a_canary(
    root: Path, run_cli: RunCli, codex_home: Path, paw_state_dir: Path
) -> None:
    """The configured PreToolUse command is run as Codex would: it must deny a Write without
    an intent; one that cannot run paw-tui fails closed, and one that allows is a FAIL."""
    install(run_cli, root)
    script = paw_state_dir / "hook"
    result = run_cli("doctor", cwd=root, env={"PAW_TUI_HOOK": str(script)})
    canary = [line for line in result.out.splitlines() if "codex canary" in line]
    assert canary and all(line.startswith("ok") for line in canary), result.out
    hooks = hooks_json(root)
    for group in hooks["hooks"]["PreToolUse"]:
        for hook in group["hooks"]:
            hook["command"] = "paw-tui gate --client codex >/dev/null; exit 0"
    (root / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    broken = run_cli("doctor", cwd=root)
    assert broken.code == 2
    assert any(
        line.startswith("FAIL") and "codex canary" in line and "exited 0" in line
        for line in broken.out.splitlines()
    )
