"""The MCP server (DESIGN §3, §6): ``paw-tui mcp`` over stdio end to end with the MCP SDK's
client (the reference the built-in server is held to), and ``StdioServer(PawTools(...))`` in
process over in-memory pipes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

pytest.importorskip("mcp")

from gatekit import (
    AVAILABLE,
    PAW,
    assert_claude_deny,
    events,
    gate,
    gate_env,
    paw_state_dir,
    records,
    root,
    select,
    select_payload,
    session_file,
    write_payload,
    write_workspace,
)
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

from paw_tui.mcp.stdio import StdioServer
from paw_tui.mcp.tools import PawTools, ToolResult

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import Workspace

AGENT = "PAW-02B Impl Planner"
TOOLS = {
    "paw_get_context": ["feature_slug", "agent_name"],
    "select_active_intent": ["intent_id"],
    "list_intents": [],
    "check_scope": ["path"],
}


def text_of(result: CallToolResult | ToolResult) -> str:
    if isinstance(result, ToolResult):
        return result.text
    assert len(result.content) == 1
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def with_work_item(root: Path) -> Path:
    work = root / ".paw" / "work" / "auth-migration"
    work.mkdir(parents=True)
    (work / "WorkflowContext.md").write_text(
        "Work Title: Auth\nWork ID: auth-migration\n", encoding="utf-8"
    )
    instructions = root / ".paw" / "instructions"
    instructions.mkdir(parents=True)
    (instructions / f"{AGENT}-instructions.md").write_text(
        "Prefer small commits.\n", encoding="utf-8"
    )
    return root


def server_params(root: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=PAW, args=["mcp", *args], env=gate_env(), cwd=str(root))


async def check_tool_listing(client: Client) -> None:
    listed = await client.list_tools()
    by_name = {tool.name: tool for tool in listed.tools}
    assert set(TOOLS) <= set(by_name)
    for name, required in TOOLS.items():
        tool = by_name[name]
        assert tool.description and len(tool.description) > 20, name
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert sorted(schema.get("required", [])) == sorted(required), name
        for field in required:
            assert schema["properties"][field]["type"] == "string"


# -- end to end over stdio --------------------------------------------------------------------------


def test_plain_server_over_stdio(root: Path) -> None:
    with_work_item(root)

    async def scenario() -> None:
        async with Client(server_params(root)) as client:
            await check_tool_listing(client)

            context = await client.call_tool(
                "paw_get_context", {"feature_slug": "auth-migration", "agent_name": AGENT}
            )
            assert not context.is_error
            assert (
                "<workspace_instructions>\nPrefer small commits.\n</workspace_instructions>"
                in text_of(context)
            )
            assert "Work ID: auth-migration" in text_of(context)

            invalid = await client.call_tool(
                "paw_get_context", {"feature_slug": "Bad Slug", "agent_name": AGENT}
            )
            assert invalid.is_error
            assert text_of(invalid) == (
                "Error retrieving PAW context: Invalid Work ID format: 'Bad Slug'. Work IDs must contain only "
                "lowercase letters, numbers, and hyphens."
            )

            unknown = await client.call_tool("select_active_intent", {"intent_id": "INT-404"})
            assert unknown.is_error
            assert text_of(unknown) == f"Unknown intent 'INT-404'. Available intents: {AVAILABLE}."

            chosen = await client.call_tool("select_active_intent", {"intent_id": "INT-002"})
            assert not chosen.is_error
            block = text_of(chosen)
            assert block.startswith(
                '<intent_context id="INT-002" status="IN_PROGRESS">\n<name>Documentation Refresh</name>'
            )
            assert block.endswith("</intent_context>")

            again = await client.call_tool("select_active_intent", {"intent_id": "INT-002"})
            assert not again.is_error  # idempotent

            other = await client.call_tool("select_active_intent", {"intent_id": "INT-001"})
            assert other.is_error
            session_id = next(
                r["session_id"] for r in records(root) if r["event"] == "intent_selected"
            )
            assert text_of(other) == (
                f"Session {session_id} is locked to INT-002. Start a new session to work on INT-001."
            )

            scope = json.loads(
                text_of(await client.call_tool("check_scope", {"path": "README.md"}))
            )
            assert (scope["allowed"], scope["intent_id"], scope["pattern"]) == (
                True,
                "INT-002",
                "*.md",
            )

    anyio.run(scenario)
    selected = [r for r in records(root) if r["event"] == "intent_selected"]
    assert len(selected) == 2 and {r["client"] for r in selected} == {"mcp"}
    assert str(selected[0]["session_id"]).startswith("mcp-")


def test_hooked_server_over_stdio_only_validates(root: Path) -> None:
    async def scenario() -> None:
        async with Client(server_params(root, "--hooked")) as client:
            await check_tool_listing(client)
            chosen = await client.call_tool("select_active_intent", {"intent_id": "INT-001"})
            assert not chosen.is_error
            assert text_of(chosen).startswith('<intent_context id="INT-001" status="IN_PROGRESS">')
            # It locks nothing: a second intent is not refused by a lock of its own.
            second = await client.call_tool("select_active_intent", {"intent_id": "INT-002"})
            assert not second.is_error
            assert '<intent_context id="INT-002" status="PENDING">' in text_of(second)
            blocked = await client.call_tool("select_active_intent", {"intent_id": "INT-003"})
            assert blocked.is_error and "BLOCKED" in text_of(blocked)

    anyio.run(scenario)
    assert records(root) == []
    assert not (root / ".orchestration" / "sessions").exists() or not list(
        (root / ".orchestration" / "sessions").iterdir()
    )


# -- in process ----------------------------------------------------------------------------------------


def exchange(paw: PawTools, *messages: dict[str, object]) -> list[dict[str, Any]]:
    """Every reply the server writes to ``messages`` (one per line), in process."""
    source = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    sink = io.BytesIO()
    StdioServer(paw, source, sink).serve()
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def call(paw: PawTools, tool: str, arguments: dict[str, object] | None = None) -> CallToolResult:
    replies = exchange(
        paw,
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments or {}},
        },
    )
    assert len(replies) == 1 and replies[0]["id"] == 7, replies
    return CallToolResult.model_validate(replies[0]["result"])


def plain(root: Path | str, *, hooked: bool = False) -> PawTools:
    import os

    return PawTools(environ=dict(os.environ), cwd=str(root), hooked=hooked)


def test_in_process_listing(root: Path) -> None:
    replies = exchange(plain(root), {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    listed = {tool["name"]: tool for tool in replies[0]["result"]["tools"]}
    for name, required in TOOLS.items():
        assert sorted(listed[name]["inputSchema"].get("required", [])) == sorted(required)


@pytest.mark.parametrize(
    ("slug", "agent", "message"),
    [
        ("  ", AGENT, "Invalid feature_slug: value must be a non-empty string."),
        (
            "Feature_X",
            AGENT,
            "Invalid Work ID format: 'Feature_X'. Work IDs must contain only lowercase letters, numbers, and hyphens.",
        ),
        ("auth-migration", " ", "Invalid agent_name: value must be a non-empty string."),
        (
            "auth-migration",
            "a/b",
            "Invalid agent_name: 'a/b' must not contain path separators or control characters.",
        ),
        ("nope", AGENT, None),
    ],
)
def test_paw_get_context_validation_errors(
    root: Path, slug: str, agent: str, message: str | None
) -> None:
    with_work_item(root)
    result = call(plain(root), "paw_get_context", {"feature_slug": slug, "agent_name": agent})
    assert result.is_error
    if message is None:
        message = (
            f"Work ID 'nope' not found in any workspace. Expected directory .paw/work/nope/ to exist in one of: "
            f"{root}. Please verify the Work ID is correct."
        )
    assert text_of(result) == f"Error retrieving PAW context: {message}"


def test_paw_get_context_without_a_workspace(sandbox: Path) -> None:
    result = call(plain(sandbox), "paw_get_context", {"feature_slug": "x", "agent_name": AGENT})
    assert result.is_error
    assert text_of(result) == (
        "Error retrieving PAW context: Unable to determine workspace path: no workspace folder is currently open."
    )


def test_select_without_a_workspace(sandbox: Path) -> None:
    result = call(plain(sandbox), "select_active_intent", {"intent_id": "INT-001"})
    assert result.is_error
    assert (
        text_of(result)
        == "Unable to determine workspace path: no workspace folder is currently open."
    )


def test_plain_select_locks_one_session_per_server(root: Path) -> None:
    paw = plain(root)
    first = call(paw, "select_active_intent", {"intent_id": "INT-007"})
    assert not first.is_error and '<intent_context id="INT-007"' in text_of(first)
    assert session_file(root, paw.session_id).exists()
    second = call(paw, "select_active_intent", {"intent_id": "INT-001"})
    assert second.is_error
    assert (
        text_of(second)
        == f"Session {paw.session_id} is locked to INT-007. Start a new session to work on INT-001."
    )
    # Another server process is another session: the intent it holds is refused, naming it.
    other = plain(root)
    refused = call(other, "select_active_intent", {"intent_id": "INT-007"})
    assert refused.is_error and paw.session_id in text_of(refused)
    paw.release()
    assert not session_file(root, paw.session_id).exists()
    assert events(root)[-1] == "session_released"
    assert not call(other, "select_active_intent", {"intent_id": "INT-007"}).is_error


def test_plain_select_with_approval_required(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="approval: required\n")
    result = call(plain(root), "select_active_intent", {"intent_id": "INT-002"})
    assert not result.is_error
    assert text_of(result) == "Intent selection INT-002 awaits human approval."


def test_select_while_the_registry_is_invalid(ws: Workspace) -> None:
    root = write_workspace(ws.root, "active_intents:\n  - id: A\n    status: DONE\n")
    for paw in (plain(root), plain(root, hooked=True)):
        result = call(paw, "select_active_intent", {"intent_id": "A"})
        assert result.is_error
        assert text_of(result).startswith(
            "Orchestration state unavailable: .orchestration/active_intents.yaml:3: "
        )


def test_hooked_select_reports_what_the_gate_decided(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="approval: required\n")
    hooked = plain(root, hooked=True)
    # The gate performed the selection for the client's session; it now awaits approval.
    gate(select_payload(root, "INT-002", session="claude-1"))
    result = call(hooked, "select_active_intent", {"intent_id": "INT-002"})
    assert not result.is_error
    assert text_of(result) == "Intent selection INT-002 awaits human approval."
    unknown = call(hooked, "select_active_intent", {"intent_id": "INT-404"})
    assert unknown.is_error
    assert text_of(unknown).startswith(
        "Unknown intent 'INT-404'. Available intents: INT-001 (JWT Authentication Migration), "
    )
    assert "INT-002" not in text_of(unknown)  # reserved by claude-1
    assert not (root / ".orchestration" / "sessions" / f"{hooked.session_id}.json").exists()


def test_hooked_release_does_nothing(root: Path) -> None:
    gate(select_payload(root, "INT-001", session="claude-1"))
    before = records(root)
    plain(root, hooked=True).release()
    assert records(root) == before


def test_list_intents(root: Path) -> None:
    select(root, "s-alpha", "INT-001")
    data = json.loads(text_of(call(plain(root), "list_intents")))
    by_id = {item["id"]: item for item in data["intents"]}
    assert list(by_id) == [f"INT-00{n}" for n in range(1, 8)]
    assert by_id["INT-001"]["held_by"] == "s-alpha" and by_id["INT-001"]["selectable"] is False
    assert by_id["INT-002"]["selectable"] is True and by_id["INT-002"]["status"] == "PENDING"
    assert by_id["INT-003"]["selectable"] is False
    assert by_id["INT-002"]["owned_scope"] == ["*.md"]


def test_check_scope(root: Path) -> None:
    paw = plain(root)
    no_intent = call(paw, "check_scope", {"path": "src/a.py"})
    assert no_intent.is_error
    assert text_of(no_intent) == "No active intent: pass intent_id, or select an intent first."
    explicit = json.loads(
        text_of(call(paw, "check_scope", {"path": "src/auth/legacy/x.py", "intent_id": "INT-001"}))
    )
    assert (explicit["allowed"], explicit["kind"], explicit["index"], explicit["pattern"]) == (
        False,
        "excluded",
        2,
        "!src/auth/legacy/**",
    )
    assert explicit["message"].startswith(
        "Scope Violation: INT-001 is not authorized to edit src/auth/legacy/x.py."
    )
    call(paw, "select_active_intent", {"intent_id": "INT-002"})
    mine = json.loads(text_of(call(paw, "check_scope", {"path": "docs/x.md"})))
    assert (mine["intent_id"], mine["allowed"], mine["kind"]) == ("INT-002", False, "out_of_scope")
    outside = json.loads(text_of(call(paw, "check_scope", {"path": "../elsewhere.md"})))
    assert outside["allowed"] is False and outside["kind"] == "outside_root"
    protected = json.loads(
        text_of(call(paw, "check_scope", {"path": ".git/config", "intent_id": "INT-006"}))
    )
    assert (protected["allowed"], protected["kind"]) == (False, "protected")
    unknown = call(paw, "check_scope", {"path": "a", "intent_id": "INT-404"})
    assert unknown.is_error and text_of(unknown) == "Unknown intent 'INT-404'."


def test_a_missing_argument_is_an_error_result(root: Path) -> None:
    result = call(plain(root), "select_active_intent", {})
    assert result.is_error


def test_the_gate_and_a_hooked_server_together(root: Path) -> None:
    """What install claude-code sets up: the gate locks for the client's session id."""
    hooked = plain(root, hooked=True)
    assert_claude_deny(gate(write_payload(root, "src/auth/a.py", session="claude-1")))
    gate(select_payload(root, "INT-001", session="claude-1"))
    block = text_of(call(hooked, "select_active_intent", {"intent_id": "INT-001"}))
    assert block.startswith('<intent_context id="INT-001"')
    assert "<recent_history>" in block and 'event="intent_selected"' in block
    scope = json.loads(text_of(call(hooked, "check_scope", {"path": "src/auth/a.py"})))
    assert scope["intent_id"] == "INT-001" and scope["allowed"] is True


def test_a_cancelled_context_call(root: Path) -> None:
    with_work_item(root)
    result = plain(root).paw_get_context("auth-migration", AGENT, lambda: True)
    assert result.is_error
    assert text_of(result) == "Context retrieval was cancelled."


# -- the protocol layer ----------------------------------------------------------------------------


def rpc(request_id: int, method: str, params: dict[str, object] | None = None) -> dict[str, object]:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


@pytest.mark.parametrize(
    ("asked", "answered"),
    [("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")],
)
def test_initialize_negotiates_the_protocol_version(root: Path, asked: str, answered: str) -> None:
    reply = exchange(plain(root), rpc(1, "initialize", {"protocolVersion": asked}))[0]
    result = reply["result"]
    assert result["protocolVersion"] == answered
    assert result["serverInfo"]["name"] == "paw" and "tools" in result["capabilities"]


def test_bad_messages_get_json_rpc_errors_and_the_server_goes_on(root: Path) -> None:
    source = io.BytesIO(
        b"{not json\n"
        b'{"jsonrpc": "1.0", "id": 3, "method": "ping"}\n'
        b'{"jsonrpc": "2.0", "id": 4, "method": "sampling/createMessage"}\n'
        b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nope"}}\n'
        b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", '
        b'"params": {"name": "list_intents", "arguments": [1]}}\n'
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
        b"\n"
        b'{"jsonrpc": "2.0", "id": 8, "method": "ping"}\n'
    )
    sink = io.BytesIO()
    StdioServer(plain(root), source, sink).serve()
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    codes = [(r.get("id"), r.get("error", {}).get("code")) for r in replies]
    assert codes == [(None, -32700), (3, -32600), (4, -32601), (5, -32602), (6, -32602), (8, None)]
    assert "nope" in replies[3]["error"]["message"]
    assert replies[-1]["result"] == {}


def test_a_batch_is_answered_message_by_message(root: Path) -> None:
    source = io.BytesIO(json.dumps([rpc(1, "ping"), rpc(2, "prompts/list")]).encode() + b"\n")
    sink = io.BytesIO()
    StdioServer(plain(root), source, sink).serve()
    replies = {r["id"]: r["result"] for r in map(json.loads, sink.getvalue().splitlines())}
    assert replies == {1: {}, 2: {"prompts": []}}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "Invalid arguments for select_active_intent: 'intent_id' is required."),
        (
            {"intent_id": 7},
            "Invalid arguments for select_active_intent: 'intent_id' must be a string, not int.",
        ),
    ],
)
def test_wrong_arguments_name_the_argument(
    root: Path, arguments: dict[str, object], message: str
) -> None:
    result = call(plain(root), "select_active_intent", arguments)
    assert result.is_error and text_of(result) == message
    assert records(root) == []


def test_a_cancelled_call_gets_no_answer(root: Path) -> None:
    with_work_item(root)
    paw = plain(root)
    started = threading.Event()
    release = threading.Event()
    original = paw.paw_get_context

    def slow(slug: str, agent: str, is_cancelled: Callable[[], bool] | None = None) -> ToolResult:
        started.set()
        release.wait(30)
        return original(slug, agent, is_cancelled)

    paw.paw_get_context = slow  # type: ignore[method-assign,assignment]
    reader, writer = os.pipe()
    sink = io.BytesIO()
    server = StdioServer(paw, os.fdopen(reader, "rb"), sink)
    thread = threading.Thread(target=server.serve)
    thread.start()
    with os.fdopen(writer, "wb", buffering=0) as pipe:
        args = {"feature_slug": "auth-migration", "agent_name": AGENT}
        pipe.write(
            json.dumps(
                rpc(9, "tools/call", {"name": "paw_get_context", "arguments": args})
            ).encode()
            + b"\n"
        )
        assert started.wait(30)
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}
        pipe.write(
            json.dumps(cancel).encode() + b"\n" + json.dumps(rpc(10, "ping")).encode() + b"\n"
        )
        # The ping is answered while the call still runs: requests do not queue behind tools.
        for _ in range(3000):
            if sink.getvalue():
                break
            threading.Event().wait(0.01)
        answered_while_running = bool(sink.getvalue())
        release.set()
    thread.join(30)
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert answered_while_running
    assert [r["id"] for r in replies] == [10]


def test_the_server_answers_tools_list_without_loading_the_core(root: Path) -> None:
    code = (
        "import io, json, sys\n"
        "from paw_tui.mcp.stdio import StdioServer\n"
        "from paw_tui.mcp.tools import PawTools\n"
        "lines = [{'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {}},\n"
        "         {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}]\n"
        "src = io.BytesIO(b''.join(json.dumps(m).encode() + b'\\n' for m in lines))\n"
        "StdioServer(PawTools(), src, io.BytesIO()).serve()\n"
        "heavy = ('yaml', 'pathspec', 'mcp', 'pydantic', 'anyio', 'textual', 'rich')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
        "print(sorted(m for m in sys.modules if m.startswith('paw_tui.core')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    heavy, core = done.stdout.splitlines()
    assert heavy == "[]" and core == "[]"
