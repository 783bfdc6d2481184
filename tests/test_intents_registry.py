"""The intent registry (DESIGN §4): reading active_intents.yaml and governance.yaml strictly,
every problem with its line, the gate while the files are invalid, and
``intents list|show|set-status``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import (
    INTENTS_YAML,
    assert_allow,
    assert_claude_deny,
    bash_payload,
    claude_payload,
    gate,
    intents_file,
    paw_state_dir,
    records,
    root,
    select_payload,
    write_payload,
    write_workspace,
)

from paw_tui.core.policy.compiled import load_policy

if TYPE_CHECKING:
    from conftest import RunCli, Workspace

F = ".orchestration/active_intents.yaml"
G = ".orchestration/governance.yaml"
STATUSES = "PENDING, IN_PROGRESS, BLOCKED, COMPLETED, ABANDONED"


def problems_of(root: Path) -> list[str]:
    return load_policy(str(root), use_cache=False).problems


# -- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["active_intents", "intents"])
def test_both_root_keys_are_accepted(ws: Workspace, key: str) -> None:
    write_workspace(ws.root, INTENTS_YAML.replace("active_intents:", f"{key}:"))
    policy = load_policy(str(ws.root), use_cache=False)
    assert policy.valid, policy.problems
    assert [i.id for i in policy.intents] == [f"INT-00{n}" for n in range(1, 8)]
    first = policy.intents[0]
    assert first.name == "JWT Authentication Migration"
    assert first.status == "IN_PROGRESS"
    assert first.description == "Move the API from Basic Auth to JWT."
    assert first.owned_scope == ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]
    assert first.constraints == ["Must not use external auth providers"]
    assert first.acceptance_criteria == ["Unit tests in tests/auth/ pass"]
    assert first.related_specs == ["docs/auth.md"]
    assert first.depends_on == []


def test_an_empty_or_missing_file_means_no_intents(ws: Workspace) -> None:
    write_workspace(ws.root, "")
    assert load_policy(str(ws.root), use_cache=False).intents == []
    assert load_policy(str(ws.root), use_cache=False).valid
    write_workspace(ws.root, "active_intents:\n")
    assert load_policy(str(ws.root), use_cache=False).valid
    (ws.root / ".orchestration" / "active_intents.yaml").unlink()
    policy = load_policy(str(ws.root), use_cache=False)
    assert policy.valid and not policy.intents_present


PROBLEMS = {
    "yaml syntax error": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n   bad: indent\n",
        [f"{F}:4: YAML syntax error: expected <block end>, but found '<block mapping start>'"],
    ),
    "tab": (
        "active_intents:\n\t- id: x\n",
        [f"{F}:2: YAML syntax error: found character '\\t' that cannot start any token"],
    ),
    "duplicate id": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n  - id: INT-001\n    status: PENDING\n",
        [f"{F}:4: duplicate intent id 'INT-001' (first at line 2)"],
    ),
    "unknown status": (
        "active_intents:\n  - id: INT-001\n    status: DONE\n",
        [f"{F}:3: unknown status 'DONE' for intent 'INT-001'; use one of {STATUSES}"],
    ),
    "bad glob (comment)": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n    owned_scope:\n      - src/**\n      - '#x'\n",
        [
            f"{F}:6: bad pattern '#x' in the owned_scope of intent 'INT-001': a pattern starting with '#' "
            "is a comment in gitignore syntax; write '\\#' for a literal '#'"
        ],
    ),
    "bad glob (bracket)": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n    owned_scope: ['src/[']\n",
        [
            f"{F}:4: bad pattern 'src/[' in the owned_scope of intent 'INT-001': a '[' is never closed "
            "(git discards such a pattern)"
        ],
    ),
    "bad glob (bare !)": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n    owned_scope: ['!']\n",
        [f"{F}:4: bad pattern '!' in the owned_scope of intent 'INT-001': nothing follows the '!'"],
    ),
    "wrong types": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n    owned_scope: src/**\n"
        "    constraints: {a: 1}\n    name: [a]\n",
        [
            f"{F}:4: 'owned_scope' of intent 'INT-001' must be a list of strings, not the scalar 'src/**'",
            f"{F}:5: 'constraints' of intent 'INT-001' must be a list of strings, not a mapping",
            f"{F}:6: the name of intent 'INT-001' must be a string, not a list",
        ],
    ),
    "duplicate key": (
        "active_intents:\n  - id: INT-001\n    status: PENDING\n    status: BLOCKED\n",
        [f"{F}:4: duplicate key 'status' in an intent (first at line 3)"],
    ),
    "both root keys": (
        "active_intents: []\nintents: []\n",
        [f"{F}:2: use one of 'active_intents' or 'intents', not both"],
    ),
    "no root key": (
        "foo: []\n",
        [f"{F}:1: expected the top-level key 'active_intents' (or 'intents')"],
    ),
    "no id": (
        "active_intents:\n  - name: x\n    status: PENDING\n",
        [f"{F}:2: an intent has no 'id'"],
    ),
    "bad id": (
        "active_intents:\n  - id: 'INT 1'\n    status: PENDING\n",
        [
            f"{F}:2: invalid intent id 'INT 1': use letters, digits and . _ : - (starting with a letter or "
            "digit, at most 128 characters)"
        ],
    ),
    "no status": (
        "active_intents:\n  - id: A\n    name: x\n",
        [f"{F}:2: intent 'A' has no 'status'"],
    ),
    "not a list": (
        "active_intents: {a: 1}\n",
        [f"{F}:1: 'active_intents' must be a list of intents, not a mapping"],
    ),
    "entry not a mapping": (
        "active_intents:\n  - just a string\n",
        [f"{F}:2: an intent must be a mapping, not the scalar 'just a string'"],
    ),
}


@pytest.mark.parametrize("case", list(PROBLEMS))
def test_every_problem_names_its_line(ws: Workspace, case: str) -> None:
    text, expected = PROBLEMS[case]
    write_workspace(ws.root, text)
    policy = load_policy(str(ws.root), use_cache=False)
    assert policy.problems == expected
    assert policy.unavailable_reason == f"Orchestration state unavailable: {expected[0]}"
    assert policy.intents == []  # nothing of an invalid file is used


def test_invalid_utf8_is_a_problem(ws: Workspace) -> None:
    data = b"active_intents:\n  - id: A\n    name: caf\xe9\n    status: PENDING\n"
    write_workspace(ws.root, data)
    assert problems_of(ws.root) == [
        f"{F}: not valid UTF-8 (byte 0xe9 at offset {data.index(0xE9)})"
    ]


def test_unknown_dependency_is_a_warning_not_a_problem(ws: Workspace) -> None:
    write_workspace(
        ws.root, "active_intents:\n  - id: A\n    status: PENDING\n    depends_on: [B]\n"
    )
    policy = load_policy(str(ws.root), use_cache=False)
    assert policy.valid
    assert policy.warnings == [f"{F}:2: intent 'A' depends on unknown intent 'B'"]


GOVERNANCE_PROBLEMS = {
    "approval: maybe\n": f"{G}:1: 'approval' must be 'none' or 'required', not 'maybe'",
    "intent_sharing: sometimes\n": f"{G}:1: 'intent_sharing' must be 'deny' or 'allow', not 'sometimes'",
    "session_ttl: soon\n": f"{G}:1: 'session_ttl' must be a duration such as 8h, 30m or 90s, not 'soon'",
    "log_reads: 3\n": f"{G}:1: 'log_reads' must be true or false, not the scalar '3'",
    "approval: required\napproval: none\n": f"{G}:2: duplicate key 'approval' in the file (first at line 1)",
    "protected:\n  - ok/**\n  - '#x'\n": (
        f"{G}:3: bad pattern '#x' in 'protected': a pattern starting with '#' is a comment in gitignore "
        "syntax; write '\\#' for a literal '#'"
    ),
    "approval: [required\n": f"{G}:2: YAML syntax error: expected ',' or ']', but got '<stream end>'",
}


@pytest.mark.parametrize("text", list(GOVERNANCE_PROBLEMS))
def test_governance_problems_name_their_line(ws: Workspace, text: str) -> None:
    write_workspace(ws.root, governance=text)
    assert problems_of(ws.root) == [GOVERNANCE_PROBLEMS[text]]


def test_governance_options_are_read(ws: Workspace) -> None:
    write_workspace(
        ws.root,
        governance=(
            "approval: required\nintent_sharing: allow\nsession_ttl: 30m\nlog_reads: true\n"
            "protected: ['secrets/**']\ntools:\n  read_only: [MyReader]\n  mutating: [Task]\n  shell: [run]\n"
        ),
    )
    governance = load_policy(str(ws.root), use_cache=False).governance
    assert governance.approval_required and governance.intent_sharing and governance.log_reads
    assert governance.session_ttl == 1800
    assert governance.protected == ["secrets/**"]
    assert (governance.read_only_tools, governance.mutating_tools, governance.shell_tools) == (
        ["MyReader"],
        ["Task"],
        ["run"],
    )


def test_the_policy_cache_follows_the_content(ws: Workspace) -> None:
    write_workspace(ws.root)
    intent = load_policy(str(ws.root)).intent("INT-002")
    assert intent is not None and intent.status == "PENDING"
    # Same size, different content: a content key must notice.
    intents_file(ws.root).write_text(
        INTENTS_YAML.replace("status: PENDING  ", "status: BLOCKED  "), encoding="utf-8"
    )
    intent = load_policy(str(ws.root)).intent("INT-002")
    assert intent is not None and intent.status == "BLOCKED"


# -- the gate while the registry is invalid ----------------------------------------------------------

BROKEN = "active_intents:\n  - id: INT-001\n    status: DONE\n    owned_scope: ['**']\n"
BROKEN_REASON = f"Orchestration state unavailable: {F}:3: unknown status 'DONE' for intent 'INT-001'; use one of {STATUSES}"


@pytest.fixture
def broken(ws: Workspace) -> Path:
    return write_workspace(ws.root, BROKEN)


def _mutating_payloads(root: Path) -> dict[str, dict[str, object]]:
    return {
        "Write": write_payload(root, "src/a.py"),
        "Edit": claude_payload("pre_tool_use_edit", root, session="s-alpha"),
        "MultiEdit": claude_payload("pre_tool_use_multiedit", root, session="s-alpha"),
        "NotebookEdit": claude_payload("pre_tool_use_notebookedit", root, session="s-alpha"),
        "Bash": bash_payload(root, "ls"),
        "unknown MCP tool": claude_payload("pre_tool_use_unknown_mcp", root, session="s-alpha"),
        "handshake": select_payload(root, "INT-001"),
    }


@pytest.mark.parametrize(
    "tool", ["Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "unknown MCP tool", "handshake"]
)
def test_every_mutating_tool_is_denied_while_invalid(broken: Path, tool: str) -> None:
    assert_claude_deny(gate(_mutating_payloads(broken)[tool]), BROKEN_REASON)
    assert records(broken)[-1]["reason"] == BROKEN_REASON


@pytest.mark.parametrize(
    "tool_name", ["Read", "Grep", "mcp__paw__list_intents", "mcp__paw__paw_get_context"]
)
def test_read_only_tools_still_work_while_invalid(broken: Path, tool_name: str) -> None:
    payload = claude_payload("pre_tool_use_read", broken, session="s-alpha", tool_name=tool_name)
    assert_allow(gate(payload))
    assert records(broken) == []


def test_the_first_problem_is_the_one_nearest_the_top(ws: Workspace) -> None:
    write_workspace(ws.root, PROBLEMS["wrong types"][0])
    reason = assert_claude_deny(gate(write_payload(ws.root, "src/a.py")))
    assert reason == f"Orchestration state unavailable: {PROBLEMS['wrong types'][1][0]}"


def test_a_broken_governance_file_denies_too(ws: Workspace) -> None:
    write_workspace(ws.root, governance="approval: maybe\n")
    assert_claude_deny(
        gate(write_payload(ws.root, "src/a.py")),
        f"Orchestration state unavailable: {G}:1: 'approval' must be 'none' or 'required', not 'maybe'",
    )


def test_fixing_the_file_restores_service(broken: Path) -> None:
    assert_claude_deny(gate(select_payload(broken, "INT-001")), BROKEN_REASON)
    intents_file(broken).write_text(BROKEN.replace("DONE", "IN_PROGRESS"), encoding="utf-8")
    assert_allow(gate(select_payload(broken, "INT-001")))
    assert_allow(gate(write_payload(broken, "src/a.py")))


# -- intents list / show / set-status -----------------------------------------------------------------


def test_intents_list(root: Path, run_cli: RunCli) -> None:
    from gatekit import select

    select(root, "s-alpha", "INT-001")
    result = run_cli("intents", "list", cwd=root)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].split() == ["ID", "STATUS", "HELD", "BY", "NAME"]
    assert lines[1].split()[:3] == ["INT-001", "IN_PROGRESS", "s-alpha"]
    assert lines[1].endswith("JWT Authentication Migration")
    assert lines[2].split()[:3] == ["INT-002", "PENDING", "-"]
    assert len(lines) == 8


def test_intents_list_json(root: Path, run_cli: RunCli) -> None:
    from gatekit import select

    select(root, "s-alpha", "INT-001")
    data = json.loads(run_cli("intents", "list", "--json", cwd=root).out)
    assert data["root"] == str(root)
    assert [(i["id"], i["status"], i["held_by"]) for i in data["intents"]][:3] == [
        ("INT-001", "IN_PROGRESS", "s-alpha"),
        ("INT-002", "PENDING", None),
        ("INT-003", "BLOCKED", None),
    ]
    assert data["intents"][0]["owned_scope"] == [
        "src/auth/**",
        "tests/auth/**",
        "!src/auth/legacy/**",
    ]


def test_intents_list_on_an_invalid_file_names_every_problem(
    ws: Workspace, run_cli: RunCli
) -> None:
    write_workspace(ws.root, PROBLEMS["wrong types"][0])
    result = run_cli("intents", "list", cwd=ws.root)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith(
        f"Orchestration state unavailable: {PROBLEMS['wrong types'][1][0]}\n"
    )
    for problem in PROBLEMS["wrong types"][1]:
        assert problem in result.err


def test_intents_list_without_intents(ws: Workspace, run_cli: RunCli) -> None:
    (ws.root / ".orchestration").mkdir()
    result = run_cli("intents", "list", cwd=ws.root)
    assert (result.code, result.out) == (
        0,
        "No intents: .orchestration/active_intents.yaml does not exist (run 'paw-tui init').\n",
    )


def test_intents_show(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "show", "INT-001", cwd=root)
    assert result.code == 0
    assert result.out.startswith(
        "INT-001: JWT Authentication Migration\nstatus:      IN_PROGRESS\n"
    )
    assert f"defined at:  {F}:3" in result.out
    assert (
        "  - src/auth/**\n" in result.out
        and "  - Must not use external auth providers\n" in result.out
    )
    data = json.loads(run_cli("intents", "show", "INT-002", "--json", cwd=root).out)
    assert (data["id"], data["status"], data["owned_scope"], data["held_by"]) == (
        "INT-002",
        "PENDING",
        ["*.md"],
        None,
    )


def test_intents_show_unknown(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "show", "INT-404", cwd=root)
    assert result.code == 2
    assert result.err.startswith("Unknown intent 'INT-404'.")


def test_set_status_keeps_comments_and_layout_and_records_it(root: Path, run_cli: RunCli) -> None:
    before = intents_file(root).read_bytes()
    result = run_cli("intents", "set-status", "INT-001", "BLOCKED", cwd=root)
    assert (result.code, result.out) == (0, "INT-001: IN_PROGRESS -> BLOCKED\n")
    assert intents_file(root).read_bytes() == before.replace(
        b"status: IN_PROGRESS   # being worked on", b"status: BLOCKED   # being worked on"
    )
    (record,) = records(root)
    assert record["event"] == "intent_status_changed"
    assert record["intent_id"] == "INT-001"
    assert (record["status_from"], record["status_to"]) == ("IN_PROGRESS", "BLOCKED")
    assert "session_id" not in record
    intent = load_policy(str(root)).intent("INT-001")
    assert intent is not None and intent.status == "BLOCKED"


def test_set_status_to_the_same_status_changes_nothing(root: Path, run_cli: RunCli) -> None:
    before = intents_file(root).read_bytes()
    result = run_cli("intents", "set-status", "INT-002", "pending", cwd=root)
    assert (result.code, result.out) == (0, "INT-002 is already PENDING.\n")
    assert intents_file(root).read_bytes() == before
    assert records(root) == []


def test_set_status_rejects_an_unknown_status(root: Path, run_cli: RunCli) -> None:
    before = intents_file(root).read_bytes()
    result = run_cli("intents", "set-status", "INT-001", "DONE", cwd=root)
    assert result.code == 2
    assert result.err == f"Unknown status 'DONE'. Use one of {STATUSES}.\n"
    assert intents_file(root).read_bytes() == before
    assert records(root) == []


def test_set_status_of_an_unknown_intent(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "set-status", "INT-404", "BLOCKED", cwd=root)
    assert result.code == 2 and result.err.startswith("Unknown intent 'INT-404'.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "active_intents:\r\n  - id: A\r\n    status: PENDING # c\r\n",
            "active_intents:\r\n  - id: A\r\n    status: COMPLETED # c\r\n",
        ),
        (
            'active_intents:\n  - id: A\n    status: "PENDING"\n',
            "active_intents:\n  - id: A\n    status: COMPLETED\n",
        ),
        (
            "active_intents:\n  - {id: A, status: PENDING, name: x}\n",
            "active_intents:\n  - {id: A, status: COMPLETED, name: x}\n",
        ),
        (
            "\ufeffintents:\n- id: A\n  status: PENDING\n",
            "\ufeffintents:\n- id: A\n  status: COMPLETED\n",
        ),
    ],
    ids=["crlf", "quoted", "flow", "bom"],
)
def test_set_status_edits_only_the_status_token(
    ws: Workspace, run_cli: RunCli, text: str, expected: str
) -> None:
    write_workspace(ws.root, text.encode("utf-8"))
    result = run_cli("intents", "set-status", "A", "COMPLETED", cwd=ws.root)
    assert result.code == 0, result.err
    assert intents_file(ws.root).read_bytes() == expected.encode("utf-8")


def test_set_status_on_an_invalid_file_is_refused(ws: Workspace, run_cli: RunCli) -> None:
    write_workspace(ws.root, BROKEN)
    result = run_cli("intents", "set-status", "INT-001", "BLOCKED", cwd=ws.root)
    assert result.code == 2
    assert result.err.startswith(BROKEN_REASON)
    assert intents_file(ws.root).read_text(encoding="utf-8") == BROKEN


def test_a_misspelt_key_is_a_problem_with_its_line_and_a_suggestion(ws: Workspace) -> None:
    """``owned_scop`` would otherwise leave the intent owning nothing, and nothing would say so."""
    write_workspace(
        ws.root,
        "active_intents:\n  - id: INT-001\n    name: A\n    status: PENDING\n    owned_scop: ['src/**']\n",
    )
    problems = problems_of(ws.root)
    assert problems == [
        f"{F}:5: unknown key 'owned_scop' in intent 'INT-001' (did you mean 'owned_scope'?); known keys: "
        "id, name, status, description, owned_scope, constraints, acceptance_criteria, related_specs, "
        "depends_on (prefix your own with 'x-')"
    ]
    reason = assert_claude_deny(gate(write_payload(ws.root, "src/a.py")))
    assert reason.startswith(f"Orchestration state unavailable: {F}:5: unknown key 'owned_scop'")


def test_a_teams_own_keys_start_with_x(ws: Workspace) -> None:
    write_workspace(
        ws.root,
        "active_intents:\n  - id: INT-001\n    name: A\n    status: PENDING\n    x-jira: PAY-12\n",
    )
    policy = load_policy(str(ws.root), use_cache=False)
    assert policy.valid, policy.problems
    assert [intent.id for intent in policy.intents] == ["INT-001"]
