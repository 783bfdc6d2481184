"""The tools each client offers its model must match ``observed_tools.json``.

A new client release that adds, drops or defers a tool fails here; after checking the change
against the tool catalogue, rewrite the file with ``python -m tests.realclients.inventory``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .install import ClientSpec
from .inventory import OBSERVED, diff, load, observe

pytestmark = pytest.mark.realclient


def test_inventory_file_covers_every_client(any_client: ClientSpec) -> None:
    inventory = load()
    assert any_client.key in inventory, f"{any_client.key} missing from {OBSERVED.name}"
    names = [entry["name"] for entry in inventory[any_client.key]]
    assert len(names) == len(set(names)), "duplicate tool names"
    for entry in inventory[any_client.key]:
        assert set(entry) == {"name", "deferred", "schema_sent"}


def test_offered_tools_match_observed(any_client: ClientSpec, tmp_path: Path) -> None:
    actual = observe(any_client.key, tmp_path)
    expected = load().get(any_client.key, [])
    changes = diff(expected, actual)
    assert not changes, (
        f"{any_client.key} now offers a different tool set:\n  "
        + "\n  ".join(changes)
        + "\nCheck the tool catalogue, then run: python -m tests.realclients.inventory"
    )
