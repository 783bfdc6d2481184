"""The tools each pinned client offers its model in non-interactive mode, as observed.

For every client version, one session runs in a workspace wired like a paw-tui project (the
probe hooks on every event and one stdio MCP server, ``probe``) with a one-turn script, and the
first agent-loop request is read: every tool in its tools array, plus the tools the client only
announces by name (Claude Code 2.1.330's "deferred tools … via ToolSearch" reminder). Tools of
the probe MCP server itself are left out. Each entry is
``{"name", "deferred", "schema_sent"}``: ``deferred`` when the client marks the tool as loaded on
demand (``defer_loading`` or the reminder list), ``schema_sent`` when its schema is in the
request. Run ``python -m tests.realclients.inventory`` (from the repository root) to rewrite
``observed_tools.json``; ``--check`` compares instead and exits 1 on a difference.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .install import CLIENTS
from .probes import MCP_SERVER, Probes, wire
from .script import Text
from .session import SessionResult, run_session

OBSERVED = Path(__file__).resolve().parent / "observed_tools.json"
PROBE_PREFIXES = (
    f"mcp__{MCP_SERVER}__",
    f"mcp_{MCP_SERVER}_",
    f"mcp__{MCP_SERVER}",
    f"{MCP_SERVER}-",  # Copilot CLI
    f"{MCP_SERVER}__",  # Cline
    f"{MCP_SERVER}_",  # opencode
)

Inventory = dict[str, list[dict[str, Any]]]


def _is_probe_tool(name: str) -> bool:
    return name.startswith(PROBE_PREFIXES)


def observe_session(
    key: str, workdir: Path | None = None, *, trace_network: bool = False
) -> SessionResult:
    """Run client ``key`` once in a workspace wired like a paw-tui project (one turn)."""
    base = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="paw-inv-"))
    workspace = base / "ws"
    workspace.mkdir(parents=True, exist_ok=True)
    spec = CLIENTS[key]
    probes = Probes(base / "probe-logs")
    wire(spec.kind, workspace, probes, home=base / "home")
    result = run_session(
        key,
        workspace,
        "Say done.",
        [Text("done")],
        home=base / "home",
        timeout=90,
        trace_network=trace_network,
    )
    if not result.ok:
        raise RuntimeError(f"inventory session failed\n{result.describe()}")
    return result


def inventory_of(result: SessionResult) -> list[dict[str, Any]]:
    """The tool inventory of a session's first request (see the module docstring)."""
    first = result.first_request()
    offered = first.tool_names()
    deferred = first.deferred_tools()
    entries = [
        {"name": name, "deferred": name in deferred, "schema_sent": True}
        for name in offered
        if not _is_probe_tool(name)
    ]
    entries += [
        {"name": name, "deferred": True, "schema_sent": False}
        for name in deferred
        if name not in offered and not _is_probe_tool(name)
    ]
    return entries


def observe(key: str, workdir: Path | None = None) -> list[dict[str, Any]]:
    """Run client ``key`` once and return its tool inventory."""
    return inventory_of(observe_session(key, workdir))


def observe_all(keys: list[str] | None = None) -> Inventory:
    return {key: observe(key) for key in keys or list(CLIENTS)}


def load() -> Inventory:
    data = json.loads(OBSERVED.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def dump(inventory: Inventory) -> str:
    return json.dumps(inventory, indent=2) + "\n"


def diff(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    """Readable differences between two inventories of one client."""
    old = {e["name"]: e for e in expected}
    new = {e["name"]: e for e in actual}
    lines = [f"+ {name} (new tool)" for name in new if name not in old]
    lines += [f"- {name} (gone)" for name in old if name not in new]
    lines += [
        f"~ {name}: {old[name]} -> {new[name]}"
        for name in new
        if name in old and old[name] != new[name]
    ]
    if not lines and [e["name"] for e in expected] != [e["name"] for e in actual]:
        lines.append("order changed")
    return lines


def main(argv: list[str]) -> int:
    check = "--check" in argv
    keys = [a for a in argv if not a.startswith("--")] or list(CLIENTS)
    inventory = observe_all(keys)
    if check:
        saved = load()
        problems = {key: diff(saved.get(key, []), tools) for key, tools in inventory.items()}
        problems = {key: lines for key, lines in problems.items() if lines}
        for key, lines in problems.items():
            print(f"{key}:\n  " + "\n  ".join(lines))
        return 1 if problems else 0
    merged = load() if OBSERVED.exists() else {}
    merged.update(inventory)
    OBSERVED.write_text(dump({key: merged[key] for key in sorted(merged)}), encoding="utf-8")
    for key, tools in inventory.items():
        print(f"{key}: {', '.join(t['name'] + ('*' if t['deferred'] else '') for t in tools)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
