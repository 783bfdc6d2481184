"""Telling a person's terminal from an agent's tool process, by what the clients set.

The agent clients set variables in the environment of the shell commands their agents run
(observed with the real binaries; ``reference/clients-observed.md``): Claude Code
``CLAUDECODE=1``, ``CLAUDE_CODE_SESSION_ID`` and ``AI_AGENT=claude-code_<version>_agent``; Gemini
CLI ``GEMINI_CLI=1``; Codex ``CODEX_SESSION_ID``, ``CODEX_THREAD_ID``, ``CODEX_CI=1``,
``CODEX_TOOL_CALL_ID``. Gemini's and Codex's hooks run without them; Claude Code's hooks keep
``CLAUDECODE=1`` but get ``AI_AGENT=claude-code_<version>_harness``, which is what tells them
apart from its Bash tool (seen with the real 2.1.330 binary).

A command a person alone may run (approving, releasing a session, creating, editing or changing
the status of an intent, the supervisor instruction, granting scope) is refused when one is
present. An agent can unset
them, so this is one layer: the gate also denies shell commands that invoke those acts, and the
kernel boundary makes the files they write unwritable.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MARKERS = (
    "CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "GEMINI_CLI", "CODEX_SESSION_ID", "CODEX_THREAD_ID",
    "CODEX_CI", "CODEX_TOOL_CALL_ID",
)  # fmt: skip


def agent_marker(environ: Mapping[str, str]) -> str | None:
    """``NAME=value`` of the first sign that this process runs inside an agent's tool call."""
    agent = environ.get("AI_AGENT", "")
    if agent.endswith("_harness"):
        return None  # the client's own hook process
    for name in MARKERS:
        value = environ.get(name)
        if value:
            return f"{name}={value}"
    if agent.endswith("_agent"):
        return f"AI_AGENT={agent}"
    return None


def person_only_refusal(act: str, environ: Mapping[str, str]) -> str | None:
    """The refusal of ``act`` when it is attempted from an agent's tool process, or None."""
    marker = agent_marker(environ)
    if marker is None:
        return None
    return (
        f"Refused: {act} is a person's act, and this command runs inside an agent's tool "
        f"process ({marker}). Run it in your own terminal or in the TUI."
    )
