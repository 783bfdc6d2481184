"""The harness itself, proved against every pinned client version (no paw-tui involved).

Each test wires the probe hook and the probe MCP server into a fresh workspace, scripts the
model, runs one real non-interactive session against the loopback mock and checks what the
client did: hook payloads, files, tool results and injected context in the recorded requests.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from .codex_trust import list_codex_hooks, trust_codex_hooks
from .egress import foreign, strace_path
from .install import CLIENTS, ClientSpec, ensure_client
from .probes import Probes, wire, wire_codex
from .recipes import (
    HOOK_SHELL_TOOL,
    HOOK_WRITE_TOOL,
    MCP_TOOL,
    POST_TOOL_EVENT,
    PRE_TOOL_EVENT,
    PROMPT_EVENT,
    mcp_echo,
    shell,
    tool_search,
    write_file,
)
from .script import ModelRequest, Step, Text, ToolCall, Turn
from .session import SessionResult, run_session

pytestmark = pytest.mark.realclient

# Shell output that proves the session id reaches the shell tool's environment.
SID_COMMAND = (
    'echo shell-ok > shell.txt; echo "sid=${CLAUDE_CODE_SESSION_ID:-}${CODEX_SESSION_ID:-}"'
)


def _marker() -> str:
    return uuid.uuid4().hex[:10]


def _run(
    client: ClientSpec, workspace: Path, probes: Probes, script: list[Step], prompt: str
) -> SessionResult:
    wire(client.kind, workspace, probes)
    home = workspace.parent / "client-home"
    result = run_session(client.key, workspace, prompt, script, home=home, timeout=90)
    assert result.ok, result.describe()
    return result


def _results(result: SessionResult, step: int) -> str:
    return "\n".join(result.request_for_step(step).tool_results())


def test_write_then_shell_fires_tool_hooks(
    client: ClientSpec, workspace: Path, probes: Probes
) -> None:
    kind = client.kind
    marker = _marker()
    script: list[Step] = [
        write_file(kind, workspace, "probe.txt", f"hello {marker}\n"),
        shell(kind, SID_COMMAND),
        Text("done"),
    ]
    result = _run(client, workspace, probes, script, "Write probe.txt, then run a command.")

    assert (workspace / "probe.txt").read_text(encoding="utf-8").strip() == f"hello {marker}"
    assert (workspace / "shell.txt").read_text(encoding="utf-8").strip() == "shell-ok"
    session_id = result.session_id()
    assert session_id, result.describe()

    pre = probes.hook_calls(PRE_TOOL_EVENT[kind])
    post = probes.hook_calls(POST_TOOL_EVENT[kind])
    expected_tools = [HOOK_WRITE_TOOL[kind], HOOK_SHELL_TOOL[kind]]
    assert [c["tool_name"] for c in pre] == expected_tools, probes.events()
    assert [c["tool_name"] for c in post] == expected_tools, probes.events()
    for call in pre + post:
        assert call["payload"]["session_id"] == session_id
        assert Path(call["payload"]["cwd"]).resolve() == workspace
    assert "probe.txt" in json.dumps(pre[0]["payload"]["tool_input"])
    assert "shell-ok" in json.dumps(pre[1]["payload"]["tool_input"])

    shell_output = _results(result, 2)
    if kind in ("claude", "codex"):  # Gemini exports no session id to its shell tool
        assert f"sid={session_id}" in shell_output, shell_output
    else:
        assert "sid=" in shell_output and f"sid={session_id}" not in shell_output, shell_output
    if kind == "claude":
        env = pre[0]["env"]
        assert env.get("CLAUDE_CODE_SESSION_ID") == session_id
        assert env.get("CLAUDE_PROJECT_DIR") == str(workspace)


def test_probe_deny_blocks_write_and_reason_reaches_model(
    client: ClientSpec, workspace: Path, probes: Probes
) -> None:
    kind = client.kind
    reason = f"PROBEDENY{_marker()}"
    probes.deny(reason, tool=f"^{HOOK_WRITE_TOOL[kind]}$")
    script: list[Step] = [
        write_file(kind, workspace, "denied.txt", "must not exist\n"),
        Text("done"),
    ]
    result = _run(client, workspace, probes, script, "Write denied.txt.")

    assert not (workspace / "denied.txt").exists()
    pre = probes.hook_calls(PRE_TOOL_EVENT[kind])
    assert [c["tool_name"] for c in pre] == [HOOK_WRITE_TOOL[kind]]
    assert pre[0]["answer"]["exit"] == (2 if kind == "claude" else 0)
    assert not probes.hook_calls(POST_TOOL_EVENT[kind])
    assert reason in _results(result, 1), result.request_for_step(1).text()[-3000:]


def test_mcp_probe_tool_reachable_by_client_name(
    client: ClientSpec, workspace: Path, probes: Probes
) -> None:
    kind = client.kind
    text = f"ping{_marker()}"
    result = _run(client, workspace, probes, [mcp_echo(kind, text), Text("done")], "Echo.")

    assert f"probe_echo: {text}" in _results(result, 1)
    calls = probes.mcp_tool_calls()
    assert [c["params"]["arguments"] for c in calls] == [{"text": text}]
    pre = probes.hook_calls(PRE_TOOL_EVENT[kind])
    assert [c["tool_name"] for c in pre] == [MCP_TOOL[kind]]

    first = result.first_request()
    if client.key == "claude-code@2.1.330":
        # every MCP tool is deferred: named in a reminder, no schema until ToolSearch loads it
        assert MCP_TOOL[kind] not in first.tool_names()
    elif kind == "codex":
        assert MCP_TOOL[kind] not in first.tool_names()  # offered only through tool_search
        assert calls[0]["params"].get("_meta", {}).get("sessionId") == result.session_id()
    else:
        assert MCP_TOOL[kind] in first.tool_names()


def _load_then_call(kind: str, text: str) -> Callable[[ModelRequest], Turn]:
    """A dynamic step: read what the tool search returned and call the tool it names."""

    def step(request: ModelRequest) -> Turn:
        found = "\n".join(request.tool_results())
        if kind == "claude":
            names = re.findall(r'"tool_name": "([^"]+)"', found)
            return ToolCall(names[0], {"text": text}) if names else Text("search found nothing")
        for namespace in (json.loads(item) for item in request.tool_results()):
            for member in namespace.get("tools", []):
                if member.get("name") == "probe_echo":
                    return ToolCall(member["name"], {"text": text}, namespace=namespace["name"])
        return Text("search found nothing")

    return step


@pytest.mark.parametrize("key", ["claude-code@2.1.330", "codex@0.169.0"])
def test_tool_search_loads_mcp_probe(key: str, workspace: Path, probes: Probes) -> None:
    client = CLIENTS[key]
    ensure_client(key)
    kind = client.kind
    text = f"found{_marker()}"
    query = f"select:{MCP_TOOL[kind]}" if kind == "claude" else "probe echo"
    script: list[Step] = [tool_search(kind, query), _load_then_call(kind, text), Text("done")]
    result = _run(client, workspace, probes, script, "Find the echo tool and use it.")

    assert MCP_TOOL[kind] not in result.first_request().tool_names()
    loaded = result.request_for_step(1)
    assert result.request_for_step(1).tool_results(), result.describe()
    if kind == "claude":
        assert MCP_TOOL[kind] in result.first_request().deferred_tools()
        assert MCP_TOOL[kind] in loaded.tool_names()  # the schema is sent once loaded
    assert f"probe_echo: {text}" in _results(result, 2), result.describe()
    assert [c["params"]["arguments"] for c in probes.mcp_tool_calls()] == [{"text": text}]


def test_context_injection_reaches_model(
    client: ClientSpec, workspace: Path, probes: Probes
) -> None:
    kind = client.kind
    marker = _marker()
    probes.context("SessionStart", f"CTXSTART{marker}")
    probes.context(PROMPT_EVENT[kind], f"CTXPROMPT{marker}")
    result = _run(client, workspace, probes, [Text("done")], "Say done.")

    assert "SessionStart" in probes.events() and PROMPT_EVENT[kind] in probes.events()
    first = result.first_request()
    assert first.contains(f"CTXSTART{marker}"), first.text()[-4000:]
    assert first.contains(f"CTXPROMPT{marker}"), first.text()[-4000:]


def test_codex_hooks_run_only_when_trusted_by_hash(
    workspace: Path, probes: Probes, session_home: Path
) -> None:
    ensure_client("codex@0.169.0")
    wire_codex(workspace, probes)
    untrusted = run_session(
        "codex@0.169.0",
        workspace,
        "Say done.",
        [Text("done")],
        home=session_home,
        trust_hooks=False,
    )
    assert untrusted.ok, untrusted.describe()
    assert probes.hook_calls() == []  # skipped silently

    codex_home = session_home / ".codex"
    before = list_codex_hooks(codex_home, workspace)
    assert before and {h["trustStatus"] for h in before} == {"untrusted"}
    after = trust_codex_hooks(codex_home, workspace)
    assert {h["trustStatus"] for h in after} == {"trusted"}
    config = (codex_home / "config.toml").read_text(encoding="utf-8")
    for hook in after:
        assert f"[hooks.state.{json.dumps(hook['key'])}]" in config
        assert f'trusted_hash = "{hook["currentHash"]}"' in config

    hooks_file = workspace / ".codex" / "hooks.json"
    hooks_file.write_text(
        hooks_file.read_text(encoding="utf-8").replace("--log", "--log "), "utf-8"
    )
    modified = list_codex_hooks(codex_home, workspace)
    assert "modified" in {h["trustStatus"] for h in modified}


def test_client_reaches_only_loopback(client: ClientSpec, workspace: Path, probes: Probes) -> None:
    """Every socket address the client's process tree uses (strace) is local."""
    if strace_path() is None:
        pytest.skip("strace is not installed: cannot watch the client's network calls")
    kind = client.kind
    wire(kind, workspace, probes)
    script: list[Step] = [
        write_file(kind, workspace, "net.txt", "x\n"),
        shell(kind, "echo net"),
        mcp_echo(kind, "net"),
        Text("done"),
    ]
    result = run_session(
        client.key,
        workspace,
        "Go.",
        script,
        home=workspace.parent / "client-home",
        trace_network=True,
    )
    assert result.ok, result.describe()
    assert result.network is not None
    port = result.mock_url.rsplit(":", 1)[1]
    assert ("AF_INET", "127.0.0.1", port) in result.network, result.network
    assert foreign(result.network) == set(), result.network


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def test_timeout_kills_client_and_its_shell(workspace: Path, session_home: Path) -> None:
    """Gemini runs shell commands in process groups of their own: they must die too."""
    ensure_client("gemini-cli@0.61.0")
    pid_file = workspace / "shell.pid"
    hang = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(300)"
    script: list[Step] = [shell("gemini", f'python3 -c "{hang}"'), Text("never reached")]
    result = run_session(
        "gemini-cli@0.61.0", workspace, "Hang.", script, home=session_home, timeout=8
    )
    assert result.timed_out and result.exit_code is None
    assert result.duration < 20
    assert pid_file.exists(), result.describe()
    assert not _alive(int(pid_file.read_text(encoding="utf-8")))
