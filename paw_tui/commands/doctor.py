"""``paw-tui doctor``: check the installation, the hooks and the orchestration files.

Each check prints ``ok``, ``warn`` or ``FAIL`` with one sentence; the exit code is 2 when any
check failed. Each installed client's rows come from its own doctor
(:meth:`~paw_tui.core.clients.registry.ClientInfo.doctor`), among them one ``<client> canary``
row: the committed pre-tool hook run as that client runs it, on a file write that the gate
itself must deny and record (:mod:`paw_tui.core.clients.canary`).
"""

from __future__ import annotations

import argparse
import os
import sys

from paw_tui.commands.common import workspace_root
from paw_tui.commands.output import write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.clients._hooks_json import FAIL, OK, WARN
from paw_tui.core.ledger.verify import verify as verify_ledger


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "doctor",
        parents,
        description="Check the workspace's orchestration files, the audit ledger, each installed "
        "client's hooks and MCP set-up (running its committed pre-tool hook on a canary write), "
        "the MCP server, and which protection holds shell commands.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui import __version__

    results: list[tuple[str, str, str]] = []

    def add(status: str, name: str, detail: str) -> None:
        results.append((status, name, detail))

    add(
        OK,
        "paw-tui",
        f"version {__version__} on Python {sys.version.split()[0]} ({sys.executable})",
    )
    root = workspace_root(args)
    add(OK, "workspace", root)

    def guarded(name: str, check, *extra):  # type: ignore[no-untyped-def]
        """Every check is a row: one that fails to run is a FAIL naming why, never the end of
        the report."""
        try:
            return check(root, *extra)
        except Exception as error:
            from paw_tui.core.errors import PawError

            detail = (
                str(error) if isinstance(error, PawError) else f"{type(error).__name__}: {error}"
            )
            add(FAIL, name, detail)
            return None

    guarded("orchestration", _check_policy, add)
    guarded("ledger", _check_ledger, add)
    guarded("ledger", _check_recording, add)
    guarded("claude-code", _check_claude, add)
    guarded("mcp", _check_mcp, add)
    _check_other_clients(root, add)
    guarded("shell", _check_protection, add)
    guarded("catalogue", _check_unknown_tools, add)
    guarded("claims", _check_claims, add)
    if args.json:
        from paw_tui.commands.output import write_json

        write_json([{"status": s, "check": n, "detail": d} for s, n, d in results])
    else:
        width = max(len(name) for _status, name, _detail in results)
        write_out("".join(f"{s:<4}  {n:<{width}} {d}\n" for s, n, d in results))
    return 2 if any(s == FAIL for s, _, _ in results) else 0


def _check_claude(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Claude Code is checked even when it is not set up: it is the client ``install``
    suggests first."""
    from paw_tui.core.clients.registry import client

    for status, name, detail in client("claude-code").doctor(root):
        add(status, name, detail)


def _check_other_clients(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Each other client that is set up here (one of its files in the workspace exists)
    reports its own rows; a client never installed adds nothing. Where its set-up could not
    even be planned (a file of the person's own where ours would go), the client's own check
    decides, and without one that is a warning, not a failure."""
    from paw_tui.core.clients.registry import CLIENTS
    from paw_tui.core.errors import ValidationError

    inside = os.path.join(os.path.realpath(root), "")
    for info in CLIENTS.values():
        if info.name == "claude-code":
            continue  # checked first, installed or not
        refused = None
        try:
            plan = info.plan(root)
            present = any(
                f.before is not None and os.path.realpath(f.path).startswith(inside)
                for f in plan.files
            )
        except ValidationError as error:
            refused, present = str(error), True
        if not present:
            continue
        try:
            rows = info.doctor(root)
        except Exception as error:
            add(FAIL, info.name, f"{type(error).__name__}: {error}")
            continue
        if not rows and refused is not None:
            rows = [(WARN, info.name, f"paw-tui is not set up here: {refused}")]
        for status, name, detail in rows:
            add(status, name, detail)


UNKNOWN_TOOLS_SCAN = 2000
"""Denials before a selection read from the ledger's end, looking for uncatalogued tools."""


def _check_unknown_tools(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Tools denied before a selection that the catalogue does not know: a client release
    that added a tool which only reads would lock agents out until it is classified."""
    from paw_tui.core.ledger.read import tail
    from paw_tui.core.ledger.records import TOOL_DENIED
    from paw_tui.core.policy.catalogue import catalogue
    from paw_tui.core.workspace import layout

    known = catalogue()
    found = tail(
        layout.at(root, layout.LEDGER),
        UNKNOWN_TOOLS_SCAN,
        predicate=lambda r: r.get("event") == TOOL_DENIED and not r.get("intent_id"),
        needle=TOOL_DENIED.encode(),
    )
    unknown: dict[str, int] = {}
    for record in found.records:
        tool, client = record.get("tool"), record.get("client")
        if not isinstance(tool, str) or tool.startswith("mcp"):
            continue
        if known.get(tool, client if isinstance(client, str) else None) is None:
            unknown[tool] = unknown.get(tool, 0) + 1
    if not unknown:
        add(OK, "catalogue", "every tool denied before a selection is catalogued")
        return
    from paw_tui.core.support.printable import printable

    names = ", ".join(f"{printable(tool)} ({count}x)" for tool, count in sorted(unknown.items()))
    add(
        WARN,
        "catalogue",
        f"tools denied before a selection that the catalogue does not know: {names}; if one "
        "changes nothing, add it to 'tools: read_only:' in governance.yaml",
    )


def _check_protection(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Which layer holds shell commands (issue 9): a heuristic is a warning, not a failure."""
    from paw_tui.core.confine.status import protection

    found = protection(root)
    add(OK if found.kernel else WARN, "shell", f"{found.kind}: {found.detail}")


def _check_policy(root: str, add) -> None:  # type: ignore[no-untyped-def]
    from paw_tui.core.policy.compiled import load_policy
    from paw_tui.core.support.words import count

    policy = load_policy(root, use_cache=False)
    if not policy.valid:
        for problem in policy.problems:
            add(FAIL, "orchestration", problem)
        return
    if not policy.intents_present:
        add(
            WARN,
            "orchestration",
            "no .orchestration/active_intents.yaml: every mutating tool is denied (run 'paw-tui init')",
        )
    else:
        add(
            OK,
            "orchestration",
            f"{count(len(policy.intents), 'intent')}, {len(policy.selectable())} selectable",
        )
    for warning in policy.warnings:
        add(WARN, "orchestration", warning)


def _check_ledger(root: str, add) -> None:  # type: ignore[no-untyped-def]
    from paw_tui.core.ledger.store import Ledger

    ledger = Ledger.for_workspace(root)
    if not os.path.exists(ledger.path):
        add(OK, "ledger", "no records yet")
        return
    result = verify_ledger(ledger)
    add(OK if result.ok else FAIL, "ledger", result.message)


def _check_recording(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Can the ledger be appended now? Nothing unrecorded is allowed, so when it cannot the
    gate denies every mutating tool and no person's act can be done."""
    from paw_tui.core.ledger.health import ledger_health

    health = ledger_health(root)
    if not health.appendable:
        add(FAIL, "ledger", health.message())
    elif health.failure is not None:
        add(WARN, "ledger", health.message())
    else:
        add(OK, "ledger", "it can be appended now")


def _check_claims(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """With claims on (DESIGN §12), that the remote takes a ref under refs/paw/ (once)."""
    from paw_tui.core.policy.compiled import load_policy

    policy = load_policy(root, use_cache=False)
    remote = policy.governance.claims_remote if policy.valid else None
    if remote is None:
        return
    import socket

    from paw_tui.core.claims.remote import ClaimError, probe_namespace

    try:
        probe_namespace(root, remote, socket.gethostname())
    except ClaimError as error:
        add(FAIL, "claims", f"{error}: selections will be refused while claims are on")
        return
    add(OK, "claims", f"the git remote '{remote}' takes intent claims (refs/paw/claims/*)")


def _probe_mcp(root: str, name: str, server: dict[str, object], add) -> None:  # type: ignore[no-untyped-def]
    """Start the server as Claude Code would (its settings' env) and ask ``initialize``."""
    from paw_tui.core.clients.claude_doctor import settings_environment
    from paw_tui.mcp.probe import probe_server

    args = server.get("args")
    argv = [str(server.get("command", ""))]
    argv += [str(arg) for arg in args] if isinstance(args, list) else []
    env = dict(os.environ, **settings_environment(root))
    extra = server.get("env")
    if isinstance(extra, dict):
        env.update({str(k): str(v) for k, v in extra.items()})
    answered, detail = probe_server(argv, cwd=root, env=env)
    if answered:
        add(OK, "mcp", f"server '{name}': {detail}")
    else:
        add(
            FAIL,
            "mcp",
            f"server '{name}' cannot start, so agents cannot select an intent: {detail}",
        )


def _check_mcp(root: str, add) -> None:  # type: ignore[no-untyped-def]
    from paw_tui.core.clients._hooks_json import read_config
    from paw_tui.core.clients.claude_doctor import pre_tool_commands

    hooked_gate = bool(pre_tool_commands(root))
    config, problem = read_config(os.path.join(root, ".mcp.json"), allow_comments=False)
    if problem:
        add(FAIL, "mcp", problem)
        return
    if config is None:
        add(WARN, "mcp", "no .mcp.json: agents cannot call select_active_intent through MCP")
        return
    servers = config.get("mcpServers")
    for name, server in (servers or {}).items() if isinstance(servers, dict) else []:
        args = server.get("args") if isinstance(server, dict) else None
        words = (
            [str(server.get("command", ""))] + [str(a) for a in (args or [])]
            if isinstance(server, dict)
            else []
        )
        text = " ".join(words)
        if " mcp" in text and "paw" in text:
            if hooked_gate and "--hooked" not in text:
                add(
                    FAIL,
                    "mcp",
                    f"server '{name}' runs plain 'paw-tui mcp' beside the gate hooks: selections "
                    "would be locked twice under two session ids; use 'paw-tui mcp --hooked'",
                )
            else:
                _probe_mcp(root, name, server, add)
            return
    add(WARN, "mcp", "no paw-tui server in .mcp.json")
