"""Tool defaults (DESIGN §8, seed 003 layer 3): ``governance.yaml: tool_defaults``.

``{tool: {arg: value}}`` becomes one paragraph per tool for the prompt, and fills ``{<arg>}``
in execution instructions when a call omits that argument. Values are shown as JSON, so a
string ``"17"`` and a number ``17`` read differently. The gate imports this module:
standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

HEADER = "When calling {tool}, use these default values:"
FOOTER = "Only override these if the user explicitly specifies otherwise."


def format_value(value: object) -> str:
    """A default as JSON: ``"17"``, ``17``, ``true``, ``null``, ``["a", "b"]``."""
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def render_defaults_for(tool: str, defaults: Mapping[str, object]) -> str:
    """One tool's paragraph; empty when it has no defaults."""
    if not defaults:
        return ""
    lines = [HEADER.format(tool=tool)]
    lines += [f"- {arg}: {format_value(value)}" for arg, value in defaults.items()]
    lines.append(FOOTER)
    return "\n".join(lines)


def render_tool_defaults(tool_defaults: Mapping[str, Mapping[str, object]] | None) -> str:
    """Every tool's paragraph in the order of ``governance.yaml``, separated by a blank line;
    the empty string when no tool has defaults."""
    blocks = [
        render_defaults_for(str(tool), args)
        for tool, args in (tool_defaults or {}).items()
        if isinstance(args, dict)
    ]
    return "\n\n".join(block for block in blocks if block)


def defaults_for(
    tool_defaults: Mapping[str, Mapping[str, object]] | None, tool: str
) -> dict[str, object]:
    """The defaults of ``tool``: its exact name first, then the ``_``/``-`` variants (the
    lookup of execution instructions)."""
    from paw_tui.core.prompt.names import name_variants

    for variant in name_variants(tool):
        found = (tool_defaults or {}).get(variant)
        if isinstance(found, dict):
            return dict(found)
    return {}
