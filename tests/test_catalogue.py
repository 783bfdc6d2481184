"""The tool catalogue: well formed, and it classifies every tool the real clients offer.

``tests/realclients/observed_tools.json`` is what each pinned client version offered its model
when run for real (the real-client suite fails when a new release changes it); a tool there that
the catalogue does not know would be denied before a selection and could lock an agent out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gatekit import (
    assert_allow,
    assert_claude_deny,
    claude_payload,
    gate,
    paw_state_dir,
    root,
    select,
)

from paw_tui.core.policy.catalogue import (
    CATALOGUE_FILE,
    FILE,
    MUTATING,
    PATCH,
    READ_ONLY,
    SHELL,
    load_catalogue,
)
from paw_tui.gate import tools
from paw_tui.gate.events import PRE_TOOL, GateEvent
from paw_tui.gate.tool_input import read_tool_input

__all__ = ["paw_state_dir", "root"]  # fixtures

OBSERVED = Path(__file__).parent / "realclients" / "observed_tools.json"
# How the hooks name a tool the model calls by another name (Codex: exec_command -> Bash).
HOOK_NAMES = {"codex": {"exec_command": "Bash"}}


def test_the_shipped_catalogue_is_well_formed() -> None:
    catalogue = load_catalogue(check=True)
    for entry in catalogue.entries():
        assert entry.clients, entry.name
        if entry.kind == FILE:
            assert entry.paths, f"{entry.name}: a file tool names its path fields"
        if entry.kind == SHELL:
            assert entry.commands, f"{entry.name}: a shell tool names its command field"
        if entry.kind == PATCH:
            assert entry.patches, f"{entry.name}: a patch tool names its patch field"
        assert not (set(entry.paths) & entry.text), f"{entry.name}: a field is path and text"


def test_a_name_is_classified_once_for_each_client() -> None:
    """A client's own entry is never also a shared entry naming that client: which of the two
    decides would depend on the order of the lookup."""
    catalogue = load_catalogue()
    for client in catalogue.clients:
        for entry in catalogue.own_entries(client):
            shared = catalogue.get(entry.name)
            assert shared is None or client not in shared.clients, (client, entry.name)


def observed() -> list[tuple[str, str]]:
    data = json.loads(OBSERVED.read_text(encoding="utf-8"))
    return [(client, entry["name"]) for client, entries in data.items() for entry in entries]


@pytest.mark.parametrize(("client", "tool"), observed(), ids=lambda v: str(v))
def test_every_tool_a_real_client_offers_is_classified(client: str, tool: str) -> None:
    catalogue = load_catalogue()
    kind = client.split("@")[0]
    name = HOOK_NAMES.get(kind, {}).get(tool, tool)
    assert catalogue.classified_for(name, kind), (
        f"{client} offers {tool}, which the catalogue does not classify for {kind}"
    )


@pytest.mark.parametrize(
    "tool",
    ["ToolSearch", "tool_search", "ListAgents", "CronList", "ReadMcpResourceDirTool",
     "ReportFindings", "TaskList", "TaskGet", "WaitForMcpServers"],
)  # fmt: skip
def test_tools_that_change_nothing_are_usable_before_a_selection(tool: str) -> None:
    """Issue 10: tool search and waiting or listing tools must not lock an agent out."""
    assert tools.classify(tool) == tools.READ_ONLY


def test_an_unknown_tool_is_mutating() -> None:
    assert tools.classify("SomeToolNobodyKnows") == tools.MUTATING
    assert tools.classify("Workflow") == tools.MUTATING
    assert load_catalogue().get("Workflow").kind == MUTATING  # type: ignore[union-attr]
    assert load_catalogue().get("Read").kind == READ_ONLY  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[]", "no 'shared' object"),
        ('{"tools": {"X": {"class": "read_only"}}}', "no 'shared' object"),
        ('{"shared": {"X": 1}}', "the entry of tool 'X' in 'shared' is not an object"),
        ('{"shared": {}, "clients": {"c": {"X": 1}}}', "tool 'X' in the table of client 'c'"),
        ('{"shared": {}, "clients": []}', "'clients' is not an object"),
        ('{"shared": {"X": {"class": "magic"}}}', "unknown class 'magic'"),
        ('{"shared": {}, "clients": {"c": {"X": {"class": "x"}}}}', "tool 'X' of c has an unknown"),
        ("{not json", ""),
    ],
)
def test_a_malformed_catalogue_is_refused_naming_the_file(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "catalogue.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        load_catalogue(str(path), check=True)
    assert says in str(raised.value)
    if says:
        assert str(path) in str(raised.value)


def test_the_catalogue_ships_with_the_package() -> None:
    assert Path(CATALOGUE_FILE).is_file()


# -- one client's names never change another's decisions (issue 19) ----------------------------

DOCUMENTED = {
    # clients-observed.md, Part 2: what Qwen Code 0.24.4, opencode 1.18.33 and Cline 3.0.65
    # offered their model when run for real (their inventories join observed_tools.json when
    # their real-binary tests land)
    "qwen-code": {
        "write_file": FILE, "edit": FILE, "run_shell_command": SHELL, "read_file": READ_ONLY,
        "glob": READ_ONLY, "grep_search": READ_ONLY, "list_directory": READ_ONLY,
        "agent": READ_ONLY, "list_agents": READ_ONLY, "get_goal": READ_ONLY, "skill": READ_ONLY,
        "tool_search": READ_ONLY, "tool_call": READ_ONLY, "todo_write": READ_ONLY,
        "web_fetch": READ_ONLY, "save_memory": MUTATING, "notebook_edit": FILE,
    },
    "opencode": {
        "write": FILE, "edit": FILE, "apply_patch": PATCH, "bash": SHELL, "read": READ_ONLY,
        "glob": READ_ONLY, "grep": READ_ONLY, "list": READ_ONLY, "task": READ_ONLY,
        "todowrite": READ_ONLY, "webfetch": READ_ONLY, "skill": READ_ONLY, "lsp": READ_ONLY,
    },
    "cline": {"editor": FILE, "apply_patch": PATCH, "run_commands": SHELL, "read_files": READ_ONLY},
    "copilot": {"create": FILE, "edit": FILE, "bash": SHELL, "view": READ_ONLY},
}  # fmt: skip


@pytest.mark.parametrize(
    ("client", "tool"),
    [(client, tool) for client, named in DOCUMENTED.items() for tool in named],
    ids=lambda v: str(v),
)
def test_the_documented_tools_of_the_new_clients_are_classified_for_them(
    client: str, tool: str
) -> None:
    catalogue = load_catalogue()
    assert catalogue.classified_for(tool, client)
    assert catalogue.get(tool, client).kind == DOCUMENTED[client][tool]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("client", "paths", "text"),
    [
        ("copilot", ("path",), {"old_str", "new_str"}),
        ("qwen-code", ("file_path",), {"old_string", "new_string"}),
        ("opencode", ("filePath",), {"oldString", "newString"}),
    ],
)
def test_edit_is_each_client_s_own(client: str, paths: tuple[str, ...], text: set[str]) -> None:
    """Qwen Code's ``edit {file_path}`` and Copilot's ``edit {path}`` shared one entry: Qwen's
    in-scope edits were denied for lack of a ``path``."""
    entry = load_catalogue().get("edit", client)
    assert entry is not None and (entry.kind, entry.paths, set(entry.text)) == (FILE, paths, text)


def test_a_client_s_own_entry_is_never_another_client_s() -> None:
    catalogue = load_catalogue()
    for client in catalogue.clients:
        for entry in catalogue.own_entries(client):
            for other in catalogue.clients:
                if other != client:
                    assert catalogue.get(entry.name, other) is not entry, (client, other)


def test_the_shell_tools_read_their_own_working_directory_field() -> None:
    """Gemini's ``run_shell_command`` runs in ``dir_path``, Qwen's in ``directory``: read with
    the other's field, a command would be placed in the wrong directory."""
    catalogue = load_catalogue()
    assert catalogue.get("run_shell_command", "gemini-cli").cwd == "dir_path"  # type: ignore[union-attr]
    assert catalogue.get("run_shell_command", "qwen-code").cwd == "directory"  # type: ignore[union-attr]
    assert catalogue.get("bash", "opencode").cwd == "workdir"  # type: ignore[union-attr]
    assert catalogue.get("run_shell_command", "claude-code") is None  # read by the key rules


def test_classification_follows_the_client() -> None:
    assert tools.classify("edit", client="qwen-code") == tools.MUTATING  # a file tool: its paths
    assert tools.classify("run_shell_command", client="qwen-code") == tools.SHELL
    assert tools.classify("bash", client="opencode") == tools.SHELL
    assert tools.classify("bash", client="claude-code") == tools.MUTATING  # not Claude's tool
    assert tools.classify("read", client="opencode") == tools.READ_ONLY


# -- through the gate -----------------------------------------------------------------------------


def _qwen_call(root: Path, tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    """A Qwen Code PreToolUse: its hooks speak Claude Code's protocol (clients-observed.md)."""
    return claude_payload(
        "pre_tool_use_write",
        root,
        session="s-qwen",
        tool_name=tool,
        replace_input=tool_input,
        permission_mode="yolo",
        tool_call_id="call_0",
    )


def test_qwen_code_s_edit_is_decided_by_its_own_fields(root: Path) -> None:
    """Qwen's ``edit {file_path, old_string, new_string}`` was read as Copilot's ``edit {path}``
    and denied even in its scope ("the path of edit is not a usable path")."""
    select(root, "s-qwen", "INT-001")
    inside: dict[str, object] = {
        "file_path": f"{root}/src/auth/jwt.py",
        "old_string": "a",
        "new_string": "b",
    }
    assert_allow(gate(_qwen_call(root, "edit", inside)))
    outside = dict(inside, file_path=f"{root}/docs/x.md")
    assert_claude_deny(
        gate(_qwen_call(root, "edit", outside)), startswith="Scope Violation: INT-001"
    )


def test_the_catalogue_reads_each_client_s_fields() -> None:
    """The adapters read a tool's input through the catalogue for their own client."""
    cases: dict[tuple[str, str], dict[str, object]] = {
        ("qwen-code", "edit"): {"file_path": "/w/a.py", "old_string": "x", "new_string": "y"},
        ("opencode", "edit"): {"filePath": "a.py", "oldString": "x", "newString": "y"},
        ("copilot", "edit"): {"path": "/w/a.py", "old_str": "x", "new_str": "y"},
        ("opencode", "write"): {"filePath": "a.py", "content": "x"},
    }
    for (client, tool), tool_input in cases.items():
        event = GateEvent(PRE_TOOL, client, "s", tool=tool, tool_input=tool_input)
        read_tool_input(event)
        assert event.paths == [next(iter(tool_input.values()))], (client, tool)
    shell = GateEvent(PRE_TOOL, "opencode", "s", tool="bash")
    shell.tool_input = {"command": "make", "workdir": "build", "description": "build"}
    read_tool_input(shell)
    assert (shell.command, shell.command_cwd) == ("make", "build")
    patch = GateEvent(PRE_TOOL, "opencode", "s", tool="apply_patch")
    patch.tool_input = {"patchText": "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"}
    read_tool_input(patch)
    assert patch.paths == ["a.txt"]
