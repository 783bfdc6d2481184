"""``paw-tui toolkit instructions TOOL`` and the gate's ``execution_guidance`` (DESIGN §8, seed 003 layer 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw_tui.core.errors import ValidationError
from paw_tui.core.policy.governance import Governance
from paw_tui.core.prompt import exec_instructions as ei
from paw_tui.core.prompt.names import name_variants

if TYPE_CHECKING:
    from conftest import RunCli, Workspace

PACING = """\
Guidance for {tool_name}. The question was: {question}

### When user asks for calculations

**Keywords**: "average", "calculate", "year over year"

Show the average for account {account_id} step by step.

### Always relevant

Mention the data's freshness.

### Risk questions

**Keywords**: risk, exposure , "worst case"

Flag accounts at risk.
"""


def put(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def governance_yaml(root: Path, text: str) -> None:
    put(root, ".orchestration/governance.yaml", text)


# --- section selection ------------------------------------------------------------------


def test_matching_section_kept_with_preamble_and_keywordless_sections() -> None:
    text = ei.render_instructions(PACING, "pacing", question="What is the average spend?")
    assert text == (
        "Guidance for pacing. The question was: What is the average spend?\n\n"
        "### When user asks for calculations\n\n"
        '**Keywords**: "average", "calculate", "year over year"\n\n'
        "Show the average for account {account_id} step by step.\n\n"
        "### Always relevant\n\nMention the data's freshness."
    )


def test_whole_words_only_averaged_does_not_match_average() -> None:
    sections = ei.select_sections(PACING, "Show the averaged spend")
    assert len(sections) == 4  # nothing matched: the whole file
    text = ei.render_instructions(PACING, "pacing", question="Show the averaged spend")
    assert text == PACING.rstrip("\n").replace("{tool_name}", "pacing").replace(
        "{question}", "Show the averaged spend"
    )


CALC = "### When user asks for calculations"
ALWAYS = "### Always relevant"
RISK = "### Risk questions"


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("AVERAGE please", [CALC, ALWAYS]),
        ("Compare Year Over\tYear", [CALC, ALWAYS]),
        ("compare year-over-year", None),  # the phrase is three words separated by spaces
        ("yearly over year", None),
        ("what is the worst case?", [ALWAYS, RISK]),
        ("exposure and average", [CALC, ALWAYS, RISK]),
        ("risky bets", None),
        ("an asterisk", None),  # "risk" ends the word but does not start it
        ("", None),
        (None, None),
    ],
)
def test_keyword_boundaries(question: str | None, kept: list[str] | None) -> None:
    sections = ei.select_sections(PACING, question)
    headings = [s.heading for s in sections if s.heading]
    assert sections[0].heading is None  # the preamble is always kept
    assert headings == (kept if kept is not None else [CALC, ALWAYS, RISK])


def test_keyword_phrases_parsing() -> None:
    assert ei.keyword_phrases(' "average", "calculate", compute, sum') == [
        "average",
        "calculate",
        "compute",
        "sum",
    ]
    assert ei.keyword_phrases(' "a, b", c') == ["a, b", "c"]
    assert ei.keyword_phrases(" `x y`, \u201cz w\u201d.") == ["x y", "z w"]
    assert ei.keyword_phrases("  ") == []


def test_keywords_line_variants_and_code_fences() -> None:
    text = (
        "Intro\n\n"
        "### A\n**Keywords:** alpha\nA body\n\n"
        "### B\n- **keywords**: beta\n```\n### not a section\n**Keywords**: alpha\n```\nB body\n\n"
        "#### C is a subsection of B\n"
    )
    sections = ei.split_sections(text)
    assert [s.heading for s in sections] == [None, "### A", "### B"]
    assert sections[1].keywords == ["alpha"]
    assert sections[2].keywords == ["beta"]
    assert "#### C is a subsection of B" in sections[2].text
    kept = ei.render_instructions(text, "t", question="beta")
    assert kept == (
        "Intro\n\n### B\n- **keywords**: beta\n```\n### not a section\n**Keywords**: alpha\n```\n"
        "B body\n\n#### C is a subsection of B"
    )


def test_empty_keywords_line_never_matches() -> None:
    text = "### A\n**Keywords**:\nA\n\n### B\n**Keywords**: b\nB"
    assert ei.render_instructions(text, "t", question="b") == "### B\n**Keywords**: b\nB"


# --- templates --------------------------------------------------------------------------


def test_one_pass_substitution_edge_cases() -> None:
    text = (
        "Tool {tool_name}, q={question}, a={account_id}, missing={nope}.\n"
        "Escapes: {{question}} and }} and {{.\n"
        '```json\n{"account": {account_id}, "x": {"y": 1 } }\nlet f = () => { return {unknown_var}; }\n```\n'
        "{ spaced } {1abc} {a-b}"
    )
    out = ei.render_instructions(
        text, "pacing", question="Why {account_id}?", args={"account_id": "{question}"}
    )
    assert out == (
        "Tool pacing, q=Why {account_id}?, a={question}, missing={nope}.\n"
        "Escapes: {question} and } and {.\n"
        '```json\n{"account": {question}, "x": {"y": 1 } }\nlet f = () => { return {unknown_var}; }\n```\n'
        "{ spaced } {1abc} {a-b}"
    )


def test_non_string_args_are_json() -> None:
    out = ei.render_instructions(
        "{n} {f} {b} {z} {l} {d} {s}",
        "t",
        args={
            "n": 17,
            "f": 1.5,
            "b": True,
            "z": None,
            "l": [1, "é"],
            "d": {"k": "v"},
            "s": "plain",
        },
    )
    assert out == '17 1.5 true null [1, "é"] {"k": "v"} plain'


def test_strict_names_the_unknown_variable_and_its_line() -> None:
    text = (
        "Line one {tool_name}\n\n### S\n**Keywords**: avg\n{question} and {N} and {dates} and {N}"
    )
    with pytest.raises(ValidationError) as raised:
        ei.render_instructions(text, "t", question="avg", strict=True, source="x.md")
    assert str(raised.value) == (
        "x.md: line 5: unknown template variable '{N}' (also unknown: {dates}); "
        "known variables: question, tool_name."
    )
    assert ei.render_instructions("{{N}} {tool_name}", "t", strict=True) == "{N} t"


def test_question_is_unknown_when_not_given() -> None:
    assert ei.render_instructions("q={question}", "t") == "q={question}"
    with pytest.raises(ValidationError, match=r"'\{question\}'"):
        ei.render_instructions("q={question}", "t", strict=True)


def test_defaults_fill_missing_args_and_args_win() -> None:
    out = ei.render_instructions(
        "{account_id}/{limit}/{other}",
        "t",
        args={"limit": 9},
        defaults={"account_id": "17", "limit": 5},
    )
    assert out == "17/9/{other}"


# --- lookup -----------------------------------------------------------------------------


def test_lookup_order_governance_then_paw_tools_then_tools(ws: Workspace) -> None:
    root = ws.root
    put(root, "tools/my_tool/execution_instructions.md", "from tools/")
    assert ei.find_instructions_file(str(root), "my_tool") == str(
        root / "tools/my_tool/execution_instructions.md"
    )
    put(root, ".paw/tools/my_tool/execution_instructions.md", "from .paw/tools")
    assert ei.find_instructions_file(str(root), "my_tool") == str(
        root / ".paw/tools/my_tool/execution_instructions.md"
    )
    put(root, "docs/custom.md", "from governance")
    assert ei.find_instructions_file(str(root), "my_tool", {"my_tool": "docs/custom.md"}) == str(
        root / "docs/custom.md"
    )
    # A mapped file that does not exist falls through to the directories.
    assert ei.find_instructions_file(str(root), "my_tool", {"my_tool": "docs/gone.md"}) == str(
        root / ".paw/tools/my_tool/execution_instructions.md"
    )


def test_name_variants_in_order(ws: Workspace) -> None:
    root = ws.root
    assert name_variants("a_b-c") == ["a_b-c", "a-b-c", "a_b_c"]
    put(root, "tools/my-tool/execution_instructions.md", "dashes")
    assert ei.find_instructions_file(str(root), "my_tool") == str(
        root / "tools/my-tool/execution_instructions.md"
    )
    put(root, "tools/other_tool/execution_instructions.md", "underscores")
    assert ei.find_instructions_file(str(root), "other-tool") == str(
        root / "tools/other_tool/execution_instructions.md"
    )
    put(root, "tools/my_tool/execution_instructions.md", "exact")
    assert ei.find_instructions_file(str(root), "my_tool") == str(
        root / "tools/my_tool/execution_instructions.md"
    )
    # .paw/tools with a variant name beats tools/ with the exact name
    put(root, ".paw/tools/my-tool/execution_instructions.md", "paw variant")
    assert ei.find_instructions_file(str(root), "my_tool") == str(
        root / ".paw/tools/my-tool/execution_instructions.md"
    )
    # governance keys are tried with the variants too
    put(root, "g.md", "gov")
    assert ei.find_instructions_file(str(root), "my_tool", {"my-tool": "g.md"}) == str(
        root / "g.md"
    )


def test_unsafe_tool_names_never_leave_the_tools_directories(ws: Workspace) -> None:
    put(ws.root, "secret/execution_instructions.md", "secret")
    assert ei.find_instructions_file(str(ws.root / "tools"), "../secret") is None
    assert ei.find_instructions_file(str(ws.root), "..") is None


def test_cli_through_governance_mapping_with_defaults(run_cli: RunCli, ws: Workspace) -> None:
    governance_yaml(
        ws.root,
        "tool_instructions:\n  my_tool: docs/custom.md\ntool_defaults:\n"
        '  my_tool:\n    account_id: "17"\n    limit: 5\n',
    )
    put(ws.root, "docs/custom.md", PACING)
    put(ws.root, "tools/my_tool/execution_instructions.md", "not this one")
    result = run_cli(
        "toolkit",
        "instructions",
        "my_tool",
        "--question",
        "calculate it",
        "--args",
        '{"limit": 2}',
        cwd=ws.root,
    )
    assert result.code == 0, result.err
    assert result.out == (
        "Guidance for my_tool. The question was: calculate it\n\n"
        "### When user asks for calculations\n\n"
        '**Keywords**: "average", "calculate", "year over year"\n\n'
        "Show the average for account 17 step by step.\n\n"
        "### Always relevant\n\nMention the data's freshness.\n"
    )


def test_cli_strict_exits_2_naming_the_variable(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, ".paw/tools/pacing/execution_instructions.md", PACING)
    result = run_cli(
        "toolkit", "instructions", "pacing", "--question", "average", "--strict", cwd=ws.root
    )
    assert result.code == 2
    assert result.out == ""
    assert result.err == (
        ".paw/tools/pacing/execution_instructions.md: line 7: unknown template variable '{account_id}'; "
        "known variables: question, tool_name.\n"
    )
    ok = run_cli(
        "toolkit",
        "instructions",
        "pacing",
        "--question",
        "average",
        "--strict",
        "--args",
        '{"account_id": 3}',
        cwd=ws.root,
    )
    assert ok.code == 0
    assert "account 3 step" in ok.out


def test_cli_no_file_prints_nothing(run_cli: RunCli, ws: Workspace) -> None:
    result = run_cli("toolkit", "instructions", "unknown_tool", "--question", "x", cwd=ws.root)
    assert (result.code, result.out, result.err) == (0, "", "")


def test_cli_bad_args(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "tools/t/execution_instructions.md", "x")
    bad = run_cli("toolkit", "instructions", "t", "--args", "{nope", cwd=ws.root)
    assert bad.code == 2 and bad.err.startswith("--args is not valid JSON")
    listy = run_cli("toolkit", "instructions", "t", "--args", "[1]", cwd=ws.root)
    assert listy.code == 2 and "--args must be a JSON object" in listy.err


def test_cli_whole_file_when_no_section_matched(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "tools/pacing/execution_instructions.md", "\n\n" + PACING + "\n\n")
    result = run_cli(
        "toolkit",
        "instructions",
        "pacing",
        "--question",
        "hello",
        "--args",
        '{"account_id": "A1"}',
        cwd=ws.root,
    )
    assert result.code == 0
    assert result.out == PACING.replace("{tool_name}", "pacing").replace(
        "{question}", "hello"
    ).replace("{account_id}", "A1")


def test_cli_does_not_create_orchestration(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "tools/t/execution_instructions.md", "x")
    run_cli("toolkit", "instructions", "t", cwd=ws.root)
    assert not (ws.root / ".orchestration").exists()


# --- the gate's function ----------------------------------------------------------------


def test_execution_guidance_message_and_defaults(ws: Workspace) -> None:
    put(ws.root, "tools/analyze-pacing/execution_instructions.md", PACING)
    governance = Governance(tool_defaults={"analyze_pacing": {"account_id": "17"}})
    message = ei.execution_guidance(
        str(ws.root), "analyze_pacing", {"other": 1}, "risk?", governance
    )
    assert message == (
        "TOOL EXECUTION GUIDANCE for analyze_pacing:\n\n"
        "Guidance for analyze_pacing. The question was: risk?\n\n"
        "### Always relevant\n\nMention the data's freshness.\n\n"
        '### Risk questions\n\n**Keywords**: risk, exposure , "worst case"\n\nFlag accounts at risk.\n\n'
        "Use this guidance when interpreting the tool results."
    )
    called = ei.execution_guidance(
        str(ws.root), "analyze_pacing", {"account_id": 99}, "average", governance
    )
    assert called is not None and "account 99 step" in called


def test_execution_guidance_none_cases(ws: Workspace) -> None:
    assert ei.execution_guidance(str(ws.root), "nothing", None, "q", None) is None
    put(ws.root, "tools/empty/execution_instructions.md", "  \n")
    assert ei.execution_guidance(str(ws.root), "empty", {}, "q", Governance()) is None
    put(ws.root, "tools/bad/execution_instructions.md", "")
    (ws.root / "tools/bad/execution_instructions.md").write_bytes(b"\xff\xfe bad")
    assert ei.execution_guidance(str(ws.root), "bad", {}, "q", Governance()) is None
    governance = Governance(tool_instructions={"g": "docs/g.md"})
    put(ws.root, "docs/g.md", "\ufeffFrom governance\r\nfor {tool_name}")
    assert ei.execution_guidance(str(ws.root), "g", None, None, governance) == (
        "TOOL EXECUTION GUIDANCE for g:\n\nFrom governance\nfor g\n\n"
        "Use this guidance when interpreting the tool results."
    )


def test_unreadable_file_is_exit_2_in_the_cli(run_cli: RunCli, ws: Workspace) -> None:
    (ws.root / "tools/bad").mkdir(parents=True)
    (ws.root / "tools/bad/execution_instructions.md").write_bytes(b"ok \xff")
    result = run_cli("toolkit", "instructions", "bad", cwd=ws.root)
    assert result.code == 2
    assert "Failed to read execution instructions: not valid UTF-8" in result.err


GATE_MODULES = (
    "paw_tui.core.prompt.exec_instructions",
    "paw_tui.core.prompt.tool_defaults",
    "paw_tui.core.prompt.supervisor",
)


def _modules_after(code: str, cwd: Path) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, env=env, check=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_gate_imported_modules_stay_light(tmp_path: Path) -> None:
    baseline = _modules_after("import paw_tui.core.errors", tmp_path)
    loaded = (
        _modules_after("\n".join(f"import {name}" for name in GATE_MODULES), tmp_path) - baseline
    )
    assert set(GATE_MODULES) <= loaded  # the probe imported this tree's modules
    heavy = {"yaml", "typing", "dataclasses", "pathlib", "hashlib", "textual", "rich"}
    assert not {name.split(".")[0] for name in loaded} & heavy, sorted(loaded)
