"""The one internal event every client adapter produces, and the decision it gets."""

from __future__ import annotations

PRE_TOOL = "pre_tool"
POST_TOOL = "post_tool"
SESSION_START = "session_start"
PROMPT = "prompt"
SESSION_END = "session_end"
EVENTS = (PRE_TOOL, POST_TOOL, SESSION_START, PROMPT, SESSION_END)


class PayloadError(ValueError):
    """The payload cannot be understood; the gate denies and names why."""


def checked_path(value: object, what: str) -> str:
    """A path a payload names, or PayloadError: not a string, or blank. A target path holding
    a control character is kept: the decision denies it, and records the denial."""
    if not isinstance(value, str) or not value.strip():
        raise PayloadError(f"{what} is not a usable path")
    return value


def checked_cwd(payload: dict[str, object]) -> str | None:
    """The payload's ``cwd`` (None when absent); PayloadError when it is not a usable path."""
    cwd = payload.get("cwd")
    if cwd is None or cwd == "":
        return None
    from paw_tui.core.support.printable import has_control, printable

    path = checked_path(cwd, "the payload's cwd")
    if has_control(path):
        # the directory every record is about: no agent needs one, none can be shown faithfully
        raise PayloadError(f"the payload's cwd holds a control character ('{printable(path)}')")
    return path


class CommandLine:
    """A command line a tool's input holds, beside the one in ``GateEvent.command``: analysed
    on its own in ``cwd`` (relative to the event's), as the Bash tool's commands are.
    ``strict``: a line bash cannot parse denies the call; not strict, it is dropped (a reading
    of the input, such as arguments joined unquoted, under which nothing would run)."""

    __slots__ = ("text", "cwd", "strict")

    def __init__(self, text: str, cwd: str | None = None, strict: bool = True) -> None:
        self.text = text
        self.cwd = cwd
        self.strict = strict

    def __repr__(self) -> str:
        return f"CommandLine({self.text!r}, cwd={self.cwd!r}, strict={self.strict})"


class GateEvent:
    """A client's hook event, normalised. ``paths`` are the target paths as the client gave
    them (relative ones are resolved against ``cwd``); ``tool_input`` is kept for the
    handshake's ``intent_id`` and for post-tool line ranges."""

    __slots__ = (
        "kind",
        "client",
        "session_id",
        "tool",
        "tool_input",
        "paths",
        "command",
        "cwd",
        "prompt",
        "source",
        "call_id",
        "command_cwd",
        "briefed_by_first_call",
        "more_commands",
    )

    def __init__(
        self,
        kind: str,
        client: str,
        session_id: str,
        tool: str | None = None,
        tool_input: dict[str, object] | None = None,
        paths: list[str] | None = None,
        command: str | None = None,
        cwd: str | None = None,
        prompt: str | None = None,
        source: str | None = None,
    ) -> None:
        self.kind = kind
        self.client = client
        self.session_id = session_id
        self.tool = tool
        self.tool_input = tool_input or {}
        self.paths = paths or []
        self.command = command
        self.cwd = cwd
        self.prompt = prompt
        self.source = source
        self.command_cwd: str | None = None
        """The directory a shell tool's input says the command runs in (Gemini CLI's
        ``dir_path``), relative to ``cwd``."""
        self.more_commands: list[CommandLine] = []
        """Further commands the call runs (a list of command lines, a command under another
        key, a program's argv), each analysed on its own (:func:`paw_tui.gate.facts.analyse_shell`)."""
        self.call_id: str | None = None
        """The client's id of this tool call (Claude Code's ``tool_use_id``): pairs a
        PreToolUse with its PostToolUse."""
        self.briefed_by_first_call = False
        """The client gives the model no context at a session's start or with a prompt (Cline
        CLI): the answer to a session's first tool call carries the governance section."""

    def __repr__(self) -> str:
        return f"GateEvent({self.kind}, client={self.client!r}, session={self.session_id!r}, tool={self.tool!r})"


DEFAULT_DENY_REASON = "Denied by paw-tui."
"""What a deny says when its decision carries no reason (every client's adapter)."""


class Decision:
    """What the gate answers: allow or deny, with the reason, and context to inject."""

    __slots__ = ("allow", "reason", "intent_id", "context", "notice")

    def __init__(
        self,
        allow: bool,
        reason: str | None = None,
        intent_id: str | None = None,
        context: str | None = None,
        notice: str | None = None,
    ) -> None:
        self.allow = allow
        self.reason = reason
        self.intent_id = intent_id
        self.context = context
        self.notice = notice
        """For the person, not the model (a client that can show it: Claude Code's
        ``systemMessage`` at SessionStart)."""

    def __repr__(self) -> str:
        return f"Decision(allow={self.allow}, reason={self.reason!r}, intent={self.intent_id!r})"


class Answer:
    """The bytes a client adapter wants written, and the exit code."""

    __slots__ = ("stdout", "stderr", "exit_code")

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
