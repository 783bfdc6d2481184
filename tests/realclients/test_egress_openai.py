"""Copilot CLI, Cline, opencode and Qwen Code, driven as the harness drives them, reach nothing
but this machine (strace on the whole process tree): the mock, local sockets, and, for Cline and
opencode, the refusing proxy on a closed loopback port that their update and package fetches
are sent to (``clients.refusing_proxy_env``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .egress import foreign, strace_path
from .install import CLIENTS
from .probes import Probes, wire
from .script import Text
from .session import run_session

pytestmark = pytest.mark.realclient

KEYS = [
    key for key, spec in CLIENTS.items() if spec.kind in ("copilot", "cline", "opencode", "qwen")
]


@pytest.mark.parametrize("key", KEYS)
def test_the_client_reaches_only_loopback(key: str, tmp_path: Path) -> None:
    if strace_path() is None:
        pytest.skip("strace is not installed: cannot watch the client's network calls")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    home = tmp_path / "home"
    wire(CLIENTS[key].kind, workspace, Probes(tmp_path / "probe-logs"), home=home)
    result = run_session(key, workspace, "Say done.", [Text("done")], home=home, trace_network=True)
    assert result.ok, result.describe()
    assert result.network is not None
    port = result.mock_url.rsplit(":", 1)[1]
    assert ("AF_INET", "127.0.0.1", port) in result.network, result.network
    assert foreign(result.network) == set(), result.network
