"""``paw-tui gate``: read one hook event on stdin, answer in the client's protocol.

The process boundary (arguments, stdin, the payload's JSON, stdout, the exit code) and the
event's path through the gate: find the workspace, gather the facts
(:mod:`~paw_tui.gate.facts`), decide (:mod:`~paw_tui.gate.decide`, pure), apply the verdict
(:mod:`~paw_tui.gate.apply`: records, sessions, the handshake), answer (the client adapter).

It fails closed: a payload it cannot read, state it cannot load, a ledger it cannot append
to, or any internal error denies every tool that is not known to be read-only, and says why.
Events that cannot block (SessionStart, UserPromptSubmit, PostToolUse, SessionEnd) never
exit 2; on broken state they say so in the injected context instead.
"""

from __future__ import annotations

import os
import sys

from paw_tui.core.clients.markers import agent_marker
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.gate import MAX_PAYLOAD, tools
from paw_tui.gate.budget import AnalysisBudget, OutOfTime
from paw_tui.gate.clients import claude_code
from paw_tui.gate.events import (
    POST_TOOL,
    PRE_TOOL,
    PROMPT,
    SESSION_END,
    SESSION_START,
    Answer,
    PayloadError,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw_tui.gate.clients import ClientAdapter
    from paw_tui.gate.events import GateEvent


def _adapter(name: str) -> ClientAdapter:
    """The client adapter module (Claude Code's for ``auto``); others import when used."""
    if name in ("auto", "claude-code"):
        return claude_code
    from paw_tui.gate.clients import load_adapter

    return load_adapter(name)


USAGE = "usage: paw-tui gate [--client auto|CLIENT] [--event EVENT] [--workspace DIR]"
EVENT_ALIASES = {
    "pretooluse": PRE_TOOL,
    "pre_tool": PRE_TOOL,
    "pre-tool": PRE_TOOL,
    "posttooluse": POST_TOOL,
    "post_tool": POST_TOOL,
    "post-tool": POST_TOOL,
    "sessionstart": SESSION_START,
    "session_start": SESSION_START,
    "session-start": SESSION_START,
    "userpromptsubmit": PROMPT,
    "prompt": PROMPT,
    "sessionend": SESSION_END,
    "session_end": SESSION_END,
    "session-end": SESSION_END,
    # other clients' names for the same events (Gemini CLI, Cline)
    "beforetool": PRE_TOOL,
    "aftertool": POST_TOOL,
    "beforeagent": PROMPT,
    "taskstart": SESSION_START,
    "taskresume": SESSION_START,
}
MAX_DEPTH = 64
"""Levels of nesting a payload may have; no client sends more than a handful."""


class GateUsageError(ValueError):
    pass


def _parse_args(argv: Sequence[str]) -> tuple[str, str | None, list[str]]:
    client, event, workspaces = "auto", None, []
    items = list(argv)
    while items:
        arg = items.pop(0)
        name, eq, value = arg.partition("=")
        if name in ("--client", "--event", "--workspace", "-w"):
            if not eq:
                if not items:
                    raise GateUsageError(f"{name} needs a value")
                value = items.pop(0)
            if name == "--client":
                from paw_tui.gate.clients import ADAPTERS

                if value != "auto" and value not in ADAPTERS:
                    raise GateUsageError(
                        f"unknown client '{value}'; use auto, {', '.join(ADAPTERS)}"
                    )
                client = value
            elif name == "--event":
                kind = EVENT_ALIASES.get(value.lower())
                if kind is None:
                    raise GateUsageError(f"unknown event '{value}'")
                event = kind
            else:
                workspaces.append(value)
        elif arg == "--debug":
            continue
        else:
            raise GateUsageError(f"unexpected argument '{arg}'")
    return client, event, workspaces


def _hook_event_of(payload: object) -> str | None:
    if isinstance(payload, dict):
        name = payload.get("hook_event_name") or payload.get("event") or payload.get("hookName")
        if isinstance(name, str):
            return EVENT_ALIASES.get(name.lower())
    return None


def decide_payload(
    raw: bytes,
    *,
    client: str = "auto",
    event_override: str | None = None,
    workspaces: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    budget: AnalysisBudget | None = None,
) -> Answer:
    """The whole gate as a function: payload bytes in, the client's answer out. A started
    ``budget`` (:mod:`paw_tui.gate.budget`) bounds the analysis: past it the call is denied."""
    adapter = _adapter(client)
    budget = budget or AnalysisBudget()
    try:
        return _decide(raw, adapter, client, event_override, workspaces, environ, budget)
    except OutOfTime:  # before the event was known (handle() answers the later ones)
        budget.end()
        return adapter.deny(budget.reason)


def _decide(
    raw: bytes,
    adapter: ClientAdapter,
    client: str,
    event_override: str | None,
    workspaces: Sequence[str],
    environ: Mapping[str, str] | None,
    budget: AnalysisBudget,
) -> Answer:
    env = os.environ if environ is None else environ
    try:
        if raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return adapter.deny(
            f"paw-tui policy: the hook payload is not valid JSON ({exc}); denying (fail closed)."
        )
    except RecursionError:
        return adapter.deny(
            f"paw-tui policy: the hook payload nests deeper than {MAX_DEPTH} levels; denying (fail closed)."
        )
    if too_deep(payload, MAX_DEPTH):
        return adapter.deny(
            f"paw-tui policy: the hook payload nests deeper than {MAX_DEPTH} levels; denying (fail closed)."
        )
    if (
        client == "auto"
        and isinstance(payload, dict)
        and "hook_event_name" not in payload
        and "event" in payload
    ):
        adapter = _adapter("generic")
    if not isinstance(payload, dict):
        return adapter.deny(
            "paw-tui policy: the hook payload is not a JSON object; denying (fail closed)."
        )
    kind = event_override or _hook_event_of(payload)
    if env.get("COPILOT_CLI") and adapter is claude_code:
        from paw_tui.gate import copilot_claude

        if copilot_claude.copilot_call(payload, env):
            if copilot_claude.own_hook_decides(env, payload.get("hook_event_name")):
                return Answer()  # Copilot's own hook decides this call
            adapter = _adapter("copilot")
    try:
        marker = agent_marker(env)
        if marker is not None:
            # A hook event comes from the client, never from a tool: a "SessionEnd" or a
            # handshake piped into the gate by an agent's shell is a forgery.
            raise PayloadError(
                f"the gate was run from inside an agent's tool process ({marker}), "
                "not by the client's hook"
            )
        event = adapter.parse(payload, event_override)
    except PayloadError as exc:
        if kind in (SESSION_START, PROMPT):
            return adapter.context_only(
                kind,
                f"Orchestration state unavailable: paw-tui could not read this hook event ({exc}).",
            )
        if kind in (POST_TOOL, SESSION_END):
            return Answer(stderr=f"paw-tui gate: ignored a malformed {kind} event: {exc}\n")
        return adapter.deny(
            f"paw-tui policy: cannot classify this event ({exc}); denying (fail closed)."
        )
    if event is None:
        return Answer()
    return handle(adapter, event, list(workspaces), env, budget)


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
    adapter: ClientAdapter,
    event: GateEvent,
    workspaces: list[str],
    env: Mapping[str, str],
    budget: AnalysisBudget | None = None,
) -> Answer:
    """The client's answer to ``event``; never raises. ``budget`` ends once the verdict is
    reached: making it stand (records, sessions) is never cut short."""
    budget = budget or AnalysisBudget()

    def fail(reason: str) -> Answer:
        if event.kind == PRE_TOOL:
            if tools.classify(event.tool or "", client=event.client) == tools.READ_ONLY:
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
        with budget.paused():  # the person's policy files, not the call's input
            state.policy  # noqa: B018 - loaded (or rebuilt) here, outside the budget
        facts = gather(state, event)
        verdict = decide(facts)
        budget.end()
        decision = apply(state, facts, verdict)
        return adapter.render(event, decision)
    except OutOfTime:
        budget.end()
        return fail(budget.reason)
    except Exception as exc:
        from paw_tui.core.errors import PawError

        if isinstance(exc, PawError):
            return fail(f"{exc} Denying (fail closed)." if event.kind == PRE_TOOL else str(exc))
        return fail(
            f"paw-tui gate internal error ({type(exc).__name__}: {exc}); denying (fail closed)."
        )


def main(argv: Sequence[str], budget: AnalysisBudget | None = None) -> int:
    """The hook command: arguments, stdin, the answer on stdout and stderr, the exit code.
    The analysis of the call runs under ``budget`` (a fresh one by default)."""
    try:
        client, event, workspaces = _parse_args(argv)
    except GateUsageError as exc:
        sys.stderr.write(f"{USAGE}\npaw-tui gate: {exc}\n")
        # A misconfigured hook must still block: answer as a deny for the default client.
        sys.stdout.write(claude_code.deny(f"paw-tui gate is misconfigured: {exc}.").stdout)
        return 2
    try:
        raw = sys.stdin.buffer.read(MAX_PAYLOAD + 1)
    except (OSError, ValueError) as exc:
        raw = b""
        sys.stderr.write(f"paw-tui gate: cannot read stdin: {exc}\n")
    if len(raw) > MAX_PAYLOAD:
        answer = _adapter(client).deny(
            "paw-tui policy: the hook payload is larger than 64 MiB; denying (fail closed)."
        )
    else:
        budget = (budget or AnalysisBudget()).start()
        try:
            answer = decide_payload(
                raw, client=client, event_override=event, workspaces=workspaces, budget=budget
            )
        finally:
            budget.end()
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
    if answer.stdout:
        if out is not None:
            out.write(answer.stdout.encode("utf-8"))
            out.flush()
        else:
            sys.stdout.write(answer.stdout)
    if answer.stderr:
        sys.stderr.write(answer.stderr)
        sys.stderr.flush()
    return answer.exit_code


def too_deep(value: object, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: object = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)  # type: ignore[attr-defined]
    return False


def answer(argv: Sequence[str], budget: AnalysisBudget | None = None) -> int:
    """Decide one hook call and write its answer; the exit code. Whatever happens, the answer
    is an answer: a crash (exit 1) lets every client run the tool, so anything that escapes
    :func:`main` (a RecursionError, a MemoryError) is a deny."""
    try:
        return main(argv, budget)
    except SystemExit:
        raise
    except BaseException as error:  # noqa: B036 - the hook must answer, whatever was raised
        reason = f"paw-tui policy: the gate failed ({type(error).__name__}); denying (fail closed)."
        try:
            sys.stdout.write(claude_code.deny(reason).stdout)
            sys.stdout.flush()
        finally:
            sys.stderr.write(reason + "\n")
        return 2


def run() -> None:
    """Entry point of the hook command (through :mod:`paw_tui.gate.launch`)."""
    _exit_now(answer(sys.argv[1:]))


def _exit_now(code: int) -> None:
    """Flush the answer and leave without the interpreter's shutdown: tearing down every
    module and object costs a hook about a fifth of its run, and nothing is left to do (the
    ledger and session records are on disk, fsynced, before the answer is written)."""

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = 2  # an answer that could not be written is a deny
    os._exit(code)
