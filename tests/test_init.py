"""``paw-tui init``: the skeletons, and never overwriting anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from paw_tui.cli import main
from paw_tui.core.workspace.scaffold import SKELETON, create_skeleton


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PAW_WORKSPACE_PATH", raising=False)
    monkeypatch.setenv("PAW_USER_HOME", str(tmp_path / "home"))


def test_init_creates_the_whole_skeleton(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    assert main(["init", "--workspace", str(root)]) == 0
    out = capsys.readouterr().out
    for relative, template in SKELETON:
        target = root / relative
        assert target.is_dir() if template is None else target.is_file(), relative
        assert relative in out
    assert f"Workspace: {root}" in out
    assert out.count("created") == len(SKELETON) + 1
    assert "created  .orchestration/.gitignore" in out


def test_generated_yaml_is_valid_and_has_an_example_intent(tmp_path: Path) -> None:
    create_skeleton(str(tmp_path))
    intents = yaml.safe_load((tmp_path / ".orchestration" / "active_intents.yaml").read_text())
    (first,) = intents["active_intents"]
    assert first["id"] == "INT-001"
    assert first["status"] == "PENDING"
    assert first["owned_scope"]
    governance_text = (tmp_path / ".orchestration" / "governance.yaml").read_text()
    # Every option is present, commented out, so the file loads as an empty policy.
    assert yaml.safe_load(governance_text) is None
    for option in (
        "approval:",
        "intent_sharing:",
        "session_ttl:",
        "protected:",
        "tools:",
        "log_reads:",
        "tool_instructions:",
        "tool_defaults:",
    ):
        assert f"# {option}" in governance_text, option


def test_init_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intents = tmp_path / ".orchestration" / "active_intents.yaml"
    intents.parent.mkdir()
    intents.write_text("active_intents: []  # mine\n")
    assert main(["init", "--workspace", str(tmp_path)]) == 0
    assert intents.read_text() == "active_intents: []  # mine\n"
    out = capsys.readouterr().out
    assert "kept     .orchestration/active_intents.yaml" in out
    assert "created  .orchestration/governance.yaml" in out

    # A second run creates nothing and says so.
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert main(["init", "--workspace", str(tmp_path)]) == 0
    assert "Nothing to do" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_init_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--workspace", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["root"] == str(tmp_path)
    assert {entry["path"] for entry in report["entries"]} == {rel for rel, _ in SKELETON} | {
        ".orchestration/.gitignore"
    }
    assert all(entry["created"] for entry in report["entries"])


def test_init_uses_the_enclosing_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    sub = tmp_path / "src" / "pkg"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    assert main(["init"]) == 0
    assert (tmp_path / ".orchestration" / "active_intents.yaml").is_file()
    assert not (sub / ".orchestration").exists()


def test_init_in_a_plain_directory_uses_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    assert main(["init"]) == 0
    assert (plain / ".paw" / "instructions").is_dir()


def test_a_file_where_a_directory_belongs_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".paw").write_text("not a directory")
    assert main(["init", "--workspace", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"Cannot create {tmp_path / '.paw'}: it exists and is not a directory.\n"
    assert (tmp_path / ".paw").read_text() == "not a directory"


def test_init_refuses_several_workspaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "-w", str(tmp_path / "a"), "-w", str(tmp_path / "b")]) == 2
    assert "one --workspace" in capsys.readouterr().err


def test_init_refuses_a_file_as_workspace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main(["init", "--workspace", str(target)]) == 2
    assert f"Workspace '{target}' is not a directory." in capsys.readouterr().err
