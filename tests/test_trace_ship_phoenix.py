"""``trace ship`` to a **real Arize Phoenix server** (DESIGN §12, issue 20), started by the
test on 127.0.0.1 and read back through Phoenix's own client: every record exactly once, one
trace per session, denials in ERROR; a second ship adds nothing; with the backend answering
503 and then gone, nothing is lost once it returns.

Phoenix answers 200 before it stores (an in-memory queue, tens of spans a second here), so the
reads wait until the expected number of spans is stored (a deadline, never a timing claim),
and "adds nothing" is checked after the queue has drained.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from backends.otlp_sink import otlp_sink
from backends.phoenix import Phoenix, free_port, phoenix_server
from gatekit import assert_allow, gate, paw_state_dir, root, select_payload, write_payload
from test_trace_ship import shipper_for

from paw_tui.core.ship.shipper import ShipError

pytestmark = [pytest.mark.slow, pytest.mark.phoenix]
PAW = str(Path(sys.executable).with_name("paw-tui"))


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    with phoenix_server(tmp_path_factory.mktemp("phoenix")) as server:
        yield server


def busy_ledger(root: Path, sessions: int, writes: int) -> list[dict[str, object]]:
    """Sessions that are denied, select, write in scope and are refused out of it."""
    (root / "src" / "auth").mkdir(parents=True, exist_ok=True)
    governance = root / ".orchestration" / "governance.yaml"
    governance.write_text("intent_sharing: allow\n", encoding="utf-8")
    for n in range(sessions):
        session = f"agent-{n}"
        gate(write_payload(root, "src/auth/a.py", session=session))
        assert_allow(gate(select_payload(root, "INT-006", session=session)))
        for w in range(writes):
            gate(write_payload(root, f"src/auth/f{w}.py", session=session))
        gate(write_payload(root, ".git/config", session=session))
    text = (root / ".orchestration" / "agent_trace.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def by_seq(spans: list[dict[str, object]]) -> dict[int, list[dict[str, object]]]:
    found: dict[int, list[dict[str, object]]] = defaultdict(list)
    for span in spans:
        attributes = span["attributes"]
        assert isinstance(attributes, dict)
        if "paw.ledger.seq" in attributes:
            found[int(attributes["paw.ledger.seq"])].append(span)
    return found


def test_a_governed_session_lands_in_phoenix_once(phoenix: Phoenix, root: Path) -> None:
    records = busy_ledger(root, sessions=3, writes=4)
    sessions = {r["session_id"] for r in records}
    done = subprocess.run(
        [PAW, "trace", "ship", "--endpoint", phoenix.url, "--project", "governed"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    expected = len(records) + len(sessions)  # a span per record, a root per session
    assert phoenix.settle("governed", expected) == expected
    spans = phoenix.spans("governed")  # through Phoenix's own client
    assert len(spans) == expected
    found = by_seq(spans)
    assert sorted(found) == [r["seq"] for r in records]
    assert all(len(copies) == 1 for copies in found.values())  # every record exactly once
    traces: dict[str, set[str]] = defaultdict(set)
    for span in spans:
        attributes = span["attributes"]
        assert isinstance(attributes, dict)
        context = span["context"]
        assert isinstance(context, dict)
        traces[str(attributes["gen_ai.conversation.id"])].add(str(context["trace_id"]))
    assert set(traces) == sessions
    assert all(len(ids) == 1 for ids in traces.values())  # one trace per session
    roots = [s for s in spans if s.get("parent_id") is None]
    assert sorted(str(s["name"]) for s in roots) == ["invoke_agent claude-code"] * len(sessions)
    for record in records:
        (span,) = found[int(record["seq"])]  # type: ignore[call-overload]
        assert span["name"] == f"execute_tool {record['tool']}"
        if record["decision"] == "deny":
            assert span["status_code"] == "ERROR"
            assert span["status_message"] == record["reason"]
        else:
            assert span["status_code"] == "UNSET"
    # a second ship adds nothing, and nor does shipping everything again from scratch
    again = subprocess.run(
        [PAW, "trace", "ship", "--endpoint", phoenix.url, "--project", "governed"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0 and again.stdout.startswith("Nothing new to ship"), again
    for cursor in (Path(os.environ["PAW_STATE_DIR"])).rglob("ship/*.json"):
        cursor.unlink()
    resent = subprocess.run(
        [PAW, "trace", "ship", "--endpoint", phoenix.url, "--project", "governed"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert resent.returncode == 0 and resent.stdout.startswith(f"Shipped {len(records)} record")
    assert phoenix.settle("governed", expected) == expected


def test_nothing_is_lost_while_the_backend_refuses_and_then_is_gone(
    phoenix: Phoenix, root: Path
) -> None:
    records = busy_ledger(root, sessions=4, writes=20)
    sessions = {r["session_id"] for r in records}
    # gone: nothing listens; the run gives up at its timeout, the cursor unmoved
    closed = f"http://127.0.0.1:{free_port()}"
    gone = shipper_for(root, closed, "flaky", timeout=1.0, batch_records=25)
    gone._sleep = lambda seconds: time.sleep(0.01)
    with pytest.raises(ShipError, match=f"{len(records)} record"):
        gone.ship_available()
    # back, behind a network that answers 503 ("at capacity") and drops connections first
    script: list[object] = [503, 503, "drop", 503, "drop", "drop"]
    with otlp_sink(script, forward_to=phoenix.traces_endpoint) as flaky:
        shipper = shipper_for(root, flaky.url, "flaky", batch_records=25)
        shipper._sleep = lambda seconds: time.sleep(0.01)
        report = shipper.ship_available()
    assert report.shipped == len(records)
    assert report.resends == len(script)
    expected = len(records) + len(sessions)
    assert phoenix.settle("flaky", expected) == expected
    spans = phoenix.spans("flaky")  # through Phoenix's own client
    found = by_seq(spans)
    assert sorted(found) == [r["seq"] for r in records]
    assert Counter(len(copies) for copies in found.values()) == {1: len(records)}
    assert len(spans) == expected
