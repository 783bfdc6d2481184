"""One event through the gate: find the workspace, gather, decide, apply, answer.

It fails closed: state it cannot load, a ledger it cannot append to, or any internal error
denies every tool that is not known to be read-only, and says why. Events that cannot block
(SessionStart, UserPromptSubmit, PostToolUse, SessionEnd) never exit 2; on broken state they
say so in the injected context instead.
"""

from __future__ import annotations

import os

from paw_tui.gate import tools
from paw_tui.gate.events import PRE_TOOL, PROMPT, SESSION_START, Answer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.gate.clients import ClientAdapter
    from paw_tui.gate.events import GateEvent


def find_root(event: GateEvent, workspaces: list[str], environ: Mapping[str, str]) -> str | None:
    """The workspace root for the event (DESIGN §1, with the client's project variable)."""
    # The common case (Claude Code sets CLAUDE_PROJECT_DIR) needs neither the platform nor
    # the ancestor search: keep their imports off the hot path.
    cwd = event.cwd if event.cwd and os.path.isdir(event.cwd) else None
    if not workspaces:
        for name in ("PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR"):
            value = (environ.get(name) or "").strip()
            if value:
                return os.path.normpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(value)))
    from paw_tui.core.workspace.discovery import discover_roots
    from paw_tui.core.workspace.platform import PlatformProbe, home_directory

    roots = discover_roots(
        workspaces,
        environ=environ,
        cwd=cwd,
        home=home_directory(PlatformProbe(environ=environ)),
        client_project_env=True,
    )
    return roots[0] if roots else None


def handle(
    adapter: ClientAdapter, event: GateEvent, workspaces: list[str], env: Mapping[str, str]
) -> Answer:
    """The client's answer to ``event``; never raises."""

    def fail(reason: str) -> Answer:
        if event.kind == PRE_TOOL:
            if tools.classify(event.tool or "") == tools.READ_ONLY:
                return Answer(stderr=f"paw-tui gate: {reason} (read-only tool allowed)\n")
            return adapter.deny(reason)
        if event.kind in (SESSION_START, PROMPT):
            return adapter.context_only(event.kind, reason)
        return Answer(stderr=f"paw-tui gate: {reason}\n")

    try:
        root = find_root(event, workspaces, env)
        if root is None:
            return fail(
                "Orchestration state unavailable: no paw-tui workspace was found from "
                f"{event.cwd or os.getcwd()} (set CLAUDE_PROJECT_DIR or PAW_WORKSPACE_PATH)."
            )
        from paw_tui.core.workspace.state import WorkspaceState
        from paw_tui.gate.apply import apply
        from paw_tui.gate.decide import decide
        from paw_tui.gate.facts import gather

        state = WorkspaceState(root)
        facts = gather(state, event)
        decision = apply(state, facts, decide(facts))
        return adapter.render(event, decision)
    except Exception as exc:
        from paw_tui.core.errors import PawError

        if isinstance(exc, PawError):
            return fail(f"{exc} Denying (fail closed)." if event.kind == PRE_TOOL else str(exc))
        return fail(
            f"paw-tui gate internal error ({type(exc).__name__}: {exc}); denying (fail closed)."
        )
