#!/usr/bin/env python3
"""Probe MCP server: stdio JSON-RPC (one message a line), one tool ``probe_echo``.

Usage: ``python3 probe_mcp.py --log LOG.jsonl [--name probe] [--delay SECONDS]``. Every message
received is appended to ``LOG`` as ``{"time", "direction": "in", "message"}``; a first
``"direction": "start"`` line holds argv, a few environment values and the names of all
environment variables (what the client passes to MCP servers). Each ``tools/call`` of
``probe_echo`` answers ``probe_echo: <text>``. ``--delay`` sleeps before reading anything: a
slow server, to see how a client waits. Hand-written, stdlib only: no MCP SDK.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from typing import Any

TOOL_NAME = "probe_echo"
TOOL = {
    "name": TOOL_NAME,
    "description": "Echo the given text back (a probe used to test MCP wiring).",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "Text to echo back."}},
        "required": ["text"],
    },
}
ENV_KEYS = (
    "HOME",
    "PATH",
    "GEMINI_CLI",
    "CLAUDECODE",
    "CODEX_SESSION_ID",
    "CLAUDE_CODE_SESSION_ID",
)
DEFAULT_PROTOCOL = "2025-06-18"


def _log(path: str | None, record: dict[str, Any]) -> None:
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            handle.write(json.dumps(record) + "\n")
    except OSError:
        pass


def _result(message_id: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "result": result}


def _error(message_id: Any, code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": text}}


def respond(message: dict[str, Any], server_name: str) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message (None for notifications)."""
    method = message.get("method")
    message_id = message.get("id")
    raw_params = message.get("params")
    params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    if message_id is None:
        return None
    if method == "initialize":
        version = params.get("protocolVersion") or DEFAULT_PROTOCOL
        return _result(
            message_id,
            {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": server_name, "version": "0.0.1"},
            },
        )
    if method == "ping":
        return _result(message_id, {})
    if method == "tools/list":
        return _result(message_id, {"tools": [TOOL]})
    if method in ("resources/list", "resources/templates/list", "prompts/list"):
        key = {"resources/list": "resources", "prompts/list": "prompts"}.get(
            str(method), "resourceTemplates"
        )
        return _result(message_id, {key: []})
    if method == "tools/call":
        name = params.get("name")
        raw_arguments = params.get("arguments")
        arguments: dict[str, Any] = raw_arguments if isinstance(raw_arguments, dict) else {}
        if name != TOOL_NAME:
            return _error(message_id, -32602, f"unknown tool {name!r}")
        text = str(arguments.get("text", ""))
        return _result(
            message_id,
            {"content": [{"type": "text", "text": f"probe_echo: {text}"}], "isError": False},
        )
    return _error(message_id, -32601, f"method not found: {method}")


def main(argv: list[str]) -> int:
    log = None
    name = "probe"
    delay = 0.0
    items = iter(argv)
    for item in items:
        if item == "--log":
            log = next(items, None)
        elif item == "--name":
            name = next(items, name)
        elif item == "--delay":
            delay = float(next(items, "0"))
    env = {key: os.environ[key] for key in ENV_KEYS if key in os.environ}
    _log(
        log,
        {
            "time": time.time(),
            "direction": "start",
            "argv": sys.argv,
            "env": env,
            "env_names": sorted(os.environ),
            "pid": os.getpid(),
        },
    )
    if delay > 0:
        time.sleep(delay)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            _log(log, {"time": time.time(), "direction": "bad", "line": line})
            continue
        messages = message if isinstance(message, list) else [message]
        for item in messages:
            if not isinstance(item, dict):
                continue
            _log(log, {"time": time.time(), "direction": "in", "message": item})
            reply = respond(item, name)
            if reply is not None:
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
