"""WorkflowContext.md ``Field: Value`` lines: ``parse_fields``, ``work_id_of`` and the result's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from paw_tui.core.context.workflow import parse_fields, work_id_of

if TYPE_CHECKING:
    from conftest import Workspace

REFERENCE = """# WorkflowContext

Work Title: Authentication System
Feature Slug: auth-system
Target Branch: feature/auth-system
Workflow Mode: full
Review Strategy: prs
Issue URL: https://github.com/example/project/issues/123
Remote: origin
Artifact Paths: auto-derived
Additional Inputs: none"""


def test_reference_file_fields_as_written() -> None:
    assert parse_fields(REFERENCE) == {
        "Work Title": "Authentication System",
        "Feature Slug": "auth-system",
        "Target Branch": "feature/auth-system",
        "Workflow Mode": "full",
        "Review Strategy": "prs",
        "Issue URL": "https://github.com/example/project/issues/123",
        "Remote": "origin",
        "Artifact Paths": "auto-derived",
        "Additional Inputs": "none",
    }
    assert list(parse_fields(REFERENCE)) == [
        "Work Title",
        "Feature Slug",
        "Target Branch",
        "Workflow Mode",
        "Review Strategy",
        "Issue URL",
        "Remote",
        "Artifact Paths",
        "Additional Inputs",
    ]


@pytest.mark.parametrize(
    ("line", "name", "value"),
    [
        ("Work ID: abc", "Work ID", "abc"),
        ("work id: abc", "work id", "abc"),
        ("- Work ID: abc", "Work ID", "abc"),
        ("* Target Branch:   main   ", "Target Branch", "main"),
        ("  + Remote: origin", "Remote", "origin"),
        ("**Work Title**: Bold name", "Work Title", "Bold name"),
        ("**Work Title:** Bold with colon", "Work Title", "Bold with colon"),
        ("__Remote__: upstream", "Remote", "upstream"),
        ("Target Branch :  feature/x", "Target Branch", "feature/x"),
        ("Notes: a: b: c", "Notes", "a: b: c"),
        ("Empty:", "Empty", ""),
        ("Issue URL: https://x.example/1", "Issue URL", "https://x.example/1"),
        ("Link:https://x.example", "Link", "https://x.example"),
    ],
)
def test_field_line_shapes(line: str, name: str, value: str) -> None:
    assert parse_fields(line) == {name: value}


@pytest.mark.parametrize(
    "line",
    [
        "# WorkflowContext: title",
        "## Heading: no",
        "10:30 standup",
        "https://example.com/x: not a field",
        "plain prose without a colon",
        "| Field | Value |",
        ": no name",
        "",
        "   ",
        "x" * 70 + ": name too long",
    ],
)
def test_lines_that_are_not_fields(line: str) -> None:
    assert parse_fields(line) == {}


def test_first_of_a_repeated_name_wins() -> None:
    assert parse_fields("Remote: origin\nRemote: upstream") == {"Remote": "origin"}


def test_fenced_blocks_are_skipped() -> None:
    text = (
        "Work ID: real\n"
        "```yaml\nInside: backticks\n```\n"
        "~~~\nTilde: inside\n~~~\n"
        "````\n```\nNested: still inside\n```\n````\n"
        "After: yes"
    )
    assert parse_fields(text) == {"Work ID": "real", "After": "yes"}


def test_unclosed_fence_hides_the_rest() -> None:
    assert parse_fields("A: 1\n```\nB: 2\nC: 3") == {"A": "1"}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"Work ID": "abc"}, "abc"),
        ({"Feature Slug": "old-style"}, "old-style"),
        ({"work id": "lower"}, "lower"),
        ({"FEATURE SLUG": "upper"}, "upper"),
        ({"Feature Slug": "old", "Work ID": "new"}, "new"),
        ({"Work ID": "  ", "Feature Slug": "fallback"}, "fallback"),
        ({"Work ID": " padded "}, "padded"),
        ({"Work Title": "x"}, None),
        ({}, None),
    ],
)
def test_work_id_of(fields: dict[str, str], expected: str | None) -> None:
    assert work_id_of(fields) == expected


def test_fields_on_the_context_result(ws: Workspace) -> None:
    ws.work("feat", "# WorkflowContext\r\n\r\nWork ID: feat\r\nTarget Branch: main\r\n")
    result = ws.context("feat")
    assert result.workflow_context.fields == {"Work ID": "feat", "Target Branch": "main"}
    assert result.workflow_context.work_id == "feat"
    data = result.workflow_context.to_dict()
    assert data["fields"] == {"Work ID": "feat", "Target Branch": "main"}
    assert data["work_id"] == "feat"


def test_feature_slug_recognised_on_the_context_result(ws: Workspace) -> None:
    ws.work("auth-system", REFERENCE)
    result = ws.context("auth-system")
    assert result.workflow_context.work_id == "auth-system"
    assert result.workflow_context.to_dict()["work_id"] == "auth-system"


@pytest.mark.parametrize("content", [None, "", "   ", b"\xff\xfe"])
def test_missing_or_unreadable_workflow_gives_empty_fields(
    ws: Workspace, content: str | bytes | None
) -> None:
    ws.work("feat", content)
    data = ws.context("feat").workflow_context.to_dict()
    assert data["fields"] == {}
    assert data["work_id"] is None
    assert data["content"] == ""


def test_malformed_workflow_is_returned_raw_without_fields(ws: Workspace) -> None:
    raw = "just some prose\nwith no fields at all"
    ws.work("feat", raw)
    status = ws.context("feat").workflow_context
    assert status.content == raw
    assert status.error is None
    assert status.fields == {}
