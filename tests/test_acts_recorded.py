"""Every act recorded or not done (DESIGN §7): a person's act whose ledger record cannot be
appended changes nothing and says why (exit 2), from the CLI, the MCP server and the core
functions the TUI calls. The ledger is made unwritable without chmod (CI runs as root): the
ledger path replaced by a directory, or its lock held past the timeout."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import paw_state_dir, records, root, select, session_file, state, write_workspace

from paw_tui.core.handshake.scope_expansion import file_scope_request
from paw_tui.core.handshake.selection import set_intent_status
from paw_tui.core.ledger.acts import UnrecordedAct
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.support.locking import FileLock
from paw_tui.core.workspace.state import WorkspaceState

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]

NOT_RECORDED = "was not done: it could not be recorded."


def orchestration_state(root: Path) -> dict[str, bytes]:
    """Every file under .orchestration/ but the ledger, the locks and the ignore file taking
    the lock writes: what an act changes."""
    base = root / ".orchestration"
    return {
        path.relative_to(base).as_posix(): path.read_bytes()
        for path in sorted(base.rglob("*"))
        if path.is_file()
        and not path.name.startswith("agent_trace.jsonl")
        and path.suffix != ".lock"
        and path.name != ".gitignore"
    }


def break_ledger(root: Path) -> None:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    if ledger.exists():
        ledger.unlink()
    ledger.mkdir()


def pending_approval(root: Path) -> str:
    (root / ".orchestration" / "governance.yaml").write_text(
        "approval: required\n", encoding="utf-8"
    )
    selection = select(root, "s-wait", "INT-002")
    assert selection.approval_id is not None
    return selection.approval_id


def scope_request(root: Path) -> str:
    select(root, "s-scope", "INT-001")
    filed = file_scope_request(state(root), "s-scope", "docs/auth/**", "the docs too")
    assert filed.request is not None
    return filed.request.id


def cli_act(root: Path, name: str) -> list[str]:
    """The argv of act ``name`` once the state it needs is set up."""
    if name in ("approve", "reject"):
        return ["approvals", name, pending_approval(root)]
    if name in ("grant", "deny"):
        return ["scope", name, scope_request(root)]
    if name == "release":
        select(root, "s-other", "INT-007")
        return ["sessions", "release", "s-other"]
    if name == "supervisor":
        return ["prompt", "--supervisor", "Stay inside src/auth."]
    if name == "clear supervisor":
        from paw_tui.core.prompt.supervisor import set_supervisor

        set_supervisor(str(root), "Stay inside src/auth.")
        return ["prompt", "--clear-supervisor"]
    return {
        "set-status": ["intents", "set-status", "INT-001", "BLOCKED"],
        "new": ["intents", "new", "CART-1", "--name", "Cart", "--scope", "src/cart/**"],
        "scope": ["intents", "scope", "INT-001", "--add", "docs/**"],
    }[name]


ACTS = [
    "set-status", "approve", "reject", "grant", "deny", "release", "supervisor",
    "clear supervisor", "new", "scope",
]  # fmt: skip


@pytest.mark.parametrize("name", ACTS)
def test_a_person_s_act_that_cannot_be_recorded_changes_nothing(
    root: Path, run_cli: RunCli, name: str
) -> None:
    argv = cli_act(root, name)
    break_ledger(root)
    before = orchestration_state(root)
    done = run_cli(*argv, cwd=root)
    assert done.code == 2, (done.out, done.err)
    assert NOT_RECORDED in done.err and "it is a directory" in done.err, done.err
    assert done.err.count("\n") == 1  # one sentence
    assert orchestration_state(root) == before


@pytest.mark.parametrize("name", ["set-status", "approve", "grant", "release", "supervisor", "new"])
def test_the_same_acts_are_done_and_recorded_when_the_ledger_can_be_appended(
    root: Path, run_cli: RunCli, name: str
) -> None:
    argv = cli_act(root, name)
    before = len(records(root))
    done = run_cli(*argv, cwd=root)
    assert done.code == 0, done.err
    assert len(records(root)) > before


def test_the_reported_case_blocked_status_with_an_unwritable_ledger(
    root: Path, run_cli: RunCli
) -> None:
    """Issue 18: 'intents set-status CART-1 BLOCKED' exited 1 and the YAML changed anyway."""
    yaml_before = (root / ".orchestration" / "active_intents.yaml").read_bytes()
    break_ledger(root)
    done = run_cli("intents", "set-status", "INT-001", "BLOCKED", cwd=root)
    assert done.code == 2
    assert done.err == (
        "Changing the status of INT-001 was not done: it could not be recorded. Cannot append "
        f"to the audit ledger {root / '.orchestration' / 'agent_trace.jsonl'}: it is a directory.\n"
    )
    assert (root / ".orchestration" / "active_intents.yaml").read_bytes() == yaml_before


def test_a_lock_held_past_the_timeout_refuses_the_act(root: Path) -> None:
    """The core function the TUI's status change calls, with the ledger's lock held."""
    ledger = Ledger.for_workspace(str(root), lock_timeout=0.05)
    yaml_before = (root / ".orchestration" / "active_intents.yaml").read_bytes()
    with FileLock(ledger.lock_path, timeout=1), pytest.raises(UnrecordedAct) as refused:
        set_intent_status(WorkspaceState(str(root), ledger=ledger), "INT-001", "BLOCKED", by="ann")
    assert "could not be taken within 0.05 s" in str(refused.value)
    assert (root / ".orchestration" / "active_intents.yaml").read_bytes() == yaml_before


def test_the_mcp_server_s_selection_is_not_made_when_it_cannot_be_recorded(root: Path) -> None:
    pytest.importorskip("mcp")
    from test_mcp_server import call, plain, text_of

    paw = plain(root)
    break_ledger(root)
    result = call(paw, "select_active_intent", {"intent_id": "INT-007"})
    assert result.is_error and "it is a directory" in text_of(result)
    assert not session_file(root, paw.session_id).exists()


def test_an_act_that_was_refused_is_done_once_the_ledger_is_back(
    root: Path, run_cli: RunCli
) -> None:
    break_ledger(root)
    assert run_cli("intents", "set-status", "INT-001", "BLOCKED", cwd=root).code == 2
    (root / ".orchestration" / "agent_trace.jsonl").rmdir()
    assert run_cli("intents", "set-status", "INT-001", "BLOCKED", cwd=root).code == 0
    (record,) = records(root)
    assert record["event"] == "intent_status_changed" and record["status_to"] == "BLOCKED"


def test_a_fresh_workspace_s_first_act_creates_and_records(tmp_path: Path, run_cli: RunCli) -> None:
    fresh = write_workspace(tmp_path / "w", intents=None)
    done = run_cli("intents", "new", "A-1", "--name", "First", "--scope", "src/**", cwd=fresh)
    assert done.code == 0, done.err
    assert [r["event"] for r in records(fresh)] == ["intent_created"]
    assert json.loads(json.dumps(records(fresh)[0]["after"]))["owned_scope"] == ["src/**"]
    assert os.path.exists(fresh / ".orchestration" / "active_intents.yaml")


# -- who the record says did it ---------------------------------------------------------------
def test_the_person_is_named_by_the_flag_else_the_login_name_else_human(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One rule for every face (the command line's --by, the TUI's "(tui)")."""
    from paw_tui.core.ledger.acts import person_name

    monkeypatch.setenv("USER", "carol")
    monkeypatch.setenv("USERNAME", "CAROL-PC")
    assert person_name() == "carol"
    assert person_name("dana") == "dana"
    assert person_name(via="tui") == "carol (tui)"
    monkeypatch.delenv("USER")
    assert person_name() == "CAROL-PC"  # Windows
    monkeypatch.delenv("USERNAME")
    assert person_name() == "human"
    assert person_name(via="tui") == "human (tui)"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("set-status", "IN_PROGRESS -> BLOCKED (by {who})"),
        ("release", "released by {who} (paw-tui sessions release)"),
        ("supervisor", "for every session, by {who}"),
    ],
)
def test_every_cli_act_names_the_person_login_name_or_by(
    root: Path, run_cli: RunCli, name: str, reason: str
) -> None:
    """``sessions release`` named "a human", ``set-status`` once said "cli": each act's
    record now names who did it, ``--by`` where given."""
    argv = cli_act(root, name)
    assert run_cli(*argv, env={"USER": "carol"}, cwd=root).code == 0
    assert records(root)[-1]["reason"] == reason.format(who="carol")
    if name == "set-status":
        argv = ["intents", "set-status", "INT-001", "IN_PROGRESS"]
        reason = "BLOCKED -> IN_PROGRESS (by {who})"
    else:
        argv = cli_act(root, name)
    assert run_cli(*argv, "--by", "dana", env={"USER": "carol"}, cwd=root).code == 0
    assert records(root)[-1]["reason"] == reason.format(who="dana")


def test_a_claim_release_that_cannot_be_recorded_leaves_the_claim(tmp_path: Path) -> None:
    """``claims release`` appended its record with no care for a refusal (exit 1, a bare
    ledger error): it is refused like every other act (exit 2), the claim left in place."""
    import subprocess
    import time

    from gatekit import PAW, Clock
    from test_claims import _machine, _remote_refs

    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    laptop = _machine(tmp_path, "laptop", remote)
    assert select(laptop, "sess-old", "INT-001", Clock(time.time() - 2 * 3600)).accepted
    claims = _remote_refs(remote)
    assert len(claims) == 1
    break_ledger(laptop)
    done = subprocess.run(
        [PAW, "claims", "release", "INT-001"], cwd=laptop, capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Releasing the claim on INT-001 " + NOT_RECORDED)
    assert _remote_refs(remote) == claims
