"""Fixtures for the real-client tests: a workspace, the probes, and the installed client."""

from __future__ import annotations

from pathlib import Path

import pytest

from .install import CLIENTS, ClientSpec, ensure_client
from .probes import Probes

PROBED_KINDS = ("claude", "gemini", "codex")
"""The clients the probe harness's own tests (``test_harness.py``) run: their hooks speak the
probe's protocols. Every pinned client runs the inventory (``any_client``)."""
CLIENT_KEYS = [key for key, spec in CLIENTS.items() if spec.kind in PROBED_KINDS]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root.resolve()


@pytest.fixture
def session_home(tmp_path: Path) -> Path:
    home = tmp_path / "client-home"
    home.mkdir()
    return home.resolve()


@pytest.fixture
def probes(tmp_path: Path) -> Probes:
    return Probes(tmp_path / "probe-logs")


@pytest.fixture(params=CLIENT_KEYS)
def client(request: pytest.FixtureRequest) -> ClientSpec:
    """Each pinned client version the probes speak to, installed (skips without node/npm)."""
    spec = CLIENTS[str(request.param)]
    ensure_client(spec.key)
    return spec


@pytest.fixture(params=list(CLIENTS))
def any_client(request: pytest.FixtureRequest) -> ClientSpec:
    """Every pinned client version, installed (skips without node/npm)."""
    spec = CLIENTS[str(request.param)]
    ensure_client(spec.key)
    return spec
