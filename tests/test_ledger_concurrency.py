"""DESIGN §10: appenders at once lose nothing: gapless seq, a valid chain, every record once.

8 processes appending 500 records each; 32 threads of one process (group commit: each
append returns only once its record is synced, and threads share syncs); 4 processes of 8
threads; and the failures of a batch (the lock not taken in time, a record that cannot be
encoded). Durable writes, counts only, no timings."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from paw_tui.core.ledger import head, store
from paw_tui.core.ledger.io import EMPTY_HASH, LedgerError, loads_record
from paw_tui.core.ledger.records import sign_line
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger

# The source tree under test, first on the children's sys.path (python -c puts the cwd
# there), whatever copy of the package the interpreter may also have installed.
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WRITERS = 8
PER_WRITER = 500

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from paw_tui.core.ledger.store import Ledger
    root, go, writer, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ledger = Ledger.for_workspace(root)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    for n in range(count):
        ledger.append({"event": "tool_allowed", "session_id": writer, "intent_id": "INT-001",
                       "tool": "Edit", "paths": [f"src/{writer}/{n}.py"], "decision": "allow",
                       "n": n})
    print("done", len(ledger.warnings), flush=True)
    """
)

pytestmark = pytest.mark.slow  # many processes at once


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace with ``.orchestration/``; the head and key under the test's directory."""
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "ws"
    (path / ".orchestration").mkdir(parents=True)
    return path


def _run_at_once(procs: list[subprocess.Popen[str]], go: Path, expect: str) -> None:
    """Wait until every writer is ready, start them together, check each one's last words."""
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        go.write_text("")  # all start at once
        deadline = time.monotonic() + 180
        for proc in procs:
            out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 1))
            assert proc.returncode == 0, err
            assert out.strip() == expect, out + err
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()


def test_eight_processes_append_500_each_at_once(root: Path, tmp_path: Path) -> None:
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), str(go), f"w{index}", str(PER_WRITER)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO_ROOT,
        )
        for index in range(WRITERS)
    ]
    _run_at_once(procs, go, "done 0")
    ledger = Ledger.for_workspace(str(root))
    with open(ledger.path, "rb") as handle:
        data = handle.read()
    assert data.endswith(b"\n")
    lines = data[:-1].split(b"\n")
    assert len(lines) == WRITERS * PER_WRITER
    prev, seen = EMPTY_HASH, set()
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        assert record["seq"] == number
        assert record["prev"] == prev
        prev = "sha256:" + hashlib.sha256(line).hexdigest()
        seen.add((record["session_id"], record["n"]))
    assert len(seen) == WRITERS * PER_WRITER, "every record of every writer is there once"
    for writer in range(WRITERS):  # each writer's own records stay in its order
        mine = [
            json.loads(line)["n"] for line in lines if f'"session_id":"w{writer}"'.encode() in line
        ]
        assert mine == list(range(PER_WRITER))
    result = verify_ledger(ledger)
    assert result.ok and result.records == 4000 and result.head_status == "ok"
    assert not any(name.endswith(".tmp") for name in os.listdir(os.path.dirname(ledger.head_path)))


# -- threads of one process: group commit ----------------------------------------------------


class _Syncs:
    """Wraps the ledger's fdatasync: counts the syncs and, after each, the highest ``seq``
    on disk (the last line's, read back)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = store._datasync
        self.calls = 0
        self.durable_seq = 0
        self.guard = threading.Lock()
        monkeypatch.setattr(store, "_datasync", self)

    def __call__(self, fd: int) -> None:
        self.real(fd)
        size = os.fstat(fd).st_size
        tail = os.pread(fd, min(size, 8192), max(size - 8192, 0))
        seq = json.loads(tail.rstrip(b"\n").rsplit(b"\n", 1)[-1])["seq"]
        with self.guard:
            self.calls += 1
            self.durable_seq = max(self.durable_seq, seq)


def _check_chain(ledger: Ledger, expected: int) -> list[dict[str, object]]:
    with open(ledger.path, "rb") as handle:
        lines = handle.read().split(b"\n")
    assert lines.pop() == b""
    assert len(lines) == expected
    prev, records = EMPTY_HASH, []
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        assert record["seq"] == number and record["prev"] == prev
        prev = "sha256:" + hashlib.sha256(line).hexdigest()
        records.append(record)
    result = verify_ledger(ledger)
    assert result.ok and result.records == expected and result.signed_here == expected
    assert result.head_status == "ok", result.message
    return records


def test_32_threads_lose_nothing_and_return_only_once_durable(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    syncs = _Syncs(monkeypatch)
    threads, per = 32, 40
    start = threading.Barrier(threads)
    early: list[tuple[object, int]] = []
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        ledger = Ledger.for_workspace(str(root))  # one ledger object per caller, as the gate has
        start.wait()
        try:
            for n in range(per):
                record = ledger.append({"event": "tool_allowed", "session_id": name, "n": n})
                if record["seq"] > syncs.durable_seq:  # type: ignore[operator]
                    early.append((record["seq"], syncs.durable_seq))
            assert not ledger.warnings, ledger.warnings
        except BaseException as error:  # reported below, with the others
            errors.append(error)

    workers = [threading.Thread(target=writer, args=(f"t{i}",)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors, errors[0]
    assert not early, f"appends returned before their record was synced: {early[:3]}"
    records = _check_chain(Ledger.for_workspace(str(root)), threads * per)
    for i in range(threads):  # every record of every thread, once, in the thread's order
        assert [r["n"] for r in records if r["session_id"] == f"t{i}"] == list(range(per))
    assert syncs.calls < threads * per, "concurrent appends shared their syncs"


def test_8_threads_queued_behind_a_sync_share_the_next_one(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first sync is held until the 7 other threads have queued their records: they are
    then written by one write and one sync (records per sync > 1), each returning only once
    it is durable, and 8 threads appending 20 more each lose nothing."""
    from paw_tui.core.ledger.group import group_for

    syncs = _Syncs(monkeypatch)
    threads, per = 8, 20
    ledger = Ledger.for_workspace(str(root))
    queue = group_for(ledger._batch_key(ledger.signer.key_id)).queue
    real = syncs.real
    in_first_sync = threading.Event()
    durable_at_sync: list[int] = []  # the highest durable seq as each sync starts

    def held_first_sync(fd: int) -> None:
        durable_at_sync.append(syncs.durable_seq)
        if syncs.calls == 0:
            in_first_sync.set()
            deadline = time.monotonic() + 60
            while len(queue) < threads - 1 and time.monotonic() < deadline:
                time.sleep(0.001)
        real(fd)

    syncs.real = held_first_sync
    start = threading.Barrier(threads)
    early: list[tuple[object, int]] = []
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        mine = Ledger.for_workspace(str(root))
        try:
            for n in range(per + 1):
                if n == 1:
                    start.wait()  # all first records are in before the second round starts
                record = mine.append({"event": "tool_allowed", "session_id": name, "n": n})
                if record["seq"] > syncs.durable_seq:  # type: ignore[operator]
                    early.append((record["seq"], syncs.durable_seq))
        except BaseException as error:  # reported below, with the others
            errors.append(error)

    first = threading.Thread(target=writer, args=("t0",))
    first.start()
    assert in_first_sync.wait(60), "t0 leads the first batch"
    others = [threading.Thread(target=writer, args=(f"t{i}",)) for i in range(1, threads)]
    for worker in others:
        worker.start()
    for worker in [first, *others]:
        worker.join()
    assert not errors, errors[0]
    assert not early, f"appends returned before their record was synced: {early[:3]}"
    records = _check_chain(Ledger.for_workspace(str(root)), threads * (per + 1))
    assert {r["n"] for r in records[:threads]} == {0}, "every thread's first record first"
    assert records[0]["session_id"] == "t0"
    assert durable_at_sync[1:3] == [1, threads], "the 7 queued records: one write, one sync"
    assert syncs.calls < threads * (per + 1), "concurrent appends shared their syncs"
    for i in range(threads):
        assert [r["n"] for r in records if r["session_id"] == f"t{i}"] == list(range(per + 1))


MIXED_WRITER = textwrap.dedent(
    """
    import os, sys, threading, time
    from paw_tui.core.ledger.store import Ledger
    root, go, name, threads, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    failures = []
    def work(t):
        ledger = Ledger.for_workspace(root)
        for n in range(count):
            try:
                ledger.append({"event": "tool_allowed", "session_id": f"{name}-{t}", "n": n})
            except Exception as error:
                failures.append(str(error))
    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print("done", len(failures), failures[:1], flush=True)
    """
)


def test_4_processes_of_8_threads_lose_nothing(root: Path, tmp_path: Path) -> None:
    """Group commit inside each process, the blocking file lock between them."""
    go = tmp_path / "go"
    processes, threads, per = 4, 8, 40
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                MIXED_WRITER,
                str(root),
                str(go),
                f"p{index}",
                str(threads),
                str(per),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO_ROOT,
        )  # fmt: skip
        for index in range(processes)
    ]
    _run_at_once(procs, go, "done 0 []")
    records = _check_chain(Ledger.for_workspace(str(root)), processes * threads * per)
    for p in range(processes):
        for t in range(threads):
            mine = [r["n"] for r in records if r["session_id"] == f"p{p}-{t}"]
            assert mine == list(range(per))


HOLDER = textwrap.dedent(
    """
    import sys
    from paw_tui.core.support.locking import FileLock
    lock = FileLock(sys.argv[1])
    lock.acquire()
    print("held", flush=True)
    sys.stdin.readline()
    """
)


def test_a_batch_that_cannot_take_the_lock_fails_every_caller_in_it(root: Path) -> None:
    lock_path = Ledger.for_workspace(str(root)).lock_path
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, lock_path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT,
    )  # fmt: skip
    outcomes: list[str] = []
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"

        def writer(n: int) -> None:
            ledger = Ledger.for_workspace(str(root), lock_timeout=0.3)
            try:
                ledger.append({"event": "tool_allowed", "n": n})
                outcomes.append("written")
            except LedgerError as error:
                outcomes.append(error.message)

        workers = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        holder.kill()
        holder.wait()
    assert len(outcomes) == 6
    assert all(lock_path in outcome and "0.3 s" in outcome for outcome in outcomes), outcomes
    ledger = Ledger.for_workspace(str(root))
    assert not os.path.exists(ledger.path) or os.path.getsize(ledger.path) == 0
    ledger.append({"event": "tool_allowed"})  # free again: the next append goes through
    assert verify_ledger(ledger).records == 1


def test_a_record_that_cannot_be_written_fails_alone(root: Path) -> None:
    threads, per = 8, 30
    refused: list[int] = []
    start = threading.Barrier(threads)

    def writer(t: int) -> None:
        ledger = Ledger.for_workspace(str(root))
        start.wait()
        for n in range(per):
            bad = (t + n) % 4 == 0
            try:  # a set is not JSON: that record alone is refused
                ledger.append({"event": "tool_allowed", "session_id": f"t{t}", "n": n,
                               "extra": {1, 2} if bad else None})  # fmt: skip
            except LedgerError as error:
                assert bad and "not JSON-serialisable" in error.message
                refused.append(1)
            else:
                assert not bad

    workers = [threading.Thread(target=writer, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    bad_count = sum(1 for t in range(threads) for n in range(per) if (t + n) % 4 == 0)
    assert len(refused) == bad_count
    _check_chain(Ledger.for_workspace(str(root)), threads * per - bad_count)


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="Linux /proc/locks")
def test_an_append_interrupted_while_queued_leaves_the_queue_working(root: Path) -> None:
    """A signal's exception (Ctrl-C) in a thread waiting its turn: its record is withdrawn,
    the batch ahead of it is written, and later appends still go through."""
    ledger = Ledger.for_workspace(str(root), lock_timeout=60)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, ledger.lock_path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT,
    )  # fmt: skip
    leader = threading.Thread(target=ledger.append, args=({"event": "tool_allowed", "n": 1},))

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        leader.start()  # leads, and waits for the lock the other process holds
        while not os.path.exists(ledger.lock_path) or not _queued(ledger):
            time.sleep(0.001)
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(KeyboardInterrupt):
            ledger.append({"event": "tool_allowed", "n": 2})  # queued behind the leader
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        holder.kill()
        holder.wait()
    leader.join(60)
    ledger.append({"event": "tool_allowed", "n": 3})  # the queue still moves
    records = _check_chain(ledger, 2)
    assert [r["n"] for r in records] == [1, 3]


def _queued(ledger: Ledger) -> bool:
    """Whether some thread of this process is waiting for the ledger's lock (Linux
    ``/proc/locks`` shows a blocked ``flock`` with ``->``)."""
    inode = os.stat(ledger.lock_path).st_ino
    with open("/proc/locks", encoding="ascii") as handle:
        return any("->" in line and line.split()[6].endswith(f":{inode}") for line in handle)


def test_repeated_appends_do_not_parse_what_this_process_wrote(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The head's slots and the file's last line are parsed only when they are not the bytes
    this process wrote last; another writer's bytes are parsed."""
    calls = {"slot": 0, "line": 0}
    real_slot, real_line = head.decode_slot, loads_record

    def slot(raw: bytes) -> dict[str, object] | None:
        calls["slot"] += 1
        return real_slot(raw)

    def line(raw: bytes) -> dict[str, object] | None:
        calls["line"] += 1
        return real_line(raw)

    monkeypatch.setattr(head, "decode_slot", slot)
    monkeypatch.setattr(store, "loads_record", line)
    for n in range(50):
        Ledger.for_workspace(str(root), durable=False).append({"event": "tool_allowed", "n": n})
    assert calls["slot"] <= 2 and calls["line"] == 0
    other = Ledger.for_workspace(str(root), durable=False)
    with open(other.path, "rb") as handle:
        lines = handle.read().split(b"\n")[:-1]
    with open(other.path, "ab") as out:  # as if another process had appended (chained)
        signed = json.loads(lines[-1])
        body = {"v": 1, "seq": 51, "ts": signed["ts"], "event": "tool_allowed",
                "prev": "sha256:" + hashlib.sha256(lines[-1]).hexdigest()}  # fmt: skip
        raw = json.dumps(body, separators=(",", ":")).encode()
        out.write(sign_line(raw, signed["mac"], other.signer)[0] + b"\n")
    other.append({"event": "tool_allowed", "n": 51})
    assert calls["line"] == 1, "a last line this process did not write is parsed"
    _check_chain(other, 52)
