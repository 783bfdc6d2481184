"""Which strings of a tool's input name a path (DESIGN §6: every tool's paths are checked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gatekit import gate, gate_env, paw_state_dir, root, select_payload, write_payload

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

__all__ = ["paw_state_dir", "root"]  # fixtures


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


def test_a_write_decision_loads_no_shell_module(root: Path) -> None:
    """Every file tool's input is read for paths (this module), on the hook's hot path: a
    Write decided in a fresh interpreter loads neither the shell parser nor the gate's shell
    modules (a shell call's own cost)."""
    import subprocess
    import sys

    assert gate(select_payload(root, "INT-006")).code == 0
    payload = json.dumps(write_payload(root, "src/new.py"))
    code = (
        "import os, sys\n"
        "from paw_tui.gate.main import decide_payload\n"
        f"answer = decide_payload({payload!r}.encode(), environ=dict(os.environ))\n"
        "assert answer.exit_code == 0, answer.stderr\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=gate_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split()
    assert "paw_tui.gate.tool_paths" in loaded  # the probe read the Write's input
    shell = [
        name
        for name in loaded
        if name.startswith(("paw_tui.core.policy.shell", "paw_tui.gate.shell_"))
    ]
    assert shell == [], shell
