"""Links: reaching a protected or out-of-scope file through a name inside the scope.

A hard link shares the protected file's inode (a write through it changes the protected
bytes); a symlink inside the scope can point anywhere. INT-007 owns ``src/**``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .kit import (
    assert_allowed,
    assert_denied,
    assert_protected,
    bash_call,
    gate,
    mcp_payload,
    selected,
    write_payload,
)

INTENTS = ".orchestration/active_intents.yaml"


@pytest.fixture
def hard_linked(wsroot: Path) -> Path:
    """``src/notes.yaml`` is a hard link to the intents file (made before the session)."""
    os.link(wsroot / INTENTS, wsroot / "src" / "notes.yaml")
    return wsroot


def test_write_through_a_hard_link_to_a_protected_file(hard_linked: Path) -> None:
    """Write ``src/notes.yaml`` whose inode is the intents file's: denied."""
    selected(hard_linked, "INT-007")
    assert_denied(gate(write_payload(hard_linked, "src/notes.yaml")))


def test_edit_through_a_hard_link(hard_linked: Path) -> None:
    """Edit through the hard link: denied like Write."""
    selected(hard_linked, "INT-007")
    payload = write_payload(hard_linked, "src/notes.yaml", tool="Edit")
    payload["tool_input"] = {
        "file_path": f"{hard_linked}/src/notes.yaml",
        "old_string": "src/**",
        "new_string": "**",
    }
    assert_denied(gate(payload))


def test_mcp_and_shell_writes_through_a_hard_link(hard_linked: Path) -> None:
    """An MCP write or a shell redirection to the hard link: denied."""
    selected(hard_linked, "INT-007")
    mcp = mcp_payload(hard_linked, "mcp__filesystem__write_file", {"path": "src/notes.yaml"})
    assert_denied(gate(mcp))
    assert_denied(gate(bash_call(hard_linked, "echo '- id: X' >> src/notes.yaml")))
    assert_denied(gate(bash_call(hard_linked, "sed -i s/src/x/ src/notes.yaml")))


@pytest.mark.parametrize(
    "command",
    [
        "ln .orchestration/active_intents.yaml src/x",
        "ln -f .git/config src/config",
        "cp -l .orchestration/governance.yaml src/g",
        "link .claude/settings.json src/s",
        "cd src && ln ../.mcp.json m",
    ],
)
def test_hard_linking_a_protected_file_into_scope(wsroot: Path, command: str) -> None:
    """Making a hard link whose source is protected: denied (the link is a write handle)."""
    selected(wsroot, "INT-007")
    assert_denied(gate(bash_call(wsroot, command)))


def test_symlink_then_write_in_one_command(wsroot: Path) -> None:
    """``ln -s ../.orchestration src/o && echo x > src/o/y``: the write lands in .orchestration."""
    selected(wsroot, "INT-007")
    assert_denied(gate(bash_call(wsroot, "ln -s ../.orchestration src/o && echo x > src/o/y")))
    assert_denied(gate(bash_call(wsroot, "ln -s ../docs src/d; cp README.md src/d/readme.md")))
    assert_denied(gate(bash_call(wsroot, "cd src && ln -sf ../.git g && touch g/hooks/post-merge")))


def test_an_existing_symlink_into_a_protected_directory(wsroot: Path) -> None:
    """A symlink left in scope earlier (``src/g -> ../.git``): writing through it is denied."""
    os.symlink("../.git", wsroot / "src" / "g")
    selected(wsroot, "INT-007")
    assert_protected(gate(write_payload(wsroot, "src/g/config")))
    assert_denied(gate(bash_call(wsroot, "echo x >> src/g/config")))
    assert_denied(
        gate(mcp_payload(wsroot, "mcp__filesystem__write_file", {"path": "src/g/hooks/pre-commit"}))
    )


def test_an_existing_symlink_to_a_protected_file(wsroot: Path) -> None:
    """``src/settings.json -> ../.claude/settings.json``: a Write to the link is denied."""
    os.symlink("../.claude/settings.json", wsroot / "src" / "settings.json")
    selected(wsroot, "INT-007")
    assert_protected(gate(write_payload(wsroot, "src/settings.json")))


def test_a_symlink_out_of_the_root(wsroot: Path, tmp_path: Path) -> None:
    """``src/out -> /elsewhere``: writes through it leave the workspace, denied."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, wsroot / "src" / "out")
    selected(wsroot, "INT-007")
    assert_denied(gate(write_payload(wsroot, "src/out/x.py")))
    assert_denied(gate(bash_call(wsroot, "echo x > src/out/y.py")))


def test_a_symlink_chain(wsroot: Path) -> None:
    """Two hops (``src/a1 -> a2``, ``src/a2 -> ../.orchestration``) are followed to the end."""
    os.symlink("../.orchestration", wsroot / "src" / "a2")
    os.symlink("a2", wsroot / "src" / "a1")
    selected(wsroot, "INT-007")
    assert_protected(gate(write_payload(wsroot, "src/a1/governance.yaml")))


def test_a_dangling_symlink_to_a_protected_name(wsroot: Path) -> None:
    """``src/hook -> ../.git/hooks/pre-commit`` (does not exist yet): Write creates the hook."""
    os.symlink("../.git/hooks/pre-commit", wsroot / "src" / "hook")
    selected(wsroot, "INT-007")
    assert_protected(gate(write_payload(wsroot, "src/hook")))


def test_symlinks_inside_the_scope_are_fine(wsroot: Path) -> None:
    """False positive guard: a link from src/ to src/ and a fresh in-scope link pass."""
    (wsroot / "src" / "lib").mkdir()
    os.symlink("lib", wsroot / "src" / "current")
    selected(wsroot, "INT-007")
    assert_allowed(gate(write_payload(wsroot, "src/current/x.py")))
    assert_allowed(gate(bash_call(wsroot, "ln -s a.py src/b.py && ln src/a.py src/c.py")))
