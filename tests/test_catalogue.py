"""The tool catalogue: well formed, and it classifies every tool the real clients offer.

``tests/realclients/observed_tools.json`` is what each pinned client version offered its model
when run for real (the real-client suite fails when a new release changes it); a tool there that
the catalogue does not know would be denied before a selection and could lock an agent out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paw_tui.core.policy.catalogue import (
    CATALOGUE_FILE,
    FILE,
    MUTATING,
    PATCH,
    READ_ONLY,
    SHELL,
    load_catalogue,
)
from paw_tui.gate import tools

OBSERVED = Path(__file__).parent / "realclients" / "observed_tools.json"
# How the hooks name a tool the model calls by another name (Codex: exec_command -> Bash).
HOOK_NAMES = {"codex": {"exec_command": "Bash"}}


def test_the_shipped_catalogue_is_well_formed() -> None:
    catalogue = load_catalogue(check=True)
    for entry in catalogue.entries():
        assert entry.clients, entry.name
        if entry.kind == FILE:
            assert entry.paths, f"{entry.name}: a file tool names its path fields"
        if entry.kind == SHELL:
            assert entry.command, f"{entry.name}: a shell tool names its command field"
        if entry.kind == PATCH:
            assert entry.patch, f"{entry.name}: a patch tool names its patch field"
        assert not (set(entry.paths) & entry.text), f"{entry.name}: a field is path and text"


def observed() -> list[tuple[str, str]]:
    data = json.loads(OBSERVED.read_text(encoding="utf-8"))
    return [(client, entry["name"]) for client, entries in data.items() for entry in entries]


@pytest.mark.parametrize(("client", "tool"), observed(), ids=lambda v: str(v))
def test_every_tool_a_real_client_offers_is_classified(client: str, tool: str) -> None:
    catalogue = load_catalogue()
    kind = client.split("@")[0]
    name = HOOK_NAMES.get(kind, {}).get(tool, tool)
    entry = catalogue.get(name)
    assert entry is not None, f"{client} offers {tool}, which the catalogue does not classify"
    assert kind in entry.clients, f"{tool}: {kind} missing from its clients"


@pytest.mark.parametrize(
    "tool",
    ["ToolSearch", "tool_search", "ListAgents", "CronList", "ReadMcpResourceDirTool",
     "ReportFindings", "TaskList", "TaskGet", "WaitForMcpServers"],
)  # fmt: skip
def test_tools_that_change_nothing_are_usable_before_a_selection(tool: str) -> None:
    """Issue 10: tool search and waiting or listing tools must not lock an agent out."""
    assert tools.classify(tool) == tools.READ_ONLY


def test_an_unknown_tool_is_mutating() -> None:
    assert tools.classify("SomeToolNobodyKnows") == tools.MUTATING
    assert tools.classify("Workflow") == tools.MUTATING
    assert load_catalogue().get("Workflow").kind == MUTATING  # type: ignore[union-attr]
    assert load_catalogue().get("Read").kind == READ_ONLY  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[]", "no 'tools' object"),
        ('{"tools": {"X": 1}}', "the entry of tool 'X' is not an object"),
        ('{"tools": {"X": {"class": "magic"}}}', "unknown class 'magic'"),
        ("{not json", ""),
    ],
)
def test_a_malformed_catalogue_is_refused_naming_the_file(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "catalogue.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        load_catalogue(str(path), check=True)
    assert says in str(raised.value)
    if says:
        assert str(path) in str(raised.value)


def test_the_catalogue_ships_with_the_package() -> None:
    assert Path(CATALOGUE_FILE).is_file()
