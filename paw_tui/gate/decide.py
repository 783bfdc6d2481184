"""Step 2 of a gate event: the decision, as a pure function of the gathered facts.

:func:`decide` neither reads nor writes a file: it looks at :class:`~paw_tui.gate.facts.Facts`
and returns a :class:`Verdict` saying what to answer and what must happen for that answer to
stand (records to append, a session to touch or release, a selection to perform). Step 3
(:mod:`paw_tui.gate.apply`) carries those out. The same function can be called in process
by an agent framework, and a property test can drive it without a workspace.
"""

from __future__ import annotations

from paw_tui.core.ledger import records
from paw_tui.gate import tools
from paw_tui.gate.events import POST_TOOL, PRE_TOOL, PROMPT, SESSION_END, SESSION_START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.scope.checker import ScopeDecision
    from paw_tui.gate.facts import Facts

# What step 3 does with a verdict.
ANSWER = "answer"  # answer as the verdict says; record ``record`` first when it is set
SELECT = "select"  # perform the handshake (a locked transaction of its own)
REQUEST_SCOPE = "request_scope"  # file a scope request (a locked transaction of its own)
CONTEXT = "context"  # assemble the prompt context for SessionStart / UserPromptSubmit
RELEASE = "release"  # SessionEnd: release the session's lock
MUTATIONS = "mutations"  # PostToolUse: record what the tool changed


class Verdict:
    """What to answer, and what must happen first.

    ``record`` is the ledger event to append (``tool_allowed`` / ``tool_denied``) or None;
    the call is allowed only once it is written. ``touch`` asks for the session record to be
    (re)written to show it is live; ``release_expired`` for an idle session's lock to be
    ended first.
    """

    __slots__ = (
        "action",
        "allow",
        "reason",
        "intent_id",
        "paths",
        "record",
        "touch",
        "release_expired",
    )

    def __init__(
        self,
        action: str,
        allow: bool = True,
        reason: str | None = None,
        intent_id: str | None = None,
        paths: list[str] | None = None,
        record: str | None = None,
        touch: bool = False,
        release_expired: bool = False,
    ) -> None:
        self.action = action
        self.allow = allow
        self.reason = reason
        self.intent_id = intent_id
        self.paths = paths or []
        self.record = record
        self.touch = touch
        self.release_expired = release_expired

    def __repr__(self) -> str:
        return f"Verdict({self.action}, allow={self.allow}, reason={self.reason!r}, record={self.record!r})"


def decide(facts: Facts) -> Verdict:
    kind = facts.event.kind
    if kind == PRE_TOOL:
        return pre_tool(facts)
    if kind == POST_TOOL:
        return Verdict(MUTATIONS)
    if kind in (SESSION_START, PROMPT):
        return Verdict(CONTEXT, touch=facts.policy.valid, release_expired=facts.expired)
    if kind == SESSION_END:
        return Verdict(RELEASE)
    return Verdict(ANSWER, False, f"Unknown gate event '{kind}'.")


def _needs_touch(facts: Facts) -> bool:
    from paw_tui.core.handshake import sessions as sessions_store

    ttl = facts.policy.governance.session_ttl
    # With a short TTL the record must be refreshed more often than once a minute.
    interval = min(sessions_store.TOUCH_INTERVAL, ttl / 4)
    session = facts.live_session
    return sessions_store.needs_touch(session, facts.now, facts.event.client, interval=interval)


def _shell_first(
    facts: Facts, intent: Intent | None, refusal: str | None, shown: list[str], touch: bool
) -> Verdict | None:
    """What a shell command decides before its targets are checked: a command bash would
    refuse, a person's act, or (before any selection) a provably read-only look around."""
    shell = facts.shell
    if shell is None:
        return None
    intent_id = intent.id if intent else None
    if shell.error is not None:
        reason = f"paw-tui policy: the command cannot be parsed ({shell.error}); denying."
        return _denial(facts, reason, intent_id, shown, touch)
    from paw_tui.gate import shell_acts

    act = shell_acts.person_act_in(shell.commands, shell.remote_refs)
    if act is not None:
        return _denial(facts, shell_acts.refusal(act), intent_id, shown, touch)
    if intent is None and refusal is None and shell.read_only and not facts.targets:
        # Looking around before choosing an intent, as the mandate asks: provably read-only
        # (and, for a tool whose input names a command, naming no path to write either).
        logged = facts.policy.governance.log_reads
        return Verdict(
            ANSWER,
            record=records.TOOL_ALLOWED if logged else None,
            paths=shown,
            touch=touch,
            release_expired=facts.expired,
        )
    return None


def _denial(
    facts: Facts, reason: str, intent_id: str | None, paths: list[str], touch: bool
) -> Verdict:
    return Verdict(
        ANSWER,
        False,
        reason,
        intent_id,
        paths,
        records.TOOL_DENIED,
        touch=touch,
        release_expired=facts.expired,
    )


def pre_tool(facts: Facts) -> Verdict:
    event = facts.event
    policy = facts.policy
    shown = [target.display for target in facts.targets]
    if facts.kind == tools.READ_ONLY:
        logged = policy.valid and policy.governance.log_reads
        return Verdict(ANSWER, record=records.TOOL_ALLOWED if logged else None, paths=shown)
    if facts.kind == tools.HANDSHAKE:
        return Verdict(
            SELECT, touch=policy.valid and _needs_touch(facts), release_expired=facts.expired
        )
    if facts.kind == tools.SCOPE_REQUEST:
        return Verdict(
            REQUEST_SCOPE,
            touch=policy.valid and _needs_touch(facts),
            release_expired=facts.expired,
        )

    # Read-only calls (most calls) were answered above: what follows loads only for the rest.
    from paw_tui.core.handshake.standing import working_intent

    def deny(reason: str, intent_id: str | None = None, paths: list[str] = shown) -> Verdict:
        return _denial(facts, reason, intent_id, paths, touch)

    if not policy.valid:
        touch = False
        return deny(policy.unavailable_reason or "Orchestration state unavailable.")
    session = facts.live_session
    # a session that has only been denied leaves no record (issue 12: no file per denial)
    touch = session is not None and _needs_touch(facts)
    intent, refusal = working_intent(policy, session)
    shell_verdict = _shell_first(facts, intent, refusal, shown, touch)
    if shell_verdict is not None:
        return shell_verdict
    if intent is None:
        if refusal is None:
            held = facts.held or {}
            from paw_tui.core.handshake import messages
            from paw_tui.core.handshake.reach import handshake_hint

            hint = handshake_hint(event.client, server_off=facts.server_declined)
            selectable = policy.selectable(set(held))
            refusal = messages.must_cite(
                selectable, event.tool, held, client=event.client, hint=hint
            )
        return deny(refusal, session.intent_id if session is not None else None)
    if facts.target_error is not None:
        return deny(facts.target_error, intent.id)
    if facts.kind == tools.SHELL and not (event.command or "").strip():
        return deny(
            f"paw-tui policy: {event.tool} has no command to run (a string); denying.", intent.id
        )
    checker = policy.checker(intent)
    checked: list[str] = []
    for target in facts.targets:
        if target.alias_of is not None:
            checked.append(target.display)
            return deny(
                f"{target.display} is a hard link to {target.alias_of}, which is protected: "
                "agents never write it.",
                intent.id,
                checked,
            )
        if target.relative is None:
            verdict = checker.outside(target.display, target.given)
        else:
            verdict = checker.check_relative(
                target.relative,
                subtree=target.subtree,
                directory=target.directory,
                contents=target.contents,
            )
        checked.append(verdict.path)
        if not verdict.allowed:
            return deny(_violation(verdict, event.client), intent.id, checked)
    return Verdict(
        ANSWER,
        True,
        None,
        intent.id,
        checked,
        records.TOOL_ALLOWED,
        touch=touch,
        release_expired=facts.expired,
    )


def _violation(verdict: ScopeDecision, client: str | None) -> str:
    """The deny reason of a path refused: a protected path as protected (more scope could
    never help), any other followed by the tool that asks for more, in the client's terms."""
    from paw_tui.core.handshake.messages import scope_expansion_how
    from paw_tui.core.policy.scope.checker import PROTECTED

    message = verdict.message or "Scope Violation."
    return message if verdict.kind == PROTECTED else f"{message} {scope_expansion_how(client)}"
