"""Each install keeps the machine-local files it writes out of commits (DESIGN §2, issue 18/19).

In a real git repository, after ``paw-tui install <client>``, ``git status`` lists the files a
team commits and none of this machine's (paths of this installation). And a second install
changes nothing.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import RunCli

LOCAL = {
    "claude-code": ".claude/settings.local.json",
    "gemini-cli": ".gemini/.env",
    "qwen-code": ".qwen/.env",
    "opencode": ".opencode/paw-tui.hook",
}


def _status(root: Path) -> set[str]:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line[3:] for line in done.stdout.splitlines()}


@pytest.mark.parametrize("client", sorted(LOCAL))
def test_the_machine_local_file_is_ignored(tmp_path: Path, run_cli: RunCli, client: str) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    result = run_cli("install", client, cwd=root)
    assert result.code == 0, result.err
    assert (root / LOCAL[client]).is_file()
    listed = _status(root)
    assert LOCAL[client] not in listed, listed
    for ignored in (".opencode/node_modules/x", ".opencode/package.json", ".opencode/bun.lock"):
        if client == "opencode":
            (root / ignored).parent.mkdir(parents=True, exist_ok=True)
            (root / ignored).write_text("{}")
            assert ignored not in _status(root)
    again = run_cli("install", client, cwd=root)
    assert "created" not in again.out and "updated" not in again.out, again.out


ENTRIES = {
    "claude-code": ["/settings.local.json"],
    "gemini-cli": ["/.env"],
    "qwen-code": ["/.env"],
    "opencode": ["/paw-tui.hook", "/node_modules/", "/package.json", "/package-lock.json", "/bun.lock"],
}  # fmt: skip


@pytest.mark.parametrize("client", sorted(LOCAL))
def test_a_person_s_ignore_file_is_extended_as_the_dry_run_said(
    tmp_path: Path, run_cli: RunCli, client: str
) -> None:
    """The install's ``.gitignore`` goes through the shared helper: the person's lines stay as
    they are, an entry they negated is theirs to keep, the missing ones are added at the end,
    exactly as ``--dry-run`` showed."""
    root = tmp_path / "repo"
    folder = root / LOCAL[client].split("/")[0]
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    negated = "/bun.lock" if client == "opencode" else None  # the person wants it committed
    wanted = [entry for entry in ENTRIES[client] if entry != negated]
    mine = "# mine\nscratch/" + (f"\n!{negated}" if negated else "")  # no final newline
    (folder / ".gitignore").write_text(mine, encoding="utf-8")
    dry = run_cli("install", client, "--dry-run", cwd=root)
    expected = mine + "\n" + "".join(f"{entry}\n" for entry in wanted)
    assert f"{folder / '.gitignore'} (would change)\n{expected}\n" in dry.out, dry.out
    assert run_cli("install", client, cwd=root).code == 0
    assert (folder / ".gitignore").read_text(encoding="utf-8") == expected
    assert LOCAL[client] not in _status(root)
    again = run_cli("install", client, "--dry-run", cwd=root)
    assert f"{folder / '.gitignore'} (unchanged)" in again.out


@pytest.mark.parametrize("client", sorted(LOCAL))
def test_doctor_warns_when_the_machine_local_file_is_no_longer_ignored(
    tmp_path: Path, run_cli: RunCli, client: str
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert run_cli("install", client, cwd=root).code == 0
    ignore = root / LOCAL[client].split("/")[0] / ".gitignore"
    ignore.write_text("# mine\n", encoding="utf-8")
    rows = json.loads(run_cli("doctor", "--json", cwd=root).out)
    warned = [r["detail"] for r in rows if r["check"] == client and r["status"] == "warn"]
    assert any(ENTRIES[client][0] in w and "may get committed" in w for w in warned), warned
