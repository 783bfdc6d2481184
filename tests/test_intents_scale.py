"""A gate call does the same work with 5 intents as with 2,000 (DESIGN §10), counted, never
timed: YAML files compiled and parsed, intent records read from the policy cache and compiled
scopes built (``paw_tui.core.policy.compiled.COUNTS``); and an intents file too large for the
hook's time budget is refused before it is parsed."""

from __future__ import annotations

from pathlib import Path

import pytest
from gatekit import (
    NO_INTENT,
    bash_payload,
    claude_payload,
    gate,
    many_intents_yaml,
    paw_state_dir,
    select_payload,
    write_payload,
    write_workspace,
)

from paw_tui.core.policy import compiled
from paw_tui.core.policy.sources import MAX_SOURCE_BYTES

__all__ = ["paw_state_dir"]


def counted(payload: dict[str, object]) -> tuple[int, dict[str, int]]:
    """The gate's exit code for ``payload`` and the work it did."""
    before = dict(compiled.COUNTS)
    result = gate(payload)
    return result.code, {name: compiled.COUNTS[name] - before[name] for name in before}


def workspace(base: Path, count: int) -> Path:
    root = write_workspace(base / f"ws{count}", many_intents_yaml(count, exclusions=True))
    (root / ".paw").mkdir()
    (root / ".git").mkdir()
    return root


def calls(root: Path) -> dict[str, tuple[int, dict[str, int]]]:
    """Each kind of call, once a session holds INT-0001 (and the cache is warm)."""
    code, _ = counted(select_payload(root, "INT-0001", session="s1"))
    assert code == 0
    read = claude_payload(
        "pre_tool_use_write",
        root,
        session="s1",
        tool_name="Read",
        replace_input={"file_path": str(root / "README.md")},
    )
    return {
        "write": counted(write_payload(root, "src/f1/a.py", session="s1")),
        "out of scope": counted(write_payload(root, "src/f2/a.py", session="s1")),
        "before selection": counted(write_payload(root, "src/f1/b.py", session="s2")),
        "read-only": counted(read),
        "bash": counted(bash_payload(root, "echo x > src/f1/c.py", session="s1")),
    }


def test_a_call_does_the_same_work_with_5_and_2000_intents(tmp_path: Path) -> None:
    small = calls(workspace(tmp_path, 5))
    large = calls(workspace(tmp_path, 2000))
    assert large == small
    expected_codes = {
        "write": 0,
        "out of scope": 2,
        "before selection": 2,
        "read-only": 0,
        "bash": 0,
    }
    assert {name: code for name, (code, _work) in large.items()} == expected_codes
    for name, (_code, work) in large.items():
        assert work[compiled.COMPILES] == 0, name  # the cache answered
        assert work[compiled.RECORDS] <= 1, name  # the held intent at most
        assert work[compiled.SCOPES] <= 2, name  # its scope and the protected set at most
    assert large["before selection"][1][compiled.RECORDS] == 0  # listed from the index


def test_a_denial_before_selection_lists_the_selectable_intents_from_the_index(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path, 2000)
    gate(select_payload(root, "INT-0002", session="s1"))
    code, work = counted(write_payload(root, "src/f1/b.py", session="s2"))
    assert code == 2 and work[compiled.RECORDS] == 0
    reason = str(gate(write_payload(root, "src/f1/b.py", session="s2")).reason)
    assert reason.startswith(NO_INTENT)
    assert "INT-0001 (Feature 1), INT-0006 (Feature 6)" in reason  # file order
    assert "and 779 more (list_intents lists them all)" in reason  # 800 selectable, 1 held
    assert "INT-0002 " not in reason  # held by s1
    assert "INT-0003 " not in reason  # COMPLETED


def test_the_first_call_after_an_edit_compiles_once(tmp_path: Path) -> None:
    root = workspace(tmp_path, 2000)
    assert gate(select_payload(root, "INT-0001", session="s1")).code == 0
    path = root / ".orchestration" / "active_intents.yaml"
    path.write_text(path.read_text().replace('"src/f1/**"', '"src/f1/**", "lib/f1/**"', 1))
    code, work = counted(write_payload(root, "lib/f1/a.py", session="s1"))
    assert code == 0  # the edit is in force at once
    assert work[compiled.COMPILES] == 1 and work[compiled.PARSES] == 1
    code, work = counted(write_payload(root, "lib/f1/b.py", session="s1"))
    assert code == 0 and work[compiled.COMPILES] == 0


@pytest.mark.parametrize("extra", [1, 4096])
def test_an_intents_file_too_large_to_compile_in_time_is_refused_unparsed(
    tmp_path: Path, extra: int
) -> None:
    text = many_intents_yaml(5, exclusions=True)
    text += "# " + "x" * (MAX_SOURCE_BYTES - len(text.encode()) + extra) + "\n"
    root = workspace(tmp_path, 5)
    (root / ".orchestration" / "active_intents.yaml").write_text(text)
    code, work = counted(write_payload(root, "src/f1/a.py", session="s1"))
    assert code == 2
    assert work[compiled.PARSES] == 0
    reason = str(gate(write_payload(root, "src/f1/a.py", session="s1")).reason)
    assert reason == (
        "Orchestration state unavailable: .orchestration/active_intents.yaml: it is larger than "
        "the 1 MiB a gate call can compile within the hook's time budget; move COMPLETED and "
        "ABANDONED intents out of it"
    )
    assert gate(select_payload(root, "INT-0001", session="s1")).code == 2


def test_an_edit_translates_only_the_patterns_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first call after an edit takes every unchanged pattern's translation from the
    signed cache of the previous file: one new pattern, one translation, at 2,000 intents."""
    from paw_tui.core.policy.scope import compile as scope_compile

    root = workspace(tmp_path, 2000)
    assert gate(select_payload(root, "INT-0001", session="s1")).code == 0
    monkeypatch.setattr(scope_compile, "_translated", {})  # as in a new hook process
    path = root / ".orchestration" / "active_intents.yaml"
    path.write_text(path.read_text().replace('"src/f1/**"', '"src/f1/**", "lib/f1/**"', 1))
    before = scope_compile.COUNTS[scope_compile.TRANSLATIONS]
    code, work = counted(write_payload(root, "lib/f1/a.py", session="s1"))
    assert code == 0 and work[compiled.COMPILES] == 1
    assert scope_compile.COUNTS[scope_compile.TRANSLATIONS] - before == 1


def test_translations_from_another_pathspec_are_not_taken() -> None:
    from paw_tui.core.policy.scope import compile as scope_compile

    scope = scope_compile.compile_scope(["src/**", "docs/*.md"]).to_dict()
    assert scope_compile.remember(dict(scope, pattern="x")) == 2
    assert scope_compile.remember(dict(scope, pathspec="0.0.1")) == 0
    assert scope_compile.remember(dict(scope, entries=[{"pattern": 1}])) == 0
    assert scope_compile.remember("not a scope") == 0
