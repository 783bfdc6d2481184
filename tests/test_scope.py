"""Owned-scope evaluation (DESIGN §5): anchoring, exclusions, protected paths, the deny message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from paw_tui.core.errors import ValidationError
from paw_tui.core.policy.scope.checker import (
    ALLOWED,
    EXCLUDED,
    OUT_OF_SCOPE,
    OUTSIDE_ROOT,
    PROTECTED,
    ScopeChecker,
    ScopeDecision,
    render_patterns,
    scope_violation_message,
)
from paw_tui.core.policy.scope.compile import compile_scope
from paw_tui.core.policy.scope.match import CompiledScope, ScopeCacheError
from paw_tui.core.policy.scope.patterns import (
    ScopePatternError,
    anchor_pattern,
    classify_regex,
    required_runs,
)
from paw_tui.core.policy.scope.protect import (
    BUILTIN_PROTECTED,
    NESTED_GIT_RULE,
    ROOT_RULE,
    builtin_protection,
)
from paw_tui.core.workspace.paths import PathError

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")

DESIGN_SCOPE = ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]


@pytest.fixture()
def root(tmp_path: Path) -> str:
    workspace = tmp_path / "ws"
    for sub in (
        "src/auth/legacy",
        "src/other",
        "tests/auth",
        ".git",
        ".orchestration",
        ".paw/work",
    ):
        (workspace / sub).mkdir(parents=True, exist_ok=True)
    (tmp_path / "outside").mkdir()
    return str(workspace)


def checker(root: str, patterns: list[str], protected: list[str] | None = None) -> ScopeChecker:
    extra = compile_scope(protected, ignore_case=True, label="protected") if protected else None
    return ScopeChecker(root, "INT-001", compile_scope(patterns), protected=extra)


def decide(patterns: list[str], path: str) -> tuple[bool | None, int | None]:
    return compile_scope(patterns).match(path)


# -- anchoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "anchored"),
    [
        ("*.md", "/*.md"),
        ("build/", "/build/"),
        ("**", "/**"),
        ("**/*.md", "/**/*.md"),
        ("src/auth/**", "/src/auth/**"),
        ("/already", "/already"),
        ("!*.md", "!/*.md"),
        ("!/x", "!/x"),
        ("!!x", "!/!x"),
        ("\\!x", "/\\!x"),
        ("\\#x", "/\\#x"),
    ],
)
def test_anchor_pattern(written: str, anchored: str) -> None:
    assert anchor_pattern(written) == anchored


def test_star_md_is_root_level_only() -> None:
    assert decide(["*.md"], "README.md") == (True, 0)
    assert decide(["*.md"], "docs/x.md") == (None, None)


def test_globstar_md_is_any_depth() -> None:
    assert decide(["**/*.md"], "README.md") == (True, 0)
    assert decide(["**/*.md"], "docs/deep/x.md") == (True, 0)
    assert decide(["**/*.md"], "docs/x.py") == (None, None)


def test_directory_pattern_is_anchored() -> None:
    assert decide(["build/"], "build/x.o") == (True, 0)
    assert decide(["build/"], "build/deep/x.o") == (True, 0)
    assert decide(["build/"], "src/build/x") == (None, None)
    # the directory entry itself is not "below" build/ (pathspec semantics)
    assert decide(["build/"], "build") == (None, None)


def test_name_without_slash_is_that_root_entry_and_below() -> None:
    assert decide(["docs"], "docs") == (True, 0)
    assert decide(["docs"], "docs/x.md") == (True, 0)
    assert decide(["docs"], "src/docs/x.md") == (None, None)
    assert decide(["docs"], "docs2") == (None, None)


def test_double_star_owns_everything() -> None:
    for path in ("a", "a/b/c.txt", ".hidden", "x/.y/z"):
        assert decide(["**"], path) == (True, 0)


def test_single_star_and_question_mark_stay_in_one_segment() -> None:
    assert decide(["src/*.py"], "src/a.py") == (True, 0)
    assert decide(["src/*.py"], "src/a/b.py") == (None, None)
    assert decide(["src/a?.py"], "src/ab.py") == (True, 0)
    assert decide(["src/a?.py"], "src/a.py") == (None, None)
    assert decide(["src/a?.py"], "src/a/.py") == (None, None)


def test_inner_globstar() -> None:
    assert decide(["src/**/test_*.py"], "src/test_a.py") == (True, 0)
    assert decide(["src/**/test_*.py"], "src/x/y/test_a.py") == (True, 0)
    assert decide(["src/**/test_*.py"], "tests/test_a.py") == (None, None)


def test_brackets() -> None:
    assert decide(["[ab].txt"], "a.txt") == (True, 0)
    assert decide(["[!ab].txt"], "a.txt") == (None, None)
    assert decide(["[!ab].txt"], "c.txt") == (True, 0)


# -- exclusion and order ---------------------------------------------------------------------


def test_exclusion_after_inclusion() -> None:
    assert decide(DESIGN_SCOPE, "src/auth/jwt.py") == (True, 0)
    assert decide(DESIGN_SCOPE, "src/auth/legacy/basic.py") == (False, 2)
    assert decide(DESIGN_SCOPE, "tests/auth/test_jwt.py") == (True, 1)
    assert decide(DESIGN_SCOPE, "src/other/x.py") == (None, None)


def test_last_matching_pattern_wins() -> None:
    assert decide(["!src/legacy/**", "src/**"], "src/legacy/x.py") == (True, 1)
    reincluded = ["src/**", "!src/legacy/**", "src/legacy/keep.py"]
    assert decide(reincluded, "src/legacy/keep.py") == (True, 2)
    assert decide(reincluded, "src/legacy/drop.py") == (False, 1)


def test_excluding_a_directory_by_name_does_not_exclude_its_files() -> None:
    # GitIgnoreSpec's directory priority: "!src/build" matches src/build/x only through its
    # directory group, and a file-level match ("src/**") beats a directory-level one.
    patterns = ["src/**", "!src/build"]
    assert decide(patterns, "src/build") == (False, 1)
    assert decide(patterns, "src/build/x.o") == (True, 0)
    assert decide(["src/**", "!src/build/**"], "src/build/x.o") == (False, 1)


def test_directory_match_yields_to_a_file_match_even_when_earlier() -> None:
    patterns = ["build/", "!build/keep.txt"]
    assert decide(patterns, "build/keep.txt") == (False, 1)
    assert decide(patterns, "build/other.txt") == (True, 0)
    assert decide(["!build/keep.txt", "build/"], "build/keep.txt") == (False, 0)


def test_match_normalises_like_pathspec() -> None:
    compiled = compile_scope(["src/**"])
    assert compiled.match("/src/x") == (True, 0)
    assert compiled.match("./src/x") == (True, 0)


# -- invalid patterns ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("", "the pattern is blank"),
        ("   ", "the pattern is blank"),
        ("#notes", "is a comment in gitignore syntax"),
        ("!", "nothing follows the '!'"),
        ("/", "the pattern names no path"),
        ("!//", "the pattern names no path"),
        ("src\\", "escapes nothing"),
        ("src\\/x", "escapes nothing"),
        ("src/[ab", "'[' is never closed"),
        ("./src/**", "'.' or '..' segment never matches"),
        ("src/../x", "'.' or '..' segment never matches"),
        ("src//x", "'.' or '..' segment never matches"),
        ("a\x00b", "NUL byte"),
        (7, "must be a string, not int"),
    ],
)
def test_invalid_pattern_names_index_and_text(pattern: str | int, reason: str) -> None:
    with pytest.raises(ScopePatternError) as caught:
        # typed for strings, checked at run time: a non-string is passed on purpose
        compile_scope(cast("list[str]", ["src/**", "docs/**", pattern]))
    error = caught.value
    assert isinstance(error, ValidationError)
    assert error.exit_code == 2
    assert error.index == 2
    assert error.pattern == pattern
    assert reason in error.reason
    assert str(error).startswith(f"Invalid owned_scope pattern 2 {pattern!r}: ")
    assert str(error).endswith(".")


def test_invalid_pattern_label() -> None:
    with pytest.raises(ScopePatternError, match=r"^Invalid protected pattern 0 '\[': "):
        compile_scope(["["], label="protected")


def test_escaped_hash_and_bang_are_literal() -> None:
    assert decide(["\\#notes"], "#notes") == (True, 0)
    assert decide(["\\!x"], "!x") == (True, 0)


def test_empty_scope_owns_nothing() -> None:
    assert compile_scope([]).match("x") == (None, None)


# -- the compiled form -----------------------------------------------------------------------


def test_json_round_trip() -> None:
    compiled = compile_scope(DESIGN_SCOPE + ["*.md", "build/", "docs", "**"])
    text = compiled.to_json()
    data = json.loads(text)
    assert data["format"] == 1
    assert data["dir_group"] == "ps_d"
    assert tuple(entry["pattern"] for entry in data["entries"]) == compiled.patterns
    assert data["entries"][0]["anchored"] == "/src/auth/**"
    again = CompiledScope.from_json(text)
    assert again == compiled
    assert again.patterns == tuple(DESIGN_SCOPE + ["*.md", "build/", "docs", "**"])
    assert CompiledScope.from_dict(compiled.to_dict()) == compiled
    assert CompiledScope.from_json(text.encode()) == compiled
    assert len(again) == 7
    assert again.anchored()[3] == "/*.md"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": 2}',
        '{"format": 1, "dir_group": "x", "ignore_case": false, "pathspec": "", "entries": []}',
        '{"format": 1, "dir_group": "ps_d", "ignore_case": 0, "pathspec": "", "entries": []}',
        '{"format": 1, "dir_group": "ps_d", "ignore_case": false, "pathspec": "", "entries": {}}',
        '{"format": 1, "dir_group": "ps_d", "ignore_case": false, "pathspec": "", "entries": [1]}',
        (
            '{"format": 1, "dir_group": "ps_d", "ignore_case": false, "pathspec": "", "entries": '
            '[{"pattern": "a", "anchored": "/a", "regex": "^a", "include": "yes", "form": "under",'
            ' "literal": "a", "needs": []}]}'
        ),
        (
            '{"format": 1, "dir_group": "ps_d", "ignore_case": false, "pathspec": "", "entries": '
            '[{"pattern": "a", "anchored": "/a", "regex": "^a", "include": true, "form": "magic",'
            ' "literal": "a", "needs": []}]}'
        ),
    ],
)
def test_malformed_cache_is_refused(text: str) -> None:
    with pytest.raises(ScopeCacheError, match="^Compiled scope: "):
        CompiledScope.from_json(text)


def test_cache_entry_without_needs_is_refused() -> None:
    data = compile_scope(["*.md"]).to_dict()
    entries = data["entries"]
    assert isinstance(entries, list)
    del entries[0]["needs"]
    with pytest.raises(ScopeCacheError, match="entry 0 is malformed"):
        CompiledScope.from_dict(data)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (".", ("any", "")),
        ("^src/auth/", ("under", "src/auth/")),
        ("^build(?P<ps_d>/)", ("dir", "build")),
        ("^docs/a\\.md(?:(?P<ps_d>/)|$)", ("path", "docs/a.md")),
        ("^[^/]*\\.md(?:(?P<ps_d>/)|$)", ("regex", "")),
        ("^src/[^/]*\\.py(?:(?P<ps_d>/)|$)", ("regex", "src/")),
        ("^ab*", ("regex", "a")),
        ("^a\\d", ("regex", "a")),
        ("(?P<ps_d>/)", ("regex", "")),
        ("/", ("regex", "")),
    ],
)
def test_classify_regex(source: str, expected: tuple[str, str]) -> None:
    assert classify_regex(source) == expected


@pytest.mark.parametrize(
    ("source", "runs"),
    [
        ("^(?:.+/)?test_[^/]*\\.py(?:(?P<ps_d>/)|$)", ("test_", ".py")),
        ("^src(?:/.+)?/test_[^/]*\\.py(?:(?P<ps_d>/)|$)", ("src", "/test_", ".py")),
        ("^a[^/]c/[]b][^/]*\\.txt", ("a", "c/", ".txt")),
        ("^ab*c", ("a", "c")),
        ("^\\(a\\)*z", ("(a", "z")),
        ("^x\\d+y", ("x", "y")),
        ("^a{2}b", ("b",)),
        ("^a|b", ()),
        (".", ()),
        ("(?P<ps_d>/)", ()),
    ],
)
def test_required_runs(source: str, runs: tuple[str, ...]) -> None:
    assert required_runs(source) == runs


def test_ignore_case_scope() -> None:
    compiled = compile_scope(["secrets/**", "*.PEM"], ignore_case=True)
    assert compiled.match("SECRETS/a") == (True, 0)
    assert compiled.match("key.pem") == (True, 1)
    assert compiled.match("docs/key.pem") == (None, None)
    assert CompiledScope.from_json(compiled.to_json()).match("Secrets/x") == (True, 0)


# -- the checker -----------------------------------------------------------------------------


def test_deny_message_is_exact(root: str) -> None:
    decision = checker(root, DESIGN_SCOPE).check("src/other/x.py", cwd=root)
    assert decision.message == (
        "Scope Violation: INT-001 is not authorized to edit src/other/x.py. "
        "Owned scope: src/auth/**, tests/auth/**, !src/auth/legacy/**. Request scope expansion."
    )
    assert decision.message == scope_violation_message("INT-001", "src/other/x.py", DESIGN_SCOPE)


def test_render_patterns() -> None:
    assert render_patterns(["a/**", "!a/b/**"]) == "a/**, !a/b/**"
    assert render_patterns([]) == "(none)"


def test_allowed_decision(root: str) -> None:
    decision = checker(root, DESIGN_SCOPE).check("src/auth/jwt.py", cwd=root)
    assert decision.allowed
    assert decision.kind == ALLOWED
    assert decision.path == "src/auth/jwt.py"
    assert (decision.index, decision.pattern) == (0, "src/auth/**")
    assert decision.message is None
    assert decision.intent_id == "INT-001"
    assert decision.to_dict()["allowed"] is True


def test_excluded_decision(root: str) -> None:
    decision = checker(root, DESIGN_SCOPE).check("src/auth/legacy/basic.py", cwd=root)
    assert not decision.allowed
    assert decision.kind == EXCLUDED
    assert (decision.index, decision.pattern) == (2, "!src/auth/legacy/**")
    assert decision.message is not None and decision.message.startswith("Scope Violation: ")
    assert "excluded by owned_scope pattern 2 '!src/auth/legacy/**'" in decision.detail


def test_out_of_scope_decision(root: str) -> None:
    decision = checker(root, DESIGN_SCOPE).check("README.md", cwd=root)
    assert decision.kind == OUT_OF_SCOPE
    assert (decision.index, decision.pattern) == (None, None)
    assert decision.message == scope_violation_message("INT-001", "README.md", DESIGN_SCOPE)


def test_outside_root_decision_names_the_absolute_path(root: str, tmp_path: Path) -> None:
    decision = checker(root, ["**"]).check("../outside/x.txt", cwd=root)
    target = os.path.realpath(str(tmp_path / "outside" / "x.txt"))
    assert decision.kind == OUTSIDE_ROOT
    assert decision.path == target
    assert decision.message == scope_violation_message("INT-001", target, ["**"])
    assert checker(root, ["**"]).check("/etc/passwd").kind == OUTSIDE_ROOT


def test_relative_path_against_a_subdirectory_cwd(root: str) -> None:
    check = checker(root, DESIGN_SCOPE)
    assert check.check("auth/jwt.py", cwd=os.path.join(root, "src")).allowed
    assert check.check("../tests/auth/t.py", cwd=os.path.join(root, "src")).allowed
    assert not check.check("jwt.py", cwd=os.path.join(root, "src")).allowed


def test_dotdot_cannot_bypass(root: str) -> None:
    check = checker(root, ["src/**"])
    assert check.check("src/../README.md", cwd=root).kind == OUT_OF_SCOPE
    assert check.check("src/../../x", cwd=root).kind == OUTSIDE_ROOT


def test_windows_backslashes(root: str) -> None:
    check = checker(root, DESIGN_SCOPE)
    assert check.check("src\\auth\\x.py", cwd=root).allowed
    assert check.check("src\\auth\\legacy\\x.py", cwd=root).kind == EXCLUDED


def test_tilde_expansion(root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", os.path.join(root, "src"))
    monkeypatch.setenv("USERPROFILE", os.path.join(root, "src"))
    check = checker(root, DESIGN_SCOPE)
    decision = check.check("~/auth/x.py", cwd="/")
    assert decision.allowed and decision.path == "src/auth/x.py"


def test_nonexistent_deep_paths_are_checked_like_writes(root: str) -> None:
    check = checker(root, DESIGN_SCOPE)
    assert check.check("src/auth/new/deep/dir/file.py", cwd=root).allowed
    assert check.check("src/new/deep/file.py", cwd=root).kind == OUT_OF_SCOPE


def test_nul_byte_raises(root: str) -> None:
    with pytest.raises(PathError, match="NUL byte"):
        checker(root, ["**"]).check("src/a\x00.py", cwd=root)


@needs_symlinks
def test_symlink_inside_pointing_outside_is_denied(root: str, tmp_path: Path) -> None:
    os.symlink(str(tmp_path / "outside"), os.path.join(root, "src", "auth", "escape"))
    decision = checker(root, ["**"]).check("src/auth/escape/x.txt", cwd=root)
    assert decision.kind == OUTSIDE_ROOT


@needs_symlinks
def test_symlink_to_an_out_of_scope_target_is_denied(root: str) -> None:
    os.symlink(os.path.join(root, "src", "other"), os.path.join(root, "src", "auth", "alias"))
    decision = checker(root, DESIGN_SCOPE).check("src/auth/alias/x.py", cwd=root)
    assert decision.kind == OUT_OF_SCOPE
    assert decision.path == "src/other/x.py"


@needs_symlinks
def test_symlinked_directory_into_scope_is_allowed(root: str) -> None:
    os.symlink(os.path.join(root, "src", "auth"), os.path.join(root, "auth-link"))
    decision = checker(root, DESIGN_SCOPE).check("auth-link/x.py", cwd=root)
    assert decision.allowed and decision.path == "src/auth/x.py"


@needs_symlinks
def test_symlink_into_a_protected_directory_is_denied(root: str) -> None:
    os.symlink(os.path.join(root, ".git"), os.path.join(root, "src", "auth", "g"))
    decision = checker(root, ["**"]).check("src/auth/g/hooks/pre-commit", cwd=root)
    assert decision.kind == PROTECTED
    assert decision.path == ".git/hooks/pre-commit"


# -- protected paths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "rule"),
    [
        (".git/config", ".git/**"),
        (".GIT/config", ".git/**"),
        (".Git/hooks/pre-commit", ".git/**"),
        (".git", ".git/**"),
        (".git.", ".git/**"),
        (".git ", ".git/**"),
        (".git::$INDEX_ALLOCATION/config", ".git/**"),
        (".orchestration", ".orchestration/**"),
        (".orchestration/active_intents.yaml", ".orchestration/**"),
        (".Orchestration/x", ".orchestration/**"),
        (".ORCHESTRATION/.cache/policy.json", ".orchestration/**"),
        (".paw/instructions/a.md", ".paw/instructions/**"),
        (".PAW/Instructions/Agent-instructions.md", ".paw/instructions/**"),
        (".paw/instructions", ".paw/instructions/**"),
        ("vendor/lib/.git/hooks/post-checkout", NESTED_GIT_RULE),
        ("vendor/.GIT", NESTED_GIT_RULE),
    ],
)
def test_protected_paths_beat_a_double_star_scope(root: str, path: str, rule: str) -> None:
    decision = checker(root, ["**"]).check(path, cwd=root)
    assert decision.kind == PROTECTED
    assert not decision.allowed
    assert decision.pattern == rule
    assert decision.index is None
    assert decision.path == path
    assert decision.message == f"{path} is protected: agents never write it."


@pytest.mark.parametrize(
    "path",
    [
        ".paw/work/x/WorkflowContext.md",
        ".paw/notes.md",
        ".gitignore",
        ".github/workflows/ci.yml",
        ".gitattributes",
        "src/.gitkeep",
        "orchestration/x",
        ".pawx/instructions/a.md",
        "docs/.orchestration/x",
        "docs/.paw/instructions/a.md",
    ],
)
def test_lookalikes_stay_allowed(root: str, path: str) -> None:
    assert checker(root, ["**"]).check(path, cwd=root).allowed


def test_git_file_is_protected(root: str, tmp_path: Path) -> None:
    workspace = tmp_path / "worktree"
    workspace.mkdir()
    (workspace / ".git").write_text("gitdir: /elsewhere/.git/worktrees/x\n")
    decision = checker(str(workspace), ["**"]).check(".git", cwd=str(workspace))
    assert decision.kind == PROTECTED


def test_paw_directory_itself_is_protected_only_for_subtree_operations(root: str) -> None:
    check = checker(root, ["**"])
    assert check.check(".paw", cwd=root).allowed
    decision = check.check(".paw", cwd=root, subtree=True)
    assert decision.kind == PROTECTED and decision.pattern == ".paw/instructions/**"
    assert check.check("src", cwd=root, subtree=True).allowed


def test_the_root_itself_is_protected(root: str) -> None:
    decision = checker(root, ["**"]).check(".", cwd=root)
    assert decision.kind == PROTECTED
    assert decision.path == "."
    assert decision.pattern == ROOT_RULE
    assert builtin_protection("") == ROOT_RULE


def test_builtin_rules_are_the_design_ones() -> None:
    assert BUILTIN_PROTECTED == (".orchestration/**", ".paw/instructions/**", ".git/**")


def test_governance_patterns_add_protection_case_insensitively(root: str) -> None:
    check = checker(root, ["**"], protected=["secrets/**", "*.pem"])
    decision = check.check("Secrets/prod.env", cwd=root)
    assert decision.kind == PROTECTED
    assert (decision.index, decision.pattern) == (0, "secrets/**")
    assert "governance pattern 0 'secrets/**'" in decision.detail
    assert check.check("KEY.PEM", cwd=root).kind == PROTECTED
    assert check.check("docs/key.pem", cwd=root).allowed


def test_governance_patterns_cannot_remove_builtin_protection(root: str) -> None:
    check = checker(root, ["**"], protected=["!.git/**", "!.orchestration/**"])
    assert check.check(".git/config", cwd=root).kind == PROTECTED
    assert check.check(".orchestration/x", cwd=root).kind == PROTECTED


def test_directory_creation_is_matched_as_a_directory(root: str) -> None:
    check = checker(root, ["src/auth/**", "build/", "!src/auth/legacy/**"])
    assert check.check("src/auth", cwd=root).kind == OUT_OF_SCOPE
    assert check.check("src/auth", cwd=root, directory=True).allowed
    assert check.check("build", cwd=root).kind == OUT_OF_SCOPE
    assert check.check("build", cwd=root, directory=True).allowed
    assert check.check("src/auth/legacy/x", cwd=root, directory=True).kind == EXCLUDED
    assert check.check(".git/x", cwd=root, directory=True).kind == PROTECTED
    assert check.check("src", cwd=root, directory=True).kind == OUT_OF_SCOPE


def test_detail_and_given(root: str, tmp_path: Path) -> None:
    check = checker(root, DESIGN_SCOPE)
    outside = check.check("../outside/x", cwd=root)
    assert outside.given == "../outside/x"
    assert outside.detail == f"../outside/x resolves to {outside.path}, outside the workspace root."
    assert check.check("src/auth/x.py", cwd=root).detail == (
        "src/auth/x.py is owned through pattern 0 'src/auth/**'."
    )
    assert check.check("README.md", cwd=root).detail == "README.md matches no owned_scope pattern."
    assert check.check(".git/config", cwd=root).detail == (
        ".git/config is protected (.git/**); agents never write it."
    )
    assert check.check_relative("src/x").given is None


def test_check_relative(root: str) -> None:
    check = checker(root, DESIGN_SCOPE)
    assert check.check_relative("src/auth/x.py").allowed
    assert check.check_relative(".git/x").kind == PROTECTED
    assert check.check_relative("").kind == PROTECTED


def test_decision_value() -> None:
    decision = ScopeDecision(ALLOWED, "a", "INT-1", 0, "a")
    assert decision == ScopeDecision(ALLOWED, "a", "INT-1", 0, "a")
    assert "kind='allowed'" in repr(decision)
    assert set(decision.to_dict()) == {
        "allowed",
        "kind",
        "path",
        "intent_id",
        "index",
        "pattern",
        "message",
        "detail",
    }


# -- import cost -----------------------------------------------------------------------------


def test_matching_modules_import_nothing_heavy() -> None:
    """paths and scope load no pathspec, typing, dataclasses, pathlib, re or json."""
    code = (
        "import sys; before = set(sys.modules)\n"
        "import paw_tui.core.policy.scope.checker, paw_tui.core.policy.scope.match, paw_tui.core.workspace.paths\n"
        "from paw_tui.core.policy.scope.match import CompiledScope\nfrom paw_tui.core.policy.scope.checker import ScopeChecker\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = set(result.stdout.split())
    for heavy in ("pathspec", "typing", "dataclasses", "pathlib", "re", "json", "yaml"):
        assert heavy not in loaded, f"{heavy} imported: {sorted(loaded)}"


def test_matching_from_json_does_not_import_pathspec() -> None:
    data = compile_scope(DESIGN_SCOPE + ["*.md"]).to_json()
    code = (
        "import sys\n"
        "from paw_tui.core.policy.scope.match import CompiledScope\n"
        f"scope = CompiledScope.from_json({data!r})\n"
        "print(scope.match('src/auth/x.py'), scope.match('README.md'))\n"
        "print('pathspec' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[:2] == ["(True, 0) (True, 3)", "False"]
