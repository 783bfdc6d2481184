"""What the documented-payload adapters (Cursor, Copilot, VS Code, Cline, Windsurf, Kiro) share.

Reading a payload's fields with a :class:`~paw_tui.gate.events.PayloadError` that names the
field, reading a tool input that may arrive as an object or as a JSON string, naming MCP
tools the one way the rest of the gate recognises (``mcp__<server>__<tool>``), and writing a
JSON answer. Standard library only: this is on the gate's hot path.
"""

from __future__ import annotations

from paw_tui.core.handshake.names import READ_ONLY_TOOLS, REQUEST_SCOPE_TOOL, SELECT_TOOL
from paw_tui.core.support import fastjson as json
from paw_tui.gate.events import PRE_TOOL, Answer, GateEvent, PayloadError
from paw_tui.gate.tool_input import read_tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PAW_TOOLS = (SELECT_TOOL, REQUEST_SCOPE_TOOL, *READ_ONLY_TOOLS)
"""paw-tui's own MCP tools: the names a client's MCP prefix is split from."""
MCP_PREFIX = "mcp__"


def text(payload: Mapping[str, object], field: str, what: str | None = None) -> str:
    """The non-blank string in ``payload[field]``; PayloadError naming ``what`` (or the field)."""
    value = payload.get(field)
    if not isinstance(value, str) or not value.strip():
        raise PayloadError(f"the payload has no {what or field}")
    return value


def optional_text(payload: Mapping[str, object], field: str) -> str | None:
    """``payload[field]`` when it is a non-blank string, else None."""
    value = payload.get(field)
    return value if isinstance(value, str) and value.strip() else None


def first_of(payload: Mapping[str, object], *fields: str) -> str | None:
    """The first of ``fields`` holding a non-blank string (clients spell one field two ways)."""
    for field in fields:
        value = optional_text(payload, field)
        if value is not None:
            return value
    return None


def section(payload: Mapping[str, object], field: str) -> dict[str, object]:
    """The object in ``payload[field]``; PayloadError when it is absent or not an object."""
    value = payload.get(field)
    if not isinstance(value, dict):
        raise PayloadError(f"the payload's {field} is not an object")
    return value


def first_root(payload: Mapping[str, object], field: str) -> str | None:
    """The first workspace root a payload lists in ``field`` (Cursor ``workspace_roots``,
    Cline ``workspaceRoots``); PayloadError when the list holds something else."""
    roots = payload.get(field)
    if roots is None:
        return None
    if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
        raise PayloadError(f"the payload's {field} is not a list of paths")
    for root in roots:
        if root.strip():
            return str(root)
    return None


def tool_arguments(value: object, tool: str, field: str) -> dict[str, object]:
    """A tool's input as an object. Clients send it as an object, or as the JSON text of one
    (Copilot's ``toolArgs``, Cursor's ``beforeMCPExecution``, Cline's MCP ``arguments``);
    absent is empty. Anything else cannot be read, and a call that cannot be read is denied."""
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise PayloadError(f"the {field} of {tool} is not valid JSON") from None
    if not isinstance(value, dict):
        raise PayloadError(f"the {field} of {tool} is not an object")
    return value


def mcp_tool(server: str, tool: str) -> str:
    """The gate's name for tool ``tool`` of MCP server ``server`` (as Claude Code spells it):
    the handshake, scope requests and execution instructions recognise this form."""
    return f"{MCP_PREFIX}{server}__{tool}"


def split_paw_tool(name: str, separators: str = "-_/.:") -> tuple[str, str] | None:
    """``(server, tool)`` when ``name`` is one of paw-tui's own MCP tools behind a client's
    server prefix joined by one of ``separators`` (Copilot CLI's ``paw-select_active_intent``);
    None otherwise. Only paw-tui's tool names are split: where a server name ends and a foreign
    tool's name begins cannot be told."""
    for tool in PAW_TOOLS:
        cut = len(name) - len(tool) - 1
        if cut > 0 and name.endswith(tool) and name[cut] in separators:
            return name[:cut], tool
    return None


def set_tool(
    event: GateEvent, tool: str, tool_input: dict[str, object], call_id: object = None
) -> GateEvent:
    """Fill ``event``'s tool fields and read its paths and command through the catalogue."""
    event.tool = tool
    event.tool_input = tool_input
    event.call_id = call_id if isinstance(call_id, str) and call_id else None
    read_tool_input(event)
    return event


def check_kind(kind: str | None, event_override: str | None, name: str) -> str | None:
    """The internal event kind: the one ``--event`` names (the install passes it, so a payload
    that does not say which event it is still gets the right answer), which must agree with
    the payload's own event name when the payload has one."""
    if event_override is None:
        return kind
    if kind is not None and kind != event_override:
        raise PayloadError(
            f"the payload is a {name} event but the hook was configured for {event_override}"
        )
    return event_override


def hook_event(
    payload: Mapping[str, object],
    field: str,
    event_override: str | None,
    names: Mapping[str, str],
    defaults: Mapping[str, str],
    ignored: frozenset[str],
    client: str,
) -> tuple[str, str] | None:
    """``(hook name, internal kind)`` of a payload naming its hook in ``field`` (``names``:
    hook name -> kind); with no name there, the one ``defaults`` gives ``--event``'s kind.
    None for a hook in ``ignored``; PayloadError for a missing or unknown name, or one that
    disagrees with ``--event``."""
    name = optional_text(payload, field)
    if name is None:
        if event_override is None or event_override not in defaults:
            raise PayloadError(f"the payload has no {field}")
        name = defaults[event_override]
    if name in ignored:
        return None
    kind = names.get(name)
    if kind is None:
        raise PayloadError(f"unknown {client} hook event '{name}'")
    return name, check_kind(kind, event_override, name) or kind


def json_line(data: Mapping[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def json_answer(data: Mapping[str, object], exit_code: int = 0, stderr: str = "") -> Answer:
    return Answer(json_line(data), stderr, exit_code)


def reason_line(reason: str) -> str:
    """A deny reason as a line for stderr."""
    return reason.rstrip("\n") + "\n"


def clip(text_: str, limit: int, client: str) -> str:
    """``text_`` cut to ``limit`` characters, saying so, for clients that cap hook output."""
    if len(text_) <= limit:
        return text_
    note = f"\n[... cut to fit {client}'s hook output limit]"
    return text_[: limit - len(note)] + note


def is_pre_tool(event: GateEvent | None) -> bool:
    return event is not None and event.kind == PRE_TOOL
