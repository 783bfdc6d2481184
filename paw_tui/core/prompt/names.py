"""How a tool's name is matched to the files and settings kept under its name.

A tool's execution instructions and tool defaults are looked up by its exact name, then with
``_`` read as ``-``, then ``-`` as ``_``; an MCP tool (``mcp__<server>__<tool>``) also under
its own tool name, whatever server offers it.
"""

from __future__ import annotations


def name_variants(name: str) -> list[str]:
    """The exact name, then ``_`` as ``-``, then ``-`` as ``_`` (each once)."""
    variants: list[str] = []
    for candidate in (name, name.replace("_", "-"), name.replace("-", "_")):
        if candidate not in variants:
            variants.append(candidate)
    return variants


def lookup_names(tool: str) -> list[str]:
    """``tool``, then for ``mcp__<server>__<name>`` the bare ``<name>``."""
    names = [tool]
    if tool.startswith("mcp__") and tool.count("__") >= 2:
        names.append(tool.rsplit("__", 1)[1])
    return names
