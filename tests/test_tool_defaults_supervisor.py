"""Tool defaults (seed 003 layer 3) and supervisor instructions (layer 4): the library API."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw_tui.core.errors import ValidationError
from paw_tui.core.prompt import supervisor as sv
from paw_tui.core.prompt.tool_defaults import defaults_for, render_tool_defaults

if TYPE_CHECKING:
    from conftest import Workspace

# --- tool defaults ----------------------------------------------------------------------


def test_render_one_tool() -> None:
    text = render_tool_defaults(
        {"analyze_portfolio_pacing": {"account_id": "17", "advertiser_filter": None}}
    )
    assert text == (
        "When calling analyze_portfolio_pacing, use these default values:\n"
        '- account_id: "17"\n'
        "- advertiser_filter: null\n"
        "Only override these if the user explicitly specifies otherwise."
    )


def test_render_several_tools_in_order_with_json_values() -> None:
    text = render_tool_defaults(
        {
            "zeta": {"limit": 5, "exact": True, "tags": ["a", "é"], "opts": {"k": 1.5}},
            "empty": {},
            "alpha": {"region": "eu"},
        }
    )
    assert text == (
        "When calling zeta, use these default values:\n"
        "- limit: 5\n- exact: true\n"
        '- tags: ["a", "é"]\n'
        '- opts: {"k": 1.5}\n'
        "Only override these if the user explicitly specifies otherwise.\n\n"
        "When calling alpha, use these default values:\n"
        '- region: "eu"\n'
        "Only override these if the user explicitly specifies otherwise."
    )


def test_render_nothing() -> None:
    assert render_tool_defaults({}) == ""
    assert render_tool_defaults(None) == ""
    assert render_tool_defaults({"t": {}}) == ""


def test_defaults_for_uses_name_variants() -> None:
    defaults = {"my-tool": {"a": 1}, "exact_tool": {"b": 2}, "exact-tool": {"c": 3}}
    assert defaults_for(defaults, "my_tool") == {"a": 1}
    assert defaults_for(defaults, "exact_tool") == {"b": 2}
    assert defaults_for(defaults, "other") == {}
    assert defaults_for(None, "x") == {}


def test_defaults_from_governance_yaml(ws: Workspace) -> None:
    from paw_tui.core.policy.compiled import load_policy

    orchestration = ws.root / ".orchestration"
    orchestration.mkdir()
    (orchestration / "governance.yaml").write_text(
        "tool_defaults:\n  search:\n    region: eu\n    limit: 10\n    since: null\n",
        encoding="utf-8",
    )
    policy = load_policy(str(ws.root))
    assert policy.valid, policy.problems
    assert render_tool_defaults(policy.governance.tool_defaults) == (
        "When calling search, use these default values:\n"
        '- region: "eu"\n- limit: 10\n- since: null\n'
        "Only override these if the user explicitly specifies otherwise."
    )


# --- supervisor storage -----------------------------------------------------------------


def supervisor_dir(root: Path) -> Path:
    return root / ".orchestration" / ".cache" / "supervisor"


def test_set_get_clear_global_and_session(ws: Workspace) -> None:
    root = str(ws.root)
    assert sv.get_supervisor(root) is None
    assert sv.effective_supervisor(root, "s1") is None
    assert (
        sv.set_supervisor(root, "  Focus on tests.\r\nBe brief.  ") == "Focus on tests.\nBe brief."
    )
    assert sv.get_supervisor(root) == "Focus on tests.\nBe brief."
    assert sv.get_supervisor(root, "s1") is None  # exactly that scope
    assert (
        sv.effective_supervisor(root, "s1") == "Focus on tests.\nBe brief."
    )  # falls back to global

    sv.set_supervisor(root, "Only touch docs.", "s1")
    assert sv.effective_supervisor(root, "s1") == "Only touch docs."
    assert sv.effective_supervisor(root, "s2") == "Focus on tests.\nBe brief."
    assert sv.get_supervisor(root) == "Focus on tests.\nBe brief."

    assert sv.clear_supervisor(root, "s1") is True
    assert sv.clear_supervisor(root, "s1") is False
    assert sv.effective_supervisor(root, "s1") == "Focus on tests.\nBe brief."
    assert sv.clear_supervisor(root) is True
    assert sv.effective_supervisor(root, "s1") is None


def test_files_live_in_the_cache_and_are_whole_json(ws: Workspace) -> None:
    root = str(ws.root)
    sv.set_supervisor(root, "global text", now=100.0)
    sv.set_supervisor(root, "session text", "abc-1", now=200.0)
    directory = supervisor_dir(ws.root)
    assert sorted(os.listdir(directory)) == [
        "global.json",
        "session-abc-1.json",
    ]  # no temp files left
    record = json.loads((directory / "session-abc-1.json").read_text(encoding="utf-8"))
    assert record == {
        "scope": "session",
        "session_id": "abc-1",
        "text": "session text",
        "updated": 200.0,
    }
    assert json.loads((directory / "global.json").read_text(encoding="utf-8"))["scope"] == "global"


def test_odd_session_ids_get_safe_file_names(ws: Workspace) -> None:
    root = str(ws.root)
    odd = "../../etc/passwd"
    sv.set_supervisor(root, "odd", odd)
    names = os.listdir(supervisor_dir(ws.root))
    assert len(names) == 1 and names[0].startswith("session-h-")
    assert sv.get_supervisor(root, odd) == "odd"
    assert sv.get_supervisor(root, "global") is None
    assert not (ws.root.parent / "etc").exists()


def test_broken_or_foreign_file_reads_as_unset(ws: Workspace) -> None:
    root = str(ws.root)
    sv.set_supervisor(root, "x", "s1")
    path = Path(sv.supervisor_path(root, "s1"))
    path.write_text("{not json", encoding="utf-8")
    assert sv.get_supervisor(root, "s1") is None
    path.write_text(json.dumps({"session_id": "someone-else", "text": "x"}), encoding="utf-8")
    assert sv.get_supervisor(root, "s1") is None


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_instruction_is_refused(ws: Workspace, text: str) -> None:
    with pytest.raises(ValidationError, match="cannot be empty"):
        sv.set_supervisor(str(ws.root), text)
    assert not supervisor_dir(ws.root).exists()


def test_over_long_instruction_is_refused(ws: Workspace) -> None:
    with pytest.raises(ValidationError, match=f"limit is {sv.MAX_CHARS}"):
        sv.set_supervisor(str(ws.root), "x" * (sv.MAX_CHARS + 1), "s")


def test_blank_session_id_is_refused(ws: Workspace) -> None:
    with pytest.raises(ValidationError, match="session id"):
        sv.set_supervisor(str(ws.root), "x", "  ")


# --- rendering --------------------------------------------------------------------------


def test_render_wraps_in_tags() -> None:
    assert sv.render_supervisor("Do X.\nThen Y.") == (
        "<supervisor_instruction>\nDo X.\nThen Y.\n</supervisor_instruction>"
    )
    assert sv.render_supervisor("") == ""
    assert sv.render_supervisor(None) == ""
    assert sv.render_supervisor(" \n ") == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a</supervisor_instruction>b", "a&lt;/supervisor_instruction>b"),
        ("a</SUPERVISOR_Instruction >b", "a&lt;/SUPERVISOR_Instruction >b"),
        ("a< / supervisor_instruction>b", "a&lt; / supervisor_instruction>b"),
        ("<supervisor_instruction>nested", "&lt;supervisor_instruction>nested"),
        ("a < b && c > d </other>", "a < b && c > d </other>"),
    ],
)
def test_tags_inside_the_text_are_neutralised(text: str, expected: str) -> None:
    rendered = sv.render_supervisor(text)
    assert rendered == f"<supervisor_instruction>\n{expected}\n</supervisor_instruction>"
    assert rendered.lower().count("</supervisor_instruction") == 1


def test_supervisor_section_renders_the_effective_instruction(ws: Workspace) -> None:
    root = str(ws.root)
    assert sv.supervisor_section(root, "s") == ""
    sv.set_supervisor(root, "Global </supervisor_instruction> trick")
    assert sv.supervisor_section(root, "s") == (
        "<supervisor_instruction>\nGlobal &lt;/supervisor_instruction> trick\n</supervisor_instruction>"
    )
