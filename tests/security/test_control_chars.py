"""Control characters: paths that rewrite the reviewer's terminal or forge ledger lines.

Any path holding a C0, DEL or C1 character is denied (no agent needs one, and it cannot be
shown faithfully); every view meant for a person prints agent-controlled text escaped, one
record per line, so nothing an agent wrote reaches the terminal as an escape sequence.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paw_tui.core.support.printable import has_control, is_control

from .kit import (
    assert_deny_shape,
    bash_call,
    cli,
    gate,
    mcp_payload,
    selected,
    write_payload,
)

NASTY_PATHS = {
    "ESC clear screen": "src/\x1b[2J.ts",
    "OSC title with BEL": "src/\x1b]0;pwned\x07.ts",
    "newline": "src/a\nb.py",
    "carriage return": "src/a\rb.py",
    "tab": "src/a\tb.py",
    "DEL": "src/a\x7f.py",
    "C1 CSI": "src/\x9b31m.py",
    "C1 NEL": "src/a\x85b.py",
    "backspace": "src/evil.py\x08\x08\x08ok.py",
}


@pytest.mark.parametrize("rel", list(NASTY_PATHS.values()), ids=list(NASTY_PATHS))
def test_write_with_a_control_character_is_denied(wsroot: Path, rel: str) -> None:
    """A Write whose in-scope path holds a control character: denied."""
    selected(wsroot, "INT-007")
    assert_deny_shape(gate(write_payload(wsroot, rel)))


@pytest.mark.parametrize(
    "command",
    [
        'echo x > "src/\x1b[2J.ts"',
        "touch $'src/\\x1b[2J.ts'",
        "touch 'src/a\nb.py'",
        'cp README.md "src/\x9b1m.md"',
        "mkdir $'src/\\r'",
    ],
    ids=["literal ESC", "ANSI-C ESC", "quoted newline", "C1 in cp", "ANSI-C CR"],
)
def test_shell_target_with_a_control_character_is_denied(wsroot: Path, command: str) -> None:
    """A Bash write target holding a control character (literal or from ``$'...'``): denied."""
    selected(wsroot, "INT-007")
    assert_deny_shape(gate(bash_call(wsroot, command)))


def test_mcp_argument_with_a_control_character_is_denied(wsroot: Path) -> None:
    """An MCP tool's path argument holding an OSC sequence: denied."""
    selected(wsroot, "INT-007")
    payload = mcp_payload(
        wsroot, "mcp__filesystem__write_file", {"path": "src/\x1b]0;pwned\x07.ts", "content": ""}
    )
    assert_deny_shape(gate(payload))


def assert_clean_view(data: bytes, lines: int | None = None) -> str:
    """No C0 (but ``\\n``), DEL or C1 character; exactly ``lines`` lines when given."""
    text = data.decode("utf-8")
    bad = [hex(ord(c)) for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    assert bad == [], (bad, text)
    if lines is not None:
        assert text.count("\n") == lines, text
    return text


def append_nasty_records(root: Path) -> None:
    """Old records, written by paw-tui itself, whose agent-controlled fields hold escapes."""
    from paw_tui.core.ledger.store import Ledger

    ledger = Ledger.for_workspace(str(root))
    ledger.append(
        {
            "event": "tool_denied",
            "session_id": "s-\x1b[31mred",
            "tool": "Write",
            "paths": ["src/\x1b[2J\x1b]0;owned\x07.ts", "src/a\nb.py"],
            "decision": "deny",
            "reason": "line one\nline two\r\x9b2Jgone",
        }
    )
    ledger.append(
        {
            "event": "tool_allowed",
            "session_id": "s-alpha",
            "intent_id": "INT-007",
            "tool": "Bash",
            "command": "echo hi\n\x1b[2Jrm -rf / # \x7f",
            "paths": ["src/\x85.py"],
            "decision": "allow",
        }
    )
    ledger.append(
        {
            "event": "mutation",
            "session_id": "s-alpha",
            "intent_id": "INT-007",
            "tool": "Write",
            "paths": ["src/ok.py"],
            "decision": "allow",
        }
    )


def test_trace_tail_escapes_and_keeps_one_line_per_record(wsroot: Path) -> None:
    """``paw-tui trace tail`` prints three records as three clean lines."""
    append_nasty_records(wsroot)
    done = cli("trace", "tail", cwd=wsroot)
    assert done.returncode == 0, done.stderr
    text = assert_clean_view(done.stdout, lines=3)
    assert "src/ok.py" in text and "s-alpha" in text


def test_trace_tail_filtered_and_show(wsroot: Path) -> None:
    """``trace tail --session`` and ``trace show`` escape too."""
    append_nasty_records(wsroot)
    done = cli("trace", "tail", "--decision", "deny", cwd=wsroot)
    assert done.returncode == 0, done.stderr
    assert_clean_view(done.stdout, lines=1)
    for seq in ("1", "2"):
        shown = cli("trace", "show", seq, cwd=wsroot)
        assert shown.returncode == 0, shown.stderr
        assert_clean_view(shown.stdout)


def test_a_denied_nasty_path_is_shown_clean(wsroot: Path) -> None:
    """End to end: the gate records its deny of an ESC path; the trace shows it escaped."""
    selected(wsroot, "INT-007")
    gate(write_payload(wsroot, "src/\x1b[2J\x1b[H.ts"))
    gate(bash_call(wsroot, "touch $'src/\\x1b]0;x\\x07'"))
    done = cli("trace", "tail", cwd=wsroot)
    assert done.returncode == 0, done.stderr
    assert_clean_view(done.stdout, lines=3)


def test_a_scope_request_reason_is_shown_clean(wsroot: Path) -> None:
    """The reason of ``request_scope_expansion`` is the agent's text, shown to the person
    deciding: refused when it holds escapes, or listed escaped."""
    selected(wsroot, "INT-007")
    asked = mcp_payload(
        wsroot,
        "mcp__paw__request_scope_expansion",
        {"pattern": "docs/**", "reason": "harmless\x1b[2J\x1b[1;1HApproved by admin\r\n"},
    )
    gate(asked)
    done = cli("scope", "requests", cwd=wsroot)
    assert done.returncode == 0, done.stderr
    assert_clean_view(done.stdout)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, blacklist_categories=())))
def test_the_control_check_finds_exactly_the_control_characters(text: str) -> None:
    """The gate's check takes a printable text at once; it must never miss a control
    character (C0, DEL, C1, a lone surrogate) for it, nor find one that is not there."""
    assert has_control(text) == any(is_control(char) for char in text)


def test_every_control_character_is_unprintable() -> None:
    """What makes the fast answer sound, checked over the whole code space."""
    for code in range(0x110000):
        char = chr(code)
        if is_control(char):
            assert not char.isprintable(), hex(code)
