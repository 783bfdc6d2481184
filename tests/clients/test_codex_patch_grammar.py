"""Codex's ``apply_patch`` grammar as the gate reads it, case by case against what the real
Codex 0.169.0 did with the same text (``tests/data/codex_patch_grammar.json``, recorded from
the binary and re-checked against it by ``tests/realclients/test_codex_patch_grammar.py``).

A patch Codex refuses is refused; a patch it applies is read into the same files, in the same
roles (added, deleted, updated, moved to); the shell form Codex takes over is read with the
directory a ``cd`` gives it, and any other shell command holding a patch is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paw_tui.gate.patch import PatchError, parse_patch, patch_paths
from paw_tui.gate.patch_shell import shell_patch, shell_patch_paths

DATA = Path(__file__).resolve().parent.parent / "data" / "codex_patch_grammar.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def _hunks(body: str) -> list[list[str]]:
    return [
        [hunk.kind, hunk.path, *([hunk.move_to] if hunk.move_to else [])]
        for hunk in parse_patch(body)
    ]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_gate_reads_a_patch_as_codex_does(case: dict[str, Any]) -> None:
    if case["codex"] == "refused":
        with pytest.raises(PatchError):
            patch_paths(case["patch"])
        return
    assert _hunks(case["patch"]) == case["hunks"]
    if case["codex"] == "applied":  # the files Codex reported are the files the gate checks
        reported = {line[2:] for line in case["reported"]}
        written = {hunk[-1] for hunk in case["hunks"]}
        assert written == reported
        assert set(patch_paths(case["patch"])) >= reported


def test_the_recorded_cases_cover_both_answers() -> None:
    outcomes = {case["codex"] for case in CASES}
    assert outcomes == {"applied", "refused", "failed to apply"}
    hidden = [case for case in CASES if case["codex"] == "applied" and "hidden.txt" in str(case)]
    assert len(hidden) >= 10  # the header Codex trims, in every place it was found


def test_an_add_file_body_and_an_update_chunk_are_kept() -> None:
    body = (
        "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n"
        "*** Update File: b.txt\n*** Move to: c.txt\n@@ def f\n ctx\n-old\n+new\n+more\n"
        "*** End of File\n*** End Patch"
    )
    add, update = parse_patch(body)
    assert (add.kind, add.lines, add.written) == ("add", ["one", "two"], "a.txt")
    assert (update.path, update.move_to, update.written) == ("b.txt", "c.txt", "c.txt")
    (chunk,) = update.chunks
    assert (chunk.context, chunk.new, chunk.added, chunk.end_of_file) == (
        "def f",
        ["ctx", "new", "more"],
        [1, 2],
        True,
    )


PATCH = "*** Begin Patch\n*** Add File: a.txt\n+x\n *** Add File: .orchestration/x.yaml\n+y\n*** End Patch\n"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"apply_patch <<'EOF'\n{PATCH}EOF\n", ["a.txt", ".orchestration/x.yaml"]),
        (f"applypatch <<EOF\n{PATCH}EOF\n", ["a.txt", ".orchestration/x.yaml"]),
        (f'apply_patch <<"PATCH"\n{PATCH}PATCH\n', ["a.txt", ".orchestration/x.yaml"]),
        (f"\n\napply_patch <<'EOF'\n{PATCH}", ["a.txt", ".orchestration/x.yaml"]),
        (
            f"cd src && apply_patch <<'EOF'\n{PATCH}EOF\n",
            ["src/a.txt", "src/.orchestration/x.yaml"],
        ),
        (f"cd '..' && apply_patch <<'EOF'\n{PATCH}EOF\n", ["../a.txt", "../.orchestration/x.yaml"]),
        (
            f'cd "a b" && apply_patch <<EOF\n{PATCH}EOF\n',
            ["a b/a.txt", "a b/.orchestration/x.yaml"],
        ),
        ("ls apply_patch", None),
        ("grep -rn '*** Begin Patch' src", None),
    ],
    ids=[
        "quoted",
        "applypatch",
        "other delimiter",
        "no closing line",
        "cd",
        "cd quoted",
        "cd double-quoted",
        "no patch",
        "no apply_patch",
    ],
)
def test_the_shell_form_codex_applies_itself(command: str, expected: list[str] | None) -> None:
    assert shell_patch_paths(command) == expected


def test_a_dash_heredoc_keeps_its_tabs_as_codex_does() -> None:
    """``<<-`` strips tabs for bash, but Codex reads the raw text: the tabbed '+' line is not
    content, and Codex refuses the patch (observed); so does the gate."""
    command = "apply_patch <<-EOF\n\t*** Begin Patch\n\t*** Add File: a.txt\n\t+x\n\t*** End Patch\n\tEOF\n"
    found = shell_patch(command)
    assert found is not None and found[0].startswith("\t*** Begin Patch")
    with pytest.raises(PatchError):
        shell_patch_paths(command)


@pytest.mark.parametrize(
    "command",
    [
        f"true; apply_patch <<'EOF'\n{PATCH}EOF\n",
        f"apply_patch <<'EOF'\n{PATCH}EOF\n# done\n",
        f"apply_patch <<'EOF'\n{PATCH}EOF\necho done\n",
        f"apply_patch <<'EOF' 2>/dev/null\n{PATCH}EOF\n",
        f"apply_patch <<'EOF' &\n{PATCH}EOF\n",
        f"apply_patch <<'EOF';\n{PATCH}EOF\n",
        f"'apply_patch' <<'EOF'\n{PATCH}EOF\n",
        f"cd $HOME && apply_patch <<'EOF'\n{PATCH}EOF\n",
        f"cd -P src && apply_patch <<'EOF'\n{PATCH}EOF\n",
        f"cd ~ && apply_patch <<'EOF'\n{PATCH}EOF\n",
        f"apply_patch '{PATCH}'",
        f"printf '%s' '{PATCH}' | apply_patch",
        f"bash -lc \"apply_patch <<'EOF'\n{PATCH}EOF\n\"",
        f"apply_patch <<'EOF'\n{PATCH} EOF\nEOF\n",
        f"apply_patch <<'EOF'\r\n{PATCH}EOF\r\n",
    ],
    ids=[
        "after a command",
        "a trailing comment",
        "a trailing command",
        "another redirection",
        "in the background",
        "a semicolon",
        "a quoted name",
        "cd to a variable",
        "cd with an option",
        "cd to ~",
        "the patch as an argument",
        "the patch on stdin",
        "bash -lc",
        "a delimiter line with spaces",
        "CRLF",
    ],
)
def test_any_other_shell_form_holding_a_patch_is_refused(command: str) -> None:
    with pytest.raises(PatchError, match="apply_patch|EOF|patch"):
        shell_patch_paths(command)
