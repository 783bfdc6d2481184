"""Step 1 of a gate event: gather, once, everything the decision needs.

The event, the workspace's policy, the session record, the clock, and each target path
already resolved against the file system (realpath, the deepest existing ancestor for a new
file). After this step nothing reads a file until the decision is made
(:mod:`paw_tui.gate.decide`).
"""

from __future__ import annotations

import os

from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.support.printable import has_control, printable
from paw_tui.core.workspace.paths import PathError, real_root, resolve_path
from paw_tui.gate import tools
from paw_tui.gate.events import PRE_TOOL, PROMPT, SESSION_START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent


class Target:
    """One path the tool call would write, as given and as resolved.

    ``relative`` is the root-relative POSIX path (``""`` for the root) or None outside the
    root; ``display`` is what records and messages show. ``subtree`` marks an operation on a
    whole directory (``rm -r``, ``mv``), ``directory`` the creation of one (``mkdir``).
    """

    __slots__ = ("given", "relative", "display", "subtree", "directory", "alias_of")

    def __init__(
        self,
        given: str,
        relative: str | None,
        display: str,
        subtree: bool = False,
        directory: bool = False,
    ) -> None:
        self.given = given
        self.relative = relative
        self.display = display
        self.subtree = subtree
        self.directory = directory
        self.alias_of: str | None = None
        """The protected file this one is a hard link to (the same inode), if any."""

    def __repr__(self) -> str:
        return f"Target({self.display!r}, subtree={self.subtree}, directory={self.directory})"


class Facts:
    """What the decision about one event may look at; built by :func:`gather`."""

    __slots__ = (
        "event",
        "root",
        "now",
        "policy",
        "kind",
        "session",
        "expired",
        "held",
        "targets",
        "target_error",
    )

    def __init__(self, event: GateEvent, root: str, now: float, policy: Policy, kind: str) -> None:
        self.event = event
        self.root = root
        self.now = now
        self.policy = policy
        self.kind = kind
        self.session: Session | None = None
        self.expired = False
        """The session held an intent but has been idle longer than the session TTL."""
        self.held: dict[str, str] | None = None
        """Intents held by other live sessions (only when a message must list the free ones)."""
        self.targets: list[Target] = []
        self.target_error: str | None = None
        """A target path that cannot be reasoned about (empty, NUL); the call is denied."""

    @property
    def live_session(self) -> Session | None:
        """The session, unless its lock expired."""
        return None if self.expired else self.session


def gather(state: WorkspaceState, event: GateEvent) -> Facts:
    policy = state.policy
    kind = tools.classify(event.tool or "", policy.governance if policy.valid else None)
    facts = Facts(event, state.root, state.now(), policy, kind)
    if not policy.valid:
        if event.kind == PRE_TOOL and kind not in (tools.READ_ONLY, tools.HANDSHAKE):
            _resolve_targets(facts)  # the denial still records what the call would touch
        return facts
    if event.kind == PRE_TOOL and kind == tools.READ_ONLY:
        if policy.governance.log_reads:
            _resolve_targets(facts)
        return facts
    session = sessions_store.load_session(state.root, event.session_id)
    facts.session = session
    ttl = policy.governance.session_ttl
    facts.expired = (
        session is not None and session.holds_intent and not session.is_live(facts.now, ttl)
    )
    if event.kind in (SESSION_START, PROMPT) or (
        event.kind == PRE_TOOL and kind != tools.HANDSHAKE and not _holds(facts.live_session)
    ):
        facts.held = sessions_store.held_intents(
            state.root, facts.now, ttl, besides=event.session_id
        )
    if event.kind == PRE_TOOL and kind not in (tools.READ_ONLY, tools.HANDSHAKE):
        _resolve_targets(facts)
    return facts


def _holds(session: Session | None) -> bool:
    return session is not None and session.holds_intent and bool(session.intent_id)


def raw_targets(event: GateEvent, kind: str) -> list[tuple[str, str | None, bool, bool]]:
    """``(path, cwd, subtree, directory)`` for every path the call would write: ``subtree``
    for removals and moves (they take a directory's contents along), ``directory`` for
    ``mkdir`` (``dir/**`` owns the directory it creates)."""
    if kind == tools.SHELL:
        if not event.command:
            return []
        from paw_tui.core.policy.shell_targets import write_targets

        found = write_targets(event.command, event.cwd or os.getcwd())
        if found is None:
            return []  # cannot be tokenised: allowed under an active intent (DESIGN §6)
        return [(t.path, t.cwd, t.how in ("rm", "mv", "rmdir"), t.how == "mkdir") for t in found]
    targets = [(path, event.cwd, False, False) for path in event.paths]
    if event.tool not in tools.FILE_TOOLS:  # a known file tool's other fields are text
        from paw_tui.gate.tool_paths import paths_in

        named = {path for path, _cwd, _subtree, _directory in targets}
        for path, _where in paths_in(event.tool_input, event.cwd):
            if path not in named:
                named.add(path)
                targets.append((path, event.cwd, False, False))
    return targets


def _resolve_targets(facts: Facts) -> None:
    event = facts.event
    root = real_root(facts.root)
    try:
        raw = raw_targets(event, facts.kind)
    except ValueError as exc:
        facts.target_error = f"paw-tui policy: {exc}; denying (fail closed)."
        return
    linked: list[Target] = []
    for path, cwd, subtree, directory in raw:
        if has_control(path):
            facts.target_error = facts.target_error or (
                f"paw-tui policy: the path '{printable(path)}' holds a control character; denying."
            )
            facts.targets.append(Target(path, None, printable(path), subtree, directory))
            continue
        try:
            resolved = resolve_path(
                path, root, cwd=cwd or event.cwd or facts.root, root_is_real=True
            )
        except PathError as exc:
            facts.target_error = facts.target_error or str(exc)
            facts.targets.append(Target(path, None, path.replace("\\", "/"), subtree, directory))
            continue
        target = Target(path, resolved.relative, resolved.display, subtree, directory)
        facts.targets.append(target)
        if _has_other_names(resolved.absolute):
            linked.append(target)
    if linked:
        from paw_tui.gate.links import mark_protected_aliases

        mark_protected_aliases(root, linked)


def _has_other_names(path: str) -> bool:
    """Whether ``path`` is a regular file with more than one name (a hard link)."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return info.st_nlink > 1 and (info.st_mode & 0o170000) == 0o100000
