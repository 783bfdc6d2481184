"""``governance.yaml`` is validated like the intents (DESIGN §4): every key the product reads,
its type and range; an unknown key or a bad value is a problem with its line and the keys it
may have meant, shown by ``check``, ``doctor``, the gate and the MCP server, and every mutating
tool is denied while it stands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import (
    assert_allow,
    assert_claude_deny,
    bash_payload,
    claude_payload,
    gate,
    paw_state_dir,
    records,
    root,
    select_payload,
    write_payload,
    write_workspace,
)

from paw_tui.core.policy.compiled import load_policy
from paw_tui.core.policy.governance_parse import KNOWN_KEYS

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

G = ".orchestration/governance.yaml"
KEYS = ", ".join(KNOWN_KEYS)
UNAVAILABLE = "Orchestration state unavailable: "

PROBLEMS = {
    # unknown keys, at the top and inside an option, with what they may have meant
    "aproval: required\n": (
        f"{G}:1: unknown key 'aproval' (did you mean 'approval'?); known keys: {KEYS}"
    ),
    "# policy\nsession_ttl: 1h\nprotect: ['secrets/**']\n": (
        f"{G}:3: unknown key 'protect' (did you mean 'protected'?); known keys: {KEYS}"
    ),
    "colour: blue\n": f"{G}:1: unknown key 'colour'; known keys: {KEYS}",
    "tools:\n  read_only: [A]\n  mutatng: [B]\n": (
        f"{G}:3: unknown key 'mutatng' in 'tools' (did you mean 'mutating'?); "
        "known keys: read_only, mutating, shell"
    ),
    "confine:\n  writeable: [/x]\n": (
        f"{G}:2: unknown key 'writeable' in 'confine' (did you mean 'writable'?); "
        "known keys: writable"
    ),
    "claims:\n  remot: origin\n": (
        f"{G}:2: unknown key 'remot' in 'claims' (did you mean 'remote'?); known keys: remote"
    ),
    "trace:\n  ship:\n    endpiont: http://127.0.0.1:6006\n": (
        f"{G}:3: unknown key 'endpiont' in 'trace.ship' (did you mean 'endpoint'?); "
        "known keys: endpoint"
    ),
    "trace:\n  shipping: {}\n": (
        f"{G}:2: unknown key 'shipping' in 'trace' (did you mean 'ship'?); known keys: ship"
    ),
    # values of the wrong type
    "approval: requird\n": (
        f"{G}:1: 'approval' must be 'none' or 'required', not 'requird' (did you mean 'required'?)"
    ),
    "approval:\n": f"{G}:1: 'approval' must be a string, not empty",
    "approval: [required]\n": f"{G}:1: 'approval' must be a string, not a list",
    "log_reads: 'yes please'\n": f"{G}:1: 'log_reads' must be true or false, not the scalar 'yes please'",
    "tools: [Bash]\n": f"{G}:1: 'tools' must be a mapping, not a list",
    "tools:\n  shell: Bash\n": f"{G}:2: 'tools.shell' must be a list of strings, not the scalar 'Bash'",
    "tools:\n  shell: ['  ']\n": f"{G}:2: an entry of 'tools.shell' is blank",
    "protected: secrets/**\n": f"{G}:1: 'protected' must be a list of strings, not the scalar 'secrets/**'",
    "tool_instructions:\n  run_query: [a, b]\n": (
        f"{G}:2: the instructions path of 'run_query' must be a string, not a list"
    ),
    "tool_defaults:\n  run_query: 100\n": (
        f"{G}:2: the defaults of 'run_query' must be a mapping, not the scalar '100'"
    ),
    "claims: origin\n": f"{G}:1: 'claims' must be a mapping, not the scalar 'origin'",
    "trace:\n  ship: http://127.0.0.1:6006\n": (
        f"{G}:2: 'trace.ship' must be a mapping, not the scalar 'http://127.0.0.1:6006'"
    ),
    # values out of range
    "session_ttl: 0s\n": f"{G}:1: 'session_ttl' must be more than 0s and at most 365d, not '0s'",
    "session_ttl: 400d\n": f"{G}:1: 'session_ttl' must be more than 0s and at most 365d, not '400d'",
    "claims:\n  remote: --upload-pack=touch x\n": (
        f"{G}:2: 'claims.remote' must name a git remote (such as origin), not '--upload-pack=touch x'"
    ),
    "trace:\n  ship:\n    endpoint: ftp://collector/v1\n": (
        f"{G}:3: 'trace.ship.endpoint' must be an http:// or https:// URL with a host, "
        "not 'ftp://collector/v1'"
    ),
    "trace:\n  ship:\n    endpoint: http://:4318\n": (
        f"{G}:3: 'trace.ship.endpoint' must be an http:// or https:// URL with a host, "
        "not 'http://:4318'"
    ),
    "trace:\n  ship:\n    endpoint: http://host:99999\n": (
        f"{G}:3: 'trace.ship.endpoint' must be a URL, not 'http://host:99999'"
    ),
}  # fmt: skip


@pytest.mark.parametrize("text", list(PROBLEMS), ids=lambda text: text.strip()[:40])
def test_each_bad_key_or_value_is_a_problem_with_its_line(root: Path, text: str) -> None:
    write_workspace(root, governance=text)
    policy = load_policy(str(root), use_cache=False)
    assert policy.problems == [PROBLEMS[text]]
    assert policy.warnings == []


def test_every_option_the_product_reads_is_accepted(root: Path) -> None:
    write_workspace(
        root,
        governance=(
            "approval: required\nintent_sharing: allow\nsession_ttl: 30m\nlog_reads: true\n"
            "protected: ['secrets/**']\n"
            "tools:\n  read_only: [MyReader]\n  mutating: [Task]\n  shell: [run]\n"
            "tool_instructions:\n  run_query: docs/run_query.md\n"
            "tool_defaults:\n  run_query:\n    limit: 100\n"
            "confine:\n  writable: [~/.cache/pip]\n"
            "claims:\n  remote: origin\n"
            "trace:\n  ship:\n    endpoint: http://127.0.0.1:6006/v1/traces\n"
        ),
    )
    policy = load_policy(str(root), use_cache=False)
    assert policy.valid, policy.problems
    governance = policy.governance
    assert governance.claims_remote == "origin"
    assert governance.trace_endpoint == "http://127.0.0.1:6006/v1/traces"
    assert governance.tool_defaults == {"run_query": {"limit": 100}}
    assert governance.confine_writable == ["~/.cache/pip"]
    # and they survive the compiled cache
    cached = load_policy(str(root)).governance
    assert (cached.claims_remote, cached.trace_endpoint) == ("origin", governance.trace_endpoint)


@pytest.mark.parametrize(
    "text", ["tools:\n", "confine:\n", "claims:\n", "trace:\n", "tool_defaults:\n", "protected:\n"]
)
def test_an_option_whose_body_is_still_commented_out_is_empty(root: Path, text: str) -> None:
    """Uncommenting ``tools:`` alone in the template leaves it empty, not broken: an empty
    option weakens nothing."""
    write_workspace(root, governance=text + "#   read_only: []\n")
    policy = load_policy(str(root), use_cache=False)
    assert policy.valid, policy.problems


def test_the_template_init_writes_is_valid_uncommented(root: Path) -> None:
    """Every option ``init`` shows, uncommented with its example, is a valid policy, and the
    template shows every option."""
    import re
    from importlib import resources

    template = resources.files("paw_tui.templates").joinpath("init", "governance.yaml")
    lines = [
        line[2:]
        for line in template.read_text(encoding="utf-8").splitlines()
        if re.match(r"# ([a-z_]+:( |$)|  )", line)
    ]
    write_workspace(root, governance="\n".join(lines) + "\n")
    policy = load_policy(str(root), use_cache=False)
    assert policy.valid, (policy.problems, lines)
    assert {line.split(":")[0] for line in lines if not line.startswith(" ")} == set(KNOWN_KEYS)


# -- shown where the intents' problems are shown ----------------------------------------------

TYPO = "session_ttl: 8h\naproval: required\n"
TYPO_PROBLEM = f"{G}:2: unknown key 'aproval' (did you mean 'approval'?); known keys: {KEYS}"


def test_check_refuses_naming_the_problem(root: Path, run_cli: RunCli) -> None:
    write_workspace(root, governance=TYPO)
    result = run_cli("check", "src/auth/a.py", "--intent", "INT-001", cwd=root)
    assert result.code == 2
    assert f"{UNAVAILABLE}{TYPO_PROBLEM}" in result.err


def test_doctor_fails_naming_the_problem(root: Path, run_cli: RunCli) -> None:
    write_workspace(root, governance=TYPO)
    result = run_cli("doctor", cwd=root)
    assert result.code == 2
    assert any(
        line.split()[:2] == ["FAIL", "orchestration"] and TYPO_PROBLEM in line
        for line in result.out.splitlines()
    ), result.out


def test_the_mcp_server_answers_with_the_problem(root: Path) -> None:
    pytest.importorskip("mcp")
    from paw_tui.mcp.tools import PawTools

    write_workspace(root, governance=TYPO)
    import os

    for hooked in (False, True):
        paw = PawTools(environ=dict(os.environ), cwd=str(root), hooked=hooked)
        result = paw.call("select_active_intent", {"intent_id": "INT-001"})
        assert result.is_error
        assert result.text == f"{UNAVAILABLE}{TYPO_PROBLEM}"


# -- the gate fails closed -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        lambda root: write_payload(root, "src/auth/a.py"),
        lambda root: bash_payload(root, "touch src/auth/a.py"),
        lambda root: select_payload(root, "INT-001"),
        lambda root: claude_payload("pre_tool_use_unknown_mcp", root, session="s-alpha"),
    ],
    ids=["Write", "Bash", "handshake", "unknown MCP tool"],
)
def test_every_mutating_tool_is_denied_while_the_policy_is_invalid(
    root: Path, payload: object
) -> None:
    write_workspace(root, governance=TYPO)
    reason = f"{UNAVAILABLE}{TYPO_PROBLEM}"
    assert_claude_deny(gate(payload(root)), reason)  # type: ignore[operator]
    assert records(root)[-1]["reason"] == reason


def test_read_only_tools_still_work_and_the_session_is_told(root: Path) -> None:
    write_workspace(root, governance=TYPO)
    for tool in ("Read", "Grep", "mcp__paw__list_intents"):
        read = claude_payload("pre_tool_use_read", root, session="s-alpha", tool_name=tool)
        assert_allow(gate(read))
    start = claude_payload("session_start_startup", root, session="s-alpha")
    result = gate(start)
    assert result.code == 0
    context = json.loads(result.out)["hookSpecificOutput"]["additionalContext"]
    assert f"{UNAVAILABLE}{TYPO_PROBLEM}" in context


def test_fixing_the_typo_restores_service(root: Path) -> None:
    write_workspace(root, governance=TYPO)
    assert_claude_deny(gate(select_payload(root, "INT-001")), startswith=UNAVAILABLE)
    write_workspace(root, governance=TYPO.replace("aproval", "approval"))
    assert_allow(gate(select_payload(root, "INT-001")))
    assert_claude_deny(
        gate(write_payload(root, "src/auth/a.py")),
        "Intent selection INT-001 awaits human approval.",
    )
