"""``paw-tui context WORK_ID --agent NAME [--json]``: in-process through ``main`` and in subprocesses."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
from context_messages import (
    AGENT,
    MSG_EMPTY_AGENT,
    MSG_EMPTY_SLUG,
    MSG_NO_WORKSPACE,
    msg_bad_agent,
    msg_bad_slug,
)

from paw_tui.core.context.format import PRECEDENCE_LINE

if TYPE_CHECKING:
    from conftest import CliResult, MakeWorkspace, RunCli, RunSubprocess, Workspace

WORKFLOW = (
    "# WorkflowContext\n\nWork Title: Auth\nFeature Slug: auth-system\nTarget Branch: feature/auth"
)


def msg_not_found(slug: str, roots: list[str | Path]) -> str:
    return (
        f"Work ID '{slug}' not found in any workspace. Expected directory .paw/work/{slug}/ to "
        f"exist in one of: {', '.join(str(r) for r in roots)}. Please verify the Work ID is correct."
    )


STATUS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["exists", "content", "error", "path"],
    "properties": {
        "exists": {"type": "boolean"},
        "content": {"type": "string"},
        "error": {"type": ["string", "null"]},
        "path": {"type": "string"},
    },
}
JSON_SCHEMA = {
    "type": "object",
    "required": ["workspace_instructions", "user_instructions", "workflow_context", "root"],
    "additionalProperties": False,
    "properties": {
        "workspace_instructions": {**STATUS_SCHEMA, "additionalProperties": False},
        "user_instructions": {**STATUS_SCHEMA, "additionalProperties": False},
        "workflow_context": {
            **STATUS_SCHEMA,
            "required": [*STATUS_SCHEMA["required"], "fields"],
            "properties": {
                **STATUS_SCHEMA["properties"],
                "fields": {"type": "object", "additionalProperties": {"type": "string"}},
                "work_id": {"type": ["string", "null"]},
            },
        },
        "root": {"type": "string"},
    },
}


def assert_refused(res: CliResult, message: str) -> None:
    assert res.code == 2, res
    assert res.out == ""
    assert res.err == message + "\n"


# --------------------------------------------------------------------------- text output


def test_text_output_all_three(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("auth-system", WORKFLOW)
    ws.workspace_instructions(AGENT, "# Rules\n- rollback\n")
    ws.user_instructions(AGENT, "Be concise.")
    res = run_cli("context", "auth-system", "--agent", AGENT, "--workspace", str(ws.root))
    assert res.code == 0
    assert res.err == ""
    assert res.out == (
        f"{PRECEDENCE_LINE}\n\n"
        "<workspace_instructions>\n# Rules\n- rollback\n</workspace_instructions>\n\n"
        "<user_instructions>\nBe concise.\n</user_instructions>\n\n"
        f"<workflow_context>\n```markdown\n{WORKFLOW}\n```\n</workflow_context>\n"
    )


def test_empty_context_prints_one_line(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("empty-test")
    res = run_cli("context", "empty-test", "--agent", AGENT, cwd=ws.root)
    assert (res.code, res.out, res.err) == (0, '<context status="empty" />\n', "")


def test_user_layer_comes_from_paw_user_home(ws: Workspace, run_cli: RunCli, sandbox: Path) -> None:
    ws.work("feat")
    other_home = sandbox / "other-home"
    (other_home / ".paw" / "instructions").mkdir(parents=True)
    (other_home / ".paw" / "instructions" / f"{AGENT}-instructions.md").write_text(
        "other", encoding="utf-8"
    )
    ws.user_instructions(AGENT, "default home")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert res.out == "<user_instructions>\ndefault home\n</user_instructions>\n"
    res = run_cli(
        "context", "feat", "--agent", AGENT, cwd=ws.root, env={"PAW_USER_HOME": str(other_home)}
    )
    assert res.out == "<user_instructions>\nother\n</user_instructions>\n"


def test_crlf_and_bom_normalised_in_output(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat", b"\xef\xbb\xbfWork ID: feat\r\nRemote: origin\r\n")
    ws.workspace_instructions(AGENT, "one\r\ntwo\rthree   \r\n")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert res.out == (
        "<workspace_instructions>\none\ntwo\nthree\n</workspace_instructions>\n\n"
        "<workflow_context>\n```markdown\nWork ID: feat\nRemote: origin\n```\n</workflow_context>\n"
    )


def test_warnings_in_text_output(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat", b"Work ID: \xff")
    ws.workspace_instructions(AGENT, "")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert res.code == 0
    assert res.out == (
        "<workspace_instructions>\n<warning>file is empty</warning>\n</workspace_instructions>\n\n"
        "<workflow_context>\n<warning>Failed to read WorkflowContext.md: not valid UTF-8 "
        "(byte 0xff at offset 9)</warning>\n</workflow_context>\n"
    )


def test_neutralised_tags_in_cli_output(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "</Workspace_Instructions >\nmore")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert (
        res.out
        == "<workspace_instructions>\n<\\/Workspace_Instructions >\nmore\n</workspace_instructions>\n"
    )


def test_case_insensitive_file_found_through_cli(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "found", name=f"{AGENT.lower()}-instructions.md")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert res.out == "<workspace_instructions>\nfound\n</workspace_instructions>\n"


def test_trimmed_arguments(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "ok")
    res = run_cli("context", "  feat ", "--agent", f"  {AGENT}\t", cwd=ws.root)
    assert (res.code, res.out) == (0, "<workspace_instructions>\nok\n</workspace_instructions>\n")


# --------------------------------------------------------------------------- JSON


def test_json_output_shape(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("auth-system", WORKFLOW)
    ws.workspace_instructions(AGENT, "W")
    res = run_cli("context", "auth-system", "--agent", AGENT, "--json", "--workspace", str(ws.root))
    assert res.code == 0 and res.err == ""
    data = json.loads(res.out)
    jsonschema.validate(data, JSON_SCHEMA)
    assert list(data) == ["workspace_instructions", "user_instructions", "workflow_context", "root"]
    assert data["root"] == str(ws.root)
    assert data["workspace_instructions"] == {
        "exists": True,
        "content": "W",
        "error": None,
        "path": str(ws.instructions_dir / f"{AGENT}-instructions.md"),
    }
    assert data["user_instructions"] == {
        "exists": False,
        "content": "",
        "error": None,
        "path": str(ws.user_dir / f"{AGENT}-instructions.md"),
    }
    wf = data["workflow_context"]
    assert wf["exists"] is True and wf["error"] is None
    assert wf["content"] == WORKFLOW
    assert wf["path"] == str(ws.workflow_path("auth-system"))
    assert wf["fields"] == {
        "Work Title": "Auth",
        "Feature Slug": "auth-system",
        "Target Branch": "feature/auth",
    }
    assert wf["work_id"] == "auth-system"
    assert '"error": null' in res.out


def test_json_work_id_field(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat", "Work ID: feat\nwork title: lower-case name kept")
    res = run_cli("context", "feat", "--agent", AGENT, "--json", cwd=ws.root)
    wf = json.loads(res.out)["workflow_context"]
    assert wf["fields"] == {"Work ID": "feat", "work title": "lower-case name kept"}
    assert wf["work_id"] == "feat"


def test_json_errors_and_non_ascii(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "   ")
    ws.user_instructions(AGENT, "caf\u00e9 \u2713")
    res = run_cli("context", "feat", "--agent", AGENT, "--json", cwd=ws.root)
    data = json.loads(res.out)
    jsonschema.validate(data, JSON_SCHEMA)
    assert data["workspace_instructions"]["error"] == "file is empty"
    assert data["workspace_instructions"]["exists"] is True
    assert data["workspace_instructions"]["content"] == ""
    assert data["user_instructions"]["content"] == "caf\u00e9 \u2713"
    assert "caf\u00e9 \u2713" in res.out  # written as UTF-8, not \u escapes
    assert data["workflow_context"] == {
        "exists": False,
        "content": "",
        "error": None,
        "path": str(ws.workflow_path("feat")),
        "fields": {},
        "work_id": None,
    }


def test_json_empty_context_is_still_json(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    res = run_cli("context", "feat", "--agent", AGENT, "--json", cwd=ws.root)
    data = json.loads(res.out)
    assert [
        data[k]["exists"]
        for k in ("workspace_instructions", "user_instructions", "workflow_context")
    ] == [
        False,
        False,
        False,
    ]
    assert "<context" not in res.out


# --------------------------------------------------------------------------- validation errors


@pytest.mark.parametrize(
    ("slug", "agent", "message"),
    [
        ("", AGENT, MSG_EMPTY_SLUG),
        ("   ", "", MSG_EMPTY_SLUG),
        ("../x", AGENT, msg_bad_slug("../x")),
        ("a/b", AGENT, msg_bad_slug("a/b")),
        ("Auth", AGENT, msg_bad_slug("Auth")),
        ("a_b", AGENT, msg_bad_slug("a_b")),
        (" Auth ", AGENT, msg_bad_slug("Auth")),
        ("Auth", "", msg_bad_slug("Auth")),
        ("feat", "", MSG_EMPTY_AGENT),
        ("feat", "   ", MSG_EMPTY_AGENT),
        ("feat", "a/b", msg_bad_agent("a/b")),
        ("feat", "a\\b", msg_bad_agent("a\\b")),
        ("feat", "a\x00b", msg_bad_agent("a\x00b")),
        ("feat", "a\x1bb", msg_bad_agent("a\x1bb")),
        ("feat", ".", msg_bad_agent(".")),
        ("feat", " .. ", msg_bad_agent("..")),
    ],
)
def test_validation_errors_exit_2(
    ws: Workspace, run_cli: RunCli, slug: str, agent: str, message: str
) -> None:
    ws.work("feat")
    res = run_cli("context", slug, "--agent", agent, "--workspace", str(ws.root))
    assert_refused(res, message)


def test_empty_agent_before_directory_lookup(ws: Workspace, run_cli: RunCli, sandbox: Path) -> None:
    res = run_cli("context", "no-such-work", "--agent", "", "--workspace", str(ws.root))
    assert_refused(res, MSG_EMPTY_AGENT)
    # and with no workspace at all
    res = run_cli("context", "no-such-work", "--agent", " ", cwd=sandbox)
    assert_refused(res, MSG_EMPTY_AGENT)


def test_no_workspace_at_all(run_cli: RunCli, sandbox: Path) -> None:
    res = run_cli("context", "feat", "--agent", AGENT, cwd=sandbox)
    assert_refused(res, MSG_NO_WORKSPACE)


def test_work_id_not_found(ws: Workspace, run_cli: RunCli) -> None:
    res = run_cli("context", "nope", "--agent", AGENT, cwd=ws.root / ".paw")
    assert_refused(res, msg_not_found("nope", [ws.root]))


def test_file_in_place_of_work_directory(ws: Workspace, run_cli: RunCli) -> None:
    (ws.root / ".paw" / "work").mkdir(parents=True)
    (ws.root / ".paw" / "work" / "feat").write_text("I am a file", encoding="utf-8")
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert_refused(res, msg_not_found("feat", [ws.root]))


def test_missing_agent_flag_is_a_usage_error(ws: Workspace, run_cli: RunCli) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli("context", "feat", cwd=ws.root)
    assert info.value.code == 2


# --------------------------------------------------------------------------- workspace selection


def test_multi_root_first_holding_work_dir_wins(
    make_workspace: MakeWorkspace, run_cli: RunCli
) -> None:
    a, b, c = make_workspace("a"), make_workspace("b"), make_workspace("c")
    b.work("feat", "Work Title: b")
    c.work("feat", "Work Title: c")
    res = run_cli(
        "context",
        "feat",
        "--agent",
        AGENT,
        "--json",
        "--workspace",
        str(a.root),
        "--workspace",
        str(b.root),
        "-w",
        str(c.root),
    )
    assert json.loads(res.out)["root"] == str(b.root)
    res = run_cli(
        "context", "feat", "--agent", AGENT, "--json", "-w", str(c.root), "-w", str(b.root)
    )
    assert json.loads(res.out)["root"] == str(c.root)


def test_multi_root_not_found_lists_roots_in_order(
    make_workspace: MakeWorkspace, run_cli: RunCli
) -> None:
    a, b = make_workspace("a"), make_workspace("b")
    res = run_cli("context", "feat", "--agent", AGENT, "-w", str(b.root), "-w", str(a.root))
    assert_refused(res, msg_not_found("feat", [b.root, a.root]))


def test_relative_workspace_flag_is_shown_absolute(
    make_workspace: MakeWorkspace, run_cli: RunCli, sandbox: Path
) -> None:
    make_workspace("rel")
    res = run_cli("context", "feat", "--agent", AGENT, "-w", "rel", cwd=sandbox)
    assert_refused(res, msg_not_found("feat", [sandbox / "rel"]))


def test_workspace_flag_beats_environment(make_workspace: MakeWorkspace, run_cli: RunCli) -> None:
    a, b = make_workspace("a"), make_workspace("b")
    a.work("feat")
    res = run_cli(
        "context",
        "feat",
        "--agent",
        AGENT,
        "--json",
        "-w",
        str(a.root),
        env={"PAW_WORKSPACE_PATH": str(b.root)},
    )
    assert json.loads(res.out)["root"] == str(a.root)


def test_paw_workspace_path_trimmed_and_exclusive(
    make_workspace: MakeWorkspace, run_cli: RunCli
) -> None:
    here, there = make_workspace("here"), make_workspace("there")
    here.work("feat")  # the ancestor search would find this one
    res = run_cli(
        "context",
        "feat",
        "--agent",
        AGENT,
        cwd=here.root,
        env={"PAW_WORKSPACE_PATH": f"  {there.root}  "},
    )
    assert_refused(res, msg_not_found("feat", [there.root]))
    there.work("feat")
    there.workspace_instructions(AGENT, "from there")
    res = run_cli(
        "context",
        "feat",
        "--agent",
        AGENT,
        cwd=here.root,
        env={"PAW_WORKSPACE_PATH": f"\t{there.root}\n"},
    )
    assert res.out == "<workspace_instructions>\nfrom there\n</workspace_instructions>\n"


def test_blank_paw_workspace_path_is_ignored(ws: Workspace, run_cli: RunCli) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "found by ancestor search")
    deep = ws.root / "src" / "deep"
    deep.mkdir(parents=True)
    res = run_cli("context", "feat", "--agent", AGENT, cwd=deep, env={"PAW_WORKSPACE_PATH": "   "})
    assert (
        res.out == "<workspace_instructions>\nfound by ancestor search\n</workspace_instructions>\n"
    )


def test_claude_project_dir_is_not_used_by_the_context_command(
    ws: Workspace, make_workspace: MakeWorkspace, run_cli: RunCli, sandbox: Path
) -> None:
    other = make_workspace("other")
    other.work("feat")
    res = run_cli(
        "context",
        "feat",
        "--agent",
        AGENT,
        cwd=sandbox,
        env={"CLAUDE_PROJECT_DIR": str(other.root)},
    )
    assert_refused(res, MSG_NO_WORKSPACE)


@pytest.mark.parametrize("marker", [".git", ".git-file", ".orchestration"])
def test_ancestor_markers(make_workspace: MakeWorkspace, run_cli: RunCli, marker: str) -> None:
    w = make_workspace("repo", marker=marker)
    # .paw/work/feat lives elsewhere: only the marker makes repo/sub/.. the root
    nested = w.root / "pkg" / "sub"
    nested.mkdir(parents=True)
    res = run_cli("context", "feat", "--agent", AGENT, cwd=nested)
    assert_refused(res, msg_not_found("feat", [w.root]))


def test_git_file_marker_finds_the_work_item(
    make_workspace: MakeWorkspace, run_cli: RunCli
) -> None:
    w = make_workspace("worktree", marker=".git-file")
    w.work("feat", "Work ID: feat")
    res = run_cli(
        "context", "feat", "--agent", AGENT, "--json", cwd=w.root / ".paw" / "work" / "feat"
    )
    assert json.loads(res.out)["root"] == str(w.root)


def test_home_is_not_a_workspace_by_ancestor_search(run_cli: RunCli, user_home: Path) -> None:
    (user_home / ".paw" / "work" / "feat").mkdir(parents=True)
    (user_home / ".paw" / "instructions").mkdir(parents=True)
    sub = user_home / "notes"
    sub.mkdir()
    res = run_cli("context", "feat", "--agent", AGENT, cwd=sub)
    assert_refused(res, MSG_NO_WORKSPACE)
    res = run_cli("context", "feat", "--agent", AGENT, cwd=user_home)
    assert_refused(res, MSG_NO_WORKSPACE)


def test_home_named_explicitly_is_a_workspace(run_cli: RunCli, user_home: Path) -> None:
    (user_home / ".paw" / "work" / "feat").mkdir(parents=True)
    res = run_cli(
        "context", "feat", "--agent", AGENT, "--json", "-w", str(user_home), cwd=user_home
    )
    assert res.code == 0
    assert json.loads(res.out)["root"] == str(user_home)
    res = run_cli(
        "context", "feat", "--agent", AGENT, "--json", env={"PAW_WORKSPACE_PATH": str(user_home)}
    )
    assert json.loads(res.out)["root"] == str(user_home)


# --------------------------------------------------------------------------- subprocess


def test_subprocess_module_text_output(ws: Workspace, run_subprocess: RunSubprocess) -> None:
    ws.work("auth-system", WORKFLOW)
    ws.user_instructions(AGENT, "u")
    res = run_subprocess("context", "auth-system", "--agent", AGENT, "--workspace", str(ws.root))
    assert (res.code, res.err) == (0, "")
    assert res.out == (
        "<user_instructions>\nu\n</user_instructions>\n\n"
        f"<workflow_context>\n```markdown\n{WORKFLOW}\n```\n</workflow_context>\n"
    )


def test_subprocess_console_script_with_env_root(
    ws: Workspace, run_subprocess: RunSubprocess, sandbox: Path
) -> None:
    script = Path(__import__("sys").executable).parent / "paw-tui"
    if not script.exists():
        pytest.skip("console script not installed in this environment")
    ws.work("feat")
    res = run_subprocess(
        "context",
        "feat",
        "--agent",
        AGENT,
        env={"PAW_WORKSPACE_PATH": f" {ws.root} "},
        cwd=sandbox,
        script=True,
    )
    assert (res.code, res.out, res.err) == (0, '<context status="empty" />\n', "")


def test_subprocess_validation_error(run_subprocess: RunSubprocess, sandbox: Path) -> None:
    res = run_subprocess("context", "../etc", "--agent", AGENT, cwd=sandbox)
    assert (res.code, res.out) == (2, "")
    assert res.err == msg_bad_slug("../etc") + "\n"
    assert "Traceback" not in res.err


def test_subprocess_no_workspace(run_subprocess: RunSubprocess, sandbox: Path) -> None:
    res = run_subprocess("context", "feat", "--agent", AGENT, cwd=sandbox)
    assert (res.code, res.out, res.err) == (2, "", MSG_NO_WORKSPACE + "\n")


def test_subprocess_ancestor_search_and_utf8_under_c_locale(
    ws: Workspace, run_subprocess: RunSubprocess
) -> None:
    ws.work("feat")
    ws.workspace_instructions(AGENT, "na\u00efve \u2014 \u65e5\u672c")
    res = run_subprocess(
        "context",
        "feat",
        "--agent",
        AGENT,
        cwd=ws.root / ".paw",
        env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"},
    )
    assert res.code == 0, res.err
    assert (
        res.out
        == "<workspace_instructions>\nna\u00efve \u2014 \u65e5\u672c\n</workspace_instructions>\n"
    )


def test_subprocess_help(run_subprocess: RunSubprocess, sandbox: Path) -> None:
    res = run_subprocess("context", "--help", cwd=sandbox)
    assert res.code == 0
    assert res.err == ""
    for needle in ("WORK_ID", "--agent", "--json", "--workspace"):
        assert needle in res.out
    top = run_subprocess("--help", cwd=sandbox)
    assert top.code == 0 and "context" in top.out


def test_in_process_help_exits_zero(run_cli: RunCli) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli("context", "--help")
    assert info.value.code == 0


def test_injected_read_failure_reaches_the_library_not_the_cli(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch, run_cli: RunCli
) -> None:
    """The CLI uses the real reader; a PermissionError from it is a warning, not a crash."""
    import paw_tui.core.support.textfile as textfile

    ws.work("feat", "Work ID: feat")
    path = ws.workspace_instructions(AGENT, "x")
    real = textfile.read_bytes_limited

    def denying(p: str, limit: int) -> bytes:
        if p == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", p)
        return real(p, limit)

    monkeypatch.setattr(textfile, "read_bytes_limited", denying)
    res = run_cli("context", "feat", "--agent", AGENT, cwd=ws.root)
    assert res.code == 0
    assert res.out.startswith(
        "<workspace_instructions>\n<warning>Failed to read custom instructions: permission denied: "
        f"{path}</warning>\n</workspace_instructions>\n\n<workflow_context>"
    )
