"""Step 1 of a gate event: gather, once, everything the decision needs.

The event, the workspace's policy, the session record, the clock, and each target path
already resolved against the file system (realpath, the deepest existing ancestor for a new
file). After this step nothing reads a file until the decision is made
(:mod:`paw_tui.gate.decide`).
"""

from __future__ import annotations

import os

from paw_tui.gate import tools
from paw_tui.gate.events import PRE_TOOL, PROMPT, SESSION_START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.policy.shell.results import ShellAnalysis
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent
    from paw_tui.gate.targets import RawTarget, Target


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
        "shell",
        "server_declined",
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
        self.shell: ShellAnalysis | None = None
        """For a shell tool: the command as bash would read it."""
        self.server_declined: str | None = None
        """How to turn the paw MCP server back on, when the person turned it off in the client
        (the handshake is out of reach); read only when a call is about to be denied for want
        of an intent."""

    @property
    def live_session(self) -> Session | None:
        """The session, unless its lock expired."""
        return None if self.expired else self.session


def gather(state: WorkspaceState, event: GateEvent) -> Facts:
    policy = state.policy
    kind = tools.classify(
        event.tool or "", policy.governance if policy.valid else None, event.client
    )
    unreadable = None
    if kind in (tools.MUTATING, tools.SHELL):
        # a tool whose input names a command runs it: decided as the shell call it is
        from paw_tui.gate.tool_input import read_commands

        try:
            if read_commands(event):
                kind = tools.SHELL
        except ValueError as exc:
            unreadable = f"paw-tui policy: {exc}; denying (fail closed)."
    facts = Facts(event, state.root, state.now(), policy, kind)
    facts.target_error = unreadable
    if not policy.valid:
        if event.kind == PRE_TOOL and kind not in tools.WRITES_NOTHING:
            _resolve_targets(facts)  # the denial still records what the call would touch
        return facts
    if event.kind == PRE_TOOL and kind == tools.READ_ONLY:
        if policy.governance.log_reads:
            _resolve_targets(facts)
        return facts
    # Read-only calls (most calls) stop above: sessions and path resolution load only here.
    from paw_tui.core.handshake import sessions as sessions_store

    session = sessions_store.load_session(state.root, event.session_id)
    facts.session = session
    ttl = policy.governance.session_ttl
    facts.expired = (
        session is not None and session.holds_intent and not session.is_live(facts.now, ttl)
    )
    if event.kind in (SESSION_START, PROMPT) or (
        event.kind == PRE_TOOL
        and kind not in (tools.HANDSHAKE, tools.SCOPE_REQUEST)
        and not _holds(facts.live_session)
    ):
        facts.held = sessions_store.held_intents(
            state.root, facts.now, ttl, besides=event.session_id
        )
        if event.kind == PRE_TOOL:
            from paw_tui.core.clients.server_off import how_to_enable

            facts.server_declined = how_to_enable(event.client, state.root)
    if event.kind == PRE_TOOL and kind not in tools.WRITES_NOTHING:
        _resolve_targets(facts)
    return facts


def analyse_shell(event: GateEvent, root: str) -> ShellAnalysis | None:
    """The event's shell commands as bash reads them, as one analysis (None without a
    command)."""
    if not event.command:
        return None
    from paw_tui.core.policy.shell.analysis import analyse

    base = event.cwd or root

    def place(directory: str | None) -> str:
        return os.path.join(base, os.path.expanduser(directory)) if directory else base

    first = analyse(event.command, place(event.command_cwd))
    if not event.more_commands:
        return first
    from paw_tui.gate.tool_input import combine_analyses

    more = [(analyse(line.text, place(line.cwd)), line.strict) for line in event.more_commands]
    return combine_analyses([(first, True), *more])


def _holds(session: Session | None) -> bool:
    return session is not None and session.holds_intent and bool(session.intent_id)


def raw_targets(
    event: GateEvent, kind: str, analysis: ShellAnalysis | None = None
) -> list[RawTarget]:
    """Every path the call would write (:class:`~paw_tui.gate.targets.RawTarget`). Raises
    ValueError for a write that cannot be placed (the call is denied, naming it)."""
    from paw_tui.core.policy.catalogue import catalogue
    from paw_tui.gate.targets import RawTarget

    entry = catalogue().get(event.tool or "", event.client)
    targets: list[RawTarget] = []
    if kind == tools.SHELL:
        found = analysis if analysis is not None else analyse_shell(event, event.cwd or os.getcwd())
        if found is None or found.error is not None:
            return []
        from paw_tui.gate.shell_writes import write_targets

        # files of a patch sent through the shell (apply_patch <<'EOF') are named in paths
        targets = write_targets(found, os.environ)
        if entry is not None and entry.kind == tools.SHELL:
            return targets + [RawTarget(p, event.cwd) for p in event.paths]
        # a tool read as shell for the command its input names: its other fields too
    targets += [RawTarget(path, event.cwd) for path in event.paths]
    from paw_tui.gate.tool_paths import read_input

    # a catalogued tool's text fields are text; any other field may name one more path
    skip = entry.text if entry is not None else frozenset()
    named = {target.path for target in targets}
    for path, _where in read_input(event.tool_input, event.cwd, skip).paths:
        if path not in named:
            named.add(path)
            targets.append(RawTarget(path, event.cwd))
    return targets


def _resolve_targets(facts: Facts) -> None:
    from paw_tui.core.support.printable import has_control, printable
    from paw_tui.core.workspace.paths import PathError, real_root, resolve_path
    from paw_tui.gate.targets import Target

    event = facts.event
    root = real_root(facts.root)
    if facts.kind == tools.SHELL:
        facts.shell = analyse_shell(event, facts.root)
    try:
        raw = raw_targets(event, facts.kind, facts.shell)
    except ValueError as exc:
        facts.target_error = f"paw-tui policy: {exc}; denying (fail closed)."
        return
    linked: list[Target] = []
    for item in raw:
        path = item.path
        if has_control(path):
            facts.target_error = facts.target_error or (
                f"paw-tui policy: the path '{printable(path)}' holds a control character; denying."
            )
            facts.targets.append(Target(path, None, printable(path), item))
            continue
        try:
            resolved = resolve_path(
                path, root, cwd=item.cwd or event.cwd or facts.root, root_is_real=True
            )
        except PathError as exc:
            facts.target_error = facts.target_error or str(exc)
            facts.targets.append(Target(path, None, path.replace("\\", "/"), item))
            continue
        target = Target(path, resolved.relative, resolved.display, item)
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
