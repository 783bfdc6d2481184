"""Paths in any tool: a write through a tool the gate has no special knowledge of.

For any tool that is not known read-only, every string in its input (nested at any depth)
that names a path (absolute, ``~``, containing ``/`` or ``\\``, or naming an existing
workspace entry) is scope-checked like ``file_path``: MCP file servers, a client's new tool,
odd spellings of a path in a known file tool.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .kit import (
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
