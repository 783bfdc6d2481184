"""Fixtures for the real-client tests: a workspace, the probes, and the installed client."""

from __future__ import annotations

from pathlib import Path

import pytest

from .install import CLIENTS, ClientSpec, ensure_client
from .probes import Probes

CLIENT_KEYS = list(CLIENTS)


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
    """Each pinned client version in turn, installed (skips without node/npm)."""
    spec = CLIENTS[str(request.param)]
    ensure_client(spec.key)
    return spec
