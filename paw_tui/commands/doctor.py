"""``paw-tui doctor``: check the installation, the hooks and the orchestration files.

Each check prints ``ok``, ``warn`` or ``FAIL`` with one sentence; the exit code is 2 when any
check failed. The hook check runs the configured gate command for real, against a scratch copy
of the orchestration files, with a canary Write that must be denied.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from paw_tui.commands.common import workspace_root
from paw_tui.commands.output import write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.ledger.verify import verify as verify_ledger

OK, WARN, FAIL = "ok", "warn", "FAIL"


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "doctor",
        parents,
        description="Check the workspace's orchestration files, the audit ledger, the Claude Code "
        "hooks and MCP set-up (running the hook command on a canary payload), and optional extras.",
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
    hooks = guarded("claude-code", _check_claude, add) or []
    if hooks:
        guarded("gate canary", _run_canary, hooks, add)
    guarded("mcp", _check_mcp, bool(hooks), add)
    guarded("shell", _check_protection, add)
    guarded("catalogue", _check_unknown_tools, add)
    guarded("codex canary", _codex_canary, add)
    _check_other_clients(root, add)
    if args.json:
        from paw_tui.commands.output import write_json

        write_json([{"status": s, "check": n, "detail": d} for s, n, d in results])
    else:
        write_out("".join(f"{s:<4}  {n:<12} {d}\n" for s, n, d in results))
    return 2 if any(s == FAIL for s, _, _ in results) else 0


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
            continue  # checked above, with its canary
        try:
            module = __import__(f"paw_tui.core.clients.{info.module}", fromlist=["NAME"])
        except ImportError:
            continue
        check = getattr(module, "doctor", None)
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
            rows = list(check(root)) if check is not None else []
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
        tool = record.get("tool")
        if isinstance(tool, str) and not tool.startswith("mcp") and known.get(tool) is None:
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


def _check_claude(root: str, add) -> list[str]:  # type: ignore[no-untyped-def]
    """The configured PreToolUse gate commands (empty when none)."""
    from paw_tui.core.clients.claude_code import pre_tool_matcher
    from paw_tui.core.clients.commands import is_gate_command

    path = os.path.join(root, ".claude", "settings.json")
    if not os.path.exists(path):
        add(
            WARN,
            "claude-code",
            "no .claude/settings.json: run 'paw-tui install claude-code' to enforce the handshake",
        )
        return []
    try:
        with open(path, encoding="utf-8") as handle:
            settings = json.load(handle)
    except (OSError, ValueError) as exc:
        add(FAIL, "claude-code", f"{path} cannot be read as JSON: {exc}")
        return []
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    found: dict[str, list[str]] = {}
    matchers: list[str] = []
    for event, entries in (hooks or {}).items() if isinstance(hooks, dict) else []:
        for entry in entries if isinstance(entries, list) else []:
            for handler in entry.get("hooks", []) if isinstance(entry, dict) else []:
                command = handler.get("command") if isinstance(handler, dict) else None
                if isinstance(command, str) and is_gate_command(command):
                    found.setdefault(event, []).append(command)
                    if event == "PreToolUse":
                        matchers.append(str(entry.get("matcher", "")))
    missing = [
        e
        for e in ("PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SessionEnd")
        if e not in found
    ]
    if "PreToolUse" not in found:
        add(
            FAIL,
            "claude-code",
            "no PreToolUse gate hook in .claude/settings.json: nothing is enforced",
        )
        return []
    if missing:
        add(WARN, "claude-code", f"gate hooks missing for {', '.join(missing)}")
    else:
        add(OK, "claude-code", "gate hooks present for all five events")
    if any(m not in (pre_tool_matcher(), "*", "", ".*") for m in matchers):
        add(
            WARN,
            "claude-code",
            "the PreToolUse matcher is narrower than 'install' writes: tools it misses are not governed",
        )
    return found["PreToolUse"]


def _settings_env(root: str) -> dict[str, str]:
    """The ``env`` of Claude Code's project settings, the local file's winning."""
    env: dict[str, str] = {}
    for name in ("settings.json", "settings.local.json"):
        try:
            with open(os.path.join(root, ".claude", name), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        values = data.get("env") if isinstance(data, dict) else None
        if isinstance(values, dict):
            env.update({str(k): str(v) for k, v in values.items()})
    return env


def _probe_mcp(root: str, name: str, server: dict[str, object], add) -> None:  # type: ignore[no-untyped-def]
    """Start the server as Claude Code would (its settings' env) and ask ``initialize``."""
    from paw_tui.mcp.probe import probe_server

    args = server.get("args")
    argv = [str(server.get("command", ""))]
    argv += [str(arg) for arg in args] if isinstance(args, list) else []
    env = dict(os.environ, **_settings_env(root))
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


def _run_canary(  # type: ignore[no-untyped-def]
    root: str,
    commands: list[str],
    add,
    *,
    label: str = "gate canary",
    client: str = "Claude Code",
    env_extra: dict[str, str] | None = None,
) -> None:
    """Run each configured PreToolUse command as ``client`` would, on a Write with no intent
    in a scratch copy of the intents: anything but a deny (exit 2 with the deny JSON) would
    let every tool run."""
    import shutil

    with tempfile.TemporaryDirectory(prefix="paw-doctor-") as scratch:
        source = os.path.join(root, ".orchestration")
        target = os.path.join(scratch, ".orchestration")
        os.makedirs(target)
        for name in ("active_intents.yaml", "governance.yaml"):
            if os.path.exists(os.path.join(source, name)):
                shutil.copyfile(os.path.join(source, name), os.path.join(target, name))
        payload = json.dumps(
            {
                "session_id": "paw-doctor-canary",
                "cwd": scratch,
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": os.path.join(scratch, "canary.txt"), "content": "x"},
            }
        )
        # what the client gives its hooks (Claude Code: the settings' env, this machine's
        # PAW_TUI_HOOK)
        env = dict(os.environ, **(_settings_env(root) if env_extra is None else env_extra))
        env.update(PAW_WORKSPACE_PATH=scratch, PAW_STATE_DIR=os.path.join(scratch, "state"))
        for command in sorted(set(commands)):
            try:
                done = subprocess.run(
                    command,
                    shell=True,
                    input=payload.encode(),
                    capture_output=True,
                    env=env,
                    cwd=scratch,
                    timeout=30,
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                add(FAIL, label, f"'{command}' did not run: {exc}")
                continue
            if done.returncode == 2 and b'"permissionDecision": "deny"' in done.stdout:
                add(
                    OK,
                    label,
                    f"a Write without an intent was denied (exit 2 with {client}'s deny JSON)",
                )
            else:
                add(
                    FAIL,
                    label,
                    f"'{command}' exited {done.returncode} instead of denying the canary "
                    f"({client} lets a tool run on any exit but 2): "
                    f"{done.stderr.decode(errors='replace').strip()[:200]}",
                )


def _codex_canary(root: str, add) -> None:  # type: ignore[no-untyped-def]
    """Codex's hooks are Claude-shaped (``.codex/hooks.json``, the same payload and deny): its
    configured PreToolUse commands get the same canary, with only the environment Codex
    passes on (its hooks get no per-hook variables)."""
    from paw_tui.core.clients.commands import is_gate_command

    try:
        with open(os.path.join(root, ".codex", "hooks.json"), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return  # not set up, or reported by the Codex rows
    groups = data.get("hooks", {}).get("PreToolUse", []) if isinstance(data, dict) else []
    commands: list[str] = []
    for group in groups if isinstance(groups, list) else []:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        for hook in hooks if isinstance(hooks, list) else []:
            command = hook.get("command") if isinstance(hook, dict) else None
            if isinstance(command, str) and is_gate_command(command):
                commands.append(command)
    if commands:
        _run_canary(root, commands, add, label="codex canary", client="Codex", env_extra={})


def _check_mcp(root: str, hooked_gate: bool, add) -> None:  # type: ignore[no-untyped-def]
    path = os.path.join(root, ".mcp.json")
    try:
        with open(path, encoding="utf-8") as handle:
            config = json.load(handle)
    except FileNotFoundError:
        add(WARN, "mcp", "no .mcp.json: agents cannot call select_active_intent through MCP")
        return
    except (OSError, ValueError) as exc:
        add(FAIL, "mcp", f"{path} cannot be read as JSON: {exc}")
        return
    servers = config.get("mcpServers") if isinstance(config, dict) else None
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
