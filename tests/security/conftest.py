"""Fixtures of the attack corpus.

``paw_state_dir`` (autouse) and ``root`` come from ``tests/gatekit.py``; ``wsroot`` is that
workspace populated with source files, docs, protected files and a fake ``.git``. No test
here inherits an agent client's markers from the environment it runs in (a suite run from
inside Claude Code would otherwise see every CLI call refused as an agent's).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gatekit import paw_state_dir, root

from .kit import MARKER_VARIABLES, populate

__all__ = ["paw_state_dir", "root"]


@pytest.fixture(autouse=True)
def _no_agent_markers(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MARKER_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def wsroot(root: Path) -> Path:
    """The gatekit workspace (INT-001 src/auth/**, INT-006 **, INT-007 src/**...) with files."""
    return populate(root)
