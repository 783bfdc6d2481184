"""``export_agent_trace``: Agent Trace 0.1.0 records, validated against the spec's schema."""

from __future__ import annotations

import json
import os
import re
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

import paw_tui
from paw_tui.core.ledger.export import export_agent_trace, intent_urn
from paw_tui.core.ledger.store import Ledger

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "data", "agent-trace-0.1.0.schema.json")
# RFC 3986: scheme ":" then characters a URI may hold (percent-escapes well formed).
_URI = re.compile(
    r"^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$"
)
_DATE_TIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$"
)


def _format_checker() -> FormatChecker:
    """jsonschema checks ``uri`` and ``date-time`` only with optional packages installed;
    without them, strict stand-ins are registered so the formats are really checked."""
    checker = FormatChecker()
    if "uri" not in checker.checkers:
        checker.checks("uri")(lambda value: not isinstance(value, str) or bool(_URI.match(value)))
    if "date-time" not in checker.checkers:

        def date_time(value: object) -> bool:
            if not isinstance(value, str) or not _DATE_TIME.match(value):
                return not isinstance(value, str)
            datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
            return True

        checker.checks("date-time", raises=ValueError)(date_time)
    return checker


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        schema = json.load(handle)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=_format_checker())


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    ledger = Ledger.for_workspace(str(root), durable=False)
    ledger.append({"event": "intent_selected", "session_id": "s-1", "intent_id": "INT-001"})
    ledger.append({"event": "tool_allowed", "session_id": "s-1", "intent_id": "INT-001", "tool": "Write",
                   "paths": ["src/a.py"], "decision": "allow"})  # fmt: skip
    ledger.append({"event": "mutation", "session_id": "s-1", "intent_id": "INT-001", "client": "claude-code",
                   "tool": "Write", "paths": ["src/a.py"], "content_hash": "sha256:" + "a" * 64,
                   "ranges": [{"start_line": 1, "end_line": 12}]})  # fmt: skip
    ledger.append({"event": "mutation", "session_id": "s-1", "intent_id": "INT-001", "tool": "Edit",
                   "paths": ["src/b.py"], "content_hash": "sha256:" + "b" * 64})  # fmt: skip
    ledger.append({"event": "mutation", "session_id": "s-2", "intent_id": "REQ:7 x", "tool": "Bash",
                   "paths": ["m1.txt", "/abs/outside.txt"], "content_hash": "sha256:" + "c" * 64,
                   "ranges": [{"start_line": 2, "end_line": 3}]})  # fmt: skip
    ledger.append({"event": "mutation", "tool": "Write", "paths": []})
    ledger.append(
        {"event": "tool_denied", "intent_id": "INT-001", "paths": ["x"], "decision": "deny"}
    )
    return ledger


def test_one_valid_record_per_mutation_in_ledger_order(
    ledger: Ledger, validator: Draft202012Validator
) -> None:
    traces: list[dict[str, Any]] = list(export_agent_trace(ledger))
    assert len(traces) == 4
    for trace in traces:
        errors = sorted(validator.iter_errors(trace), key=str)
        assert not errors, [error.message for error in errors]
    assert [t["metadata"]["dev.paw-tui"]["seq"] for t in traces] == [3, 4, 5, 6]
    first = traces[0]
    assert first["version"] == "0.1.0"
    assert first["tool"] == {"name": "paw-tui", "version": paw_tui.__version__}
    assert uuid.UUID(first["id"]).version == 5
    assert first["files"] == [{
        "path": "src/a.py",
        "conversations": [{
            "contributor": {"type": "ai"},
            "ranges": [{"start_line": 1, "end_line": 12}],
            "related": [{"type": "intent", "url": "urn:intent:INT-001"}],
        }],
    }]  # fmt: skip
    extras = first["metadata"]["dev.paw-tui"]
    assert extras["content_hash"] == "sha256:" + "a" * 64
    assert extras["ranges_known"] is True and extras["client"] == "claude-code"
    assert extras["ledger_line_hash"].startswith("sha256:")
    assert "content_hash" not in first["files"][0]["conversations"][0]["ranges"][0]


def test_unknown_ranges_are_an_empty_list_not_invented_lines(ledger: Ledger) -> None:
    second: dict[str, Any] = list(export_agent_trace(ledger))[1]
    assert second["files"][0]["conversations"][0]["ranges"] == []
    assert second["metadata"]["dev.paw-tui"]["ranges_known"] is False


def test_several_paths_absolute_paths_and_odd_intent_ids(ledger: Ledger) -> None:
    third: dict[str, Any] = list(export_agent_trace(ledger))[2]
    assert [f["path"] for f in third["files"]] == ["m1.txt"]
    conversation = third["files"][0]["conversations"][0]
    assert conversation["ranges"] == [], "ranges of a multi-path record belong to no one file"
    assert conversation["related"] == [{"type": "intent", "url": "urn:intent:REQ:7%20x"}]
    extras = third["metadata"]["dev.paw-tui"]
    assert extras["paths_outside_root"] == ["/abs/outside.txt"]
    assert "content_hash" not in extras
    fourth: dict[str, Any] = list(export_agent_trace(ledger))[3]
    assert fourth["files"] == [] and "intent_id" not in fourth["metadata"]["dev.paw-tui"]


def test_export_is_reproducible(ledger: Ledger) -> None:
    first = list(export_agent_trace(ledger))
    second = list(export_agent_trace(ledger))
    assert first == second
    assert len({trace["id"] for trace in first}) == len(first)


def test_export_skips_broken_lines(ledger: Ledger) -> None:
    with open(ledger.path, "ab") as handle:
        handle.write(b"garbage\n" + b'{"v":1,"seq":9,"event":"mutation"')
    assert len(list(export_agent_trace(ledger))) == 4


def test_schema_really_checks_formats_and_version(validator: Draft202012Validator) -> None:
    good = {"version": "0.1.0", "id": "6f1c2a9e-1b2c-4d3e-8f90-123456789abc",
            "timestamp": "2026-11-21T23:54:04.123Z", "files": []}  # fmt: skip
    assert validator.is_valid(good)
    conversation = {"ranges": [], "related": [{"type": "intent", "url": "INT-001"}]}
    assert not validator.is_valid(
        {**good, "files": [{"path": "a", "conversations": [conversation]}]}
    )
    assert not validator.is_valid({**good, "version": "1.0"})
    assert not validator.is_valid({**good, "timestamp": "yesterday"})
    assert not validator.is_valid({**good, "id": "not-a-uuid"})
    assert not validator.is_valid({**good, "intent_id": "INT-001"})
    bad_range = {"ranges": [{"start_line": 0, "end_line": 1}]}
    assert not validator.is_valid({**good, "files": [{"path": "a", "conversations": [bad_range]}]})
    assert not validator.is_valid({**good, "tool": {"name": "x"}})
    assert validator.is_valid(
        {**good, "vcs": {"type": "git", "revision": "a" * 40}, "metadata": {"x.y": {}}}
    )


def test_intent_urn_encoding() -> None:
    assert intent_urn("INT-001") == "urn:intent:INT-001"
    assert intent_urn("a b/é") == "urn:intent:a%20b%2F%C3%A9"
