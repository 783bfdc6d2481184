"""Codex patches that hide a file from the gate: Codex's grammar against the gate's.

Codex has no kernel boundary and drift detection does not bracket a patch (the ``apply_patch``
tool is not a shell call, and a patch sent through the shell is applied by Codex itself, with
no PostToolUse), so the gate's reading of the patch is the only check: every file Codex would
write must be one the gate names. Each way below was found against the real Codex 0.169.0
(``tests/data/codex_patch_grammar.json``; end to end in
``tests/realclients/test_codex_patch_grammar.py``). INT-001 owns ``src/auth/**`` and
``tests/auth/**``.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from .kit import (
    SESSION,
    GateResult,
    assert_allowed,
    assert_blocked,
    assert_denied,
    gate,
    records,
    selected,
)

TARGET = ".orchestration/active_intents.yaml"
OK = "*** Add File: src/auth/ok.py\n+ok = 1\n"
HIDDEN = f"*** Add File: {TARGET}\n+active_intents: []\n"
UPDATE = "*** Update File: src/auth/login.py\n@@\n-    pass\n+    return None\n"
BEGIN, END = "*** Begin Patch\n", "*** End Patch\n"


def codex_call(root: Path, tool: str, command: str, *, cwd: Path | None = None) -> GateResult:
    """Codex's PreToolUse for ``apply_patch`` (the raw patch) or ``Bash`` (a command)."""
    payload = {
        "session_id": SESSION,
        "turn_id": "01a20bc0-d515-7662-af73-bdd4b26cc8ba",
        "transcript_path": "/home/dev/.codex/sessions/rollout.jsonl",
        "cwd": str(cwd or root),
        "hook_event_name": "PreToolUse",
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": f"call_{uuid.uuid4().hex[:12]}",
    }
    return gate(payload, client="codex")


HIDDEN_IN_A_PATCH = {
    "indented by a space after an Add": BEGIN + OK + " " + HIDDEN + END,
    "indented by a tab": BEGIN + OK + "\t" + HIDDEN + END,
    "indented by a no-break space": BEGIN + OK + "\u00a0" + HIDDEN + END,
    "indented by a line separator": BEGIN + OK + "\u2028" + HIDDEN + END,
    "indented by a vertical tab": BEGIN + OK + "\x0b" + HIDDEN + END,
    "indented by a form feed": BEGIN + OK + "\x0c" + HIDDEN + END,
    "indented by NEL": BEGIN + OK + "\x85" + HIDDEN + END,
    "indented by an ideographic space": BEGIN + OK + "\u3000" + HIDDEN + END,
    "indented as the first hunk": BEGIN + "  " + HIDDEN + END,
    "indented after a Delete": BEGIN + "*** Delete File: src/auth/old.py\n " + HIDDEN + END,
    "right after an Update chunk": BEGIN + UPDATE + HIDDEN + END,
    "after an End of File line": BEGIN + UPDATE + "*** End of File\n" + HIDDEN + END,
    "after an empty line ending a chunk": BEGIN + UPDATE + "*** End of File\n\n" + HIDDEN + END,
    "with trailing spaces": BEGIN + OK + f"*** Add File: {TARGET}   \n+x\n" + END,
    "as a Delete": BEGIN + OK + f"\t*** Delete File: {TARGET}\n" + END,
    "as an Update": BEGIN + OK + f" *** Update File: {TARGET}\n@@\n-a\n+b\n" + END,
    "as a Move target": BEGIN
    + "*** Update File: src/auth/login.py\n*** Move to: .git/hooks/post-checkout  \n@@\n-x\n+y\n"
    + END,
    "in CRLF lines": (BEGIN + OK + " " + HIDDEN + END).replace("\n", "\r\n"),
    "inside heredoc markers": "<<'EOF'\n" + BEGIN + OK + " " + HIDDEN + END + "EOF\n",
    "with padded markers": "  *** Begin Patch \n" + OK + "\u00a0" + HIDDEN + "\t*** End Patch ",
    "behind an End Patch and blank lines": BEGIN + OK + " " + HIDDEN + END + " \n\t\n" + END,
}


@pytest.mark.parametrize("body", HIDDEN_IN_A_PATCH.values(), ids=HIDDEN_IN_A_PATCH.keys())
def test_a_file_hidden_in_the_patch_tool_is_seen(wsroot: Path, body: str) -> None:
    selected(wsroot, "INT-001")
    before = (wsroot / ".git" / "config").read_bytes()
    hidden = ".git/hooks/post-checkout" if "Move to" in body else TARGET
    reason = assert_blocked(codex_call(wsroot, "apply_patch", body), hidden, "INT-001")
    assert "src/auth/ok.py" not in reason  # the in-scope file is not the one blamed
    denied = records(wsroot)[-1]
    assert denied["event"] == "tool_denied" and hidden in denied["paths"]  # type: ignore[operator]
    assert (wsroot / ".git" / "config").read_bytes() == before


HIDDEN_THROUGH_THE_SHELL = {
    "apply_patch heredoc": "apply_patch <<'EOF'\n" + BEGIN + OK + " " + HIDDEN + END + "EOF\n",
    "applypatch heredoc": "applypatch <<'EOF'\n" + BEGIN + OK + HIDDEN + END + "EOF\n",
    "unquoted delimiter": "applypatch <<PATCH\n" + BEGIN + OK + "\t" + HIDDEN + END + "PATCH\n",
    "no closing delimiter": "apply_patch <<'EOF'\n" + BEGIN + OK + " " + HIDDEN + END,
    "cd into the protected directory": "cd .orchestration && apply_patch <<'EOF'\n"
    + BEGIN
    + "*** Add File: active_intents.yaml\n+x\n"
    + END
    + "EOF\n",
    "cd out of the scope": "cd src/auth && apply_patch <<'EOF'\n"
    + BEGIN
    + "*** Add File: ok.py\n+x\n*** Add File: ../../.orchestration/active_intents.yaml\n+x\n"
    + END
    + "EOF\n",
}


@pytest.mark.parametrize(
    "command", HIDDEN_THROUGH_THE_SHELL.values(), ids=HIDDEN_THROUGH_THE_SHELL.keys()
)
def test_a_file_hidden_in_a_patch_sent_through_the_shell_is_seen(
    wsroot: Path, command: str
) -> None:
    """Codex applies these itself (no bash, no PostToolUse, so no drift detection after)."""
    selected(wsroot, "INT-001")
    assert_blocked(codex_call(wsroot, "Bash", command), TARGET, "INT-001")


def test_a_patch_in_the_shell_codex_places_under_its_workdir(wsroot: Path) -> None:
    """exec_command's ``workdir`` arrives as the payload's cwd: the patch's paths are relative
    to it, as Codex applies them."""
    selected(wsroot, "INT-001")
    command = "apply_patch <<'EOF'\n" + BEGIN + "*** Add File: active_intents.yaml\n+x\n" + END
    result = codex_call(wsroot, "Bash", command + "EOF\n", cwd=wsroot / ".orchestration")
    assert_blocked(result, TARGET, "INT-001")


UNREADABLE_SHELL_FORMS = {
    "after another command": "true; apply_patch <<'EOF'\n" + BEGIN + OK + END + "EOF\n",
    "as an argument": "apply_patch '" + BEGIN + OK + END + "'",
    "on its input": "printf '%s' '" + BEGIN + OK + END + "' | applypatch",
    "cd to a variable": "cd $DIR && apply_patch <<'EOF'\n" + BEGIN + OK + END + "EOF\n",
    "a delimiter line with spaces": "apply_patch <<'EOF'\n" + BEGIN + OK + " EOF\n" + END + "EOF\n",
}


@pytest.mark.parametrize(
    "command", UNREADABLE_SHELL_FORMS.values(), ids=UNREADABLE_SHELL_FORMS.keys()
)
def test_a_patch_in_any_other_shell_form_is_denied(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    reason = assert_denied(codex_call(wsroot, "Bash", command))
    assert "apply_patch" in reason and "cannot be read" in reason, reason


def test_a_patch_codex_would_refuse_is_denied(wsroot: Path) -> None:
    """A zero-width space is not whitespace to Codex: it refuses the patch; so does the gate,
    rather than guess."""
    selected(wsroot, "INT-001")
    body = BEGIN + OK + "\u200b" + HIDDEN + END
    assert "cannot be read" in assert_denied(codex_call(wsroot, "apply_patch", body))


def test_what_codex_reads_as_context_is_not_a_file(wsroot: Path) -> None:
    """Inside an Update chunk an indented header is a context line to Codex (it changes no
    other file): the patch stays allowed."""
    selected(wsroot, "INT-001")
    body = BEGIN + UPDATE + f" *** Add File: {TARGET}\n" + END
    assert_allowed(codex_call(wsroot, "apply_patch", body))
    assert records(wsroot)[-1]["paths"] == ["src/auth/login.py"]


def test_a_backslash_in_a_patch_path_is_denied(wsroot: Path) -> None:
    """To the gate ``\\`` separates (``src\\auth\\x.py`` is in scope); to Codex on Linux it is
    part of one file name, written at the root, out of scope."""
    selected(wsroot, "INT-001")
    body = BEGIN + "*** Add File: src\\auth\\x.py\n+x\n" + END
    reason = assert_denied(codex_call(wsroot, "apply_patch", body))
    assert "backslash" in reason, reason


def test_a_patch_too_long_to_read_in_time_is_denied(wsroot: Path) -> None:
    """Reading is linear, but a hostile patch of one-line chunks costs microseconds a line:
    past MAX_PATCH characters the gate refuses it rather than answer after the client's hook
    timeout (when the client runs the tool anyway)."""
    from paw_tui.gate.patch import MAX_PATCH

    selected(wsroot, "INT-001")
    chunks = "@@\n+y\n" * (MAX_PATCH // 6 + 1)
    body = BEGIN + "*** Update File: src/auth/login.py\n" + chunks + " " + HIDDEN + END
    reason = assert_denied(codex_call(wsroot, "apply_patch", body))
    assert "smaller patches" in reason, reason


def test_a_patch_through_a_shell_tool_s_directory_field_is_placed_there(wsroot: Path) -> None:
    """A shell tool with a working-directory field (Gemini's ``dir_path``): the heredoc's
    paths are relative to it, not to the payload's cwd."""
    selected(wsroot, "INT-001")
    command = "apply_patch <<'EOF'\n" + BEGIN + "*** Add File: src/auth/x.py\n+x\n" + END + "EOF\n"
    payload = {
        "session_id": SESSION,
        "transcript_path": "/home/dev/.gemini/tmp/ws/chats/session.jsonl",
        "cwd": str(wsroot),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-24T04:11:54.247Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "dir_path": ".orchestration"},
    }
    answer = gate(payload, client="gemini-cli")  # Gemini's deny: exit 0, the decision in JSON
    assert answer.code == 0, answer.err
    decision = json.loads(answer.out)
    assert decision["decision"] == "deny", decision
    assert ".orchestration/src/auth/x.py" in decision["reason"], decision
