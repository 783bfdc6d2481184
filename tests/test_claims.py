"""Intent claims through the git remote (DESIGN §12, issue 20): two clones of one bare
repository stand for two machines. Real git throughout; nothing leaves the loopback (the
remote is a directory).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from gatekit import (
    INTENTS_YAML,
    Clock,
    assert_allow,
    claude_payload,
    gate,
    records,
    run_gate,
    select,
    select_payload,
    write_payload,
)

from paw_tui.core.claims.claim import ClaimInfo, claim_ref, intent_of
from paw_tui.core.claims.remote import list_claims, read_claim

CLAIMS = "claims:\n  remote: origin\nsession_ttl: 1h\n"
PAW = str(Path(sys.executable).with_name("paw-tui"))


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=_git_env()
    )
    return done.stdout


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_CONFIG_NOSYSTEM"] = "1"  # no identity anywhere: claims must not need one
    env.pop("GIT_AUTHOR_NAME", None)
    env.pop("GIT_COMMITTER_NAME", None)
    return env


def _machine(base: Path, name: str, remote: Path, governance: str = CLAIMS) -> Path:
    root = base / name
    subprocess.run(
        ["git", "clone", "--quiet", str(remote), str(root)],
        check=True,
        capture_output=True,
        env=_git_env(),
    )
    orchestration = root / ".orchestration"
    orchestration.mkdir()
    (orchestration / "active_intents.yaml").write_text(INTENTS_YAML, encoding="utf-8")
    (orchestration / "governance.yaml").write_text(governance, encoding="utf-8")
    return root


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
    return bare


@pytest.fixture
def machines(tmp_path: Path, remote: Path) -> tuple[Path, Path]:
    return _machine(tmp_path, "laptop-a", remote), _machine(tmp_path, "laptop-b", remote)


def _remote_refs(remote: Path) -> dict[str, str]:
    out = _git(remote, "for-each-ref", "--format=%(objectname) %(refname)", "refs/paw/")
    return {ref: commit for commit, ref in (line.split() for line in out.splitlines())}


def _wait_until(condition, what: str, limit: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    """Wait for a background act (the detached release); a deadline, not a timing claim."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what}")
        time.sleep(0.05)


def _paw(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``paw-tui ARGS`` as a person runs it in ``cwd`` (``env`` added to the environment)."""
    return subprocess.run(
        [PAW, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **env}
    )


def _wrap_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """Put a ``git`` first on the PATH that runs ``body`` (``$REAL`` is the real git) before
    handing over to the real one: how a test makes the network misbehave."""
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    real = subprocess.run(["which", "git"], capture_output=True, text=True).stdout.strip()
    script = body.replace("$REAL", real)
    wrapper.write_text(f'#!/bin/sh\n{script}\nexec {real} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")


def _session_end(root: Path, session: str) -> dict[str, object]:
    return claude_payload("session_end", root, session=session)


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("intent_id", ["INT-001", "INT.7", "a:b", "x..y", "v1.lock", "A_b-c"])
def test_every_intent_id_has_a_valid_ref_that_names_it_back(tmp_path: Path, intent_id: str) -> None:
    ref = claim_ref(intent_id)
    done = subprocess.run(["git", "check-ref-format", ref], capture_output=True)
    assert done.returncode == 0, ref
    assert intent_of(ref) == intent_id


# -- one holder per intent across machines ---------------------------------------------------


def test_a_selection_claims_the_intent_and_the_other_machine_is_refused(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    refs = _remote_refs(remote)
    assert list(refs) == ["refs/paw/claims/INT-001"]
    message = _git(remote, "log", "-1", "--format=%an <%ae>%n%B", refs["refs/paw/claims/INT-001"])
    assert message.startswith("paw-tui <paw-tui@localhost>\npaw-tui claim INT-001")
    refused = gate(select_payload(b, "INT-001", session="sess-b"))
    assert refused.denied
    assert refused.reason is not None
    assert refused.reason.startswith("Intent INT-001 is held by session sess-a on ")
    assert " since " in refused.reason and "paw-tui claims release INT-001" in refused.reason
    assert records(b)[-1]["event"] == "selection_refused"
    # the other machine may take another intent
    assert_allow(gate(select_payload(b, "INT-002", session="sess-b")))
    assert sorted(_remote_refs(remote)) == ["refs/paw/claims/INT-001", "refs/paw/claims/INT-002"]


def test_the_same_session_selecting_again_keeps_its_one_claim(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, _ = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    first = _remote_refs(remote)
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    assert _remote_refs(remote) == first


def test_exactly_one_of_many_racing_machines_wins(tmp_path: Path, remote: Path) -> None:
    racers = [_machine(tmp_path, f"m{n}", remote) for n in range(6)]
    barrier = threading.Barrier(len(racers) * 2)

    def race(index: int) -> int:
        root = racers[index % len(racers)]
        payload = select_payload(root, "INT-001", session=f"racer-{index}")
        barrier.wait()
        return run_gate(payload, cwd=root).code

    with ThreadPoolExecutor(len(racers) * 2) as pool:
        codes = list(pool.map(race, range(len(racers) * 2)))
    assert codes.count(0) == 1, codes
    assert set(codes) == {0, 2}
    (commit,) = _remote_refs(remote).values()
    info = ClaimInfo.parse(_git(remote, "log", "-1", "--format=%B", commit))
    assert info is not None
    assert info.session_id == f"racer-{codes.index(0)}"


def test_release_at_session_end_frees_the_intent_for_the_other_machine(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    gate(_session_end(a, "sess-a"))
    _wait_until(lambda: not _remote_refs(remote), "the claim's release")
    assert_allow(gate(select_payload(b, "INT-001", session="sess-b")))


def test_a_person_releasing_a_session_drops_its_claim(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, _ = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    done = _paw(a, "sessions", "release", "sess-a")
    assert done.returncode == 0, done.stderr
    _wait_until(lambda: not _remote_refs(remote), "the claim's release")


def test_a_release_leaves_a_newer_claim_of_someone_else_alone(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    # a person on b takes it over meanwhile (forced), and b's session claims it
    done = _paw(b, "claims", "release", "INT-001", "--force")
    assert done.returncode == 0, done.stderr
    assert_allow(gate(select_payload(b, "INT-001", session="sess-b")))
    newer = _remote_refs(remote)
    gate(_session_end(a, "sess-a"))  # a's release leases its own, older commit: refused
    _wait_until(lambda: _background_done(a), "a's release worker")
    assert _remote_refs(remote) == newer


def _background_done(root: Path) -> bool:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return "paw_tui.core.claims.release_worker " + str(root) not in out


# -- a stale claim, and a person's takeover ---------------------------------------------------


def test_a_stale_claim_is_taken_over_only_by_a_person(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    old = Clock(time.time() - 2 * 3600)
    assert select(a, "sess-old", "INT-001", old).accepted
    refused = gate(select_payload(b, "INT-001", session="sess-b"))
    assert refused.denied and refused.reason is not None
    assert "older than the session TTL" in refused.reason
    done = _paw(b, "claims", "release", "INT-001")
    assert done.returncode == 0, done.stderr
    assert "Released the claim on INT-001 (session sess-old on " in done.stdout
    released = [r for r in records(b) if r["event"] == "session_released"]
    assert released and "claims release" in str(released[-1]["reason"])
    assert_allow(gate(select_payload(b, "INT-001", session="sess-b")))


def test_a_live_claim_is_not_released_without_force(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    before = _remote_refs(remote)
    done = _paw(b, "claims", "release", "INT-001")
    assert done.returncode == 2
    assert "is live (session sess-a on " in done.stderr and "--force" in done.stderr
    assert _remote_refs(remote) == before


def test_an_agent_cannot_release_a_claim(machines: tuple[Path, Path]) -> None:
    _, b = machines
    done = _paw(b, "claims", "release", "INT-001", CLAUDECODE="1")
    assert done.returncode == 2
    assert "releasing an intent's claim" in done.stderr


def test_claims_list_shows_every_claim_with_its_holder(
    machines: tuple[Path, Path], remote: Path
) -> None:
    a, b = machines
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    assert_allow(gate(select_payload(b, "INT-002", session="sess-b")))
    done = _paw(b, "claims", "list", "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert [(c["intent_id"], c["session_id"], c["stale"]) for c in listed] == [
        ("INT-001", "sess-a", False),
        ("INT-002", "sess-b", False),
    ]
    text = _paw(a, "claims", "list")
    assert "INT-001" in text.stdout and "sess-a" in text.stdout and "live" in text.stdout


# -- an unreachable remote --------------------------------------------------------------------


def test_an_unreachable_remote_refuses_a_selection_and_leaves_the_rest_local(
    machines: tuple[Path, Path], tmp_path: Path
) -> None:
    a, _ = machines
    assert_allow(gate(select_payload(a, "INT-001", session="holder")))
    _git(a, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    refused = gate(select_payload(a, "INT-002", session="newcomer"))
    assert refused.denied and refused.reason is not None
    assert refused.reason.startswith(
        "Intent INT-002 cannot be claimed on the git remote 'origin': "
    )
    assert "turn claims off" in refused.reason
    # every other decision is local: the holder writes, the newcomer is told to select
    assert_allow(gate(write_payload(a, "src/auth/x.py", session="holder")))
    denied = gate(write_payload(a, "src/auth/x.py", session="newcomer"))
    assert denied.denied and denied.reason is not None
    assert denied.reason.startswith("You must cite a valid active Intent ID.")


def test_no_decision_but_a_selection_runs_git(
    machines: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = machines
    log = tmp_path / "git-calls.log"
    _wrap_git(tmp_path, monkeypatch, f'echo "$@" >> {log}')
    assert_allow(gate(select_payload(a, "INT-001", session="holder")))
    assert "push" in log.read_text()
    log.unlink()
    assert_allow(gate(write_payload(a, "src/auth/x.py", session="holder")))
    gate(write_payload(a, "src/auth/x.py", session="newcomer"))
    gate(claude_payload("session_start_startup", a, session="third"))
    gate(claude_payload("user_prompt_submit", a, session="third"))
    assert not log.exists()


def test_a_push_that_lands_but_reports_a_transport_error_is_read_back(
    machines: tuple[Path, Path], remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'connection reset' after the ref moved: unknown until read back, then ours."""
    a, b = machines
    _wrap_git(
        tmp_path,
        monkeypatch,
        'for a in "$@"; do if [ "$a" = push ]; then $REAL "$@" >/dev/null 2>&1; '
        'echo "fatal: the remote end hung up unexpectedly" >&2; exit 128; fi; done',
    )
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    claim = read_claim(str(a), "origin", "INT-001")
    assert claim is not None and claim.info is not None
    assert claim.info.session_id == "sess-a"
    monkeypatch.undo()
    assert gate(select_payload(b, "INT-001", session="sess-b")).denied


def test_claims_off_never_touch_the_remote(tmp_path: Path, remote: Path) -> None:
    a = _machine(tmp_path, "plain", remote, governance="session_ttl: 1h\n")
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    assert _remote_refs(remote) == {}
    assert list_claims(str(a), "origin") == []


def test_claims_need_the_remote_named_in_the_policy(tmp_path: Path, remote: Path) -> None:
    a = _machine(tmp_path, "typo", remote, governance="claims:\n  remote: upstream\n")
    refused = gate(select_payload(a, "INT-001", session="sess-a"))
    assert refused.denied and refused.reason is not None
    assert "cannot be claimed on the git remote 'upstream'" in refused.reason


# -- doctor ---------------------------------------------------------------------------------


def test_doctor_checks_that_the_remote_takes_claims(
    machines: tuple[Path, Path], remote: Path, tmp_path: Path
) -> None:
    a, _ = machines
    done = _paw(a, "doctor", "--json")
    rows = [row for row in json.loads(done.stdout) if row["check"] == "claims"]
    assert rows == [
        {
            "status": "ok",
            "check": "claims",
            "detail": "the git remote 'origin' takes intent claims (refs/paw/claims/*)",
        }
    ]
    assert _remote_refs(remote) == {}  # the probe ref is gone again
    _git(a, "remote", "set-url", "origin", str(tmp_path / "nowhere.git"))
    done = _paw(a, "doctor", "--json")
    assert done.returncode == 2
    (row,) = [row for row in json.loads(done.stdout) if row["check"] == "claims"]
    assert row["status"] == "FAIL"
    assert "selections will be refused while claims are on" in row["detail"]


def test_claims_work_in_a_sha256_repository(tmp_path: Path) -> None:
    bare = tmp_path / "sha256.git"
    subprocess.run(
        ["git", "init", "--quiet", "--bare", "--object-format=sha256", str(bare)], check=True
    )
    a = tmp_path / "modern"
    subprocess.run(["git", "init", "--quiet", "--object-format=sha256", str(a)], check=True)
    _git(a, "remote", "add", "origin", str(bare))
    (a / ".orchestration").mkdir()
    (a / ".orchestration" / "active_intents.yaml").write_text(INTENTS_YAML, encoding="utf-8")
    (a / ".orchestration" / "governance.yaml").write_text(CLAIMS, encoding="utf-8")
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    (commit,) = _remote_refs(bare).values()
    assert len(commit) == 64


def test_a_remote_slower_than_the_selection_s_budget_refuses_and_gives_back_what_landed(
    machines: tuple[Path, Path], remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The push lands, then the connection hangs: the selection is refused within the claim
    budget (never left to the client's hook timeout), and the claim that landed is dropped."""
    from paw_tui.core.claims import remote as claims_remote

    a, b = machines
    monkeypatch.setattr(claims_remote, "SELECTION_SECONDS", 1.5)
    _wrap_git(
        tmp_path,
        monkeypatch,
        'for a in "$@"; do if [ "$a" = push ] && [ -n "$PAW_TEST_HANG" ]; then $REAL "$@"; '
        "exec sleep 30; fi; done",
    )
    monkeypatch.setenv("PAW_TEST_HANG", "1")
    refused = gate(select_payload(a, "INT-001", session="sess-a"))
    assert refused.denied and refused.reason is not None
    assert "cannot be claimed on the git remote 'origin'" in refused.reason
    assert "did not answer" in refused.reason
    monkeypatch.delenv("PAW_TEST_HANG")
    _wait_until(lambda: not _remote_refs(remote), "the landed claim's release")
    assert_allow(gate(select_payload(b, "INT-001", session="sess-b")))


def test_with_intent_sharing_allowed_a_claimed_intent_is_shared_across_machines(
    tmp_path: Path, remote: Path
) -> None:
    """``intent_sharing: allow`` lets two sessions hold one intent; claims keep that true
    across machines: the first holder keeps the claim, the second works without one."""
    sharing = CLAIMS + "intent_sharing: allow\n"
    a = _machine(tmp_path, "sharing-a", remote, governance=sharing)
    b = _machine(tmp_path, "sharing-b", remote, governance=sharing)
    assert_allow(gate(select_payload(a, "INT-001", session="sess-a")))
    first = _remote_refs(remote)
    assert_allow(gate(select_payload(b, "INT-001", session="sess-b")))
    assert _remote_refs(remote) == first
    gate(_session_end(b, "sess-b"))  # holds no claim: nothing to give back
    assert _remote_refs(remote) == first
