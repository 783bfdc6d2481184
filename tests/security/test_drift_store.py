"""Protected contents through the gate: kept once in the state directory's store, by hash.

A shell call's snapshot holds the hashes of the protected files, not their bytes; a file whose
stamp did not move since its content was stored is not read again. Counted through
:data:`paw_tui.core.confine.drift_store.COUNTS` (the gate runs in this process), never timed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw_tui.core.confine import drift_store
from paw_tui.core.confine.drift_store import READS, WRITTEN

from .kit import records, selected, shell_call

INTENTS = ".orchestration/active_intents.yaml"


def many_intents(count: int) -> str:
    return "".join(
        f"  - id: INT-{number:05d}\n    name: Feature {number}\n    status: PENDING\n"
        f'    owned_scope: ["src/f{number}/**", "docs/f{number}/*.md"]\n'
        for number in range(1000, 1000 + count)
    )


@pytest.fixture
def big(wsroot: Path) -> Iterator[Path]:
    """The attack workspace with 3,000 more intents (a few hundred KiB of YAML), quiet."""
    path = wsroot / INTENTS
    path.write_bytes(path.read_bytes() + many_intents(3000).encode())
    time.sleep(0.1)  # out of the racy window: stamps may now stand for contents
    saved = dict(drift_store.COUNTS)
    yield wsroot
    drift_store.COUNTS.update(saved)


def counted(root: Path, command: str) -> dict[str, int]:
    for key in drift_store.COUNTS:
        drift_store.COUNTS[key] = 0
    shell_call(root, command)
    return dict(drift_store.COUNTS)


def test_a_second_shell_call_does_not_read_or_copy_the_intents_file(big: Path) -> None:
    selected(big, "INT-001")
    first = counted(big, "true")
    assert first[READS] >= 1
    assert counted(big, "true") == {READS: 0, WRITTEN: 0, drift_store.INDEX_WRITES: 0}
    assert counted(big, "ls > /dev/null") == {READS: 0, WRITTEN: 0, drift_store.INDEX_WRITES: 0}


def test_a_rewritten_intents_file_is_restored_byte_for_byte(big: Path) -> None:
    selected(big, "INT-001")
    original = (big / INTENTS).read_bytes()
    counted(big, "true")
    command = (
        "python3 -c \"p='.orchestration/active_intents.yaml'; "
        "d=open(p).read().replace('src/auth/**', '**'); open(p, 'w').write(d)\""
    )
    counts = counted(big, command)
    assert counts[WRITTEN] == 0  # the content was in the store already
    assert (big / INTENTS).read_bytes() == original
    breach = [r for r in records(big) if r.get("event") == "scope_breach"]
    assert len(breach) == 1 and breach[0]["restored"] == [INTENTS]
    # restored: a new stamp, the same content: read once more, never copied again
    again = counted(big, "true")
    assert again[READS] == 1 and again[WRITTEN] == 0


def test_the_store_is_in_the_state_directory(big: Path, paw_state_dir: Path) -> None:
    selected(big, "INT-001")
    counted(big, "true")
    stores = [
        os.path.join(top, name)
        for top, dirs, _ in os.walk(paw_state_dir)
        for name in dirs
        if name == "store" and os.path.basename(top) == "drift"
    ]
    assert len(stores) == 1
    assert not any(
        "store" in dirs and os.path.basename(top) == "drift" for top, dirs, _ in os.walk(big)
    )
    index = os.path.join(stores[0], drift_store.INDEX)
    assert os.stat(index).st_mode & 0o077 == 0 and os.stat(stores[0]).st_mode & 0o077 == 0
