"""Path normalisation for the gate (DESIGN §5): what a write would really touch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw_tui.core.errors import ValidationError
from paw_tui.core.workspace.paths import (
    PathError,
    ResolvedPath,
    absolute_path,
    real_root,
    relative_to_root,
    resolve_path,
)

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")


@pytest.fixture()
def root(tmp_path: Path) -> str:
    """A workspace root with a ``src/auth`` tree, beside an ``outside`` directory."""
    workspace = tmp_path / "ws"
    (workspace / "src" / "auth").mkdir(parents=True)
    (workspace / "src" / "auth" / "login.py").write_text("x = 1\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("s\n")
    return str(workspace)


def rel(path: str, root: str, cwd: str | None = None) -> str | None:
    return resolve_path(path, root, cwd=cwd).relative


def test_relative_path_is_joined_to_the_cwd(root: str) -> None:
    assert rel("src/auth/login.py", root, cwd=root) == "src/auth/login.py"


def test_relative_path_against_a_subdirectory_cwd(root: str) -> None:
    cwd = os.path.join(root, "src")
    assert rel("auth/login.py", root, cwd=cwd) == "src/auth/login.py"
    assert rel("../README.md", root, cwd=cwd) == "README.md"
    assert rel("./auth/../auth/new.py", root, cwd=cwd) == "src/auth/new.py"


def test_cwd_defaults_to_the_process_cwd(root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(os.path.join(root, "src"))
    assert rel("auth/x.py", root) == "src/auth/x.py"


def test_absolute_path_inside_the_root(root: str) -> None:
    assert rel(os.path.join(root, "src", "auth", "login.py"), root, cwd="/") == "src/auth/login.py"


def test_the_root_itself_is_the_empty_relative_path(root: str) -> None:
    resolved = resolve_path(root, root)
    assert resolved.relative == ""
    assert resolved.inside
    assert resolved.display == "."
    assert rel(".", root, cwd=root) == ""
    assert rel("src/..", root, cwd=root) == ""


def test_dotdot_escape_is_outside(root: str) -> None:
    resolved = resolve_path("src/../../outside/secret.txt", root, cwd=root)
    assert resolved.relative is None
    assert not resolved.inside
    assert resolved.absolute == os.path.realpath(os.path.join(root, "..", "outside", "secret.txt"))
    assert resolved.display == resolved.absolute
    assert rel("../x", root, cwd=root) is None


def test_dotdot_that_stays_inside_is_fine(root: str) -> None:
    assert rel("src/auth/../../src/auth/login.py", root, cwd=root) == "src/auth/login.py"


def test_absolute_path_outside_the_root(root: str) -> None:
    resolved = resolve_path("/etc/passwd", root, cwd=root)
    assert resolved.relative is None
    assert resolved.absolute == os.path.realpath("/etc/passwd")


def test_a_sibling_with_the_root_as_name_prefix_is_outside(root: str) -> None:
    sibling = root + "2"
    os.mkdir(sibling)
    assert rel(os.path.join(sibling, "f.txt"), root) is None


def test_windows_backslashes_become_slashes(root: str) -> None:
    assert rel("src\\auth\\x.py", root, cwd=root) == "src/auth/x.py"
    assert rel("src\\auth\\..\\..\\..\\outside\\secret.txt", root, cwd=root) is None


def test_tilde_is_expanded_with_home(
    root: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", root)
    monkeypatch.setenv("USERPROFILE", root)
    assert rel("~/src/auth/x.py", root, cwd="/") == "src/auth/x.py"
    assert rel("~\\src\\auth\\x.py", root, cwd="/") == "src/auth/x.py"
    monkeypatch.setenv("HOME", str(tmp_path / "outside"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "outside"))
    assert rel("~/secret.txt", root, cwd=root) is None


def test_tilde_inside_a_path_is_a_name(root: str) -> None:
    assert rel("src/~/x", root, cwd=root) == "src/~/x"


def test_nonexistent_deep_path(root: str) -> None:
    assert rel("a/b/c/d/e/f.txt", root, cwd=root) == "a/b/c/d/e/f.txt"
    assert rel("a/b/../c/./d//e.txt", root, cwd=root) == "a/c/d/e.txt"


def test_trailing_slash_and_duplicate_slashes_are_dropped(root: str) -> None:
    assert rel("src/auth/", root, cwd=root) == "src/auth"
    assert rel("src//auth///login.py", root, cwd=root) == "src/auth/login.py"


@needs_symlinks
def test_symlink_inside_pointing_outside_is_outside(root: str, tmp_path: Path) -> None:
    os.symlink(str(tmp_path / "outside"), os.path.join(root, "src", "link"))
    resolved = resolve_path("src/link/secret.txt", root, cwd=root)
    assert resolved.relative is None
    assert resolved.absolute == os.path.realpath(str(tmp_path / "outside" / "secret.txt"))
    # a file that does not exist yet behind the link is outside too
    assert rel("src/link/new/deep.txt", root, cwd=root) is None


@needs_symlinks
def test_symlinked_file_pointing_outside_is_outside(root: str, tmp_path: Path) -> None:
    os.symlink(str(tmp_path / "outside" / "secret.txt"), os.path.join(root, "notes.txt"))
    assert rel("notes.txt", root, cwd=root) is None


@needs_symlinks
def test_dangling_symlink_resolves_to_its_target(root: str, tmp_path: Path) -> None:
    os.symlink(str(tmp_path / "outside" / "not-yet.txt"), os.path.join(root, "dangling"))
    assert rel("dangling", root, cwd=root) is None
    os.symlink("src/auth/new.py", os.path.join(root, "dangling-in"))
    assert rel("dangling-in", root, cwd=root) == "src/auth/new.py"


@needs_symlinks
def test_symlinked_directory_inside_the_root(root: str) -> None:
    os.mkdir(os.path.join(root, "docs"))
    os.symlink(os.path.join(root, "src", "auth"), os.path.join(root, "docs", "auth-alias"))
    assert rel("docs/auth-alias/login.py", root, cwd=root) == "src/auth/login.py"
    assert rel("docs/auth-alias/new/deep.py", root, cwd=root) == "src/auth/new/deep.py"


@needs_symlinks
def test_symlink_is_followed_before_dotdot(root: str) -> None:
    # link -> src/auth, so link/.. is src (the kernel's reading), not the root
    os.symlink(os.path.join(root, "src", "auth"), os.path.join(root, "link"))
    assert rel("link/../other.py", root, cwd=root) == "src/other.py"
    # a relative link target is resolved from the link's directory
    os.symlink("auth", os.path.join(root, "src", "rel-link"))
    assert rel("src/rel-link/../x.py", root, cwd=root) == "src/x.py"


@needs_symlinks
def test_symlink_dotdot_can_escape(root: str, tmp_path: Path) -> None:
    deep = tmp_path / "outside" / "a" / "b"
    deep.mkdir(parents=True)
    os.symlink(str(deep), os.path.join(root, "up"))
    # up/../../secret.txt walks from the target, not from the root
    assert rel("up/../../secret.txt", root, cwd=root) is None


@needs_symlinks
def test_root_given_through_a_symlink(root: str, tmp_path: Path) -> None:
    alias = str(tmp_path / "alias")
    os.symlink(root, alias)
    assert rel(os.path.join(alias, "src", "x.py"), alias) == "src/x.py"
    assert rel(os.path.join(root, "src", "x.py"), alias) == "src/x.py"
    assert rel("src/x.py", root, cwd=alias) == "src/x.py"


@needs_symlinks
def test_symlink_loop_does_not_hang(root: str) -> None:
    os.symlink("loop-b", os.path.join(root, "loop-a"))
    os.symlink("loop-a", os.path.join(root, "loop-b"))
    resolved = resolve_path("loop-a/x", root, cwd=root)
    assert resolved.relative is not None


def test_nul_byte_is_rejected(root: str) -> None:
    with pytest.raises(PathError, match="NUL byte") as caught:
        resolve_path("src/a\x00b.py", root, cwd=root)
    assert isinstance(caught.value, ValidationError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.exit_code == 2
    assert "'src/a\\x00b.py'" in str(caught.value)
    with pytest.raises(PathError, match="working directory .* NUL byte"):
        resolve_path("x", root, cwd="/tmp\x00")
    with pytest.raises(PathError, match="workspace root .* NUL byte"):
        resolve_path("x", "/tmp\x00ws")


def test_empty_and_non_string_paths_are_rejected(root: str) -> None:
    with pytest.raises(PathError, match="path is empty"):
        resolve_path("", root)
    with pytest.raises(PathError, match="must be a string, not int"):
        resolve_path(3, root)  # type: ignore[arg-type]
    with pytest.raises(PathError, match="must be a string, not bytes"):
        resolve_path(b"x", root)  # type: ignore[arg-type]


def test_root_is_real_skips_resolving_the_root(root: str) -> None:
    real = real_root(root)
    assert resolve_path("src/x", real, cwd=real, root_is_real=True).relative == "src/x"


def test_relative_to_root_helper() -> None:
    assert relative_to_root("/a/b", "/a/b") == ""
    assert relative_to_root("/a/b/c/d", "/a/b") == "c/d"
    assert relative_to_root("/a/bc", "/a/b") is None
    assert relative_to_root("/a", "/a/b") is None
    assert relative_to_root("/x/y", "/") == "x/y"


def test_absolute_path_does_not_resolve(root: str) -> None:
    assert absolute_path("a\\..\\b", cwd=root) == os.path.join(root, "a/../b")


def test_resolved_path_value(root: str) -> None:
    resolved = resolve_path("src/x", root, cwd=root)
    assert resolved == ResolvedPath("src/x", os.path.join(real_root(root), "src", "x"), "src/x")
    assert resolved.to_dict()["inside"] is True
    assert "src/x" in repr(resolved)


def test_resolving_below_the_root_agrees_with_os_path_realpath(tmp_path: Path) -> None:
    """A target below the (already resolved) root is resolved component by component from
    the root, stopping at the first missing one; the answer must be ``os.path.realpath``'s
    for files, directories, links (absolute, relative, dangling, looping, out of the root),
    ``..`` and ``.`` anywhere, missing parents and files used as directories."""
    import random

    from paw_tui.core.workspace.paths import real_root, resolve_path

    root = tmp_path / "ws"
    (root / "src" / "deep").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "a.py").write_text("x")
    (tmp_path / "outside").mkdir()
    links = {
        "src/to-docs": "../docs",
        "src/abs": str(root / "src" / "deep"),
        "dangling": "nowhere/at/all",
        "loop": "loop",
        "out": str(tmp_path / "outside"),
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    parts = ["src", "deep", "a.py", "docs", "to-docs", "abs", "dangling", "loop", "out"]
    parts += ["missing", "..", ".", "", "x.py"]
    rng = random.Random(12)
    base = real_root(str(root))
    for _ in range(3000):
        rel = "/".join(rng.choice(parts) for _ in range(rng.randint(1, 5)))
        path = f"{root}/{rel}"
        assert resolve_path(path, base, root_is_real=True).absolute == os.path.realpath(path), rel
