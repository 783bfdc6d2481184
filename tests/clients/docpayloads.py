"""Fixtures of the clients tested against their documented payloads (Cursor, Copilot, VS Code).

Each file in ``tests/data/<client>/`` is ``{"source": [where the shape comes from],
"payload": {...}}`` with ``__ROOT__`` standing for the workspace root; the gate runs in
process through :func:`paw_tui.gate.main.decide_payload` (``gatekit.gate``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from gatekit import INT001_SCOPE, GateResult, gate, scope_violation

from paw_tui.core.clients._hooks_json import hook_command

DATA = Path(__file__).resolve().parent.parent / "data"


def fixture_names(client: str) -> list[str]:
    return sorted(p.stem for p in (DATA / client).glob("*.json"))


def fixture(client: str, name: str) -> dict[str, Any]:
    """The whole fixture file (``source`` and ``payload``), ``__ROOT__`` left in place."""
    data: dict[str, Any] = json.loads((DATA / client / f"{name}.json").read_text(encoding="utf-8"))
    return data


def payload(client: str, name: str, root: Path | str, **fields: object) -> dict[str, Any]:
    """The fixture's payload with ``__ROOT__`` replaced; ``fields`` set top-level keys
    (``None`` removes one)."""
    text = (DATA / client / f"{name}.json").read_text(encoding="utf-8")
    # the root inside JSON text, and inside JSON text held in a JSON string (toolArgs)
    text = text.replace("__ROOT__", json.dumps(json.dumps(str(root))[1:-1])[1:-1])
    data: dict[str, Any] = copy.deepcopy(json.loads(text)["payload"])
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def decide(client: str, data: object, event: str | None = None) -> GateResult:
    return gate(data, client=client, event=event)


def assert_exit2_deny(result: GateResult) -> str:
    """A deny every one of these clients honours: exit 2, the reason on stderr; returns it."""
    assert result.code == 2, (result.code, result.out, result.err)
    assert result.err.endswith("\n")
    return result.err.rstrip("\n")


def installed_states(out: str) -> dict[str, str]:
    """``paw-tui install`` output: path -> created / updated / unchanged."""
    states: dict[str, str] = {}
    for line in out.splitlines():
        state, _, path = line.partition("  ")
        if state.strip() in ("created", "updated", "unchanged"):
            states[path.strip()] = state.strip()
    return states


def violation(path: str, client: str) -> str:
    """The deny reason of a write outside INT-001's scope, as ``client`` is told it."""
    return scope_violation("INT-001", path, INT001_SCOPE, client)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


GITHUB_HOOK_EVENTS = {
    "sessionStart": "session_start",
    "userPromptSubmitted": "prompt",
    "preToolUse": "pre_tool",
    "postToolUse": "post_tool",
    "sessionEnd": "session_end",
}
"""``.github/hooks/paw-tui.json``'s events (Copilot's camelCase) and the gate's ``--event``."""


def github_hook(client: str, kind: str) -> dict[str, object]:
    """paw-tui's entry in ``.github/hooks/paw-tui.json``."""
    deny = (
        '{"permissionDecision":"deny","permissionDecisionReason":"%s"}'
        if (client, kind) == ("copilot", "pre_tool")
        else None
    )  # Copilot CLI shows the model a reason only from stdout, the fallback's too
    return {"type": "command", "bash": hook_command(client, kind, deny), "timeoutSec": 30}
