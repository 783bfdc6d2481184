"""Tool classes (DESIGN §6): read-only, handshake, scope request, shell, and mutating.

Clients' tools are classified per client in the catalogue (:mod:`paw_tui.core.policy.catalogue`),
paw-tui's own MCP tools by name under any server; ``governance.yaml: tools:`` moves names between
classes for every client. Unknown tools are mutating: a tool we cannot classify needs an active
intent (and one whose input names a command is read as a shell call: :mod:`.facts`).
"""

from __future__ import annotations

from paw_tui.core.handshake.names import READ_ONLY_TOOLS as PAW_READ_ONLY_TOOLS
from paw_tui.core.handshake.names import REQUEST_SCOPE_TOOL, SELECT_TOOL, named
from paw_tui.core.policy.catalogue import catalogue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.governance import Governance

READ_ONLY = "read_only"
HANDSHAKE = "handshake"
SCOPE_REQUEST = "scope_request"
WRITES_NOTHING = (READ_ONLY, HANDSHAKE, SCOPE_REQUEST)
"""Classes whose calls name no file to check or record."""
SHELL = "shell"
MUTATING = "mutating"


def classify(tool: str, governance: Governance | None = None, client: str | None = None) -> str:
    """The class of ``tool`` as ``client`` offers it; governance may move names between classes."""
    entry = catalogue().get(tool, client)
    if governance is not None:
        if tool in governance.mutating_tools:
            shell = tool in governance.shell_tools or (entry is not None and entry.kind == SHELL)
            return SHELL if shell else MUTATING
        if tool in governance.read_only_tools:
            return READ_ONLY
        if tool in governance.shell_tools:
            return SHELL
    if named(tool, SELECT_TOOL):
        return HANDSHAKE
    if named(tool, REQUEST_SCOPE_TOOL):
        return SCOPE_REQUEST
    if any(named(tool, name) for name in PAW_READ_ONLY_TOOLS):
        return READ_ONLY
    if entry is None:
        return MUTATING
    if entry.kind in (READ_ONLY, SHELL):
        return entry.kind
    return MUTATING  # file and patch tools: their paths come from the input
