"""``paw-tui handoff build|parse``: Context Protocol v1 (DESIGN §9, seed 004)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
import yaml

from paw_tui.core.errors import ValidationError
from paw_tui.core.handoff import protocol as ho
from paw_tui.core.handoff.sources import prose_sentences

if TYPE_CHECKING:
    from conftest import CliResult, RunCli, Workspace

SCHEMA_PATH = Path(ho.__file__).resolve().parents[2] / "schemas" / "context_protocol_v1.schema.json"
PROJECT = {"stack": "python-textual", "commands": {"test": "pytest -q", "lint": "ruff check ."}}
CONVENTIONS = """\
---
title: front matter is skipped
---
# Conventions

Python 3.11 with strict typing. Tests use pytest and never touch the network!

Setext heading is skipped
-------------------------

```python
def code() -> None:  # fenced code is skipped. Even sentences.
    pass
```

    indented code is skipped too.

| table | rows are skipped. |
|---|---|

<!-- A comment. Skipped. -->
- Keep modules small
- Use `pathlib` only in the TUI;
> Quoted advice counts. This one would be the sixth.

The last paragraph is never reached.
"""
SUMMARY = (
    "Python 3.11 with strict typing. Tests use pytest and never touch the network! "
    "Keep modules small. Use `pathlib` only in the TUI. Quoted advice counts."
)
INTENTS_YAML = """\
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
"""


def put(root: Path, relative: str, content: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def project(ws: Workspace) -> Workspace:
    put(ws.root, "docs/project.json", json.dumps(PROJECT))
    put(ws.root, "docs/CONVENTIONS.md", CONVENTIONS)
    return ws


def block_data(output: str) -> dict[str, Any]:
    """The YAML of a ``<context>`` block, as a plain tree."""
    assert output.startswith("<context>\n") and output.endswith("\n</context>\n"), output
    data: dict[str, Any] = yaml.safe_load(output[len("<context>\n") : -len("</context>\n")])
    return data


def validate(data: object) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)


# --- build ------------------------------------------------------------------------------


def test_build_prints_the_block_in_documented_order(run_cli: RunCli, project: Workspace) -> None:
    root = project.root
    put(root, ".git/HEAD", "ref: refs/heads/feature/dark-mode\n")
    result = run_cli(
        "handoff",
        "build",
        "--story",
        "US-003 Add print preview",
        "--prd",
        "print-templates",
        cwd=root,
    )
    assert (result.code, result.err) == (0, "")
    assert result.out == (
        "<context>\n"
        "version: 1\n"
        "project:\n"
        f"  path: {root}\n"
        "  stack: python-textual\n"
        "  commands:\n"
        "    test: pytest -q\n"
        "    lint: ruff check .\n"
        "conventions:\n"
        f"  summary: {SUMMARY}\n"
        f"  fullPath: {root / 'docs' / 'CONVENTIONS.md'}\n"
        "currentWork:\n"
        "  prd: print-templates\n"
        "  story: US-003 Add print preview\n"
        "  branch: feature/dark-mode\n"
        "</context>\n"
    )
    validate(block_data(result.out))


def test_build_minimal_validates_and_round_trips(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/project.json", json.dumps({"stack": "yes"}))
    result = run_cli("handoff", "build", "--summary", "Short.  Two\nsentences.", cwd=ws.root)
    assert result.code == 0, result.err
    data = block_data(result.out)
    assert data == {
        "version": 1,
        "project": {"path": str(ws.root), "stack": "yes"},
        "conventions": {"summary": "Short. Two sentences."},
    }
    validate(data)
    assert ho.parse_handoff(result.out).context == data  # "yes" stays a string


def test_library_build_render_and_mcp_function_agree(run_cli: RunCli, project: Workspace) -> None:
    block = ho.build_handoff(str(project.root), summary="One. Two.")
    assert list(block) == ["version", "project", "conventions"]
    project_block = block["project"]
    assert isinstance(project_block, dict)
    assert list(project_block) == ["path", "stack", "commands"]
    validate(block)
    cli = run_cli("handoff", "build", cwd=project.root)
    assert ho.handoff_for_workspace(str(project.root)) + "\n" == cli.out
    assert ho.render_handoff(block).startswith("<context>\nversion: 1\n")


def test_missing_project_json_exits_2_naming_it(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/CONVENTIONS.md", CONVENTIONS)
    result = run_cli("handoff", "build", cwd=ws.root)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith(f"docs/project.json does not exist under {ws.root}")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"commands": {}}', "docs/project.json has no 'stack': it must be a non-empty string"),
        ('{"stack": 7}', "docs/project.json has no 'stack' (found integer 7)"),
        ('{"stack": "  "}', "docs/project.json has no 'stack' (found string \"  \")"),
        ('{"stack": "x",\n "commands": ["npm test"]}', "'commands' must be an object"),
        ('{"stack": "x", "commands": {"test": 1}}', "command 'test' must be a string, not integer"),
        ('{"stack": "x",\n  oops}', "docs/project.json: not valid JSON at line 2, column 3"),
        ("[1]", "docs/project.json must hold a JSON object, not array"),
    ],
)
def test_bad_project_json_exits_2(
    run_cli: RunCli, ws: Workspace, content: str, message: str
) -> None:
    put(ws.root, "docs/project.json", content)
    result = run_cli("handoff", "build", "--summary", "S. T.", cwd=ws.root)
    assert result.code == 2
    assert message in result.err


def test_without_conventions_file(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/project.json", json.dumps(PROJECT))
    refused = run_cli("handoff", "build", cwd=ws.root)
    assert refused.code == 2
    assert refused.err == (
        f"No conventions summary: docs/CONVENTIONS.md does not exist under {ws.root}; pass --summary TEXT.\n"
    )
    result = run_cli("handoff", "build", "--summary", "Given. Here.", cwd=ws.root)
    assert result.code == 0
    assert block_data(result.out)["conventions"] == {"summary": "Given. Here."}  # no fullPath


def test_single_sentence_conventions_warn(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/project.json", json.dumps(PROJECT))
    put(ws.root, "docs/CONVENTIONS.md", "# C\n\nUse tabs\n")
    result = run_cli("handoff", "build", cwd=ws.root)
    assert result.code == 0
    assert block_data(result.out)["conventions"]["summary"] == "Use tabs."
    assert result.err == (
        "warning: docs/CONVENTIONS.md has a single prose sentence; the protocol asks for 2 to 5 "
        "(pass --summary TEXT for a fuller one).\n"
    )


def test_conventions_without_prose_exits_2(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/project.json", json.dumps(PROJECT))
    put(ws.root, "docs/CONVENTIONS.md", "# Only a heading\n\n```\ncode.\n```\n")
    result = run_cli("handoff", "build", cwd=ws.root)
    assert result.code == 2
    assert "docs/CONVENTIONS.md has no prose" in result.err


def test_summary_skips_headings_and_code_and_takes_five_sentences() -> None:
    sentences = prose_sentences(CONVENTIONS)
    assert sentences[:6] == [
        "Python 3.11 with strict typing.",
        "Tests use pytest and never touch the network!",
        "Keep modules small.",
        "Use `pathlib` only in the TUI.",
        "Quoted advice counts.",
        "This one would be the sixth.",
    ]
    assert ho.summarise_conventions(CONVENTIONS) == (SUMMARY, False)


def test_long_summary_is_trimmed_with_a_warning(run_cli: RunCli, ws: Workspace) -> None:
    put(ws.root, "docs/project.json", json.dumps(PROJECT))
    long_sentence = "Word " * 60  # 309 characters with "number n."
    sentences = [f"{long_sentence.strip()} number {n}." for n in range(1, 5)]
    put(ws.root, "docs/CONVENTIONS.md", "# C\n\n" + " ".join(sentences) + "\n")
    result = run_cli("handoff", "build", cwd=ws.root)
    assert result.code == 0
    summary = block_data(result.out)["conventions"]["summary"]
    assert summary == " ".join(sentences[:2])  # whole sentences within 800 characters
    assert ho.count_tokens(summary) <= 200
    assert (
        result.err
        == "warning: the conventions summary was 310 tokens; trimmed to 155 (the limit is 200).\n"
    )


def test_long_given_summary_is_trimmed_too(run_cli: RunCli, project: Workspace) -> None:
    giant = "word " * 400
    result = run_cli("handoff", "build", "--summary", giant, cwd=project.root)
    assert result.code == 0
    summary = block_data(result.out)["conventions"]["summary"]
    assert summary.endswith("word\u2026")
    assert len(summary) <= 800 and ho.count_tokens(summary) <= 200
    assert "warning: the conventions summary was 500 tokens" in result.err


def test_short_summary_has_no_warning() -> None:
    text = "x" * 800
    assert ho.fit_summary(text) == (text, False)
    trimmed, cut = ho.fit_summary(text + "y")
    assert cut and len(trimmed) <= 800


def test_git_branch_detached_and_no_repository(run_cli: RunCli, project: Workspace) -> None:
    root = project.root
    no_repo = run_cli("handoff", "build", cwd=root)
    assert "currentWork" not in block_data(no_repo.out)
    put(root, ".git/HEAD", "3f1c2a51d7e44b8aa1c62e5f0d8b7c1300000000\n")
    detached = run_cli("handoff", "build", cwd=root)
    assert "currentWork" not in block_data(detached.out)
    put(root, ".git/HEAD", "ref: refs/heads/main\n")
    on_main = run_cli("handoff", "build", cwd=root)
    assert block_data(on_main.out)["currentWork"] == {"branch": "main"}


def test_git_worktree_file_and_enclosing_repository(sandbox: Path) -> None:
    repo = sandbox / "repo"
    put(repo, ".git/worktrees/wt/HEAD", "ref: refs/heads/feature/wt\n")
    put(repo, ".git/HEAD", "ref: refs/heads/main\n")
    worktree = sandbox / "wt"
    put(worktree, ".git", "gitdir: ../repo/.git/worktrees/wt\n")
    assert ho.git_branch(str(worktree)) == "feature/wt"
    assert ho.git_branch(str(repo / "sub" / "dir")) == "main"
    put(sandbox / "broken", ".git", "gitdir: ../missing\n")
    assert ho.git_branch(str(sandbox / "broken")) is None
    assert ho.git_branch(str(sandbox)) is None


def test_story_from_the_session_and_prd_from_the_work_item(
    run_cli: RunCli, project: Workspace
) -> None:
    root = project.root
    put(root, ".orchestration/active_intents.yaml", INTENTS_YAML)
    selected = run_cli("intents", "select", "INT-001", "--session", "s-1", cwd=root)
    assert selected.code == 0, selected.err
    project.work(
        "dark-mode", "# WorkflowContext\n\nWork Title: Add dark mode support\nWork ID: dark-mode\n"
    )
    result = run_cli("handoff", "build", "--session", "s-1", "--work-id", "dark-mode", cwd=root)
    assert (result.code, result.err) == (0, "")
    assert block_data(result.out)["currentWork"] == {
        "prd": "Add dark mode support",
        "story": "JWT Authentication Migration",
    }
    flags = run_cli(
        "handoff",
        "build",
        "--session",
        "s-1",
        "--work-id",
        "dark-mode",
        "--story",
        "S",
        "--prd",
        "P",
        cwd=root,
    )
    assert block_data(flags.out)["currentWork"] == {"prd": "P", "story": "S"}
    other = run_cli("handoff", "build", "--session", "nobody", cwd=root)
    assert other.code == 0
    assert "currentWork" not in block_data(other.out)
    assert "warning: session 'nobody' holds no active intent" in other.err


def test_work_item_problems(run_cli: RunCli, project: Workspace) -> None:
    root = project.root
    missing = run_cli("handoff", "build", "--work-id", "nope", cwd=root)
    assert missing.code == 2
    assert missing.err == f".paw/work/nope/WorkflowContext.md does not exist under {root}.\n"
    bad = run_cli("handoff", "build", "--work-id", "../x", cwd=root)
    assert bad.code == 2 and "Invalid Work ID format: '../x'" in bad.err
    project.work("untitled", "Work ID: untitled\n")
    untitled = run_cli("handoff", "build", "--work-id", "untitled", cwd=root)
    assert untitled.code == 0
    assert "currentWork" not in block_data(untitled.out)
    assert "has no Work Title" in untitled.err


def test_empty_summary_flag_is_refused(run_cli: RunCli, project: Workspace) -> None:
    result = run_cli("handoff", "build", "--summary", "  ", cwd=project.root)
    assert result.code == 2 and "must not be empty" in result.err


# --- parse ------------------------------------------------------------------------------


def parse(run_cli: RunCli, root: Path, prompt: str | bytes, *extra: str) -> CliResult:
    path = put(root, "prompt.md", prompt)
    return run_cli("handoff", "parse", str(path), *extra, cwd=root)


def test_parse_what_build_prints(run_cli: RunCli, project: Workspace) -> None:
    built = run_cli("handoff", "build", "--story", "S1", cwd=project.root).out
    result = parse(run_cli, project.root, built + "\nImplement S1.\n", "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert list(data) == ["status", "version", "context"]
    assert data["status"] == "ok" and data["version"] == 1
    assert data["context"] == block_data(built)
    text = parse(run_cli, project.root, built)
    assert text.code == 0
    assert text.out.startswith("ok: a Context Protocol v1 block starts the prompt.\n")
    assert f"project.path: {project.root}\n" in text.out
    assert "project.commands.test: pytest -q\n" in text.out
    assert "currentWork.story: S1\n" in text.out


def test_parse_bom_blank_lines_crlf_quoted_version_and_unknown_fields(
    run_cli: RunCli, ws: Workspace
) -> None:
    prompt = (
        '\ufeff\r\n  \r\n<context>\r\nversion: "1"\r\nproject:\r\n  path: /p\r\n  stack: s\r\n'
        "  owner: team-a\r\nconventions:\r\n  summary: A. B.\r\nextra:\r\n  nested: [1, 2]\r\n</context>\r\nDo it."
    )
    result = parse(run_cli, ws.root, prompt.encode("utf-8"), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "ok"
    assert data["context"] == {
        "version": 1,
        "project": {"path": "/p", "stack": "s", "owner": "team-a"},
        "conventions": {"summary": "A. B."},
        "extra": {"nested": [1, 2]},
    }
    text = parse(run_cli, ws.root, prompt.encode("utf-8"))
    assert "extra.nested: [1, 2]\n" in text.out and "project.owner: team-a\n" in text.out


def test_missing_version_is_read_as_1() -> None:
    result = ho.parse_handoff(
        "<context>\nproject: {path: /p, stack: s}\nconventions: {summary: x}\n</context>\n"
    )
    assert (result.status, result.version) == ("ok", 1)
    assert list(result.context or {}) == ["version", "project", "conventions"]
    assert result.exit_code == 0


def test_fallback_without_a_block(run_cli: RunCli, ws: Workspace) -> None:
    result = parse(
        run_cli, ws.root, "Implement the feature.\n<context>\nversion: 1\n</context>\n", "--json"
    )
    assert result.code == 0
    data = json.loads(result.out)
    assert data == {
        "status": "fallback",
        "reason": "no <context> block at the start of the prompt (one appears at line 2, but only a "
        "block at the start counts)",
        "plan": [
            f"read {ws.root / 'docs' / 'project.json'}",
            f"read {ws.root / 'docs' / 'CONVENTIONS.md'}",
        ],
    }
    text = parse(run_cli, ws.root, "Just a prompt.")
    assert text.code == 0
    assert text.out == (
        "fallback: no <context> block at the start of the prompt.\n"
        "Plan: read the files directly instead:\n"
        f"- read {ws.root / 'docs' / 'project.json'}\n"
        f"- read {ws.root / 'docs' / 'CONVENTIONS.md'}\n"
    )


@pytest.mark.parametrize("version", ["2", '"2"', "v1", "true"])
def test_fallback_for_other_versions(run_cli: RunCli, ws: Workspace, version: str) -> None:
    prompt = f"<context>\nversion: {version}\nproject: {{path: /p, stack: s}}\nconventions: {{summary: x}}\n</context>\n"
    result = parse(run_cli, ws.root, prompt, "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["status"] == "fallback"
    assert "is not supported" in data["reason"]
    assert data["version"] == yaml.safe_load(f"v: {version}")["v"]
    assert "context" not in data and len(data["plan"]) == 2
    text = parse(run_cli, ws.root, prompt)
    assert text.out.startswith("fallback: version ")


def test_unparseable_block_declaring_another_version_falls_back() -> None:
    result = ho.parse_handoff("<context>\nversion: 3\nproject: [\n</context>\n")
    assert (result.status, result.version) == ("fallback", "3")


def test_invalid_yaml_names_the_line(run_cli: RunCli, ws: Workspace) -> None:
    prompt = "\n<context>\nversion: 1\nproject:\n  path: /p\n  stack: [unclosed\nconventions: {}\n</context>\n"
    result = parse(run_cli, ws.root, prompt)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith(
        "invalid: Context Protocol v1 block: the <context> block is not valid YAML: line 7:"
    )
    as_json = parse(run_cli, ws.root, prompt, "--json")
    assert as_json.code == 2
    data = json.loads(as_json.out)
    assert data["status"] == "invalid" and "line 7" in data["reason"]


@pytest.mark.parametrize(
    ("yaml_text", "missing"),
    [
        ("project: {stack: s}\nconventions: {summary: x}", ["project.path"]),
        ("project: {path: /p}\nconventions: {summary: x}", ["project.stack"]),
        ("project: {path: /p, stack: s}\nconventions: {fullPath: /f}", ["conventions.summary"]),
        ("project: {path: /p, stack: s}", ["conventions.summary"]),
        ("version: 1\nconventions: {summary: x}", ["project.path", "project.stack"]),
        ("project: {path: /p, stack: }\nconventions: {summary: x}", ["project.stack"]),
        ("", ["project.path", "project.stack", "conventions.summary"]),
    ],
)
def test_invalid_missing_fields_each_named(
    run_cli: RunCli, ws: Workspace, yaml_text: str, missing: list[str]
) -> None:
    prompt = f"<context>\n{yaml_text}\n</context>\n"
    result = parse(run_cli, ws.root, prompt, "--json")
    assert result.code == 2
    data = json.loads(result.out)
    assert data["status"] == "invalid"
    assert data["missing"] == missing
    assert "plan" not in data
    text = parse(run_cli, ws.root, prompt)
    assert text.code == 2
    for name in missing:
        assert name in text.err


def test_invalid_types_and_unclosed_block() -> None:
    typed = ho.parse_handoff(
        "<context>\nproject: {path: /p, stack: 5}\nconventions: {summary: x}\n</context>"
    )
    assert typed.status == "invalid" and typed.missing == []
    assert typed.reason == "project.stack must be of type string, not integer"
    unclosed = ho.parse_handoff("<context>\nversion: 1\n")
    assert unclosed.status == "invalid"
    assert unclosed.reason == "the <context> block opened at line 1 has no closing </context> line"
    listed = ho.parse_handoff("<context>\n- a\n</context>")
    assert listed.status == "invalid" and "must be a YAML mapping, not array" in (
        listed.reason or ""
    )


def test_parse_from_stdin_outside_a_workspace(
    run_cli: RunCli, sandbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"no block"), encoding="utf-8"))
    result = run_cli("handoff", "parse", "-", cwd=sandbox)
    assert result.code == 0
    assert f"- read {sandbox / 'docs' / 'project.json'}\n" in result.out


def test_parse_missing_file(run_cli: RunCli, ws: Workspace) -> None:
    result = run_cli("handoff", "parse", str(ws.root / "gone.md"), cwd=ws.root)
    assert (result.code, result.err) == (
        2,
        f"Prompt file '{ws.root / 'gone.md'}' does not exist.\n",
    )


def test_built_in_checker_agrees_with_jsonschema() -> None:
    schema = ho.load_schema()
    samples: list[object] = [
        {
            "version": 1,
            "project": {"path": "/p", "stack": "s", "commands": {"t": "x"}},
            "conventions": {"summary": "x"},
        },
        {
            "version": 1,
            "project": {"path": "/p", "stack": "s", "commands": {"t": 1}},
            "conventions": {"summary": "x"},
        },
        {"version": 1, "project": {"path": "/p"}, "conventions": {"summary": "x"}},
        {"version": 1, "project": "p", "conventions": {"summary": "x"}},
        {"version": 2, "project": {"path": "/p", "stack": "s"}, "conventions": {"summary": "x"}},
        {"version": 1, "project": {"path": "/p", "stack": "s"}, "conventions": {"summary": ""}},
        {
            "version": 1,
            "project": {"path": "/p", "stack": "s"},
            "conventions": {"summary": "x"},
            "currentWork": {"branch": 3},
        },
        {
            "version": 1,
            "project": {"path": "/p", "stack": "s"},
            "conventions": {"summary": "x"},
            "other": [1],
        },
    ]
    for sample in samples:
        missing, problems = ho.check_schema(sample, schema)
        ours = not missing and not problems
        theirs = jsonschema.Draft202012Validator(schema).is_valid(sample)
        assert ours == theirs, (sample, missing, problems)


def test_library_parse_without_root_plans_relative_paths() -> None:
    result = ho.parse_handoff("hello")
    assert result.plan == ["read docs/project.json", "read docs/CONVENTIONS.md"]
    assert result.to_dict() == {
        "status": "fallback",
        "reason": "no <context> block at the start of the prompt",
        "plan": result.plan,
    }


def test_build_refuses_through_validation_error(ws: Workspace) -> None:
    with pytest.raises(ValidationError, match="docs/project.json does not exist"):
        ho.build_handoff(str(ws.root))
