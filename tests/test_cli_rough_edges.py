"""The CLI's rough edges (issue 11, item 8): every doctor check a row, filters that name an
unknown id, "did you mean", held told apart from none, counts in words, the trace export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gatekit import gate, paw_state_dir, root, select, write_payload

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]


def _write_some_records(root: Path) -> None:
    select(root, "sess-alpha", "INT-001")
    gate(write_payload(root, "src/auth/a.py", session="sess-alpha"), client="claude-code")
    gate(write_payload(root, "docs/x.md", session="sess-alpha"), client="claude-code")
    select(root, "sess-beta", "INT-006")
    gate(write_payload(root, "README.md", session="sess-beta"), client="claude-code")


def test_doctor_reports_every_check_when_the_ledger_is_a_directory(
    root: Path, run_cli: RunCli
) -> None:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    if ledger.exists():
        ledger.unlink()
    ledger.mkdir()
    result = run_cli("doctor", cwd=root)
    assert result.code == 2
    rows = [line.split()[:2] for line in result.out.splitlines()]
    assert ["FAIL", "ledger"] in rows
    # The checks after the broken one still ran: the report is whole.
    names = [name for _, name in rows]
    assert "mcp" in names and "shell" in names and "workspace" in names


def test_doctor_checks_for_mcp_without_importing_it(root: Path) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from paw_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['doctor'])\n"
        "print('mcp' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr


def test_trace_filter_on_an_unknown_intent_says_so(root: Path, run_cli: RunCli) -> None:
    _write_some_records(root)
    missing = run_cli("trace", "tail", "--intent", "INT-999", cwd=root)
    assert missing.code == 2 and missing.out == ""
    assert "INT-999" in missing.err
    typo = run_cli("trace", "tail", "--intent", "INT-01", cwd=root)
    assert typo.code == 2 and "Did you mean INT-001?" in typo.err


def test_trace_filters_match_ids_and_sessions_case_insensitively(
    root: Path, run_cli: RunCli
) -> None:
    _write_some_records(root)
    upper = run_cli("trace", "tail", "--intent", "INT-001", "-n", "100", cwd=root)
    lower = run_cli("trace", "tail", "--intent", "int-001", "-n", "100", cwd=root)
    assert upper.code == lower.code == 0
    assert upper.out == lower.out and "src/auth/a.py" in upper.out
    session = run_cli("trace", "tail", "--session", "SESS-BETA", "-n", "100", cwd=root)
    assert session.code == 0 and "README.md" in session.out and "src/auth/a.py" not in session.out
    unknown = run_cli("trace", "tail", "--session", "sess-gamma", cwd=root)
    assert unknown.code == 2 and "sess-gamma" in unknown.err


def test_trace_export_jsonl_honours_the_filters(root: Path, run_cli: RunCli) -> None:
    _write_some_records(root)
    everything = run_cli("trace", "export", "--format", "jsonl", cwd=root)
    denied = run_cli(
        "trace",
        "export",
        "--format",
        "jsonl",
        "--decision",
        "deny",
        "--intent",
        "INT-001",
        cwd=root,
    )
    assert everything.code == denied.code == 0
    all_records = [json.loads(line) for line in everything.out.splitlines()]
    picked = [json.loads(line) for line in denied.out.splitlines()]
    assert picked and len(picked) < len(all_records)
    assert all(record.get("decision") == "deny" for record in picked)
    assert all(record.get("intent_id") == "INT-001" for record in picked)
    assert any("docs/x.md" in json.dumps(record) for record in picked)


def test_select_a_near_miss_suggests_the_id(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "select", "INT-0001", "--session", "cli-1", cwd=root)
    assert result.code == 2 and "Did you mean INT-001?" in result.err
    far = run_cli("intents", "select", "INT-404", "--session", "cli-1", cwd=root)
    # INT-404 is one edit from INT-004 (completed, not selectable): nothing to suggest.
    assert far.code == 2 and "Did you mean" not in far.err


def test_held_intents_are_told_apart_from_none(
    tmp_path: Path, run_cli: RunCli, paw_state_dir: Path
) -> None:
    workspace = tmp_path / "ws"
    (workspace / ".orchestration").mkdir(parents=True)
    (workspace / ".paw").mkdir()
    (workspace / ".orchestration" / "active_intents.yaml").write_text(
        "active_intents:\n  - id: INT-001\n    name: Only one\n    status: IN_PROGRESS\n"
        "    owned_scope: ['src/**']\n",
        encoding="utf-8",
    )
    select(workspace, "first", "INT-001")
    other = run_cli("intents", "select", "INT-001", "--session", "second", cwd=workspace)
    assert other.code == 2
    assert "held by" in other.err and "first" in other.err


def test_an_unknown_key_in_the_intents_file_is_a_problem_with_its_line(
    root: Path, run_cli: RunCli
) -> None:
    intents = root / ".orchestration" / "active_intents.yaml"
    lines = intents.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "owned_scope:" in line)
    lines[at] = lines[at].replace("owned_scope:", "owned_scop:")
    intents.write_text("".join(lines), encoding="utf-8")
    result = run_cli("check", "src/auth/a.py", "--intent", "INT-001", cwd=root)
    assert result.code != 0
    assert f"active_intents.yaml:{at + 1}" in result.err
    assert "owned_scop" in result.err and "owned_scope" in result.err


def test_verify_counts_in_words(root: Path, run_cli: RunCli) -> None:
    select(root, "solo", "INT-001")
    result = run_cli("trace", "verify", cwd=root)
    assert result.code == 0
    assert "1 records" not in result.out


def test_doctor_names_uncatalogued_tools_denied_before_a_selection(
    root: Path, run_cli: RunCli
) -> None:
    clean = run_cli("doctor", cwd=root)
    assert any(line.split()[:2] == ["ok", "catalogue"] for line in clean.out.splitlines())
    for tool in ("FancyNewLister", "FancyNewLister", "Read"):
        gate(
            write_payload(root, "src/auth/a.py", session="before", tool=tool), client="claude-code"
        )
    result = run_cli("doctor", cwd=root)
    row = next(line for line in result.out.splitlines() if line.split()[1:2] == ["catalogue"])
    assert row.startswith("warn") and "FancyNewLister (2x)" in row and "Read" not in row
