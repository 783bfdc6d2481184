#!/usr/bin/env python3
"""Generate the demo's day: ``paw_tui/demo_workspace/day/``.

The bundled demo is a fictional "acme-billing" service after one working day (2026-11-20,
09:00 to 17:30 UTC) with agents governed by paw-tui. Two of its layers are written by hand:
``seed/`` (the workspace at 09:00) and ``story/`` (the files the agents write). This script
replays the day (``scripts/demo/story.py``) in a scratch copy of the seed, driving the real gate
with Claude Code hook payloads (and one generic-protocol client) and the real handshake API
for the human side, then writes ``day/``: every file whose end-of-day content differs from
``seed/`` overlaid with ``story/`` (the ledger, sessions, approvals, intent statuses, files
edited after they were written) and ``removed.txt``. Nothing is stored twice.

The clock is fake and the randomness seeded, so two runs give identical bytes: ``--out DIR``
writes the day elsewhere (the determinism test uses it). The output directory is wiped first.

Usage: python scripts/make_demo_workspace.py [--out DIR]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Run against this checkout's code, installed or not: the demo must show what this tree does.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from demo.actors import Sim, StoryError, patched_product
from demo.story import tell_the_story

from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.holders_index import HOLDERS_INDEX
from paw_tui.core.handshake.pruning import PRUNE_MARKER
from paw_tui.core.ledger.read import iter_records
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger
from paw_tui.core.workspace.demo import HOME_DIR, REMOVED, bundle_name, install_demo_key, lay_out

DEFAULT_OUT = REPO / "paw_tui" / "demo_workspace" / "day"
SEED = 20261120
SKIPPED = {".cache", "__pycache__"}
# Derived session state, rebuilt by paw-tui when absent: not part of the day's story.
DERIVED = {HOLDERS_INDEX, PRUNE_MARKER}


def files_of(root: Path, home: Path) -> dict[str, bytes]:
    """Every file of a laid-out demo by its real path (``home/...`` for the user home)."""
    found: dict[str, bytes] = {}
    for base, prefix in ((root, ""), (home, HOME_DIR + "/")):
        for path in sorted(base.rglob("*")):
            relative = path.relative_to(base)
            if (
                path.is_file()
                and not SKIPPED & set(relative.parts)
                and not path.name.endswith((".lock", ".tmp"))
                and path.name not in DERIVED
            ):
                found[prefix + relative.as_posix()] = path.read_bytes()
    return found


def bundle_path(real_path: str) -> str:
    """``real_path`` as the bundle stores it (every dot-named part renamed)."""
    parts = real_path.split("/")
    return "/".join(bundle_name("/".join(parts[: index + 1])) for index in range(len(parts)))


def check_leftovers(root: Path, expected_sessions: dict[str, str]) -> None:
    """Only the live session(s) and the one pending request the demo needs are left."""
    left = {s.session_id: s.state for s in sessions_store.iter_sessions(str(root))}
    pending = approvals_store.pending_requests(str(root))
    if len(pending) != 1:
        raise StoryError(f"expected one pending approval request, found {len(pending)}")
    expected = dict(expected_sessions, **{pending[0].session_id: sessions_store.PENDING_APPROVAL})
    if left != expected:
        raise StoryError(f"sessions left {left}, expected {expected}")


def replay(base: Path) -> tuple[dict[str, bytes], collections.Counter[str]]:
    """The day in a scratch copy of the seed: the files at its end and the ledger's events."""
    root, home, state = base / "acme-billing", base / "home", base / "state"
    lay_out(str(root), str(home), ("seed",))
    install_demo_key(str(root), str(state))
    rng = random.Random(SEED)
    sim = Sim(root, home, rng)
    saved_state_dir = os.environ.get("PAW_STATE_DIR")
    os.environ["PAW_STATE_DIR"] = str(state)  # the ledger head of the scratch run
    try:
        with patched_product(sim.clock, rng):
            expected = tell_the_story(sim)
    finally:
        if saved_state_dir is None:
            os.environ.pop("PAW_STATE_DIR", None)
        else:
            os.environ["PAW_STATE_DIR"] = saved_state_dir
    check_leftovers(root, expected)
    ledger = Ledger.for_workspace(str(root), state_dir=str(state))
    if not verify_ledger(ledger).ok:
        raise StoryError("the generated ledger does not verify")
    events = collections.Counter(
        str(record["event"]) for _, _, record in iter_records(ledger.path) if record is not None
    )
    return files_of(root, home), events


def safe_to_wipe(out: Path) -> bool:
    """Refuse to delete a directory that does not look like a generated day (a typo'd --out)."""
    if not out.exists():
        return True
    entries = {entry.name for entry in out.iterdir()}
    return not entries or "orchestration" in entries


def generate(out: Path) -> collections.Counter[str]:
    """Replay the day and write what it changed beyond ``seed/`` + ``story/`` to ``out``."""
    if not safe_to_wipe(out):
        raise SystemExit(f"{out} exists and is not a generated day; not wiping it.")
    with tempfile.TemporaryDirectory(prefix="paw-demo-gen-") as scratch:
        base = Path(scratch)
        final, events = replay(base / "day")
        lay_out(
            str(base / "plain" / "acme-billing"), str(base / "plain" / "home"), ("seed", "story")
        )
        overlaid = files_of(base / "plain" / "acme-billing", base / "plain" / "home")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for real_path, data in final.items():
        if overlaid.get(real_path) != data:
            target = out / bundle_path(real_path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    removed = sorted(set(overlaid) - set(final))
    (out / REMOVED).write_text("".join(f"{path}\n" for path in removed), encoding="utf-8")
    return events


def tree_digest(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where to write the day (default: {DEFAULT_OUT})",
    )
    args = parser.parse_args(argv)
    out = args.out.resolve()
    events = generate(out)
    total = sum(events.values())
    print(f"Wrote {out} ({total} ledger records, tree sha256 {tree_digest(out)[:16]})")
    for event, count in sorted(events.items()):
        print(f"  {event:22} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
