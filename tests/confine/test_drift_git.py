"""Which paths of ``.git`` drift detection pins (:func:`git_pins`): the layout of each git
directory (the repository's, its submodules', nested, its linked worktrees'), a bounded search,
nothing for a ``.git`` file. What is done with them: ``tests/security/test_git_pins.py``."""

from __future__ import annotations

from pathlib import Path

from paw_tui.core.confine.drift_git import MAX_GIT_DIRS, covered, git_pins


def git_dir(path: Path, config: str = "[core]\n") -> None:
    path.mkdir(parents=True)
    (path / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (path / "config").write_text(config, encoding="utf-8")


def test_every_git_directory_of_the_layout_is_pinned(tmp_path: Path) -> None:
    root = tmp_path
    git_dir(root / ".git")
    git_dir(root / ".git/modules/libs/a", "[core]\n\tworktree = ../../../../vendor/a\n")
    git_dir(root / ".git/modules/libs/a/modules/b")
    git_dir(root / ".git/worktrees/wt")
    (root / ".git/worktrees/wt/gitdir").write_text(f"{root}/checkouts/wt/.git\n")
    pins = set(git_pins(str(root)))
    assert {
        ".git/config",
        ".git/config.worktree",
        ".git/commondir",
        ".git/hooks",
        ".git/info",
        ".git/objects/info/alternates",
        ".git/modules",
        ".git/worktrees",
        ".git/modules/libs",  # a module name with a slash: a plain directory, watched
        ".git/modules/libs/a/config",
        ".git/modules/libs/a/hooks",
        ".git/modules/libs/a/modules/b/config",
        ".git/modules/libs/a/modules/b/commondir",
        "vendor/a/.git",  # the submodule's checkout, from its core.worktree
        ".git/worktrees/wt/commondir",
        ".git/worktrees/wt/gitdir",
        ".git/worktrees/wt/config.worktree",
        "checkouts/wt/.git",  # the worktree's checkout, from its gitdir
    } <= pins
    assert ".git/worktrees/wt/config" not in pins  # a worktree takes the common config
    assert not {p for p in pins if p.endswith(("/HEAD", "/index", "/refs", "/objects"))}


def test_a_checkout_outside_the_workspace_is_not_pinned(tmp_path: Path) -> None:
    git_dir(tmp_path / "ws/.git")
    git_dir(tmp_path / "ws/.git/modules/x", "[core]\n\tworktree = ../../../../elsewhere\n")
    pins = git_pins(str(tmp_path / "ws"))
    assert not [p for p in pins if not p.startswith(".git/")]


def test_a_git_file_or_no_git_pins_nothing(tmp_path: Path) -> None:
    assert git_pins(str(tmp_path)) == ()
    (tmp_path / ".git").write_text("gitdir: /elsewhere\n", encoding="utf-8")
    assert git_pins(str(tmp_path)) == ()


def test_a_hostile_layout_is_searched_within_bounds(tmp_path: Path) -> None:
    git_dir(tmp_path / ".git")
    for index in range(MAX_GIT_DIRS + 50):
        git_dir(tmp_path / f".git/modules/m{index}")
    deep = tmp_path / ".git/modules"
    for level in range(40):
        deep = deep / f"d{level}"
    deep.mkdir(parents=True)
    pins = git_pins(str(tmp_path))
    assert len([p for p in pins if p.endswith("/config") and "/modules/" in p]) < MAX_GIT_DIRS
    assert max(p.count("/") for p in pins) < 20


def test_covered_means_pinned_or_below_a_pin() -> None:
    pins = frozenset({".git/hooks", ".git/config"})
    assert covered(".git/hooks/pre-commit", pins) and covered(".git/config", pins)
    assert not covered(".git/configs", pins) and not covered(".git/index", pins)
