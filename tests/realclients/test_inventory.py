"""The tools each client offers its model must match ``observed_tools.json``.

A new client release that adds, drops or defers a tool fails here; after checking the change
against the tool catalogue, rewrite the file with ``python -m tests.realclients.inventory``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .egress import foreign, strace_path
from .install import ClientSpec
from .inventory import OBSERVED, diff, inventory_of, load, observe_session

pytestmark = pytest.mark.realclient


def test_inventory_file_covers_every_client(any_client: ClientSpec) -> None:
    inventory = load()
    assert any_client.key in inventory, f"{any_client.key} missing from {OBSERVED.name}"
    names = [entry["name"] for entry in inventory[any_client.key]]
    assert len(names) == len(set(names)), "duplicate tool names"
    for entry in inventory[any_client.key]:
        assert set(entry) == {"name", "deferred", "schema_sent"}


TRACED_KINDS = ("copilot", "cline", "opencode", "qwen")
"""Clients whose inventory session also proves they reach nothing but this machine (the
others have their own egress test in ``test_harness.py``)."""


def test_offered_tools_match_observed(any_client: ClientSpec, tmp_path: Path) -> None:
    traced = any_client.kind in TRACED_KINDS and strace_path() is not None
    result = observe_session(any_client.key, tmp_path, trace_network=traced)
    if traced:  # only the mock, local sockets and the refusing proxy (clients.py)
        assert result.network is not None
        assert foreign(result.network) == set(), result.network
    actual = inventory_of(result)
    expected = load().get(any_client.key, [])
    changes = diff(expected, actual)
    assert not changes, (
        f"{any_client.key} now offers a different tool set:\n  "
        + "\n  ".join(changes)
        + "\nCheck the tool catalogue, then run: python -m tests.realclients.inventory"
    )
