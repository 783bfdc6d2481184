"""Which strings of a tool's input name a path (DESIGN §6: every tool's paths are checked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw_tui.gate.tool_paths import (
    ARGS,
    ARGV,
    COMMAND,
    COMMANDS,
    CWD,
    INTERPRETER,
    MAX_STRINGS,
    PATH,
    PROGRAM,
    file_url_path,
    key_role,
    read_input,
)


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


@pytest.mark.parametrize(
    ("key", "role"),
    [
        ("path", PATH), ("file_path", PATH), ("filePath", PATH), ("FILE_PATH", PATH),
        ("FilePath", PATH), ("filepath", PATH), ("file-name", PATH), ("targetFile", PATH),
        ("notebook_path", PATH), ("dirPath", CWD), ("destination", PATH), ("Source", PATH),
        ("paths", PATH), ("files", PATH), ("outputDirectory", PATH), ("dir", CWD),
        ("cwd", CWD), ("workdir", CWD), ("working_directory", CWD), ("command", COMMAND),
        ("cmd", COMMAND), ("shell_command", COMMAND), ("commandLine", COMMAND),
        ("buildScript", COMMAND), ("commands", COMMANDS), ("argv", ARGV), ("args", ARGS),
        ("program", PROGRAM), ("shell", INTERPRETER),
        # words that only look like these
        ("profile", None), ("sort_dir", None), ("description", None), ("content", None),
        ("url", None), ("message", None), ("name", None),
    ],
)  # fmt: skip
def test_what_a_key_names(key: str, role: str | None) -> None:
    assert key_role(key) == role


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("file:///srv/a%20b/c.txt", "/srv/a b/c.txt"),
        ("FILE:///srv/x", "/srv/x"),
        ("file://localhost/srv/x", "/srv/x"),
        ("file:/srv/x", "/srv/x"),
        ("file://server/share/x", "//server/share/x"),
        ("File: notes.txt", None),
        ("https://example.com/x", None),
    ],
)
def test_file_urls_name_paths(text: str, path: str | None) -> None:
    assert file_url_path(text) == path


def test_commands_are_read_with_their_place_and_program() -> None:
    value = {
        "steps": [
            {"command": "make", "cwd": "build"},
            {"program": "git", "args": ["commit", "-m", "don't"]},
            {"argv": ["bash", "-c", "ls"]},
            {"interpreter": "python3", "script": "print(1)"},
        ],
        "note": "see src/a.py",
    }
    found = read_input(value, None, want_paths=False)
    assert [(c.text, c.cwd, c.strict) for c in found.commands] == [
        ("make", "build", True),
        ("git commit -m 'don'\"'\"'t'", None, True),
        ("git commit -m don't", None, False),
        ("bash -c ls", None, True),
        ("python3 -c 'print(1)'", None, True),
    ]
    assert found.paths == []
