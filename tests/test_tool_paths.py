"""Which strings of a tool's input name a path (DESIGN §6: every tool's paths are checked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw_tui.gate.tool_paths import MAX_STRINGS, read_input


def test_nested_paths_are_found_with_where_they_are(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("x")
    value = {
        "path": ".orchestration/active_intents.yaml",
        "options": {"destination": "/etc/passwd", "backup": "~/.ssh/id_rsa"},
        "edits": [{"target": {"file": "src/a.py"}}, {"note": "fix the bug"}],
        "name": "README.md",  # an existing entry, no separator
        "windows": "C:\\\\x",
    }
    found = dict((where, path) for path, where in read_input(value, str(tmp_path)).paths)
    assert found == {
        "path": ".orchestration/active_intents.yaml",
        "options.destination": "/etc/passwd",
        "options.backup": "~/.ssh/id_rsa",
        "edits[0].target.file": "src/a.py",
        "name": "README.md",
        "windows": "C:\\\\x",
    }


@pytest.mark.parametrize(
    "text",
    [
        "fix the bug in src/a.py please",  # prose: spaces
        "https://example.com/a/b",  # a URL
        "line one/\nline two",  # more than one line
        "",
        "no-separator-and-not-there",
        "x" * 5000 + "/y",
    ],
)
def test_text_that_is_not_a_path(text: str, tmp_path: Path) -> None:
    assert read_input({"value": text}, str(tmp_path)).paths == []


def test_an_input_with_too_many_strings_is_refused() -> None:
    with pytest.raises(ValueError, match=f"more than {MAX_STRINGS} strings"):
        read_input(["x"] * (MAX_STRINGS + 1), None)
