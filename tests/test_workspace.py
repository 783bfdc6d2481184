"""Which directories are the workspace roots (DESIGN §1), through ``discover_roots``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw_tui.core.workspace.discovery import discover_roots, find_ancestor_root, is_workspace_dir


def mk(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def roots(
    *explicit: str | Path,
    env: dict[str, str] | None = None,
    cwd: Path,
    home: Path | None = None,
    client_project_env: bool = False,
) -> list[str]:
    return discover_roots(
        [str(p) for p in explicit],
        environ=env or {},
        cwd=str(cwd),
        home=str(home) if home else None,
        client_project_env=client_project_env,
    )


# --------------------------------------------------------------------------- explicit


def test_explicit_roots_in_order_absolute(sandbox: Path) -> None:
    a, b, c = mk(sandbox / "a"), mk(sandbox / "b"), mk(sandbox / "c")
    assert roots(c, a, b, cwd=sandbox) == [str(c), str(a), str(b)]


def test_relative_explicit_root_made_absolute_against_cwd(sandbox: Path) -> None:
    mk(sandbox / "rel")
    assert roots("rel", "./x/../rel2", cwd=sandbox) == [str(sandbox / "rel"), str(sandbox / "rel2")]
    assert all(os.path.isabs(r) for r in roots("rel", cwd=sandbox))


def test_explicit_duplicates_are_searched_once(sandbox: Path) -> None:
    a = mk(sandbox / "a")
    assert roots(a, str(a) + os.sep, a, cwd=sandbox) == [str(a)]


def test_explicit_beats_environment_and_ancestors(sandbox: Path) -> None:
    inside = mk(sandbox / "repo" / ".paw").parent
    named = mk(sandbox / "named")
    env = {"PAW_WORKSPACE_PATH": str(sandbox / "env"), "CLAUDE_PROJECT_DIR": str(sandbox / "cp")}
    assert roots(named, env=env, cwd=inside, client_project_env=True) == [str(named)]


def test_explicit_root_need_not_hold_a_marker(sandbox: Path) -> None:
    bare = mk(sandbox / "bare")
    assert not is_workspace_dir(str(bare))
    assert roots(bare, cwd=sandbox) == [str(bare)]


# --------------------------------------------------------------------------- PAW_WORKSPACE_PATH


def test_env_is_trimmed_and_the_only_root(sandbox: Path) -> None:
    target = mk(sandbox / "target")
    repo = mk(sandbox / "repo")
    mk(repo / ".paw")
    assert roots(env={"PAW_WORKSPACE_PATH": f"  {target}\n"}, cwd=repo) == [str(target)]


def test_env_relative_path_is_made_absolute(sandbox: Path) -> None:
    assert roots(env={"PAW_WORKSPACE_PATH": " sub "}, cwd=sandbox) == [str(sandbox / "sub")]


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
def test_blank_env_is_ignored(sandbox: Path, blank: str) -> None:
    repo = mk(sandbox / "repo")
    mk(repo / ".git")
    deep = mk(repo / "src" / "pkg")
    assert roots(env={"PAW_WORKSPACE_PATH": blank}, cwd=deep) == [str(repo)]


def test_env_path_without_marker_still_wins_over_ancestor(sandbox: Path) -> None:
    repo = mk(sandbox / "repo")
    mk(repo / ".paw")
    elsewhere = sandbox / "elsewhere"  # not even created
    assert roots(env={"PAW_WORKSPACE_PATH": str(elsewhere)}, cwd=repo) == [str(elsewhere)]


# --------------------------------------------------------------------------- CLAUDE_PROJECT_DIR


def test_claude_project_dir_only_for_client_faces(sandbox: Path) -> None:
    repo = mk(sandbox / "repo")
    mk(repo / ".git")
    project = mk(sandbox / "project")
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    assert roots(env=env, cwd=repo) == [str(repo)]
    assert roots(env=env, cwd=repo, client_project_env=True) == [str(project)]


def test_paw_workspace_path_beats_claude_project_dir(sandbox: Path) -> None:
    a, b = mk(sandbox / "a"), mk(sandbox / "b")
    env = {"PAW_WORKSPACE_PATH": str(a), "CLAUDE_PROJECT_DIR": str(b)}
    assert roots(env=env, cwd=sandbox, client_project_env=True) == [str(a)]
    env = {"PAW_WORKSPACE_PATH": " ", "CLAUDE_PROJECT_DIR": f" {b} "}
    assert roots(env=env, cwd=sandbox, client_project_env=True) == [str(b)]


# --------------------------------------------------------------------------- ancestor search


@pytest.mark.parametrize("marker", [".orchestration", ".paw", ".git"])
def test_marker_directories(sandbox: Path, marker: str) -> None:
    repo = mk(sandbox / "repo")
    mk(repo / marker)
    deep = mk(repo / "a" / "b" / "c")
    assert roots(cwd=deep) == [str(repo)]
    assert roots(cwd=repo) == [str(repo)]


def test_git_file_counts_as_marker(sandbox: Path) -> None:
    worktree = mk(sandbox / "worktree")
    (worktree / ".git").write_text("gitdir: /elsewhere/.git/worktrees/w\n", encoding="utf-8")
    deep = mk(worktree / "src")
    assert roots(cwd=deep) == [str(worktree)]


@pytest.mark.parametrize("marker", [".orchestration", ".paw"])
def test_paw_and_orchestration_files_do_not_count(sandbox: Path, marker: str) -> None:
    repo = mk(sandbox / "repo")
    (repo / marker).write_text("not a directory", encoding="utf-8")
    assert roots(cwd=repo) == []


def test_nearest_ancestor_wins(sandbox: Path) -> None:
    outer = mk(sandbox / "outer")
    mk(outer / ".git")
    inner = mk(outer / "inner")
    mk(inner / ".paw")
    deep = mk(inner / "x")
    assert roots(cwd=deep) == [str(inner)]
    assert roots(cwd=mk(outer / "other")) == [str(outer)]


def test_no_marker_anywhere(sandbox: Path) -> None:
    assert roots(cwd=mk(sandbox / "a" / "b")) == []


def test_home_is_never_a_workspace_by_ancestor_search(sandbox: Path) -> None:
    home = mk(sandbox / "home")
    mk(home / ".paw" / "instructions")
    mk(home / ".git")
    below = mk(home / "notes")
    assert roots(cwd=below, home=home) == []
    assert roots(cwd=home, home=home) == []
    assert find_ancestor_root(str(below), str(home)) is None


def test_home_named_explicitly_is_a_workspace(sandbox: Path) -> None:
    home = mk(sandbox / "home")
    mk(home / ".paw")
    assert roots(home, cwd=home, home=home) == [str(home)]
    assert roots(env={"PAW_WORKSPACE_PATH": str(home)}, cwd=home, home=home) == [str(home)]


def test_search_continues_above_home(sandbox: Path) -> None:
    outer = mk(sandbox / "outer")
    mk(outer / ".orchestration")
    home = mk(outer / "home")
    mk(home / ".paw")
    assert roots(cwd=mk(home / "sub"), home=home) == [str(outer)]


def test_project_inside_home_is_found(sandbox: Path) -> None:
    home = mk(sandbox / "home")
    mk(home / ".paw")
    project = mk(home / "code" / "proj")
    mk(project / ".git")
    assert roots(cwd=mk(project / "src"), home=home) == [str(project)]


def test_home_matched_through_a_symlink(sandbox: Path) -> None:
    real = mk(sandbox / "real-home")
    mk(real / ".paw")
    link = sandbox / "home-link"
    try:
        link.symlink_to(real, target_is_directory=True)
    except OSError:
        pytest.skip("no symlinks here")
    assert roots(cwd=real, home=link) == []


def test_default_cwd_is_the_process_cwd(sandbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = mk(sandbox / "repo")
    mk(repo / ".paw")
    monkeypatch.chdir(mk(repo / "deeper"))
    assert discover_roots(environ={}) == [str(repo)]


def test_default_environ_is_the_process_environment(
    sandbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = mk(sandbox / "t")
    monkeypatch.setenv("PAW_WORKSPACE_PATH", str(target))
    assert discover_roots(cwd=str(sandbox)) == [str(target)]
