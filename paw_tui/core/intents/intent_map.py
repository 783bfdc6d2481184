"""``.orchestration/intent_map.md``: a generated map from each intent to the files it touched.

Rebuilt from the per-intent index after every recorded mutation; humans read it, nothing
parses it. Written atomically; a failure to write it never blocks anything.

A rebuild must cost the same with 5 intents as with 5,000 (DESIGN §10), so it reads no intent
record: the policy's part of the map comes from a skeleton kept by policy key
(:mod:`~paw_tui.core.intents.map_skeleton`), the intents with a table are the ones the
touched-index directory lists, and a touched file whose stamp has not moved since it was
last hashed is not read again (:mod:`~paw_tui.core.ledger.hash_memo`). Both are kept in the
workspace's state directory; without one, everything is rendered from the policy and hashed.
"""

from __future__ import annotations

import os

from paw_tui.core.intents import map_skeleton
from paw_tui.core.intents.map_skeleton import HEADER, NO_FILES
from paw_tui.core.ledger.touched import file_sha256, index_dir, touched_files
from paw_tui.core.support.fsutil import atomic_write
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.workspace.state import WorkspaceState

__all__ = ["HEADER", "render_intent_map", "write_intent_map"]

STATE_SUBDIR = "intent_map"
SKELETON_FILE = "skeleton"
HASHES_FILE = "hashes"
TABLE_HEAD = "\n| file | last recorded hash | changed since |\n|---|---|---|\n"


def _state_dir(state: WorkspaceState) -> str | None:
    from paw_tui.core.workspace.statedir import workspace_state_dir

    try:
        base = state.ledger.state_base
        return os.path.join(workspace_state_dir(state.root, base=base), STATE_SUBDIR)
    except OSError:
        return None  # no home directory to be found: render and hash everything


def _table(state: WorkspaceState, intent_id: str, hasher: Callable[[str], str | None]) -> str:
    """The intent's table of touched files, or "" when it has none."""
    try:
        touched = [e.to_dict() for e in touched_files(state.ledger, intent_id, hasher=hasher)]
    except Exception:
        touched = []
    if not touched:
        return ""
    rows = [TABLE_HEAD]
    for entry in touched:
        digest = str(entry.get("content_hash") or "")
        short = digest.split(":", 1)[-1][:12] if digest else "(none)"
        changed = entry.get("changed")
        since = "yes" if changed else ("no" if changed is not None else "?")
        rows.append(f"| `{entry.get('path')}` | `{short}` | {since} |\n")
    return "".join(rows)


def render_intent_map(state: WorkspaceState) -> str:
    policy = state.policy
    directory = _state_dir(state)
    try:
        names = os.listdir(index_dir(state.ledger))
    except OSError:
        names = []  # no intent has touched a file yet
    skeleton = None
    if directory is not None:
        skeleton = map_skeleton.load(os.path.join(directory, SKELETON_FILE), policy.key)
    places = skeleton.places(names) if skeleton is not None else None
    if skeleton is None or places is None:
        skeleton = map_skeleton.build(policy)
        places = skeleton.places(names)
        assert places is not None  # just built: every slot points at its NO_FILES
        if directory is not None:
            map_skeleton.save(os.path.join(directory, SKELETON_FILE), policy.key, skeleton)
    memo = None
    if directory is not None and places:
        from paw_tui.core.ledger.hash_memo import HashMemo

        memo = HashMemo(os.path.join(directory, HASHES_FILE))
    hasher = memo.sha256 if memo is not None else file_sha256
    text = skeleton.text
    parts = []
    at = 0
    for offset, intent_id in places:
        table = _table(state, intent_id, hasher)
        if table:
            parts.append(text[at:offset])
            parts.append(table)
            at = offset + len(NO_FILES)
    parts.append(text[at:])
    if memo is not None:
        memo.save()
    return "".join(parts)


def write_intent_map(state: WorkspaceState) -> bool:
    try:
        atomic_write(
            layout.at(state.root, layout.INTENT_MAP), render_intent_map(state).encode("utf-8")
        )
        return True
    except OSError:
        return False
