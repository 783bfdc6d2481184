"""Ledger records as OpenTelemetry spans (DESIGN §12), without importing OpenTelemetry.

One trace per agent session: its root span ``invoke_agent <client>`` (at the session's first
shipped record) and one child span per record, ``execute_tool <tool>`` for a record with a
tool and ``paw <event>`` otherwise, named and attributed after the OpenTelemetry GenAI
conventions, which Arize Phoenix and other backends read as tools, agents and conversations.
A record without a session (a person's status change, a ledger repair) is a trace of its own.

Trace and span ids are derived from (workspace, session, seq): shipping a record twice never
makes a second span (backends keep the first span of an id), and the same ledger shipped from
another checkout of the workspace lands on the same spans.
"""

from __future__ import annotations

import calendar
import hashlib
from dataclasses import dataclass, field

ROOT = "root"
DENIED = frozenset({"deny"})
BREACHES = frozenset({"scope_breach"})


@dataclass(frozen=True)
class SpanData:
    """One span, in plain types; :mod:`paw_tui.core.ship.encode` turns it into OTLP."""

    trace_id: int
    span_id: int
    parent_id: int | None
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, object] = field(default_factory=dict)
    error: str | None = None  # the status message when the span's status is ERROR


def _id(bits: int, *parts: str) -> int:
    digest = hashlib.sha256("\0".join(("paw-tui", *parts)).encode("utf-8", "surrogatepass"))
    value = int.from_bytes(digest.digest()[: bits // 8], "big")
    return value or 1  # an all-zero id is invalid in OTLP


def trace_id(workspace: str, session: str) -> int:
    return _id(128, "trace", workspace, session)


def span_id(workspace: str, session: str, seq: int | str) -> int:
    return _id(64, "span", workspace, session, str(seq))


def ts_ns(ts: object) -> int | None:
    """Nanoseconds since the epoch of a record's ``ts`` (RFC 3339 UTC with milliseconds)."""
    if not isinstance(ts, str) or len(ts) < 20 or not ts.endswith("Z"):
        return None
    try:
        whole = calendar.timegm(
            (
                int(ts[0:4]),
                int(ts[5:7]),
                int(ts[8:10]),
                int(ts[11:13]),
                int(ts[14:16]),
                int(ts[17:19]),
                0,
                0,
                0,
            )
        )
        fraction = ts[19:-1]
        nanos = int((fraction[1:] + "000000000")[:9]) if fraction.startswith(".") else 0
    except ValueError:
        return None
    return whole * 1_000_000_000 + nanos


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def record_span(workspace: str, record: dict[str, object], seq: int) -> SpanData:
    """The child span of one record (a root span when the record has no session)."""
    session = _text(record.get("session_id"))
    tool = _text(record.get("tool"))
    event = _text(record.get("event")) or "record"
    decision = _text(record.get("decision"))
    start = ts_ns(record.get("ts")) or 0
    attributes: dict[str, object] = {"paw.event": event, "paw.ledger.seq": seq}
    if tool:
        attributes["gen_ai.operation.name"] = "execute_tool"
        attributes["gen_ai.tool.name"] = tool
    if session:
        attributes["gen_ai.conversation.id"] = session
    for key, name in (
        ("decision", "paw.decision"),
        ("intent_id", "paw.intent.id"),
        ("reason", "paw.reason"),
        ("client", "paw.client"),
        ("content_hash", "paw.content_hash"),
    ):
        value = _text(record.get(key))
        if value:
            attributes[name] = value
    paths = record.get("paths")
    if isinstance(paths, list):
        attributes["paw.paths"] = [str(path) for path in paths]
    error = None
    if decision in DENIED or event in BREACHES:
        error = _text(record.get("reason")) or f"{event}: {decision or 'breach'}"
    scope = session or f"#{seq}"
    return SpanData(
        trace_id=trace_id(workspace, scope),
        span_id=span_id(workspace, scope, seq),
        parent_id=span_id(workspace, session, ROOT) if session else None,
        name=f"execute_tool {tool}" if tool else f"paw {event}",
        start_ns=start,
        end_ns=start,
        attributes=attributes,
        error=error,
    )


def root_span(workspace: str, record: dict[str, object]) -> SpanData | None:
    """The session's root span, placed at ``record`` (its first shipped record)."""
    session = _text(record.get("session_id"))
    if session is None:
        return None
    client = _text(record.get("client")) or "agent"
    start = ts_ns(record.get("ts")) or 0
    return SpanData(
        trace_id=trace_id(workspace, session),
        span_id=span_id(workspace, session, ROOT),
        parent_id=None,
        name=f"invoke_agent {client}",
        start_ns=start,
        end_ns=start,
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": client,
            "gen_ai.conversation.id": session,
        },
    )
