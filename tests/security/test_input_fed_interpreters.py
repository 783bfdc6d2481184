"""A shell or interpreter that runs what it reads from its input: the commands arrive later,
where no hook looks (Codex's ``write_stdin`` into an interactive ``bash`` started with
``exec_command``, a pipe into ``python3``). Under an intent, starting one is denied with a
reason that says how to do the same visibly; with the code on the command line (``-c``, a
here-document the gate reads, a script) it is checked as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import assert_allowed, assert_denied, bash_call, gate, selected

INPUT_FED = [
    "bash",
    "bash -i",
    "bash -l",
    "exec bash",
    "env bash",
    "/bin/sh",
    "ls | sh -s",
    "python3",
    "python3.11",
    "cat notes.txt | python3 -",
    "node",
    "perl",
    "irb",
    "sudo -u nobody bash",
]
CODE_ON_THE_COMMAND_LINE = [
    "bash -lc 'ls src'",
    "sh -c 'echo x > src/auth/a.py'",
    "bash <<'EOF'\necho x > src/auth/b.py\nEOF",
    "python3 -c 'print(1)'",
    "python3 -m pytest tests/auth",
    "python3 tools/check.py",
    "node -e 'console.log(1)'",
    "perl -pi -e 's/a/b/' src/auth/a.py",
]


@pytest.mark.parametrize("command", INPUT_FED)
def test_an_interpreter_fed_from_its_input_is_denied(root: Path, command: str) -> None:
    selected(root, "INT-001")
    reason = assert_denied(gate(bash_call(root, command)))
    assert "reads from its input" in reason and "-c" in reason


@pytest.mark.parametrize("command", CODE_ON_THE_COMMAND_LINE)
def test_code_on_the_command_line_is_checked_as_before(root: Path, command: str) -> None:
    selected(root, "INT-001")
    assert_allowed(gate(bash_call(root, command)))
