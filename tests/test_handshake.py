"""The handshake through the library API (DESIGN §4): select_active_intent, approvals,
status changes mid-session, session expiry and release."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest
from gatekit import (
    AVAILABLE,
    INT001_SCOPE,
    NO_INTENT,
    Clock,
    assert_allow,
    assert_claude_deny,
    events,
    gate,
    gate_env,
    intents_file,
    paw_state_dir,
    records,
    root,
    select,
    session_file,
    state,
    write_payload,
    write_workspace,
)

from paw_tui.core.errors import ValidationError
from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.selection import (
    PENDING,
    REFUSED,
    SELECTED,
    decide_approval,
    release_session,
    request_for_session,
    set_intent_status,
)
from paw_tui.core.policy.compiled import load_policy

if TYPE_CHECKING:
    from conftest import Workspace

APPROVAL = "approval: required\n"


def status_of(root: Path, intent_id: str) -> str:
    intent = load_policy(str(root), use_cache=False).intent(intent_id)
    assert intent is not None
    return intent.status


# -- unknown ids ---------------------------------------------------------------------------


def test_unknown_id_lists_the_selectable_intents(root: Path) -> None:
    result = select(root, "s-alpha", "INT-999")
    assert result.outcome == REFUSED
    assert not result.accepted
    assert result.message == f"Unknown intent 'INT-999'. Available intents: {AVAILABLE}."
    (record,) = records(root)
    assert record["event"] == "selection_refused"
    assert record["session_id"] == "s-alpha"
    assert record["intent_id"] == "INT-999"
    assert record["decision"] == "deny"
    assert record["reason"] == result.message
    assert not session_file(root, "s-alpha").exists()


def test_unknown_id_omits_intents_held_by_another_live_session(root: Path) -> None:
    assert select(root, "s-other", "INT-001").outcome == SELECTED
    result = select(root, "s-alpha", "nope")
    assert result.message == (
        "Unknown intent 'nope'. Available intents: INT-002 (Documentation Refresh), "
        "INT-006 (Everything), INT-007 (Source Tree)."
    )


def test_unknown_id_keeps_the_id_as_given_after_trimming(root: Path) -> None:
    assert select(root, "s-alpha", "  int-001 ").message.startswith(
        "Unknown intent 'int-001'. Available intents: "
    )


def test_unknown_id_with_no_selectable_intent(ws: Workspace) -> None:
    write_workspace(ws.root, "active_intents:\n  - id: A\n    name: Done\n    status: COMPLETED\n")
    assert select(ws.root, "s", "B").message == "Unknown intent 'B'. Available intents: none."


def test_an_intent_without_a_name_is_listed_by_id(ws: Workspace) -> None:
    write_workspace(
        ws.root,
        "active_intents:\n  - id: A\n    status: PENDING\n  - id: B\n    name: Bee\n    status: IN_PROGRESS\n",
    )
    assert select(ws.root, "s", "C").message == "Unknown intent 'C'. Available intents: A, B (Bee)."


# -- success, idempotence, lock ------------------------------------------------------------


def test_selection_activates_the_session_and_is_recorded(root: Path) -> None:
    result = select(root, "s-alpha", "INT-001")
    assert result.outcome == SELECTED and result.accepted
    assert result.intent is not None and result.intent.id == "INT-001"
    session = sessions_store.load_session(str(root), "s-alpha")
    assert session is not None
    assert (session.intent_id, session.state) == ("INT-001", sessions_store.ACTIVE)
    (record,) = records(root)
    assert record["event"] == "intent_selected"
    assert (record["session_id"], record["intent_id"], record["decision"]) == (
        "s-alpha",
        "INT-001",
        "allow",
    )
    assert record["tool"] == "select_active_intent"


def test_reselecting_the_held_intent_is_idempotent(root: Path) -> None:
    first = select(root, "s-alpha", "INT-001")
    second = select(root, "s-alpha", "INT-001")
    assert first.outcome == second.outcome == SELECTED
    assert second.session is not None and second.session.intent_id == "INT-001"
    assert events(root) == ["intent_selected", "intent_selected"]
    session = sessions_store.load_session(str(root), "s-alpha")
    assert session is not None and session.state == sessions_store.ACTIVE


def test_a_session_is_locked_to_its_intent(root: Path) -> None:
    select(root, "s-alpha", "INT-001")
    result = select(root, "s-alpha", "INT-007")
    assert result.outcome == REFUSED
    assert (
        result.message
        == "Session s-alpha is locked to INT-001. Start a new session to work on INT-007."
    )
    assert records(root)[-1]["event"] == "selection_refused"
    session = sessions_store.load_session(str(root), "s-alpha")
    assert session is not None and session.intent_id == "INT-001"


def test_a_session_id_is_required(root: Path) -> None:
    with pytest.raises(ValidationError):
        select(root, "  ", "INT-001")


# -- status rules ----------------------------------------------------------------------------


def test_blocked_intent_is_refused(root: Path) -> None:
    result = select(root, "s-alpha", "INT-003")
    assert result.outcome == REFUSED
    assert "INT-003" in result.message and "BLOCKED" in result.message
    assert "human intervention" in result.message
    assert not session_file(root, "s-alpha").exists()


@pytest.mark.parametrize(
    ("intent_id", "status"), [("INT-004", "COMPLETED"), ("INT-005", "ABANDONED")]
)
def test_finished_intents_are_refused(root: Path, intent_id: str, status: str) -> None:
    result = select(root, "s-alpha", intent_id)
    assert result.outcome == REFUSED
    assert intent_id in result.message and status in result.message
    assert "no longer active" in result.message
    assert records(root)[-1]["event"] == "selection_refused"


def test_pending_becomes_in_progress_in_place_and_is_recorded(root: Path) -> None:
    before = intents_file(root).read_bytes()
    result = select(root, "s-alpha", "INT-002")
    assert result.outcome == SELECTED
    assert result.intent is not None and result.intent.status == "IN_PROGRESS"
    after = intents_file(root).read_bytes()
    # Only the status token changed: comments, blank lines and order are the human's.
    assert after == before.replace(
        b"status: PENDING       # nobody started it",
        b"status: IN_PROGRESS       # nobody started it",
    )
    assert status_of(root, "INT-002") == "IN_PROGRESS"
    selected, changed = records(root)
    assert selected["event"] == "intent_selected"
    assert changed["event"] == "intent_status_changed"
    assert changed["intent_id"] == "INT-002"
    assert (changed["status_from"], changed["status_to"]) == ("PENDING", "IN_PROGRESS")


def test_in_progress_intent_is_not_rewritten(root: Path) -> None:
    before = intents_file(root).read_bytes()
    select(root, "s-alpha", "INT-001")
    assert intents_file(root).read_bytes() == before
    assert "intent_status_changed" not in events(root)


def test_selection_is_refused_while_the_registry_is_invalid(ws: Workspace) -> None:
    write_workspace(ws.root, "active_intents:\n  - id: A\n    status: DONE\n")
    result = select(ws.root, "s", "A")
    assert result.outcome == REFUSED
    assert result.message == (
        "Orchestration state unavailable: .orchestration/active_intents.yaml:3: unknown status 'DONE' "
        "for intent 'A'; use one of PENDING, IN_PROGRESS, BLOCKED, COMPLETED, ABANDONED"
    )


# -- other sessions -------------------------------------------------------------------------


def test_an_intent_held_by_another_live_session_is_refused_naming_it(root: Path) -> None:
    select(root, "s-alpha", "INT-001")
    result = select(root, "s-beta", "INT-001")
    assert result.outcome == REFUSED
    assert "s-alpha" in result.message and "INT-001" in result.message
    assert not session_file(root, "s-beta").exists()


def test_intent_sharing_allow_permits_two_holders(ws: Workspace) -> None:
    write_workspace(ws.root, governance="intent_sharing: allow\n")
    assert select(ws.root, "s-alpha", "INT-001").outcome == SELECTED
    assert select(ws.root, "s-beta", "INT-001").outcome == SELECTED
    assert sorted(
        s.session_id for s in sessions_store.holders(str(ws.root), "INT-001", 1e12, 1e13)
    ) == ["s-alpha", "s-beta"]


def test_a_released_holder_frees_the_intent(root: Path) -> None:
    select(root, "s-alpha", "INT-001")
    released = release_session(state(root), "s-alpha", reason="test")
    assert released is not None and released.intent_id == "INT-001"
    assert select(root, "s-beta", "INT-001").outcome == SELECTED
    assert "session_released" in events(root)


RACE_SCRIPT = textwrap.dedent(
    """
    import json, os, sys, time
    root, session, barrier = sys.argv[1:4]
    from paw_tui.core.handshake.selection import select_active_intent
    from paw_tui.core.workspace.state import WorkspaceState
    st = WorkspaceState(root)
    st.policy  # parse before the start line
    print("ready", flush=True)
    while not os.path.exists(barrier):
        time.sleep(0.001)
    print(json.dumps(select_active_intent(st, session, "INT-002").to_dict()), flush=True)
    """
)


def test_processes_racing_for_one_intent_exactly_one_wins(root: Path, tmp_path: Path) -> None:
    script = tmp_path / "race.py"
    script.write_text(RACE_SCRIPT, encoding="utf-8")
    for round_no in range(3):
        barrier = tmp_path / f"go-{round_no}"
        sessions = [f"r{round_no}-s{i}" for i in range(4)]
        procs = [
            subprocess.Popen(
                [sys.executable, str(script), str(root), session, str(barrier)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=gate_env(),
            )
            for session in sessions
        ]
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        barrier.write_text("go")
        outcomes = []
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            outcomes.append(json.loads(out))
        winners = [o for o in outcomes if o["outcome"] == SELECTED]
        assert len(winners) == 1, outcomes
        winner = winners[0]["session_id"]
        for loser in (o for o in outcomes if o["outcome"] != SELECTED):
            assert loser["outcome"] == REFUSED
            assert winner in loser["message"]
        holders = sessions_store.holders(str(root), "INT-002", 0, 1e13)
        assert [s.session_id for s in holders] == [winner]
        round_records = [
            r for r in records(root) if str(r.get("session_id", "")).startswith(f"r{round_no}-")
        ]
        assert (
            sorted(cast(str, r["event"]) for r in round_records)
            == ["intent_selected"] + ["selection_refused"] * 3
        )
        for session in sessions:  # free the intent for the next round
            release_session(state(root), session)


# -- approval ---------------------------------------------------------------------------------


@pytest.fixture
def approval_root(ws: Workspace) -> Path:
    return write_workspace(ws.root, governance=APPROVAL)


def test_approval_required_makes_a_pending_request_that_reserves_the_intent(
    approval_root: Path,
) -> None:
    root = approval_root
    result = select(root, "s-alpha", "INT-002")
    assert result.outcome == PENDING and result.accepted
    assert result.message == "Intent selection INT-002 awaits human approval."
    request = request_for_session(str(root), "s-alpha")
    assert request is not None and request.intent_id == "INT-002" and request.pending
    assert result.approval_id == request.id
    assert (root / ".orchestration" / "approvals" / f"{request.id}.json").is_file()
    # PENDING -> IN_PROGRESS waits for the approval.
    assert status_of(root, "INT-002") == "PENDING"
    record = records(root)[-1]
    assert record["event"] == "approval_requested"
    assert record["decision"] == "pending"
    # The request reserves the intent.
    other = select(root, "s-beta", "INT-002")
    assert other.outcome == REFUSED and "s-alpha" in other.message
    # Asking again while waiting is still "pending", not a second request.
    again = select(root, "s-alpha", "INT-002")
    assert again.outcome == PENDING
    assert len(approvals_store.pending_requests(str(root))) == 1


def test_mutating_tools_wait_for_the_approval(approval_root: Path) -> None:
    root = approval_root
    answer = gate({**_select_claude(root, "INT-002")})
    assert_allow(answer)  # a selection now pending approval is not refused
    denied = gate(write_payload(root, "README.md"))
    assert_claude_deny(denied, "Intent selection INT-002 awaits human approval.")
    request = request_for_session(str(root), "s-alpha")
    assert request is not None
    decided = decide_approval(state(root), request.id, True, by="tester")
    assert decided.state == approvals_store.APPROVED
    session = sessions_store.load_session(str(root), "s-alpha")
    assert session is not None and session.state == sessions_store.ACTIVE
    assert status_of(root, "INT-002") == "IN_PROGRESS"
    tail = events(root)[-2:]
    assert tail == ["approval_granted", "intent_status_changed"]
    assert_allow(gate(write_payload(root, "README.md")))


def test_rejection_frees_the_intent(approval_root: Path) -> None:
    root = approval_root
    select(root, "s-alpha", "INT-002")
    request = request_for_session(str(root), "s-alpha")
    assert request is not None
    decide_approval(state(root), request.id, False, by="tester")
    stored = approvals_store.load_request(str(root), request.id)
    assert stored is not None and stored.state == approvals_store.REJECTED
    assert events(root)[-1] == "approval_rejected"
    assert status_of(root, "INT-002") == "PENDING"
    session = sessions_store.load_session(str(root), "s-alpha")
    assert session is not None and not session.holds_intent
    assert_claude_deny(gate(write_payload(root, "README.md")), startswith=NO_INTENT)
    assert select(root, "s-beta", "INT-002").outcome == PENDING


def test_a_decided_request_cannot_be_decided_again(approval_root: Path) -> None:
    root = approval_root
    select(root, "s-alpha", "INT-002")
    request = request_for_session(str(root), "s-alpha")
    assert request is not None
    decide_approval(state(root), request.id, True)
    with pytest.raises(ValidationError, match="already approved"):
        decide_approval(state(root), request.id, False)
    with pytest.raises(ValidationError, match="No approval request 'apr-nope'"):
        decide_approval(state(root), "apr-nope", True)


def test_releasing_a_waiting_session_withdraws_its_request(approval_root: Path) -> None:
    root = approval_root
    select(root, "s-alpha", "INT-002")
    request = request_for_session(str(root), "s-alpha")
    assert request is not None
    release_session(state(root), "s-alpha")
    stored = approvals_store.load_request(str(root), request.id)
    assert stored is not None and stored.state == approvals_store.WITHDRAWN
    with pytest.raises(ValidationError):
        decide_approval(state(root), request.id, True)
    assert select(root, "s-beta", "INT-002").outcome == PENDING


# -- status changes mid-session -----------------------------------------------------------------


def _select_claude(root: Path, intent_id: str, session: str = "s-alpha") -> dict[str, object]:
    from gatekit import select_payload

    return select_payload(root, intent_id, session=session)


@pytest.mark.parametrize("status", ["COMPLETED", "ABANDONED"])
def test_an_intent_finished_mid_session_denies_mutating_tools(root: Path, status: str) -> None:
    assert_allow(gate(_select_claude(root, "INT-001")))
    assert_allow(gate(write_payload(root, "src/auth/a.py")))
    set_intent_status(state(root), "INT-001", status, by="tester")
    reason = assert_claude_deny(gate(write_payload(root, "src/auth/a.py")))
    assert "INT-001" in reason and status in reason
    # Selecting it again does not help; another intent needs a new session.
    assert_claude_deny(gate(_select_claude(root, "INT-001")))
    locked = assert_claude_deny(gate(_select_claude(root, "INT-007")))
    assert locked == "Session s-alpha is locked to INT-001. Start a new session to work on INT-007."
    assert_allow(gate(_select_claude(root, "INT-007", session="s-new")))


def test_blocked_mid_session_denies_until_back_in_progress(root: Path) -> None:
    assert_allow(gate(_select_claude(root, "INT-001")))
    set_intent_status(state(root), "INT-001", "BLOCKED", by="tester")
    reason = assert_claude_deny(gate(write_payload(root, "src/auth/a.py")))
    assert "BLOCKED" in reason and "IN_PROGRESS" in reason
    assert [r for r in records(root) if r["event"] == "intent_status_changed"][-1][
        "status_to"
    ] == "BLOCKED"
    set_intent_status(state(root), "INT-001", "IN_PROGRESS", by="tester")
    assert_allow(gate(write_payload(root, "src/auth/a.py")))


def test_an_intent_removed_from_the_registry_denies_its_session(root: Path) -> None:
    assert_allow(gate(_select_claude(root, "INT-007")))
    text = intents_file(root).read_text(encoding="utf-8")
    intents_file(root).write_text(text.split("  - id: INT-007")[0], encoding="utf-8")
    reason = assert_claude_deny(gate(write_payload(root, "src/a.py")))
    assert "INT-007" in reason


# -- expiry and release ---------------------------------------------------------------------------


def test_stale_sessions_expire_after_the_session_ttl(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="session_ttl: 1h\n")
    clock = Clock()
    assert select(root, "s-alpha", "INT-001", clock).outcome == SELECTED
    clock.advance(30 * 60)
    held = select(root, "s-beta", "INT-001", clock)
    assert held.outcome == REFUSED and "s-alpha" in held.message
    clock.advance(31 * 60)  # s-alpha idle 61 minutes: its lock has expired
    assert select(root, "s-beta", "INT-001", clock).outcome == SELECTED
    # The expired session is no longer locked either: it may choose another intent.
    assert select(root, "s-alpha", "INT-007", clock).outcome == SELECTED


def test_the_default_ttl_is_eight_hours(root: Path) -> None:
    clock = Clock()
    select(root, "s-alpha", "INT-001", clock)
    clock.advance(8 * 3600 - 60)
    assert select(root, "s-beta", "INT-001", clock).outcome == REFUSED
    clock.advance(120)
    assert select(root, "s-beta", "INT-001", clock).outcome == SELECTED


def test_the_gate_expires_an_idle_session_and_records_it(ws: Workspace) -> None:
    from gatekit import age_session

    root = write_workspace(ws.root, governance="session_ttl: 1h\n")
    assert_allow(gate(_select_claude(root, "INT-001")))
    age_session(root, "s-alpha", 2 * 3600)
    assert_claude_deny(gate(write_payload(root, "src/auth/a.py")), startswith=NO_INTENT)
    released = [r for r in records(root) if r["event"] == "session_released"]
    assert released and released[-1]["session_id"] == "s-alpha"
    assert_allow(gate(_select_claude(root, "INT-001", session="s-beta")))


def test_a_resumed_session_whose_lock_was_released_selects_again(root: Path) -> None:
    from gatekit import claude_payload

    assert_allow(gate(_select_claude(root, "INT-001")))
    release_session(state(root), "s-alpha", reason="released by a human")
    resumed = gate(claude_payload("session_start_resume", root, session="s-alpha"))
    assert resumed.code == 0
    assert "call select_active_intent" in (resumed.context or "")
    assert "Active intent" not in (resumed.context or "")
    assert_claude_deny(gate(write_payload(root, "src/auth/a.py")), startswith=NO_INTENT)
    assert_allow(gate(_select_claude(root, "INT-001")))
    assert_allow(gate(write_payload(root, "src/auth/a.py")))


def test_release_of_an_unknown_session_returns_none(root: Path) -> None:
    assert release_session(state(root), "never-seen") is None
    assert records(root) == []


def test_a_failed_ledger_append_leaves_no_selection_behind(root: Path) -> None:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    ledger.mkdir()
    from paw_tui.core.ledger.io import LedgerError

    with pytest.raises(LedgerError):
        select(root, "s-alpha", "INT-002")
    assert not session_file(root, "s-alpha").exists()
    assert status_of(root, "INT-002") == "PENDING"


def test_session_records_use_a_safe_file_name_for_any_id(root: Path) -> None:
    weird = "../../etc/passwd"
    assert select(root, weird, "INT-001").outcome == SELECTED
    names = [n for n in os.listdir(root / ".orchestration" / "sessions") if n.endswith(".json")]
    assert len(names) == 1 and names[0].startswith("h-")
    session = sessions_store.load_session(str(root), weird)
    assert session is not None and session.intent_id == "INT-001"


def test_scope_message_names_the_patterns(root: Path) -> None:
    assert_allow(gate(_select_claude(root, "INT-001")))
    assert_claude_deny(
        gate(write_payload(root, "docs/x.md")),
        f"Scope Violation: INT-001 is not authorized to edit docs/x.md. Owned scope: {INT001_SCOPE}. "
        "Request scope expansion. To ask a person for it, call "
        "mcp__paw__request_scope_expansion(pattern, reason).",
    )


# -- flat in sessions (issue 12) --------------------------------------------------------------------


def _stale_sessions(root: Path, count: int) -> None:
    folder = root / ".orchestration" / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        record = {"session_id": f"old-{n}", "state": "none", "started": 1.0, "last_seen": 1.0}
        (folder / f"old-{n}.json").write_text(json.dumps(record), encoding="utf-8")


def _session_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every session record the code under test opens."""
    import builtins

    opened: list[str] = []
    real_open = builtins.open

    real_os_open = os.open

    def counting_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if "/sessions/" in str(file) and str(file).endswith(".json"):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def counting_os_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        reading = flags & (os.O_WRONLY | os.O_RDWR) == 0
        if reading and "/sessions/" in str(path) and str(path).endswith(".json"):
            opened.append(str(path))
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(os, "open", counting_os_open)
    return opened


def test_a_denial_reads_no_stale_session_and_leaves_no_record(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5,000 stale records cost a denial nothing: the holders index names the few that hold."""
    assert_allow(gate(_select_claude(root, "INT-001", session="holder")))
    _stale_sessions(root, 5000)
    opened = _session_reads(monkeypatch)
    result = gate(write_payload(root, "src/a.py", session="newcomer"))
    assert result.denied
    assert [Path(p).name for p in opened] == ["newcomer.json", "holder.json"]
    assert not (root / ".orchestration" / "sessions" / "newcomer.json").exists()


def test_a_selection_reads_only_the_holders(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_allow(gate(_select_claude(root, "INT-001", session="holder")))
    _stale_sessions(root, 2000)
    (root / ".orchestration" / "sessions" / ".pruned").touch()  # this hour's sweep is done
    opened = _session_reads(monkeypatch)
    assert_allow(gate(_select_claude(root, "INT-002", session="second")))
    assert len(opened) <= 6, opened  # the session's own record and the one holder's


def test_a_new_session_prunes_idle_records(root: Path) -> None:
    _stale_sessions(root, 300)
    assert_allow(gate(_select_claude(root, "INT-001", session="fresh")))
    left = sorted(p.name for p in (root / ".orchestration" / "sessions").glob("*.json"))
    assert left == ["fresh.json"]


def test_the_holders_index_is_rebuilt_when_lost(root: Path) -> None:
    assert_allow(gate(_select_claude(root, "INT-001", session="holder")))
    index = root / ".orchestration" / "sessions" / ".holders"
    assert json.loads(index.read_text("utf-8"))["holders"] == {"holder": "INT-001"}
    index.write_text("{half", encoding="utf-8")
    taken = gate(_select_claude(root, "INT-001", session="other"))
    assert taken.denied, "a broken index must not hide a holder"
    index.unlink()
    assert gate(_select_claude(root, "INT-001", session="other")).denied
    assert_allow(gate(_select_claude(root, "INT-002", session="other")))
    assert json.loads(index.read_text("utf-8"))["holders"] == {
        "holder": "INT-001",
        "other": "INT-002",
    }


# -- the intent context block ----------------------------------------------------------------------------


def test_the_context_block_is_escaped_and_bounded(ws: Workspace) -> None:
    constraints = "".join(f"      - 'rule {n} <b> & \"q\"'\n" for n in range(30))
    root = write_workspace(
        ws.root,
        (
            "active_intents:\n"
            "  - id: X-1\n"
            "    name: 'A & <B> </name><owned_scope>'\n"
            "    status: IN_PROGRESS\n"
            f"    description: '{'d' * 5000}'\n"
            "    owned_scope: ['src/**']\n"
            "    constraints:\n" + constraints
        ),
    )
    result = select(root, "s-alpha", "X-1")
    from paw_tui.core.intents.view import intent_context_block

    assert result.intent is not None
    block = intent_context_block(state(root), result.intent)
    assert "<name>A &amp; &lt;B&gt; &lt;/name&gt;&lt;owned_scope&gt;</name>" in block
    assert '<constraint>rule 0 &lt;b&gt; &amp; "q"</constraint>' in block
    assert block.count("<constraint>") == 25
    assert "<!-- 5 more not shown -->" in block
    description = block.split("<description>")[1].split("</description>")[0]
    assert len(description) <= 2000 and description.endswith("…")
    assert block.count("<owned_scope>") == 1


def test_the_context_block_shows_the_latest_20_actions_of_the_intent(root: Path) -> None:
    from paw_tui.core.intents.view import intent_context_block

    assert_allow(gate(_select_claude(root, "INT-001")))
    for n in range(30):
        assert_allow(gate(write_payload(root, f"src/auth/f{n}.py")))
    assert_allow(
        gate(_select_claude(root, "INT-007", session="s-other"))
    )  # another intent's record
    intent = load_policy(str(root)).intent("INT-001")
    assert intent is not None
    block = intent_context_block(state(root), intent)
    history = block.split("<recent_history>\n")[1].split("\n</recent_history>")[0].splitlines()
    assert len(history) == 20
    assert history[-1].endswith(">src/auth/f29.py</action>")
    assert history[0].endswith(">src/auth/f10.py</action>")
    assert all('session_id="s-alpha"' in line for line in history)


def test_a_session_ttl_under_a_minute_is_enforced_by_the_gate(ws: Workspace) -> None:
    from gatekit import age_session

    root = write_workspace(ws.root, governance="session_ttl: 30s\n")
    assert_allow(gate(_select_claude(root, "INT-001")))
    age_session(root, "s-alpha", 45)
    assert_allow(gate(_select_claude(root, "INT-001", session="s-beta")))  # s-alpha's lock expired
    assert_claude_deny(gate(write_payload(root, "src/auth/a.py")), startswith=NO_INTENT)


def test_a_stale_request_cannot_make_two_sessions_hold_one_intent(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="approval: required\nsession_ttl: 1h\n")
    clock = Clock()
    assert select(root, "s-alpha", "INT-002", clock).outcome == PENDING
    stale = request_for_session(str(root), "s-alpha")
    clock.advance(2 * 3600)  # s-alpha went idle past the TTL while it waited
    assert select(root, "s-beta", "INT-002", clock).outcome == PENDING
    assert stale is not None
    with pytest.raises(ValidationError, match="s-beta"):
        decide_approval(state(root, clock), stale.id, True)
    live = sessions_store.holders(str(root), "INT-002", clock.now, 3600)
    assert [s.session_id for s in live] == ["s-beta"]
    fresh = request_for_session(str(root), "s-beta")
    assert fresh is not None
    decide_approval(state(root, clock), fresh.id, True)
    session = sessions_store.load_session(str(root), "s-beta")
    assert session is not None and session.state == sessions_store.ACTIVE


def test_reselecting_after_expiry_withdraws_the_old_request(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="approval: required\nsession_ttl: 1h\n")
    clock = Clock()
    select(root, "s-alpha", "INT-002", clock)
    old = request_for_session(str(root), "s-alpha")
    clock.advance(2 * 3600)
    assert select(root, "s-alpha", "INT-001", clock).outcome == PENDING
    assert old is not None
    stored = approvals_store.load_request(str(root), old.id)
    assert stored is not None and stored.state == approvals_store.WITHDRAWN
    assert [r.intent_id for r in approvals_store.pending_requests(str(root))] == ["INT-001"]


def test_an_approval_after_a_long_wait_leaves_the_session_live(ws: Workspace) -> None:
    from gatekit import age_session

    root = write_workspace(ws.root, governance="approval: required\n")
    assert_allow(gate(_select_claude(root, "INT-002")))
    age_session(root, "s-alpha", 9 * 3600)  # the human took nine hours (the TTL is eight)
    request = request_for_session(str(root), "s-alpha")
    assert request is not None
    decide_approval(state(root), request.id, True)
    assert_allow(gate(write_payload(root, "README.md")))
