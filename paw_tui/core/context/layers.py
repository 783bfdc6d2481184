"""Which instruction layer wins for an agent, as a person reviews it (DESIGN §11).

For an agent (and optionally a work item): the workspace layer, the user layer and the
agent's own defaults, each with its path, its status (``WINS``, ``SHADOWED``, ``EMPTY``,
``ERROR``, ``MISSING``), its size and its approximate tokens, plus the exact text
``paw_get_context`` answers. The TUI shows this; it is computed here, headless.
"""

from __future__ import annotations

import os

from paw_tui.core.context.tokens import estimate_tokens
from paw_tui.core.support.textfile import EMPTY_FILE
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.support.textfile import FileStatus

WINS = "WINS"
SHADOWED = "SHADOWED"
EMPTY = "EMPTY"
ERROR = "ERROR"
MISSING = "MISSING"
STATUSES = (WINS, SHADOWED, EMPTY, ERROR, MISSING)
AGENT_DEFAULTS = "agent defaults"


def layer_status(status: FileStatus, shadowed: bool) -> str:
    """WINS, SHADOWED, EMPTY, ERROR or MISSING for one custom-instruction layer."""
    if not status.exists:
        return MISSING
    if status.error == EMPTY_FILE:
        return EMPTY
    if status.error:
        return ERROR
    return SHADOWED if shadowed else WINS


class Layer:
    """One row of the precedence view. ``size`` and ``tokens`` are None when unknown."""

    __slots__ = ("name", "status", "size", "tokens", "path", "error")

    def __init__(
        self,
        name: str,
        status: str,
        size: int | None,
        tokens: int | None,
        path: str,
        error: str | None = None,
    ) -> None:
        self.name = name
        self.status = status
        self.size = size
        self.tokens = tokens
        self.path = path
        self.error = error

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


def _file_layer(name: str, status: FileStatus, shadowed: bool) -> Layer:
    size: int | None = None
    if status.exists:
        try:
            size = os.path.getsize(status.path)
        except OSError:
            size = None
    tokens = estimate_tokens(status.content) if status.content else None
    return Layer(name, layer_status(status, shadowed), size, tokens, status.path, status.error)


def resolve_layers(
    root: str, agent: str, work_id: str | None, user_dir: str | None
) -> tuple[list[Layer], str]:
    """The layers in precedence order and the context text (the exact tool output, or why
    there is none). A request the tool refuses gives no layers and its message."""
    from paw_tui.core.context.format import format_context
    from paw_tui.core.context.tool import get_context, instruction_layers
    from paw_tui.core.errors import PawError

    try:
        if work_id:
            result = get_context(work_id, agent, roots=[root], user_instructions_dir=user_dir)
        else:
            result = instruction_layers(agent, root=root, user_instructions_dir=user_dir)
    except PawError as exc:
        return [], str(exc)
    workspace, user = result.workspace_instructions, result.user_instructions
    layers = [
        _file_layer("workspace", workspace, False),
        _file_layer("user", user, bool(workspace.content)),
    ]
    custom = bool(workspace.content or user.content)
    layers.append(
        Layer(AGENT_DEFAULTS, SHADOWED if custom else WINS, None, None, "(the agent's own prompt)")
    )
    text = (
        format_context(result)
        if work_id
        else "(pick a work item to see the full paw_get_context text)"
    )
    return layers, text


def work_items(root: str) -> list[str]:
    """The work ids under ``.paw/work/``, sorted."""
    try:
        return sorted(e.name for e in os.scandir(layout.at(root, layout.WORK)) if e.is_dir())
    except OSError:
        return []
