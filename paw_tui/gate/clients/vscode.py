"""VS Code agent mode (the Local harness's agent hooks): VS Code's payloads in, VS Code's
answer out.

Sources: code.visualstudio.com/docs/agent-customization/hooks (microsoft/vscode-docs
``docs/agent-customization/hooks.md``) and the code that runs the hooks
(microsoft/vscode-copilot-chat ``ChatHookService``, ``NodeHookExecutor``). VS Code loads
``.github/hooks/*.json`` (also ``.claude/settings*.json``), runs each command with the
workspace folder as its directory, and writes
``{timestamp, hook_event_name, session_id, transcript_path, cwd, tool_name, tool_input,
tool_use_id}`` on stdin (the docs spell two of them ``hookEventName`` / ``sessionId``; both
are read). Tools keep VS Code's names and camelCase arguments: ``create_file``,
``replace_string_in_file``, ``insert_edit_into_file`` (``filePath``), ``run_in_terminal``
(``command``), ``apply_patch`` (``input``), the docs' ``editFiles`` (``files``) and
``createFile``; MCP tools are ``mcp_<server>_<tool>``, which the handshake recognises as is.
Matchers are ignored: every hook sees every tool.

Exit 2 is the blocking error, its stderr shown to the model ("Tried to use <tool> - <reason>");
a JSON ``permissionDecision: "deny"`` with exit 0 was reported not to block
(microsoft/vscode-docs#9675), and any other exit is only a warning, so the tool runs. The
file ``paw-tui install`` writes is in Copilot's format, which VS Code reads too, so Copilot
CLI runs the same command with its camelCase payloads: one parser and one answer serve both
(:mod:`paw_tui.gate.clients.copilot`), and each event is recorded under the client that sent
it.
"""

from __future__ import annotations

from paw_tui.gate.clients.copilot import NEW_TEXT as _COPILOT_NEW_TEXT
from paw_tui.gate.clients.copilot import context_only, deny, render
from paw_tui.gate.clients.copilot import parse_for as _parse_for
from paw_tui.gate.new_text import NewText, whole

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.gate.events import GateEvent

NAME = "vscode"
NEW_TEXT = {
    **_COPILOT_NEW_TEXT,
    "createFile": whole("content"),
    "create_file": whole("content"),
    "replace_string_in_file": NewText(fragment=("newString",)),
    "multi_replace_string_in_file": NewText(
        edits="replacements", fragment=("newString",), edit_paths=("filePath",)
    ),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`): Copilot's
tools (the same harness) and VS Code's own."""
__all__ = ["NAME", "NEW_TEXT", "context_only", "deny", "parse", "render"]


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    return _parse_for(NAME, payload, event_override)
