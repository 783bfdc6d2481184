"""Each client's hook (or plugin) overhead per tool call, against baselines of the same run.

For Claude Code, Copilot CLI, Cline, Qwen Code and opencode, ``paw-tui install <client>`` is
run in one workspace and the command it committed is run the way that client runs it, on that
client's payload of a file write: allowed under the session's intent, and denied before any
selection. Baselines, interleaved with them: ``python -c pass`` and a hook that does nothing
(``sh -c 'exit 0'``), the least any command hook costs a client. Copilot and Qwen run the
command through ``bash -c``, Claude Code through ``/bin/sh -c``, Cline runs the hook file by its
``#!`` line. opencode has no command hooks: its plugin's ``tool.execute.before`` is awaited
inside one long-lived node process (as in opencode), each call spawning the hook script; the
same node process times ``python -c pass`` and ``sh -c 'exit 0'`` spawned the same way. The
hook script asks the installation's resident gate (started by the first call), as installed.

    python bench/clients.py [--runs 20] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import REPO, clean_env, interleaved_with_cpu, pick_python

SESSION = "bench"
NOOP = ["/bin/sh", "-c", "exit 0"]
NODE_RUNNER = r"""
const [plugin, root, runs, python] = process.argv.slice(2);
const { spawn } = await import("node:child_process");
const mod = await import(plugin);
const hooks = await Object.values(mod).find((v) => typeof v === "function")({ directory: root, worktree: root });
const run = (argv) => new Promise((ok) => spawn(argv[0], argv.slice(1), { stdio: "ignore" }).on("close", ok));
const call = async (session, path) => {
  try {
    await hooks["tool.execute.before"]({ tool: "write", sessionID: session, callID: "c" }, { args: { filePath: path, content: "x" } });
    return "allow";
  } catch (error) { return "deny"; }
};
const cases = {
  "python -c pass": () => run([python, "-c", "pass"]),
  "no-op hook": () => run(["/bin/sh", "-c", "exit 0"]),
  "write allowed": () => call("bench", "src/app.py"),
  "write before selection": () => call("other", "src/b.py"),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round <= Number(runs); round++) {
  for (const [name, work] of Object.entries(cases)) {
    const start = performance.now();
    await work();
    if (round) times[name].push(performance.now() - start);
  }
}
const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]))));
"""


def payloads(client: str, root: str, session: str, path: str) -> bytes:
    """A pre-tool write of ``path`` as ``client`` sends it to its hook."""
    full = os.path.join(root, path)
    if client == "copilot":
        body: dict[str, object] = {
            "sessionId": session,
            "timestamp": 0,
            "cwd": root,
            "toolName": "create",
            "toolArgs": {"path": full, "file_text": "x\n"},
        }
    elif client == "cline":
        body = {
            "hookName": "tool_call",
            "taskId": session,
            "workspaceRoots": [root],
            "tool_call": {"id": "c", "name": "editor", "input": {"path": full, "new_text": "x"}},
            "preToolUse": {"toolName": "editor", "parameters": {"path": full, "new_text": "x"}},
        }
    else:
        tool = {"claude-code": "Write", "qwen-code": "write_file"}[client]
        body = {
            "session_id": session,
            "transcript_path": "/dev/null",
            "cwd": root,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {"file_path": full, "content": "x\n"},
        }
    return json.dumps(body).encode()


def select(client: str, root: str) -> bytes:
    """The selection of INT-001 for the bench session, as ``client`` sends it."""
    if client == "copilot":
        return json.dumps(
            {
                "sessionId": SESSION,
                "timestamp": 0,
                "cwd": root,
                "toolName": "paw-select_active_intent",
                "toolArgs": {"intent_id": "INT-001"},
            }
        ).encode()
    if client == "cline":
        call = {"id": "s", "name": "paw__select_active_intent", "input": {"intent_id": "INT-001"}}
        return json.dumps(
            {
                "hookName": "tool_call",
                "taskId": SESSION,
                "workspaceRoots": [root],
                "tool_call": call,
                "preToolUse": {"toolName": call["name"], "parameters": call["input"]},
            }
        ).encode()
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": "/dev/null",
            "cwd": root,
            "hook_event_name": "PreToolUse",
            "tool_name": "mcp__paw__select_active_intent",
            "tool_input": {"intent_id": "INT-001"},
        }
    ).encode()


def hook_argv(client: str, root: str) -> list[str]:
    """The committed pre-tool command, run as ``client`` runs it."""
    if client == "claude-code":
        data = json.load(open(os.path.join(root, ".claude", "settings.json")))
        return ["/bin/sh", "-c", data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]]
    if client == "qwen-code":
        data = json.load(open(os.path.join(root, ".qwen", "settings.json")))
        return ["bash", "-c", data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]]
    if client == "copilot":
        data = json.load(open(os.path.join(root, ".github", "hooks", "paw-tui.json")))
        return ["bash", "-c", data["hooks"]["preToolUse"][0]["bash"]]
    return [os.path.join(root, ".clinerules", "hooks", "PreToolUse")]


def expected(client: str, allowed: bool) -> int:
    """The exit the client's command gives: Cline's hook files always exit 0 (the answer is
    in the JSON), Copilot's and the others' deny is exit 2."""
    return 0 if allowed or client == "cline" else 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    os.makedirs(os.path.join(REPO, "build"), exist_ok=True)
    rows: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as base:
        root = os.path.join(base, "ws")
        os.makedirs(os.path.join(root, ".git"))
        env = clean_env(
            PAW_STATE_DIR=os.path.join(base, "state"),
            PAW_USER_HOME=os.path.join(base, "home"),
            HOME=os.path.join(base, "home"),
        )
        subprocess.run([script, "init"], cwd=root, env=env, check=True, capture_output=True)
        for client in ("claude-code", "copilot", "cline", "qwen-code", "opencode"):
            subprocess.run(
                [script, "install", client], cwd=root, env=env, check=True, capture_output=True
            )
        env["PAW_TUI_HOOK"] = os.path.join(base, "state", "hook")
        env["CLAUDE_PROJECT_DIR"] = root
        for client in ("claude-code", "copilot", "cline", "qwen-code"):
            argv = hook_argv(client, root)
            session_env = dict(env)
            if client == "copilot":
                session_env.update(COPILOT_CLI="1", COPILOT_PROJECT_DIR=root)
            subprocess.run(
                argv,
                cwd=root,
                env=session_env,
                input=select(client, root),
                check=True,
                capture_output=True,
            )
            for label, session, path, allowed in (
                ("write allowed", SESSION, "src/app.py", True),
                ("write before selection", "other", "src/b.py", False),
            ):
                wall, _cpu = interleaved_with_cpu(
                    {"baseline": [python, "-c", "pass"], "noop": NOOP, "hook": argv},
                    options.runs,
                    cwd=root,
                    env=session_env,
                    stdin=payloads(client, root, session, path),
                    expect={"hook": expected(client, allowed)},
                )
                rows.append(
                    (
                        f"{client}: {label}",
                        wall["hook"] * 1e3,
                        wall["baseline"] * 1e3,
                        wall["noop"] * 1e3,
                    )
                )
        node = shutil.which("node")
        if node is None:
            print("node is not on the PATH: opencode's plugin not measured")
        else:
            plugin = os.path.join(base, "paw-tui.mjs")
            shutil.copyfile(os.path.join(root, ".opencode", "plugin", "paw-tui.js"), plugin)
            runner = os.path.join(base, "runner.mjs")
            with open(runner, "w") as handle:
                handle.write(NODE_RUNNER)
            opencode_select = json.dumps(
                {
                    "event": "tool.execute.before",
                    "sessionID": SESSION,
                    "tool": "paw_select_active_intent",
                    "args": {"intent_id": "INT-001"},
                    "directory": root,
                }
            ).encode()
            subprocess.run(
                [script, "gate", "--client", "opencode"],
                cwd=root,
                env=env,
                input=opencode_select,
                check=True,
                capture_output=True,
            )
            out = subprocess.run(
                [node, runner, plugin, root, str(options.runs), python],
                cwd=root,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            medians = json.loads(out)
            for label in ("write allowed", "write before selection"):
                rows.append(
                    (
                        f"opencode (plugin): {label}",
                        medians[label],
                        medians["python -c pass"],
                        medians["no-op hook"],
                    )
                )
        _stop_resident(os.path.join(base, "state", "resident", "lock"))
    print(f"{'case':<44} {'median':>9} {'python -c pass':>16} {'no-op hook':>12}")
    for label, value, baseline, noop in rows:
        print(
            f"{label:<44} {value:7.1f} ms  {value / baseline:5.2f}x ({baseline:5.1f} ms)  "
            f"{value / noop:5.1f}x ({noop:4.1f} ms)"
        )
    return 0


def _stop_resident(lock: str) -> None:
    """Stop the resident gate the first hook call started (no process is left behind)."""
    import signal

    try:
        with open(lock) as handle:
            pid = int(handle.read().split()[0])
        os.kill(pid, signal.SIGTERM)
        time.sleep(0.2)
    except (OSError, ValueError, IndexError):
        pass


if __name__ == "__main__":
    sys.exit(main())
