"""``paw-tui trace ship`` against a scriptable OTLP/HTTP endpoint on 127.0.0.1 (DESIGN §12).

The real backend (Arize Phoenix) is in ``test_trace_ship_phoenix.py``; here the endpoint is a
stdlib server that decodes what it is sent with OpenTelemetry's own protobuf classes, answers
from a script (503, 429, a dropped connection, 400, 413) and so shows what the shipper does
with each answer. The library runs with an injected ``sleep`` (no test waits on back-off).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from backends.otlp_sink import otlp_sink
from gatekit import assert_allow, gate, paw_state_dir, root, select_payload, write_payload

from paw_tui.core.errors import ValidationError
from paw_tui.core.ship.cursor import cursor_path, load_cursor
from paw_tui.core.ship.encode import Encoder
from paw_tui.core.ship.endpoint import resolve_endpoint
from paw_tui.core.ship.mapping import span_id, trace_id, ts_ns
from paw_tui.core.ship.shipper import ShipError, Shipper
from paw_tui.core.workspace.statedir import workspace_state_dir

PAW = str(Path(sys.executable).with_name("paw-tui"))


def make_ledger(root: Path, sessions: int = 3) -> int:
    """A ledger of real gate decisions: per session a denial before selection, a selection,
    an allowed write and an out-of-scope denial. Returns the number of records."""
    intents = ["INT-001", "INT-002", "INT-006"]
    for n in range(sessions):
        session = f"sess-{n}"
        gate(write_payload(root, "src/auth/a.py", session=session))
        assert_allow(gate(select_payload(root, intents[n % 3], session=session)))
        gate(write_payload(root, "src/auth/a.py", session=session))
        gate(write_payload(root, "elsewhere/b.py", session=session))
    lines = (root / ".orchestration" / "agent_trace.jsonl").read_text().splitlines()
    return len(lines)


def shipper_for(root: Path, url: str, project: str = "p", **options: object) -> Shipper:
    endpoint = resolve_endpoint(url, None, {})
    path = cursor_path(workspace_state_dir(str(root)), endpoint.url, project)
    return Shipper(
        str(root),
        str(root / ".orchestration" / "agent_trace.jsonl"),
        endpoint,
        Encoder(str(root), project).encode,
        load_cursor(path, endpoint.url, project),
        path,
        sleep=lambda seconds: None,
        **options,  # type: ignore[arg-type]
    )


@pytest.fixture
def ledger_root(root: Path) -> Path:
    (root / "src" / "auth").mkdir(parents=True)
    return root


# -- the mapping ---------------------------------------------------------------------------


def test_every_record_is_one_span_in_one_trace_per_session(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=3)
    with otlp_sink() as sink:
        report = shipper_for(ledger_root, sink.url).ship_available()
    assert report.shipped == count
    assert sorted(sink.seqs()) == list(range(1, count + 1))
    records = [
        json.loads(line)
        for line in (ledger_root / ".orchestration" / "agent_trace.jsonl").read_text().splitlines()
    ]
    sessions = {r["session_id"] for r in records if r.get("session_id")}
    loose = [r for r in records if not r.get("session_id")]  # a person's act: its own trace
    assert len(sessions) == 3 and loose  # selecting a PENDING intent records its status change
    roots = [s for s in sink.spans if s["name"] == "invoke_agent claude-code"]
    assert len(roots) == 3 and all(s["parent_id"] is None for s in roots)
    by_trace = Counter(str(s["trace_id"]) for s in sink.spans)
    assert len(by_trace) == len(sessions) + len(loose)
    for span in sink.spans:
        attributes = span["attributes"]
        assert isinstance(attributes, dict)
        if span["parent_id"] is None:
            continue
        root_of_trace = next(r for r in roots if r["trace_id"] == span["trace_id"])
        assert span["parent_id"] == root_of_trace["span_id"]
        root_attributes = root_of_trace["attributes"]
        assert isinstance(root_attributes, dict)
        assert attributes["gen_ai.conversation.id"] == root_attributes["gen_ai.conversation.id"]
        assert {"paw.event", "paw.ledger.seq"} <= set(attributes)
    resource = sink.spans[0]["resource"]
    assert isinstance(resource, dict)
    assert resource["service.name"] == "paw-tui"
    assert resource["paw.workspace"] == str(ledger_root)
    assert resource["openinference.project.name"] == "p"
    assert resource["host.name"]


def test_denials_are_errors_with_the_reason_and_tools_are_execute_tool(ledger_root: Path) -> None:
    make_ledger(ledger_root, sessions=1)
    with otlp_sink() as sink:
        shipper_for(ledger_root, sink.url).ship_available()
    records = [
        json.loads(line)
        for line in (ledger_root / ".orchestration" / "agent_trace.jsonl").read_text().splitlines()
    ]
    spans = {
        span["attributes"]["paw.ledger.seq"]: span
        for span in sink.spans
        if "paw.ledger.seq" in span["attributes"]
    }
    for record in records:
        span = spans[record["seq"]]
        if record["decision"] == "deny":
            assert span["status"] == 2  # STATUS_CODE_ERROR
            assert span["message"] == record["reason"]
        else:
            assert span["status"] == 0
        assert span["name"] == f"execute_tool {record['tool']}"
        assert span["attributes"]["paw.decision"] == record["decision"]
        assert span["start"] == ts_ns(record["ts"])
    assert any(span["attributes"].get("paw.paths") == ["elsewhere/b.py"] for span in sink.spans)


def test_span_ids_are_derived_from_workspace_session_and_seq() -> None:
    assert trace_id("/ws", "s") == trace_id("/ws", "s") != trace_id("/ws", "t")
    assert span_id("/ws", "s", 3) != span_id("/ws", "s", 4)
    assert span_id("/ws", "s", 3) != span_id("/other", "s", 3)
    assert ts_ns("2026-11-27T18:24:20.315Z") == 1_795_803_860_315_000_000  # datetime agrees
    assert ts_ns("garbage") is None


# -- the cursor ----------------------------------------------------------------------------


def test_a_second_ship_sends_nothing_and_new_records_only_once(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=2)
    with otlp_sink() as sink:
        assert shipper_for(ledger_root, sink.url).ship_available().shipped == count
        again = shipper_for(ledger_root, sink.url).ship_available()
        assert again.shipped == 0 and again.requests == 0
        gate(write_payload(ledger_root, "src/auth/c.py", session="sess-0"))
        more = shipper_for(ledger_root, sink.url).ship_available()
    assert more.shipped == 1
    assert sorted(sink.seqs()) == list(range(1, count + 2))
    # the old session's root span was not sent a second time
    assert Counter(s["span_id"] for s in sink.spans).most_common(1)[0][1] == 1


def test_each_endpoint_and_project_has_its_own_cursor(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=1)
    with otlp_sink() as first, otlp_sink() as second:
        assert shipper_for(ledger_root, first.url).ship_available().shipped == count
        assert shipper_for(ledger_root, second.url).ship_available().shipped == count
        assert shipper_for(ledger_root, first.url, "other").ship_available().shipped == count
    cursors = os.listdir(Path(workspace_state_dir(str(ledger_root))) / "ship")
    assert len([name for name in cursors if name.endswith(".json")]) == 3
    assert not (ledger_root / ".orchestration" / "ship").exists()  # never in the workspace


def test_a_replaced_ledger_is_shipped_again_from_its_start(ledger_root: Path) -> None:
    make_ledger(ledger_root, sessions=1)
    ledger = ledger_root / ".orchestration" / "agent_trace.jsonl"
    with otlp_sink() as sink:
        shipper_for(ledger_root, sink.url).ship_available()
        ledger.unlink()
        gate(write_payload(ledger_root, "src/auth/a.py", session="new"))
        report = shipper_for(ledger_root, sink.url).ship_available()
    assert report.restarted is not None and "shipping again" in report.restarted
    assert report.shipped == 1


def test_a_broken_chain_is_not_shipped(ledger_root: Path) -> None:
    make_ledger(ledger_root, sessions=1)
    ledger = ledger_root / ".orchestration" / "agent_trace.jsonl"
    lines = ledger.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[2])
    record["prev"] = "sha256:" + "0" * 64
    lines[2] = json.dumps(record).encode() + b"\n"
    ledger.write_bytes(b"".join(lines))
    with otlp_sink() as sink:
        with pytest.raises(ShipError, match="chain breaks at the record after seq 2"):
            shipper_for(ledger_root, sink.url).ship_available()
    assert sink.spans == []  # the batch holding the break was never sent


# -- the answers ---------------------------------------------------------------------------


def test_refusals_and_dropped_connections_resend_the_same_batch(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=2)
    with otlp_sink([503, 429, "drop", 502, "drop"]) as sink:
        report = shipper_for(ledger_root, sink.url).ship_available()
    assert report.shipped == count and report.resends == 5
    assert sink.requests == ["503", "429", "drop", "502", "drop", "accept"]
    assert sorted(sink.seqs()) == list(range(1, count + 1))


def test_a_timeout_stops_the_run_with_nothing_lost(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=2)
    clock = iter(float(n) for n in range(1000))
    with otlp_sink([503] * 50) as sink:
        shipper = shipper_for(ledger_root, sink.url, timeout=5.0, clock=lambda: next(clock))
        with pytest.raises(ShipError) as caught:
            shipper.ship_available()
        message = str(caught.value)
        assert f"{sink.endpoint} did not accept the batch within 5 s" in message
        assert f"{count} record(s) wait to be shipped" in message
        assert "HTTP 503" in message
        sink.script.clear()
        assert shipper_for(ledger_root, sink.url).ship_available().shipped == count
    assert sorted(sink.seqs()) == list(range(1, count + 1))


def test_a_client_error_stops_at_once_and_moves_nothing(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=1)
    with otlp_sink([404]) as sink:
        with pytest.raises(
            ShipError, match="refused the batch .HTTP 404.*sending it again cannot help"
        ):
            shipper_for(ledger_root, sink.url).ship_available()
        assert sink.requests == ["404"]
        assert shipper_for(ledger_root, sink.url).ship_available().shipped == count


def test_a_batch_too_large_is_split(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=3)
    with otlp_sink([413]) as sink:
        report = shipper_for(ledger_root, sink.url).ship_available()
    assert report.shipped == count
    assert sink.requests[:3] == ["413", "accept", "accept"]
    assert sorted(sink.seqs()) == list(range(1, count + 1))


def test_batches_move_the_cursor_one_at_a_time(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=3)
    with otlp_sink(["accept", "accept", 400]) as sink:
        shipper = shipper_for(ledger_root, sink.url, batch_records=4)
        with pytest.raises(ShipError):
            shipper.ship_available()
        assert shipper.cursor.seq == 8
        saved = load_cursor(shipper.cursor_file, shipper.endpoint.url, "p")
        assert saved.seq == 8
        assert (
            shipper_for(ledger_root, sink.url, batch_records=4).ship_available().shipped
            == count - 8
        )


# -- endpoints and the standard variables ----------------------------------------------------


def test_endpoint_resolution_follows_the_opentelemetry_conventions() -> None:
    assert resolve_endpoint("http://h:6006", None, {}).url == "http://h:6006/v1/traces"
    assert resolve_endpoint("http://h:6006/custom", None, {}).url == "http://h:6006/custom"
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://base:4318/prefix"}
    assert resolve_endpoint(None, None, env).url == "http://base:4318/prefix/v1/traces"
    env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = "http://signal:4318/exact"
    assert resolve_endpoint(None, None, env).url == "http://signal:4318/exact"
    assert resolve_endpoint(None, "http://gov:6006", {}).url == "http://gov:6006/v1/traces"
    with pytest.raises(ValidationError, match="No OTLP endpoint"):
        resolve_endpoint(None, None, {})
    with pytest.raises(ValidationError, match="not an http"):
        resolve_endpoint("ftp://x", None, {})
    with pytest.raises(ValidationError, match="COMPRESSION"):
        resolve_endpoint("http://h", None, {"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"})
    headed = resolve_endpoint(
        "http://h",
        None,
        {"OTEL_EXPORTER_OTLP_HEADERS": "api_key=a%20b,x-team=t", "OTEL_EXPORTER_OTLP_TIMEOUT": "3"},
    )
    assert headed.headers == {"api_key": "a b", "x-team": "t"} and headed.timeout == 3.0


# -- the command -----------------------------------------------------------------------------


def test_the_command_ships_with_headers_and_gzip_and_says_what_it_did(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=1)
    with otlp_sink() as sink:
        env = dict(
            os.environ,
            OTEL_EXPORTER_OTLP_ENDPOINT=sink.url,
            OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer%20t0ken",
            OTEL_EXPORTER_OTLP_COMPRESSION="gzip",
        )
        done = subprocess.run(
            [PAW, "trace", "ship", "--project", "team"],
            cwd=ledger_root,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout == (
            f"Shipped {count} record(s) (seq 1..{count}) to {sink.endpoint} (project team) in 1 request(s).\n"
        )
        assert sink.headers[0]["authorization"] == "Bearer t0ken"
        assert sink.headers[0]["content-encoding"] == "gzip"
        again = subprocess.run(
            [PAW, "trace", "ship", "--project", "team"],
            cwd=ledger_root,
            env=env,
            capture_output=True,
            text=True,
        )
        assert again.stdout.startswith("Nothing new to ship")
    assert len(sink.seqs()) == count


def test_the_command_without_an_endpoint_says_how_to_name_one(ledger_root: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run(
        [PAW, "trace", "ship"], cwd=ledger_root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "No OTLP endpoint: pass --endpoint URL" in done.stderr


def test_the_command_gives_up_at_its_timeout_with_exit_2(ledger_root: Path) -> None:
    count = make_ledger(ledger_root, sessions=1)
    with otlp_sink([503] * 100) as sink:
        done = subprocess.run(
            [PAW, "trace", "ship", "--endpoint", sink.url, "--timeout", "1"],
            cwd=ledger_root,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert f"{sink.endpoint} did not accept the batch within 1 s" in done.stderr
    assert f"{count} record(s) wait" in done.stderr


def test_the_endpoint_from_governance_yaml(ledger_root: Path) -> None:
    make_ledger(ledger_root, sessions=1)
    with otlp_sink() as sink:
        (ledger_root / ".orchestration" / "governance.yaml").write_text(
            f"trace:\n  ship:\n    endpoint: {sink.url}\n", encoding="utf-8"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        done = subprocess.run(
            [PAW, "trace", "ship"], cwd=ledger_root, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    assert sink.spans


def test_two_shippers_of_one_cursor_do_not_run_at_once(ledger_root: Path) -> None:
    from paw_tui.core.support.locking import FileLock

    make_ledger(ledger_root, sessions=1)
    with otlp_sink() as sink:
        endpoint = resolve_endpoint(sink.url, None, {})
        project = ledger_root.name
        path = cursor_path(workspace_state_dir(str(ledger_root)), endpoint.url, project)
        with FileLock(path + ".lock", timeout=1):
            done = subprocess.run(
                [PAW, "trace", "ship", "--endpoint", sink.url],
                cwd=ledger_root,
                capture_output=True,
                text=True,
            )
    assert done.returncode == 2
    assert "Another 'paw-tui trace ship' is shipping this workspace" in done.stderr


def test_follow_ships_records_as_they_are_appended(ledger_root: Path) -> None:
    import signal
    import time

    count = make_ledger(ledger_root, sessions=1)
    with otlp_sink() as sink:
        follower = subprocess.Popen(
            [PAW, "trace", "ship", "--follow", "--endpoint", sink.url],
            cwd=ledger_root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:

            def shipped(n: int) -> bool:
                deadline = time.monotonic() + 60
                while len(sink.seqs()) < n and time.monotonic() < deadline:
                    time.sleep(0.05)
                return len(sink.seqs()) >= n

            assert shipped(count)
            for n in range(3):  # appended while it runs: no key press, no new run
                gate(write_payload(ledger_root, f"src/auth/live{n}.py", session="sess-0"))
            assert shipped(count + 3)
        finally:
            follower.send_signal(signal.SIGINT)
            out, err = follower.communicate(timeout=30)
    assert follower.returncode == 0, err
    assert sorted(sink.seqs()) == list(range(1, count + 4))
    # one line per pass that shipped something (the first pass may already take the new ones)
    passes = [int(line.split()[1]) for line in out.splitlines() if line.startswith("Shipped ")]
    assert sum(passes) == count + 3 and passes[0] >= count, out
