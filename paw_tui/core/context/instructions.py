"""Custom instruction files: ``<dir>/<Agent Name>-instructions.md`` in each layer."""

from __future__ import annotations

import os

from paw_tui.core.support.textfile import FileStatus, find_case_insensitive, load_text_file
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.support.textfile import ReadBytes

SUFFIX = layout.INSTRUCTIONS_SUFFIX
WHAT = "custom instructions"


def instruction_file_name(agent_name: str) -> str:
    """The file name for an agent: its name verbatim, spaces kept."""
    return agent_name + SUFFIX


def workspace_instructions_dir(root: str) -> str:
    return layout.at(root, layout.INSTRUCTIONS)


def load_instructions(
    directory: str | None, agent_name: str, read_bytes: ReadBytes | None = None
) -> FileStatus:
    """The agent's instruction file in ``directory`` (matched case-insensitively)."""
    name = instruction_file_name(agent_name)
    if directory is None:  # no home directory could be found: the layer is simply absent
        return FileStatus(name)
    return load_text_file(find_case_insensitive(directory, name), WHAT, read_bytes)


def agents_in(directory: str | None) -> list[str]:
    """Agent names that have an instruction file in ``directory``, sorted."""
    if directory is None:
        return []
    try:
        entries = os.listdir(directory)
    except OSError:
        return []
    names = {
        entry[: -len(SUFFIX)]
        for entry in entries
        if entry.lower().endswith(SUFFIX) and len(entry) > len(SUFFIX)
    }
    return sorted(names, key=str.casefold)
