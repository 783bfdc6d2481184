"""Realistic ledger records for the benches, made fast from %-templates.

A quarter mutations, a quarter denials, half allowed tool calls, across 50 intents; the
bytes are the writer's own encoding of such a record (the benches check the first few
against it), before any ``mac``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

INTENTS = [f"INT-{n:03d}" for n in range(1, 51)]
TOOLS = ["Edit", "Write", "Bash", "MultiEdit"]
_HEAD = '{"v":1,"seq":%d,"ts":"%s",'
_MUTATION = (
    _HEAD + '"event":"mutation","session_id":"%s","intent_id":"%s","client":"claude-code",'
    '"tool":"%s","paths":["src/mod%d/file%d.py"],"content_hash":"sha256:%s",'
    '"ranges":[{"start_line":%d,"end_line":%d}],"prev":"%s"}'
)
_ALLOWED = (
    _HEAD + '"event":"tool_allowed","session_id":"%s","intent_id":"%s","client":"claude-code",'
    '"tool":"%s","paths":["src/mod%d/file%d.py"],"decision":"allow","prev":"%s"}'
)
_DENIED = (
    _HEAD + '"event":"tool_denied","session_id":"%s","intent_id":"%s","client":"claude-code",'
    '"tool":"Write","paths":["../outside.txt"],"decision":"deny",'
    '"reason":"Scope Violation: %s is not authorized to edit ../outside.txt.","prev":"%s"}'
)


def body(seq: int, prev: str, ts: str) -> bytes:
    """Record ``seq`` chained to ``prev``, written at ``ts``."""
    intent = INTENTS[(seq * 7) % len(INTENTS)]
    session = f"5e2c{seq // 1000:04x}-8d0f-4a55-9c7b-3f1a2b4c5d6e"
    kind = seq % 4
    if kind == 0:
        digest = hashlib.sha256(str(seq).encode()).hexdigest()
        start = seq % 50 + 1
        tool = TOOLS[seq % 2]
        changed = (session, intent, tool, seq % 97, seq % 13, digest, start, start + 11, prev)
        return (_MUTATION % (seq, ts, *changed)).encode()
    if kind == 3:
        return (_DENIED % (seq, ts, session, intent, intent, prev)).encode()
    fields = (session, intent, TOOLS[seq % 4], seq % 97, seq % 13, prev)
    return (_ALLOWED % (seq, ts, *fields)).encode()


def write_synced(path: str, lines: Iterable[bytes]) -> int:
    """Write ``lines`` (each without its newline) to ``path`` in big blocks and sync them
    (else the first durable append pays for the whole file's writeback); the bytes written."""
    size, block = 0, []
    with open(path, "wb") as handle:
        for line in lines:
            block.append(line)
            if len(block) >= 10_000:
                size += handle.write(b"\n".join(block) + b"\n")
                block = []
        if block:
            size += handle.write(b"\n".join(block) + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
    return size
