"""Around every shell call under an intent: the kernel boundary before, drift detection after.

Before the command (an allowed PreToolUse): the session's Landlock spec is written, where the
kernel offers Landlock (:mod:`paw_tui.core.confine.boundary`), and a snapshot of what lies
outside the scope, and of the protected files, is kept in the state directory
(:mod:`paw_tui.core.confine.drift`). After it (PostToolUse): files created, changed or deleted
outside the scope become one ``scope_breach`` record; protected files it changed are put
back from the snapshot (their content from the store beside it); the agent is told both in
the PostToolUse context.

Machine-owned state (the ledger, sessions, approvals, caches) is not restored: paw-tui's own
hooks for other sessions write it while a command runs. Its integrity is the signatures'
(:mod:`paw_tui.core.workspace.secret`). The two human-owned YAML files, the instruction and
tool layers, every client's hook configuration, and whatever in ``.git`` makes git run a
program or read another repository (:mod:`paw_tui.core.confine.drift_git`) are.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.confine.drift_git import covered, git_pins
from paw_tui.core.ledger import records
from paw_tui.core.policy.scope.protect import builtin_protection
from paw_tui.core.workspace import layout, statedir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.confine.drift import Drift, Restored, Snapshot
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.policy.scope.checker import ScopeChecker
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent

DRIFT_DIR = "drift"
STORE_DIR = "store"
"""Below :data:`DRIFT_DIR`: protected files' content, by hash (:mod:`.drift_store`)."""
PINNED = (layout.INTENTS, layout.GOVERNANCE)
"""Pinned besides ``.git``'s own (:func:`~paw_tui.core.confine.drift_git.git_pins`)."""
SKIPPED_DIRS = frozenset({
    ".git", layout.ORCHESTRATION, "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache",
})  # fmt: skip
"""Never walked: git's and paw-tui's own machine state, and trees of generated files."""
MACHINE_OWNED = (f"{layout.ORCHESTRATION}/", ".git/")
"""Protected, but written by paw-tui or git themselves: tracked by signatures, not restored,
except what is pinned there (and what lies in a pinned directory)."""
MAX_LISTED = 200
STALE_SECONDS = 24 * 3600
PRUNE_EVERY = 600
PRUNED_MARKER = ".pruned"
START_SUFFIX = ".start"
"""After a snapshot's name: the note of where the call's command started
(:mod:`paw_tui.gate.mutations`)."""
LEFT_BEHIND = (".snap", ".snap" + START_SUFFIX)
"""What a call whose PostToolUse never came leaves here."""


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in text)[:96] or "_"


def snapshot_path(root: str, session_id: str, call_id: str | None) -> str:
    directory = os.path.join(statedir.workspace_state_dir(root), DRIFT_DIR)
    return os.path.join(directory, f"{_safe(session_id)}.{_safe(call_id or 'last')}.snap")


def pinned_paths(root: str) -> tuple[str, ...]:
    """What drift detection pins in ``root`` for a snapshot taken now."""
    return PINNED + git_pins(root)


class _Rules:
    """The callables drift detection asks, for one intent's checker and the snapshot's pins."""

    def __init__(self, checker: ScopeChecker, policy: Policy, pins: tuple[str, ...]) -> None:
        self.checker = checker
        self.pins = frozenset(pins)
        self.extra_protected = bool(policy.governance.protected)
        self.excludes = [e for e in checker.scope.entries if not e.include]
        self.unders = [e.literal for e in checker.scope.entries if e.include and e.form == "under"]

    def in_scope(self, path: str) -> bool:
        return self.checker.check_relative(path).allowed

    def restorable(self, path: str) -> bool:
        if path.startswith(MACHINE_OWNED) and not covered(path, self.pins):
            return False
        decision = self.checker.check_relative(path)
        return decision.kind == "protected" and decision.path != "."

    def skip_dirs(self, path: str) -> bool:
        return _skip_dirs(path)

    def owned_dirs(self, path: str) -> bool:
        """The whole directory is in scope, and nothing below it can be protected or excluded."""
        if self.extra_protected or builtin_protection(path, subtree=True) is not None:
            return False
        prefix = path + "/"
        if not any(prefix.startswith(literal) for literal in self.unders):
            return False
        for entry in self.excludes:
            literal = entry.literal
            if (
                entry.form not in ("under", "dir", "path")
                or literal.startswith(prefix)
                or prefix.startswith(literal)
            ):
                return False
        return True


def before_shell(state: WorkspaceState, event: GateEvent, intent_id: str) -> None:
    """Prepare the boundary and take the snapshot; failures never block (drift then has no
    snapshot to compare with, and says so after the command)."""
    from paw_tui.core.confine import boundary
    from paw_tui.core.confine.drift import take_snapshot

    policy = state.policy
    scope = policy.scope(intent_id)
    if boundary.available():
        extras = tuple(os.path.expanduser(path) for path in policy.governance.confine_writable)
        boundary.prepare(state.root, event.session_id, scope, extra_dirs=extras)
    pins = pinned_paths(state.root)
    rules = _Rules(policy.checker(policy.intent(intent_id)), policy, pins)  # type: ignore[arg-type]
    path = snapshot_path(state.root, event.session_id, event.call_id)
    directory = os.path.dirname(path)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    # Protected files' content goes to the store beside the snapshots, once per content: a
    # snapshot holds hashes, so its cost does not grow with the intents file.
    snapshot = take_snapshot(
        state.root, in_scope=rules.in_scope, restorable=rules.restorable,
        skip_dirs=rules.skip_dirs, owned_dirs=rules.owned_dirs, pinned=pins, tag=intent_id,
        store=os.path.join(directory, STORE_DIR),
    )  # fmt: skip
    _prune(directory)
    snapshot.dump(path)


def _prune(directory: str) -> None:
    """Snapshots (and start notes) whose PostToolUse never came (a command killed, a client
    gone); looked for at most once every PRUNE_EVERY seconds (a marker's time says when), not
    on every call."""
    now = time.time()
    marker = os.path.join(directory, PRUNED_MARKER)
    try:
        if now - os.stat(marker).st_mtime < PRUNE_EVERY:
            return
    except OSError:
        pass
    cutoff = now - STALE_SECONDS
    try:
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600))
        os.utime(marker, follow_symlinks=False)
        for entry in os.scandir(directory):
            if entry.name.endswith(LEFT_BEHIND) and entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
    except OSError:
        pass


def after_shell(state: WorkspaceState, event: GateEvent) -> str | None:
    """Compare, restore, record; the context for the agent, or None when nothing drifted."""
    from paw_tui.core.confine.drift import Snapshot, restore

    path = snapshot_path(state.root, event.session_id, event.call_id)
    before = Snapshot.load(path)
    if before is None:
        return None
    try:
        os.unlink(path)
    except OSError:
        pass
    policy = state.policy
    intent = policy.intent(before.tag) if policy.valid else None
    early: Restored | None = None
    early_drift: Drift | None = None
    if intent is None:
        # The command may have broken or rewritten the policy files themselves: put every
        # protected file back from the snapshot first, then read the policy again.
        early_drift = _compare(before, state.root, None)
        if early_drift.protected:
            early = restore(before, early_drift, state.root)
        policy = state.reload_policy()
        intent = policy.intent(before.tag) if policy.valid else None
        if intent is None:
            if early_drift.created or early_drift.modified or early_drift.deleted:
                _record(state, event, before.tag or None, early_drift, early)
                return breach_message(before.tag or "the intent", early_drift, early)
            return None
    drift = _compare(before, state.root, _Rules(policy.checker(intent), policy, before.pins))
    restored = restore(before, drift, state.root) if drift.protected else None
    if early_drift is not None:
        drift = _merge(early_drift, drift)
        if early is not None:
            restored = _merge_restored(early, restored)
    if not (drift.created or drift.modified or drift.deleted):
        return None
    _record(state, event, intent.id, drift, restored)
    return breach_message(intent.id, drift, restored)


def _compare(before: Snapshot, root: str, rules: _Rules | None) -> Drift:
    """Drift since ``before``; without rules (no readable policy), every path the snapshot
    did not see counts as in scope and only the built-in protected paths are restorable."""
    from paw_tui.core.confine.drift import compare

    if rules is None:
        pins = frozenset(before.pins)

        def builtin_restorable(path: str) -> bool:
            if path.startswith(MACHINE_OWNED) and not covered(path, pins):
                return False
            return bool(path) and builtin_protection(path) is not None

        return compare(
            before, root, in_scope=lambda _path: True, restorable=builtin_restorable,
            skip_dirs=_skip_dirs, owned_dirs=None,
        )  # fmt: skip
    return compare(
        before, root, in_scope=rules.in_scope, restorable=rules.restorable,
        skip_dirs=rules.skip_dirs, owned_dirs=rules.owned_dirs,
    )  # fmt: skip


def _skip_dirs(path: str) -> bool:
    """Skipped trees, and every directory inside ``.git`` (only its pins are walked)."""
    return (
        path in SKIPPED_DIRS
        or path.startswith(".git/")
        or path.rpartition("/")[2] in ("node_modules", "__pycache__")
    )


def _merge(first: Drift, second: Drift) -> Drift:
    """One drift holding both: what was undone early stays listed as changed."""
    second.created = sorted(set(first.created) | set(second.created))
    second.modified = sorted(set(first.modified) | set(second.modified))
    second.deleted = sorted(set(first.deleted) | set(second.deleted))
    second.protected = set(first.protected) | set(second.protected)
    return second


def _merge_restored(first: Restored, second: Restored | None) -> Restored:
    if second is None:
        return first
    second.restored = sorted(set(first.restored) | set(second.restored))
    second.failed = list(first.failed) + [f for f in second.failed if f not in first.failed]
    return second


def _changes(drift: Drift) -> list[tuple[str, str]]:
    changes = [(p, "created") for p in drift.created]
    changes += [(p, "changed") for p in drift.modified]
    changes += [(p, "deleted") for p in drift.deleted]
    return sorted(changes)


def _record(
    state: WorkspaceState,
    event: GateEvent,
    intent_id: str | None,
    drift: Drift,
    restored: Restored | None,
) -> None:
    changes = _changes(drift)
    undone = sorted(restored.restored) if restored is not None else []
    failed = [f"{p}: {why}" for p, why in (restored.failed if restored is not None else [])]
    state.record(
        records.SCOPE_BREACH, session_id=event.session_id, intent_id=intent_id,
        client=event.client, tool=event.tool, decision="breach",
        paths=[p for p, _how in changes[:MAX_LISTED]],
        reason=f"{len(changes)} path(s) changed outside the scope by a shell command"
        + (f"; {len(undone)} protected path(s) restored" if undone else ""),
        command=(event.command or "")[:2000], restored=undone, restore_failed=failed,
        changes=[f"{how} {p}" for p, how in changes[:MAX_LISTED]],
    )  # fmt: skip


def breach_message(intent_id: str, drift: Drift, restored: Restored | None) -> str:
    """What the agent is told after a command that drifted (PostToolUse context)."""
    from paw_tui.core.support.printable import printable

    changes = _changes(drift)
    shown = ", ".join(f"{printable(p)} ({how})" for p, how in changes[:20])
    more = f" and {len(changes) - 20} more" if len(changes) > 20 else ""
    lines = [
        f"paw-tui policy: your last shell command changed files outside the scope of {intent_id}: "
        f"{shown}{more}. This was recorded as a scope breach for a human to review."
    ]
    if restored is not None and restored.restored:
        lines.append(
            "Protected files it changed were undone (agents never write them): "
            + ", ".join(printable(p) for p in sorted(restored.restored))
            + "."
        )
    if restored is not None and restored.failed:
        lines.append(
            "These could not be undone: "
            + ", ".join(f"{printable(p)} ({why})" for p, why in restored.failed)
            + "."
        )
    lines.append(
        "Stay inside the intent's scope; ask for more with request_scope_expansion if you need it."
    )
    return "\n".join(lines)
