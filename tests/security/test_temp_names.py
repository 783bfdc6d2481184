"""Temporary names are exempt only after realpath, and only when this command's mktemp made
them (issue 17).

A name in ``/tmp`` that merely *looks* like mktemp's (``XXX`` in it) used to be trusted
before it was resolved: a symbolic link ``/tmp/fooXXX -> <ws>/.orchestration`` could be made
and written through. Now only a name that the same command's ``mktemp`` produced is exempt,
and only while its real path stays in a temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .kit import (
    assert_allowed,
    assert_blocked,
    assert_protected,
    bash_call,
    gate,
    selected,
    shell_call,
)


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary directory of the gate's (``TMPDIR``), as a fresh one per test."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    monkeypatch.setenv("TMPDIR", str(directory))
    return directory


@pytest.fixture
def in_tmp() -> Iterator[str]:
    """A name of this test's own, right in ``/tmp`` (where the issue planted its link)."""
    name = f"/tmp/paw-test-{uuid.uuid4().hex[:12]}-XXX"
    yield name
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name)


def test_a_look_alike_link_cannot_be_made_or_written_through(wsroot: Path, in_tmp: str) -> None:
    """The issue's case: creating ``/tmp/...XXX`` as a link into ``.orchestration`` and
    writing through it are both checked, as what the link is and as where it leads."""
    selected(wsroot, "INT-001")
    made = gate(bash_call(wsroot, f"ln -s {wsroot}/.orchestration {in_tmp}"))
    assert_blocked(made, in_tmp, "INT-001")
    os.symlink(wsroot / ".orchestration", in_tmp)  # planted anyway (an earlier call, by hand)
    write = f"echo 'approval: none' > {in_tmp}/governance.yaml"
    assert_protected(gate(bash_call(wsroot, write)), ".orchestration/governance.yaml")
    call = shell_call(wsroot, write)
    assert call.proc is None
    assert "approval: none" not in (wsroot / ".orchestration/governance.yaml").read_text()


@pytest.mark.parametrize(
    "command",
    [
        "echo x > NAME",
        "touch NAME/bar",
        "mkdir NAME",
        "t=NAME; echo x > $t",
        "mktemp; echo x > NAME",
    ],
)
def test_a_name_that_only_looks_like_mktemp_s_is_checked(
    wsroot: Path, in_tmp: str, command: str
) -> None:
    """Outside the workspace, a typed name is a Scope Violation like any other path."""
    selected(wsroot, "INT-001")
    assert_blocked(gate(bash_call(wsroot, command.replace("NAME", in_tmp))), in_tmp, "INT-001")


def test_a_planted_look_alike_at_mktemp_s_own_text_is_followed(
    wsroot: Path, temp_dir: Path
) -> None:
    """The parser writes mktemp's random part as the template's X's: a link planted at that
    exact text is resolved before anything is exempt."""
    os.symlink(wsroot / ".orchestration", temp_dir / "tmp.XXXXXXXXXX")
    selected(wsroot, "INT-001")
    command = f'TMPDIR={temp_dir}; d=$(mktemp -d) && echo x > "$d/active_intents.yaml"'
    assert_protected(gate(bash_call(wsroot, command)))


def test_mktemp_s_names_stay_exempt(wsroot: Path, temp_dir: Path) -> None:
    """What mktemp makes, and what is written in and below it, needs no scope (false
    positive guard); the real command runs."""
    selected(wsroot, "INT-001")
    for command in (
        'tmp=$(mktemp) && echo x > "$tmp" && rm -f "$tmp"',
        'd=$(mktemp -d) && cp README.md "$d/" && tar -cf "$d/a.tar" src && rm -rf "$d"',
        'f=$(mktemp -t notes.XXXXXX) && sort README.md > "$f"',
        'd=$(mktemp -d); cd "$d" && touch a b && cd - && rm -r "$d"',
        'mktemp -p "$TMPDIR" x.XXXX',
    ):
        assert_allowed(gate(bash_call(wsroot, command)))
    call = shell_call(wsroot, 'd=$(mktemp -d) && echo ok > "$d/x" && cat "$d/x" && rm -r "$d"')
    assert call.proc is not None and call.proc.stdout == "ok\n"


def test_mktemp_into_a_protected_directory_is_checked(wsroot: Path, temp_dir: Path) -> None:
    """``mktemp -p DIR`` and ``TMPDIR=DIR mktemp`` make their file in DIR."""
    selected(wsroot, "INT-001")
    for command in (
        "mktemp -p .orchestration",
        "TMPDIR=.orchestration mktemp",
        "export TMPDIR=$PWD/.orchestration; t=$(mktemp -t x.XXXX); echo > $t",
    ):
        assert_protected(gate(bash_call(wsroot, command)))
