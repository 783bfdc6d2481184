"""Start a configured MCP server and ask it ``initialize``: what ``doctor`` does to know the
server an agent relies on for the handshake really starts (a missing program, a broken
environment, a server that never answers are all found here, not by the agent)."""

from __future__ import annotations

import json
import os
import subprocess
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

PROBE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "paw-tui-doctor", "version": "1"},
    },
}


def probe_server(
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str] | None = None,
    timeout: float = 10.0,
) -> tuple[bool, str]:
    """``(answered, detail)``: whether ``argv`` started and answered ``initialize`` within
    ``timeout`` seconds; the detail names the server or says what went wrong."""
    environment = dict(os.environ if env is None else env)
    started = time.monotonic()
    try:
        done = subprocess.run(
            list(argv),
            input=json.dumps(PROBE).encode() + b"\n",
            capture_output=True,
            cwd=cwd,
            env=environment,
            timeout=timeout,
        )
    except FileNotFoundError:
        return False, f"'{argv[0]}' is not found"
    except subprocess.TimeoutExpired:
        return False, f"no answer to initialize within {timeout:.0f} s"
    except OSError as error:
        return False, f"cannot start '{argv[0]}': {error}"
    elapsed = time.monotonic() - started
    first = done.stdout.split(b"\n", 1)[0]
    try:
        answer = json.loads(first)
    except ValueError:
        stderr = done.stderr.decode(errors="replace").strip().splitlines()
        why = stderr[-1] if stderr else f"exit {done.returncode}, no output"
        return False, f"did not answer initialize ({why[:200]})"
    info = answer.get("result", {}).get("serverInfo", {}) if isinstance(answer, dict) else {}
    if not isinstance(info, dict) or not info.get("name"):
        return False, f"answered initialize without serverInfo: {first[:200]!r}"
    return True, f"{info.get('name')} {info.get('version', '')} answered in {elapsed:.2f} s"
