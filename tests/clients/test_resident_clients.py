"""Every client's hook through the resident gate: its recorded payloads (``tests/data/``)
get exactly the answer the hook's own process gives them (exit code, stdout, stderr), so
the resident gate's generic pass-through holds for each protocol, not only Claude Code's.
The real Gemini CLI and Codex binaries run with the resident gate off (``tests/realclients``);
these are their payloads, not their binaries."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from docpayloads import payload
from gatekit import paw_state_dir, root
from residentkit import Installed, installed

__all__ = ["installed", "paw_state_dir", "root"]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident gate is Linux's")

CASES = [  # client, recorded payload (None: its first three), what a deny says (None: allowed)
    ("gemini-cli", "before_tool_write_file", "You must cite a valid active Intent ID"),
    ("gemini-cli", "before_tool_read_file", None),
    ("gemini-cli", "before_tool_shell", "You must cite a valid active Intent ID"),
    ("codex", "pre_tool_use_bash", "You must cite a valid active Intent ID"),
    ("codex", "pre_tool_use_apply_patch", "You must cite a valid active Intent ID"),
    ("codex", "session_start", None),
    ("cursor", None, None),
    ("copilot", None, None),
]


def recorded(client: str) -> list[str]:
    return sorted(
        p.stem for p in (Path(__file__).resolve().parent.parent / "data" / client).glob("*.json")
    )


@pytest.mark.parametrize(("client", "name", "denial"), CASES)
def test_a_client_s_payload_gets_the_same_answer_through_the_resident_gate(
    installed: Installed, root: Path, client: str, name: str | None, denial: str | None
) -> None:
    env = installed.env(root)
    installed.call({"hook_event_name": "SessionStart", "session_id": "warm"}, cwd=root, env=env)
    pid = installed.wait_for_server()
    names = [name] if name is not None else recorded(client)[:3]
    for each in names:
        body = payload(client, each, root)
        alone = installed.call(
            body, cwd=root, env={**env, "PAW_RESIDENT_GATE": "off"}, client=client
        )
        reads = installed.quiet_workers(pid)
        resident = installed.call(body, cwd=root, env=env, client=client)
        assert installed.answered_by_server(pid, reads), (client, each)
        assert resident == alone, (client, each)
        if denial is not None:
            assert denial in resident[1] + resident[2], (client, each, resident)
