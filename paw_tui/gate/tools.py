"""Tool classes (DESIGN §6): read-only, handshake, shell, and mutating (everything else).

Unknown tools are mutating: a tool we cannot classify needs an active intent.
"""

from __future__ import annotations

from paw_tui.core.handshake.names import READ_ONLY_TOOLS as PAW_READ_ONLY_TOOLS
from paw_tui.core.handshake.names import REQUEST_SCOPE_TOOL, SELECT_TOOL, named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.governance import Governance

READ_ONLY_TOOLS = frozenset(
    {
        # Claude Code
        "Read",
        "Glob",
        "Grep",
        "LS",
        "NotebookRead",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "Task",
        "Agent",
        "AskUserQuestion",
        "ExitPlanMode",
        "BashOutput",
        "KillShell",
        "ListMcpResourcesTool",
        "ReadMcpResourceTool",
        # generic
        "read_file",
        "list_files",
        "search_files",
        "list_code_definition_names",
    }
)
SHELL_TOOLS = frozenset({"Bash", "PowerShell", "execute_command"})
# Tools whose target file we know how to find, and the input field that names it.
FILE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
PATH_FIELDS = ("file_path", "notebook_path")
TEXT_FIELDS = frozenset(
    {"content", "old_string", "new_string", "new_source", "cell_id", "cell_type", "edit_mode"}
)
"""A known file tool's fields that hold text, never a path (at any depth: ``edits[i]``)."""

READ_ONLY = "read_only"
HANDSHAKE = "handshake"
SCOPE_REQUEST = "scope_request"
WRITES_NOTHING = (READ_ONLY, HANDSHAKE, SCOPE_REQUEST)
"""Classes whose calls name no file to check or record."""
SHELL = "shell"
MUTATING = "mutating"


def classify(tool: str, governance: Governance | None = None) -> str:
    """The class of ``tool``; governance may move names between classes."""
    if governance is not None:
        if tool in governance.mutating_tools:
            return SHELL if tool in SHELL_TOOLS or tool in governance.shell_tools else MUTATING
        if tool in governance.read_only_tools:
            return READ_ONLY
        if tool in governance.shell_tools:
            return SHELL
    if named(tool, SELECT_TOOL):
        return HANDSHAKE
    if named(tool, REQUEST_SCOPE_TOOL):
        return SCOPE_REQUEST
    if tool in READ_ONLY_TOOLS or any(named(tool, name) for name in PAW_READ_ONLY_TOOLS):
        return READ_ONLY
    if tool in SHELL_TOOLS:
        return SHELL
    return MUTATING
