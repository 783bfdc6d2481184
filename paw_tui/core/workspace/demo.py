"""The bundled demo workspace: copy it out of the package and make it ready to open.

The package stores the demo without leading dots (setuptools skips dot-directories in
package data): ``orchestration/`` is ``.orchestration/``, ``paw/`` is ``.paw/``, and
``home/paw/`` is the user layer ``~/.paw/``. :func:`copy_demo_workspace` lays it out as

    <target>/acme-billing/   the workspace root
    <target>/home/           the user home (its .paw/instructions/ is the user layer)
    <target>/state/          the state kept outside the workspace (the ledger's head)

and writes the ledger's head for the new root, so ``trace verify`` reports an intact ledger
when ``PAW_STATE_DIR`` points at ``state/`` (:meth:`DemoWorkspace.environ`). It is generated
by ``scripts/make_demo_workspace.py``; never edit the bundle by hand.
"""

from __future__ import annotations

import os
import time
from importlib import resources

from paw_tui.core.ledger.touched import rebuild_index

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import MutableMapping
    from importlib.resources.abc import Traversable

DATA_DIR = "demo_workspace"
WORKSPACE_NAME = "acme-billing"
HOME_DIR = "home"
STATE_DIR = "state"
# Bundle path (relative to the bundle, "/"-separated) -> the real name of its last part.
# ``home/`` becomes the user home; everything else goes into the workspace root.
RESTORED_NAMES = {
    "orchestration": ".orchestration",
    "orchestration/gitignore": ".gitignore",
    "paw": ".paw",
    "home/paw": ".paw",
}
_SKIPPED_SUFFIXES = (".pyc", ".pyo")
# Variables that would point paw-tui at another workspace than the demo.
WORKSPACE_VARIABLES = ("PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR")


class DemoWorkspace:
    """Where a copy of the demo lives: its root, its user home and its state directory."""

    __slots__ = ("base", "root", "user_home", "state_dir")

    def __init__(self, base: str, root: str, user_home: str, state_dir: str) -> None:
        self.base = base
        self.root = root
        self.user_home = user_home
        self.state_dir = state_dir

    def environ(self) -> dict[str, str | None]:
        """Overrides for the environment: a value to set, or None for a variable to remove."""
        overrides: dict[str, str | None] = {
            "PAW_USER_HOME": self.user_home,
            "PAW_STATE_DIR": self.state_dir,
        }
        for name in WORKSPACE_VARIABLES:
            overrides[name] = None
        return overrides

    def apply_environ(self, environ: MutableMapping[str, str] | None = None) -> None:
        """Apply :meth:`environ` to ``environ`` (by default this process's environment)."""
        target = os.environ if environ is None else environ
        for name, value in self.environ().items():
            if value is None:
                target.pop(name, None)
            else:
                target[name] = value

    def __repr__(self) -> str:
        return f"DemoWorkspace(root={self.root!r}, user_home={self.user_home!r}, state_dir={self.state_dir!r})"


def bundled_demo() -> Traversable:
    return resources.files("paw_tui").joinpath(DATA_DIR)


def copy_demo_workspace(target_dir: str) -> DemoWorkspace:
    """Copy the demo into ``target_dir`` (created if missing; it must hold no demo yet)."""
    base = os.path.abspath(target_dir)
    demo = DemoWorkspace(
        base,
        os.path.join(base, WORKSPACE_NAME),
        os.path.join(base, HOME_DIR),
        os.path.join(base, STATE_DIR),
    )
    source = bundled_demo()
    if not source.is_dir():
        raise FileNotFoundError(
            "The demo workspace is missing from this installation of paw-tui "
            "(regenerate it with scripts/make_demo_workspace.py)."
        )
    for path in (demo.root, demo.user_home):
        if os.path.lexists(path):
            raise FileExistsError(
                f"'{path}' already exists; copy the demo into an empty directory."
            )
    os.makedirs(base, exist_ok=True)
    for entry in sorted(source.iterdir(), key=lambda item: item.name):
        if entry.name == HOME_DIR:
            _copy(entry, HOME_DIR, demo.user_home)
        else:
            _copy(entry, entry.name, os.path.join(demo.root, _real_name(entry.name)))
    os.makedirs(demo.state_dir, exist_ok=True)
    _freshen_sessions(demo.root)
    _adopt_ledger(demo)
    return demo


def _real_name(bundle_path: str) -> str:
    return RESTORED_NAMES.get(bundle_path, bundle_path.rsplit("/", 1)[-1])


def _copy(entry: Traversable, bundle_path: str, target: str) -> None:
    """Copy ``entry`` (at ``bundle_path`` in the bundle) to ``target``, restoring names."""
    # An installed package may hold byte-code caches beside the demo's Python files.
    if entry.name == "__pycache__" or entry.name.endswith(_SKIPPED_SUFFIXES):
        return
    if entry.is_dir():
        os.makedirs(target, exist_ok=True)
        for child in sorted(entry.iterdir(), key=lambda item: item.name):
            child_path = f"{bundle_path}/{child.name}"
            _copy(child, child_path, os.path.join(target, _real_name(child_path)))
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as handle:
        handle.write(entry.read_bytes())


def _freshen_sessions(root: str) -> None:
    """Make the demo's open sessions live now: they were last seen on the demo's day, and a
    session idle longer than ``session_ttl`` would have lost its intent."""
    from paw_tui.core.handshake import sessions as sessions_store

    now = time.time()
    for session in sessions_store.iter_sessions(root):
        if session.holds_intent and session.last_seen < now:
            session.last_seen = now
            sessions_store.save_session(root, session)


def _adopt_ledger(demo: DemoWorkspace) -> None:
    """Record the copied ledger's head outside the workspace for the new root, as the
    writer would have, and rebuild the per-intent index (``.cache/`` is not bundled)."""
    from paw_tui.core.ledger.io import line_hash, loads_record
    from paw_tui.core.ledger.store import Ledger

    ledger = Ledger.for_workspace(demo.root, state_dir=demo.state_dir)
    last: tuple[int, bytes] | None = None
    for offset, line in ledger.iter_lines():
        last = (offset, line)
    if last is None:
        return
    offset, line = last
    record = loads_record(line) or {}
    seq, ts = record.get("seq"), record.get("ts")
    if type(seq) is not int or not isinstance(ts, str):
        raise ValueError(f"The demo ledger {ledger.path} ends with a line that is not a record.")
    head, slot = ledger.heads.read()
    generation = int(head["gen"]) + 1 if head is not None else 1  # type: ignore[call-overload]
    ledger.heads.write(slot, generation, seq, line_hash(line), offset + len(line) + 1, ts)
    rebuild_index(ledger)
