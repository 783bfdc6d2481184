"""Paths in any tool: a write through a tool the gate has no special knowledge of.

For any tool that is not known read-only, every string in its input (nested at any depth)
that names a path (absolute, ``~``, containing ``/`` or ``\\``, or naming an existing
workspace entry) is scope-checked like ``file_path``: MCP file servers, a client's new tool,
odd spellings of a path in a known file tool.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .kit import (
    PROTECTED,
    assert_allowed,
    assert_blocked,
    assert_denied,
    assert_protected,
    assert_scope_violation,
    gate,
    mcp_payload,
    selected,
    write_payload,
)

WIDE_MCP: dict[str, tuple[str, dict[str, object], str]] = {
    "MCP write into .orchestration": (
        "mcp__filesystem__write_file",
        {"path": ".orchestration/active_intents.yaml", "content": "active_intents: []\n"},
        ".orchestration/active_intents.yaml",
    ),
    "MCP move onto .git/config": (
        "mcp__filesystem__move_file",
        {"source": "src/a.py", "destination": ".git/config"},
        ".git/config",
    ),
    "bare name of an existing protected entry": (
        "mcp__filesystem__write_file",
        {"path": ".mcp.json", "content": "{}"},
        ".mcp.json",
    ),
    "backslash separators": (
        "mcp__filesystem__write_file",
        {"path": ".git\\hooks\\pre-commit", "content": "#!/bin/sh\n"},
        ".git/hooks/pre-commit",
    ),
    "absolute path into the workspace": (
        "mcp__filesystem__edit_file",
        {"path": "__ROOT__/.claude/settings.json", "edits": []},
        ".claude/settings.json",
    ),
    "traversal through an in-scope directory": (
        "mcp__filesystem__write_file",
        {"path": "src/../.orchestration/governance.yaml", "content": ""},
        ".orchestration/governance.yaml",
    ),
    "a path inside a list": (
        "mcp__filesystem__delete_files",
        {"paths": ["src/a.py", ".paw/instructions/Coder-instructions.md"]},
        ".paw/instructions/Coder-instructions.md",
    ),
    "a path deep inside objects and lists": (
        "mcp__refactor__apply",
        {"plan": {"steps": [{"ops": [{"write": {"target": ".codex/config.toml"}}]}]}},
        ".codex/config.toml",
    ),
    "Gemini-style MCP name": (
        "mcp_filesystem_write_file",
        {"path": ".gemini/settings.json", "content": "{}"},
        ".gemini/settings.json",
    ),
    "a client tool nobody catalogued": (
        "SuperWrite",
        {"destination": ".github/hooks/hooks.json", "text": "{}"},
        ".github/hooks/hooks.json",
    ),
}


@pytest.mark.parametrize("case", list(WIDE_MCP.values()), ids=list(WIDE_MCP))
def test_protected_paths_in_any_tool_input(
    wsroot: Path, case: tuple[str, dict[str, object], str]
) -> None:
    """A protected path in any field of any non-read-only tool is denied, even under ``**``."""
    tool, tool_input, rel = case
    selected(wsroot, "INT-006")
    concrete = _with_root(tool_input, wsroot)
    assert isinstance(concrete, dict)
    assert_blocked(gate(mcp_payload(wsroot, tool, concrete)), rel, "INT-006")


def _with_root(value: object, root: Path) -> object:
    if isinstance(value, str):
        return value.replace("__ROOT__", str(root))
    if isinstance(value, list):
        return [_with_root(v, root) for v in value]
    if isinstance(value, dict):
        return {k: _with_root(v, root) for k, v in value.items()}
    return value


def test_nested_path_outside_the_root(wsroot: Path) -> None:
    """``{"edits": [{"target": {"file": "/etc/passwd"}}]}``: outside the root, denied."""
    selected(wsroot, "INT-006")
    payload = mcp_payload(
        wsroot, "mcp__editor__apply_edits", {"edits": [{"target": {"file": "/etc/passwd"}}]}
    )
    reason = assert_denied(gate(payload))
    assert "/etc/passwd" in reason


def test_home_path_in_an_mcp_tool(wsroot: Path) -> None:
    """``~/.ssh/authorized_keys`` is outside the root: denied."""
    selected(wsroot, "INT-006")
    payload = mcp_payload(
        wsroot, "mcp__filesystem__write_file", {"path": "~/.ssh/authorized_keys", "content": "k"}
    )
    reason = assert_denied(gate(payload))
    assert "authorized_keys" in reason


def test_out_of_scope_paths_in_mcp_tools(wsroot: Path) -> None:
    """Under INT-001, an MCP write to ``docs/x.md`` is a Scope Violation, however nested."""
    selected(wsroot, "INT-001")
    flat = mcp_payload(wsroot, "mcp__filesystem__write_file", {"path": "docs/x.md", "c": "x"})
    assert_scope_violation(gate(flat), "INT-001", "docs/x.md")
    nested = mcp_payload(
        wsroot, "mcp__x__batch", {"ops": [{"file": "src/auth/a.py"}, {"file": "docs/x.md"}]}
    )
    assert_scope_violation(gate(nested), "INT-001", "docs/x.md")
    bare = mcp_payload(wsroot, "mcp__x__touch", {"name": "README.md"})
    assert_scope_violation(gate(bare), "INT-001", "README.md")


PROTECTED_FILES = [
    ".orchestration/active_intents.yaml",
    ".orchestration/governance.yaml",
    ".orchestration/agent_trace.jsonl",
    ".orchestration/sessions/s-alpha.json",
    ".orchestration/.cache/policy.json",
    ".paw/instructions/Coder-instructions.md",
    ".paw/tools/fmt.sh",
    ".git/config",
    ".git/hooks/pre-commit",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".mcp.json",
    ".gemini/settings.json",
    ".codex/config.toml",
    ".codex/hooks.json",
    ".cursor/hooks.json",
    ".github/hooks/hooks.json",
    ".vscode/mcp.json",
    ".windsurf/hooks.json",
    ".clinerules/hooks/pre.sh",
    ".kiro/hooks/x.kiro.hook",
    # issue 19: opencode runs every .opencode/plugin/*.js inside itself and npm-installs what
    # .opencode/package.json names; Qwen Code runs .qwen/settings.json's hooks
    ".opencode/plugin/paw-tui.js",
    ".opencode/plugins/other.ts",
    ".opencode/package.json",
    ".opencode/paw-tui.hook",
    "opencode.json",
    "opencode.jsonc",
    ".qwen/settings.json",
    ".qwen/.env",
    ".github/mcp.json",
]


@pytest.mark.parametrize("rel", PROTECTED_FILES)
def test_write_tool_to_protected_paths(wsroot: Path, rel: str) -> None:
    """The Write tool under ``**`` to every protected path: denied as protected, no invitation."""
    selected(wsroot, "INT-006")
    assert_protected(gate(write_payload(wsroot, rel)), rel)


@pytest.mark.parametrize(
    "spelling",
    [".GIT/config", ".Orchestration/governance.yaml", ".Claude/Settings.json", ".MCP.JSON"],
)
def test_protected_paths_compare_case_insensitively(wsroot: Path, spelling: str) -> None:
    """On a case-insensitive file system ``.GIT/config`` is ``.git/config``: denied."""
    selected(wsroot, "INT-006")
    assert_protected(gate(write_payload(wsroot, spelling)))


def test_a_git_file_is_protected_like_a_git_directory(wsroot: Path) -> None:
    """In a worktree ``.git`` is a file naming the real git directory: rewriting it is denied."""
    shutil.rmtree(wsroot / ".git")
    (wsroot / ".git").write_text("gitdir: /srv/repos/project.git/worktrees/ws\n")
    selected(wsroot, "INT-006")
    assert_protected(gate(write_payload(wsroot, ".git")))


@pytest.mark.parametrize(
    "path",
    [
        "src/auth/../../.git/config",
        "./.orchestration/../.orchestration/governance.yaml",
        ".git//config",
        "./.git/./hooks/../config",
    ],
)
def test_traversal_in_a_file_tool(wsroot: Path, path: str) -> None:
    """``..`` cannot walk a Write out of its scope into a protected path."""
    selected(wsroot, "INT-006")
    assert_protected(gate(write_payload(wsroot, path)))


def test_notebook_edit_and_multiedit_are_checked_too(wsroot: Path) -> None:
    """Every file tool, not only Write."""
    from gatekit import claude_payload

    selected(wsroot, "INT-006")
    notebook = claude_payload(
        "pre_tool_use_notebookedit",
        wsroot,
        session="s-alpha",
        replace_input={"notebook_path": f"{wsroot}/.git/hooks/x.ipynb", "new_source": "x"},
    )
    assert_protected(gate(notebook))
    multi = claude_payload(
        "pre_tool_use_multiedit",
        wsroot,
        session="s-alpha",
        tool_input={"file_path": f"{wsroot}/.mcp.json"},
    )
    assert_protected(gate(multi))


def test_unknown_tool_extra_fields_of_a_file_tool(wsroot: Path) -> None:
    """A Write whose in-scope ``file_path`` comes with an extra path field (a client that adds
    ``destination``) is checked on every path field."""
    selected(wsroot, "INT-007")
    payload = write_payload(wsroot, "src/a.py")
    tool_input = dict(payload["tool_input"])  # type: ignore[call-overload]
    tool_input["destination"] = ".git/config"
    payload["tool_input"] = tool_input
    assert_denied(gate(payload))


def test_in_scope_mcp_paths_pass(wsroot: Path) -> None:
    """False positive guard: nested in-scope paths and prose strings are allowed."""
    selected(wsroot, "INT-001")
    payload = mcp_payload(
        wsroot,
        "mcp__x__batch",
        {"ops": [{"file": "src/auth/a.py"}, {"file": "tests/auth/t.py"}], "note": "fix login"},
    )
    assert_allowed(gate(payload))


def test_proc_self_root_reaches_the_workspace(wsroot: Path) -> None:
    """``/proc/self/root/<root>/.git/config`` is ``<root>/.git/config`` by another name."""
    selected(wsroot, "INT-006")
    assert_protected(gate(write_payload(wsroot, f"/proc/self/root{wsroot}/.git/config")))


def test_a_nested_repository_s_hooks(wsroot: Path) -> None:
    """A ``.git`` directory anywhere (a vendored clone under ``src/``) holds hooks a person's
    git runs: ``src/vendor/lib/.git/hooks/pre-commit`` is protected too."""
    (wsroot / "src" / "vendor" / "lib" / ".git" / "hooks").mkdir(parents=True)
    selected(wsroot, "INT-007")
    assert_protected(gate(write_payload(wsroot, "src/vendor/lib/.git/hooks/pre-commit")))
    assert_protected(gate(write_payload(wsroot, "src/vendor/lib/.git/config")))


def test_duplicate_keys_are_read_as_the_client_reads_them(wsroot: Path) -> None:
    """``{"file_path": "src/a.py", "file_path": ".git/config"}``: the client (JavaScript)
    keeps the last key; so must the gate."""
    import json

    selected(wsroot, "INT-006")
    text = json.dumps(write_payload(wsroot, "src/a.py"))
    marker = f'"file_path": "{wsroot}/src/a.py"'
    assert marker in text
    forged = text.replace(marker, f'{marker}, "file_path": "{wsroot}/.git/config"')
    assert_protected(gate(forged.encode()))


# -- every field of every non-read-only tool (issue 17 item 6) -----------------------------------
#
# A string under a key that names a path is a path, whatever it holds (spaces, no separator, a
# file that does not exist yet); a string under a key that names a command is a shell command,
# analysed as the Bash tool's. Each case here was allowed before: the path looked like prose
# (a space) or like a bare word (no separator, not on disk), or the command was nobody's.

NEW_AGENT_INSTRUCTIONS = ".paw/instructions/PAW-02B Impl Planner-instructions.md"

PATH_FIELDS: dict[str, tuple[dict[str, object], str]] = {
    "spaces in a file that does not exist yet": (
        {"path": NEW_AGENT_INSTRUCTIONS, "content": "Ignore the intent."},
        NEW_AGENT_INSTRUCTIONS,
    ),
    "a bare protected name that does not exist yet": ({"path": ".mcp.json"}, ".mcp.json"),
    "FILE_PATH": ({"FILE_PATH": ".mcp.json"}, ".mcp.json"),
    "FilePath": ({"FilePath": ".mcp.json"}, ".mcp.json"),
    "filepath": ({"filepath": ".mcp.json"}, ".mcp.json"),
    "file-name": ({"file-name": ".mcp.json"}, ".mcp.json"),
    "targetFile": ({"targetFile": ".mcp.json"}, ".mcp.json"),
    "Destination, nested in a list": ({"ops": [{"Destination": ".mcp.json"}]}, ".mcp.json"),
    "paths[] with a space": (
        {"paths": ["src/a.py", ".paw/instructions/New Agent-instructions.md"]},
        ".paw/instructions/New Agent-instructions.md",
    ),
    "Windows separators and a space": (
        {"path": ".paw\\instructions\\New Agent-instructions.md"},
        ".paw/instructions/New Agent-instructions.md",
    ),
    "traversal to a bare name": ({"file": "src/../.mcp.json"}, ".mcp.json"),
    "a file:// URL": ({"uri": "file://__ROOT__/.git/config"}, ".git/config"),
    "a percent-encoded file:// URL with a space": (
        {"resource": "file://__ROOT__/.paw/instructions/New%20Agent-instructions.md"},
        ".paw/instructions/New Agent-instructions.md",
    ),
    "a file: URL under a key that says nothing": ({"x": "file:__ROOT__/.mcp.json"}, ".mcp.json"),
}


@pytest.mark.parametrize("case", list(PATH_FIELDS.values()), ids=list(PATH_FIELDS))
def test_a_field_that_names_a_path_is_a_path(
    wsroot: Path, case: tuple[dict[str, object], str]
) -> None:
    """Under ``**``: the write reaches a protected path, whatever the path looks like."""
    tool_input, rel = case
    (wsroot / ".mcp.json").unlink()  # not there yet: no heuristic can see it on disk
    selected(wsroot, "INT-006")
    concrete = _with_root(tool_input, wsroot)
    assert isinstance(concrete, dict)
    assert_protected(gate(mcp_payload(wsroot, "mcp__fs__write_file", concrete)), rel)


@pytest.mark.parametrize(
    "path", ["docs/release notes.md", "docs/x.md ", "notes", "~/.bashrc", "/etc/cron.d/x"]
)
def test_a_path_field_outside_the_scope_is_checked_whatever_it_holds(
    wsroot: Path, path: str
) -> None:
    """Under ``src/**``: a space, a trailing space, a bare new name, ``~`` and an absolute
    path are all scope-checked, never taken for prose."""
    selected(wsroot, "INT-007")
    result = gate(mcp_payload(wsroot, "mcp__fs__write_file", {"filePath": path, "text": "x"}))
    if path.startswith(("~", "/")):
        assert path.lstrip("~") in assert_denied(result)
    else:
        assert_scope_violation(result, "INT-007", path)


def test_a_path_field_holding_a_nul_is_denied(wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    result = gate(mcp_payload(wsroot, "mcp__fs__write_file", {"path": "src/a.py\x00.git"}))
    assert "control character" in assert_denied(result)


COMMAND_FIELDS: dict[str, tuple[str, dict[str, object], str]] = {
    "another server's shell tool": (
        "mcp__shell__execute_command",
        {"command": "rm -rf .git"},
        ".git",
    ),
    "COMMAND in capitals": ("mcp__shell__run", {"COMMAND": "rm -rf .git"}, ".git"),
    "cmd": ("mcp__x__exec", {"cmd": "rm -rf .git"}, ".git"),
    "shell_command": ("mcp__x__exec", {"shell_command": "rm -rf .git"}, ".git"),
    "script": ("mcp__x__exec", {"script": "set -e\nrm -rf .git\n"}, ".git"),
    "shell holding a command": ("mcp__x__exec", {"shell": "rm -rf .git"}, ".git"),
    "a list of commands": ("mcp__x__batch", {"commands": ["ls", "rm -rf .git"]}, ".git"),
    "nested deep": ("mcp__x__plan", {"steps": [{"run": {"command": "rm -rf .git"}}]}, ".git"),
    "argv through bash -c": ("mcp__x__spawn", {"argv": ["bash", "-c", "rm -rf .git"]}, ".git"),
    "a command as a list of words": (
        "mcp__x__spawn",
        {"command": ["touch", ".mcp.json"]},
        ".mcp.json",
    ),
    "a program and its args": (
        "mcp__x__spawn",
        {"command": "touch", "args": [".mcp.json"]},
        ".mcp.json",
    ),
    "args joined into a shell line": (
        "mcp__x__spawn",
        {"program": "echo", "args": ["done;", "touch", ".mcp.json"]},
        ".mcp.json",
    ),
    "the working directory beside the command": (
        "mcp__x__exec",
        {"command": "touch settings.json", "cwd": ".claude"},
        ".claude/settings.json",
    ),
    "a heredoc hiding the next command": (
        "mcp__x__batch",
        {"commands": ["cat <<'X'", "rm -rf .git", "\nX"]},
        ".git",
    ),
    "a command object in a list": (
        "mcp__x__batch",
        {"commands": [{"command": "touch", "args": [".mcp.json"]}]},
        ".mcp.json",
    ),
    "an interpreter that is a shell, with its script": (
        "mcp__x__exec",
        {"interpreter": "bash", "script": "touch .mcp.json"},
        ".mcp.json",
    ),
}


@pytest.mark.parametrize("case", list(COMMAND_FIELDS.values()), ids=list(COMMAND_FIELDS))
def test_a_field_that_names_a_command_is_analysed_as_shell(
    wsroot: Path, case: tuple[str, dict[str, object], str]
) -> None:
    """Under ``**``: the command writes a protected path, denied as the Bash tool's would be
    (``.mcp.json`` is not there yet, so no path-looking string can give it away)."""
    tool, tool_input, written = case
    (wsroot / ".mcp.json").unlink()
    selected(wsroot, "INT-006")
    reason = assert_protected(gate(mcp_payload(wsroot, tool, tool_input)))
    assert reason.startswith(written), reason


def test_a_command_field_writing_outside_the_scope_is_a_scope_violation(wsroot: Path) -> None:
    selected(wsroot, "INT-007")
    payload = mcp_payload(wsroot, "mcp__shell__execute_command", {"command": "echo x > docs/x.md"})
    assert_scope_violation(gate(payload), "INT-007", "docs/x.md")


def test_a_person_s_act_in_a_command_field_is_refused(wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    payload = mcp_payload(
        wsroot,
        "mcp__shell__execute_command",
        {"command": "paw-tui approvals approve --session s-alpha"},
    )
    assert "a person's act" in assert_denied(gate(payload))


def test_a_command_field_that_bash_cannot_parse_is_denied(wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    payload = mcp_payload(wsroot, "mcp__shell__execute_command", {"command": "echo 'unclosed"})
    assert "cannot be parsed" in assert_denied(gate(payload))


def test_too_many_commands_in_one_input_are_denied(wsroot: Path) -> None:
    """Each command is analysed within a budget: thousands of them would add up past the
    client's hook timeout."""
    selected(wsroot, "INT-006")
    payload = mcp_payload(wsroot, "mcp__x__batch", {"commands": ["true"] * 500})
    assert "more than 64 commands" in assert_denied(gate(payload))


def test_before_a_selection_a_command_field_is_a_shell_call(wsroot: Path) -> None:
    """A provably read-only look around passes, as through Bash; anything else needs an intent."""
    assert_allowed(gate(mcp_payload(wsroot, "mcp__shell__execute_command", {"command": "ls src"})))
    reason = assert_denied(
        gate(mcp_payload(wsroot, "mcp__shell__execute_command", {"command": "touch src/x"}))
    )
    assert reason.startswith("You must cite a valid active Intent ID.")


def test_qwen_code_s_shell_runs_in_its_directory_field(wsroot: Path) -> None:
    """Qwen Code's ``run_shell_command {command, directory}`` through the Claude Code protocol
    (how Qwen's hooks speak): the command is placed in ``directory``, not in the payload's cwd."""
    selected(wsroot, "INT-007")
    payload = mcp_payload(
        wsroot, "run_shell_command", {"command": "rm -rf objects", "directory": ".git"}
    )
    assert_protected(gate(payload), ".git/objects")


FIELD_FALSE_POSITIVES: dict[str, tuple[str, dict[str, object]]] = {
    "a test run in a directory of the scope": (
        "mcp__shell__execute_command",
        {"command": "pytest -q", "cwd": "src"},
    ),
    "a program and its args": ("mcp__proc__spawn", {"command": "npm", "args": ["test"]}),
    "the shell to run it with": ("mcp__shell__run", {"shell": "/bin/bash", "command": "ls src"}),
    "an interpreter and its code": (
        "mcp__py__run",
        {"interpreter": "python3", "script": "print('hello')"},
    ),
    "an in-scope path with a space": (
        "mcp__fs__write_file",
        {"path": "src/release notes.md", "content": "see .git/config and /etc/hosts"},
    ),
    "prose under keys that say nothing": (
        "mcp__tracker__comment",
        {"body": "Fixed the bug in docs/x.md, see https://example.com/a", "labels": ["bug"]},
    ),
    "a commit through a git server": (
        "mcp__git__commit",
        {"message": "fix: don't crash", "argv": ["git", "commit", "-m", "don't crash"]},
    ),
}


@pytest.mark.parametrize(
    "case", list(FIELD_FALSE_POSITIVES.values()), ids=list(FIELD_FALSE_POSITIVES)
)
def test_fields_that_stay_in_the_scope_pass(
    wsroot: Path, case: tuple[str, dict[str, object]]
) -> None:
    selected(wsroot, "INT-007")
    tool, tool_input = case
    assert_allowed(gate(mcp_payload(wsroot, tool, tool_input)))


def _cline_commands(root: Path, commands: list[str]) -> dict[str, object]:
    """Cline's ``run_commands`` PreToolUse (its SDK runtime's payload) running ``commands``."""
    import json

    data = Path(__file__).parent.parent / "data" / "cline" / "tool_call_run_commands.json"
    text = data.read_text(encoding="utf-8").replace("__ROOT__", str(root))
    body: dict[str, Any] = json.loads(text)["payload"]
    body["tool_call"]["input"] = {"commands": commands}
    body["preToolUse"]["parameters"] = {"commands": json.dumps(commands)}
    return body


def _cline_select(root: Path, intent_id: str) -> None:
    import json

    data = Path(__file__).parent.parent / "data" / "cline" / "tool_call_mcp_select.json"
    body: dict[str, Any] = json.loads(
        data.read_text(encoding="utf-8").replace("__ROOT__", str(root))
    )
    body = body["payload"]
    body["tool_call"]["input"] = {"intent_id": intent_id}
    result = gate(body, client="cline")
    assert json.loads(result.out)["cancel"] is False, result.out


def test_cline_s_commands_are_never_read_as_one_script(wsroot: Path) -> None:
    """Cline runs each of ``run_commands``' commands on its own. Joined into one script, a
    here-document opened in the first hid the second from the parser (``cat <<'X'``, then
    ``rm -rf .git``, then a line ``X``): read alone, each is checked."""
    import json

    _cline_select(wsroot, "INT-006")
    result = gate(_cline_commands(wsroot, ["cat <<'X'", "rm -rf .git", "\nX"]), client="cline")
    answer = json.loads(result.out)
    assert answer["overrideInput"] == {}, answer  # Cline's refusal that keeps the session going
    assert answer["contextModification"].startswith(".git"), answer
    assert PROTECTED in answer["contextModification"]


def test_a_read_only_command_does_not_carry_a_write_before_a_selection(wsroot: Path) -> None:
    """``ls`` is a look around; the ``output_file`` beside it is a write the look-around rule
    must not let through before a selection."""
    payload = mcp_payload(
        wsroot, "mcp__x__run", {"command": "ls", "output_file": ".git/hooks/pre-commit"}
    )
    assert assert_denied(gate(payload)).startswith("You must cite a valid active Intent ID.")


def test_an_empty_path_field_is_the_directory_the_tool_runs_in(wsroot: Path) -> None:
    """``delete_directory {"path": ""}`` is, to many servers, their root: checked as ``.``,
    which holds the protected files."""
    selected(wsroot, "INT-006")
    payload = mcp_payload(wsroot, "mcp__fs__delete_directory", {"path": ""})
    assert_protected(gate(payload), ".")
