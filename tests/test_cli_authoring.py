"""``paw-tui intents new|scope|edit`` (DESIGN §1, §4) and the smaller CLI items of issue 18:
``check --intent NOPE`` names the known intents, ``trace tail`` on an empty ledger says so,
a YAML problem is printed once, ``set-status`` with no change says so."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import INTENTS_YAML, paw_state_dir, records, root, state, write_workspace

from paw_tui.commands.intents_editor import edit_intent

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]


def intents_text(root: Path) -> str:
    return (root / ".orchestration" / "active_intents.yaml").read_text(encoding="utf-8")


def editor(tmp_path: Path, body: str) -> str:
    """An $EDITOR command: a Python script run on the file to edit (``path`` in ``body``)."""
    script = tmp_path / f"editor-{abs(hash(body))}.py"
    script.write_text(
        "import sys, pathlib\npath = pathlib.Path(sys.argv[1])\ntext = path.read_text()\n" + body,
        encoding="utf-8",
    )
    return f"{sys.executable} {script}"


# -- intents new ---------------------------------------------------------------------------------


def test_new_creates_the_intent_and_says_what_its_scope_covers(root: Path, run_cli: RunCli) -> None:
    (root / "src" / "cart").mkdir(parents=True)
    (root / "src" / "cart" / "cart.py").write_text("x\n")
    done = run_cli(
        "intents", "new", "CART-1", "--name", "Shopping cart", "--scope", "src/cart/**",
        "tests/cart/**", "--constraint", "No new dependencies", "--criterion", "tests pass",
        "--depends-on", "INT-001", "--description", "Keep the cart.", "--by", "alice",
        cwd=root,
    )  # fmt: skip
    assert done.code == 0, done.err
    assert (
        done.out == "Created CART-1 (PENDING): Shopping cart\n  covers 1 file: src/cart/cart.py\n"
    )
    assert done.err == "warning: 'tests/cart/**' covers no file yet\n"
    assert intents_text(root).startswith(INTENTS_YAML)
    record = records(root)[-1]
    assert (record["event"], record["intent_id"], record["reason"]) == (
        "intent_created", "CART-1", "created by alice",
    )  # fmt: skip
    listed = run_cli("intents", "show", "CART-1", cwd=root)
    assert "depends_on:\n  - INT-001" in listed.out and "  - tests pass" in listed.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["INT-001", "--name", "x", "--scope", "a/**"], "Intent 'INT-001' already exists"),
        (["C 1", "--name", "x", "--scope", "a/**"], "Invalid intent id 'C 1'"),
        (["C-1", "--name", "x", "--scope", "[a"], "Bad pattern '[a' in the owned_scope of C-1"),
        (
            ["C-1", "--name", "x", "--scope", ".paw/instructions/**"],
            "names .paw/instructions, a protected path",
        ),
        (
            ["C-1", "--name", "x", "--scope", "a/**", "--depends-on", "INT-404"],
            "Unknown intent 'INT-404'",
        ),
        (
            ["C-1", "--name", "x", "--scope", "a/**", "--status", "BLOCKED"],
            "Unknown status 'BLOCKED' for a new intent",
        ),
    ],
)
def test_new_refuses_bad_input_whole(
    root: Path, run_cli: RunCli, argv: list[str], message: str
) -> None:
    before = intents_text(root)
    done = run_cli("intents", "new", *argv, cwd=root)
    assert done.code == 2 and message in done.err, done.err
    assert done.out == "" and intents_text(root) == before and records(root) == []


def test_new_needs_a_name_and_a_scope(root: Path, run_cli: RunCli) -> None:
    with pytest.raises(SystemExit) as usage:
        run_cli("intents", "new", "C-1", "--name", "x", cwd=root)
    assert usage.value.code == 2


# -- intents scope -------------------------------------------------------------------------------


def test_scope_adds_and_removes_patterns(root: Path, run_cli: RunCli) -> None:
    done = run_cli(
        "intents",
        "scope",
        "INT-001",
        "--add",
        "docs/auth/**",
        "--remove",
        "tests/auth/**",
        cwd=root,
    )
    assert done.code == 0, done.err
    assert done.out.startswith(
        "INT-001 owned_scope: src/auth/**, !src/auth/legacy/**, docs/auth/**\n"
    )
    assert 'owned_scope: ["src/auth/**", "!src/auth/legacy/**", "docs/auth/**"]' in intents_text(
        root
    )
    again = run_cli("intents", "scope", "INT-001", "--add", "docs/auth/**", cwd=root)
    assert (
        again.out
        == "No change: the owned_scope of INT-001 is already src/auth/**, !src/auth/legacy/**, docs/auth/**.\n"
    )
    assert len(records(root)) == 1


def test_scope_without_a_pattern_or_with_an_unknown_one_is_refused(
    root: Path, run_cli: RunCli
) -> None:
    assert run_cli("intents", "scope", "INT-001", cwd=root).code == 2
    done = run_cli("intents", "scope", "INT-001", "--remove", "nope/**", cwd=root)
    assert done.code == 2
    assert "INT-001 has no pattern 'nope/**' in its owned_scope" in done.err


# -- intents edit --------------------------------------------------------------------------------


def test_edit_applies_what_the_person_saved_comments_included(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    command = editor(
        tmp_path,
        "assert text.startswith('id: INT-002\\nname: Documentation Refresh\\n'), text\n"
        "text = text.replace('name: Documentation Refresh', 'name: Docs  # shorter')\n"
        "path.write_text(text)\n",
    )
    done = run_cli("intents", "edit", "INT-002", "--by", "bo", cwd=root, env={"VISUAL": command})
    assert done.code == 0, done.err
    assert done.out == "Edited INT-002: name.\n"
    expected = INTENTS_YAML.replace("name: Documentation Refresh", "name: Docs  # shorter")
    assert intents_text(root) == expected
    record = records(root)[-1]
    assert record["event"] == "intent_edited" and record["fields"] == ["name"]
    assert record["reason"] == "name changed by bo (intents edit)"


def test_edit_refuses_a_bad_save_whole_and_keeps_the_edit(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    command = editor(tmp_path, "path.write_text(text.replace('status: PENDING', 'status: DONE'))\n")
    done = run_cli("intents", "edit", "INT-002", cwd=root, env={"EDITOR": command, "VISUAL": ""})
    assert done.code == 2
    assert done.err.startswith("Line 3 of the entry of INT-002: unknown status 'DONE'")
    kept = Path(done.err.rsplit("your edit is kept in ", 1)[1].strip().rstrip("."))
    assert "status: DONE" in kept.read_text() and kept.parent != root
    kept.unlink()
    assert intents_text(root) == INTENTS_YAML and records(root) == []


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        (
            "path.write_text(text.replace('id: INT-002', 'id: INT-009'))\n",
            "The id of an intent cannot change (INT-002 -> INT-009)",
        ),
        ("path.write_text(text + 'owned_scope: [\"x\"]\\n')\n", "duplicate key"),
        (
            "path.write_text(text.replace('\"*.md\"', '\".git/config\"'))\n",
            "names .git/config, a protected path",
        ),
    ],
)
def test_edit_refusals_name_the_problem(
    root: Path, run_cli: RunCli, tmp_path: Path, body: str, refusal: str
) -> None:
    done = run_cli("intents", "edit", "INT-002", cwd=root, env={"VISUAL": editor(tmp_path, body)})
    assert done.code == 2 and refusal in done.err, done.err
    assert intents_text(root) == INTENTS_YAML


def test_edit_saved_unchanged_or_emptied_changes_nothing(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    same = run_cli("intents", "edit", "INT-002", cwd=root, env={"VISUAL": editor(tmp_path, "")})
    assert (same.code, same.out) == (0, "No change: INT-002 is as it was.\n")
    empty = run_cli(
        "intents",
        "edit",
        "INT-002",
        cwd=root,
        env={"VISUAL": editor(tmp_path, "path.write_text('')\n")},
    )
    assert (empty.code, empty.out) == (
        0,
        "Cancelled: the entry of INT-002 was emptied; nothing changed.\n",
    )
    assert intents_text(root) == INTENTS_YAML and records(root) == []


def test_an_entry_changed_while_it_was_edited_is_not_overwritten(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """Someone (the gate, another person) changes the entry while the editor is open."""
    yaml = root / ".orchestration" / "active_intents.yaml"
    body = (
        f"y = pathlib.Path({str(yaml)!r})\n"
        "y.write_text(y.read_text().replace('status: PENDING', 'status: IN_PROGRESS'))\n"
        "path.write_text(text.replace('Documentation Refresh', 'Docs'))\n"
    )
    done = run_cli("intents", "edit", "INT-002", cwd=root, env={"VISUAL": editor(tmp_path, body)})
    assert done.code == 2 and "INT-002 changed in" in done.err
    assert "Documentation Refresh" in intents_text(root)


def test_on_a_terminal_a_refused_save_reopens_the_editor(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first save is refused; the editor opens again on the person's text with the
    reason noted at its end; the second save applies."""
    seen = tmp_path / "second-open.txt"
    body = (
        f"seen = pathlib.Path({str(seen)!r})\n"
        "if 'status: DONE' not in text:\n"
        "    path.write_text(text.replace('status: PENDING', 'status: DONE'))\n"
        "else:\n"
        "    seen.write_text(text)\n"
        "    path.write_text(text.replace('status: DONE', 'status: IN_PROGRESS'))\n"
    )
    monkeypatch.setenv("VISUAL", editor(tmp_path, body))
    assert edit_intent(state(root), "INT-002", "ann", interactive=lambda: True) == 0
    second = seen.read_text()
    assert "status: DONE" in second
    assert "# paw-tui: The last save was refused and nothing was written:" in second
    assert "# paw-tui: Line 3 of the entry of INT-002: unknown status 'DONE'" in second
    assert "status: IN_PROGRESS       # nobody started it" in intents_text(root)
    assert [r["event"] for r in records(root)] == ["intent_edited"]


def test_on_a_terminal_saving_a_refused_edit_unchanged_gives_up(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paw_tui.core.errors import ValidationError

    monkeypatch.setenv(
        "VISUAL",
        editor(tmp_path, "path.write_text(text.replace('status: PENDING', 'status: DONE'))\n"),
    )
    with pytest.raises(
        ValidationError, match="Gave up: nothing was written; your edit is kept in "
    ):
        edit_intent(state(root), "INT-002", "ann", interactive=lambda: True)
    assert intents_text(root) == INTENTS_YAML


# -- the smaller items ---------------------------------------------------------------------------


def test_check_with_an_unknown_intent_names_the_known_ones(root: Path, run_cli: RunCli) -> None:
    done = run_cli("check", "src/a.py", "--intent", "INT-01", cwd=root)
    assert done.code == 2
    assert done.err.startswith(
        "Unknown intent 'INT-01'. Known intents: INT-001 (JWT Authentication Migration), "
        "INT-002 (Documentation Refresh), INT-003 (Payment Gateway)"
    )
    assert done.err.rstrip().endswith("INT-007 (Source Tree). Did you mean INT-001?")


def test_trace_tail_on_an_empty_ledger_says_so(root: Path, run_cli: RunCli) -> None:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    missing = run_cli("trace", "tail", cwd=root)
    assert (missing.code, missing.out) == (
        0,
        f"No records yet: {ledger} does not exist (the gate writes it).\n",
    )
    ledger.write_bytes(b"")
    empty = run_cli("trace", "tail", cwd=root)
    assert (empty.code, empty.out) == (0, f"No records yet: {ledger} is empty.\n")
    assert run_cli("trace", "tail", "--json", cwd=root).out == ""


def test_a_yaml_problem_is_printed_once(ws, run_cli: RunCli) -> None:  # type: ignore[no-untyped-def]
    root = write_workspace(ws.root, intents="active_intents:\n  - id: A\n    name: [x\n")
    done = run_cli("intents", "list", cwd=root)
    assert done.code == 2
    assert done.err.count("YAML syntax error") == 1, done.err
    assert done.err.count("\n") == 1
    two = write_workspace(
        ws.root, intents="active_intents:\n  - id: A\n    status: DONE\n  - id: B\n"
    )
    listed = run_cli("intents", "list", cwd=two)
    assert listed.err.count("unknown status 'DONE'") == 1 and "Also:\n  " in listed.err


def test_set_status_without_a_change_says_so(root: Path, run_cli: RunCli) -> None:
    done = run_cli("intents", "set-status", "INT-001", "in_progress", cwd=root)
    assert (done.code, done.out) == (0, "INT-001 is already IN_PROGRESS.\n")
    assert records(root) == []
