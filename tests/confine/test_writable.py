"""writable.py: the writable set, carve-outs and refusals (no kernel needed)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from paw_tui.core.confine import writable
from paw_tui.core.confine.spec import parse_spec
from paw_tui.core.confine.writable import compute_writable, launch_chain
from paw_tui.core.support.realpath import realpath


def make_ws(base: Path) -> Path:
    ws = base / "ws"
    for rel in ("src/auth/legacy/old.py", "src/auth/jwt.py", "README.md", ".claude/settings.json",
                ".claude/commands/c.md", ".orchestration/agent_trace.jsonl", ".paw/work/w/n.md",
                ".paw/instructions/a.md", ".paw/tools/t/x.md", "docs/x.md"):  # fmt: skip
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(rel)
    (ws / ".git").mkdir()
    return ws


def compute(ws: Path, grants: list[str], **kwargs: Any) -> writable.Writable:
    kwargs.setdefault("always_files", ())
    kwargs.setdefault("always_dirs", ())
    return compute_writable(str(ws), grants, **kwargs)


def test_plain_grants(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    (ws / "dangling").symlink_to("nowhere")
    got = compute(ws, ["src/auth/**", "docs/x.md", "src/auth/legacy/", "src/new/**", "dangling"])
    assert got.dirs == [str(ws / ".git"), str(ws / "src/auth")]  # legacy is covered by auth
    assert got.files == [str(ws / "docs/x.md")]
    assert got.missing == ["src/new/**", "dangling"] and got.carved == [] and got.refused == []


def test_exclusions_passed_as_protected_are_carved(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    protected = (*writable.DEFAULT_PROTECTED, "src/auth/legacy")
    got = compute(ws, ["src/auth"], protected=protected)
    assert got.carved == [str(ws / "src/auth")]
    assert got.files == [str(ws / "src/auth/jwt.py")]
    assert str(ws / "src/auth/legacy") not in got.dirs


def test_the_root_is_carved_around_protected_paths(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    got = compute(ws, ["**"])
    assert got.carved == [str(ws), str(ws / ".claude"), str(ws / ".paw")]
    assert got.dirs == [
        str(ws / p) for p in (".claude/commands", ".git", ".paw/work", "docs", "src")
    ]
    assert got.files == [str(ws / "README.md")]
    rules = dict(got.rules())
    for never in (".orchestration", ".claude/settings.json", ".paw/instructions", ".paw/tools"):
        assert not any(writable.under(path, str(ws / never)) for path in rules)


@pytest.mark.parametrize("grant", [".orchestration", ".orchestration/sub", ".claude/settings.json",
                                   ".paw/tools/t"])  # fmt: skip
def test_grants_inside_protected_paths_are_refused(tmp_path: Path, grant: str) -> None:
    ws = make_ws(tmp_path)
    (ws / ".orchestration/sub").mkdir()
    got = compute(ws, [grant])
    assert got.refused and got.refused[0][0] == grant and "never writable" in got.refused[0][1]
    assert got.dirs == [str(ws / ".git")] and got.files == []


def test_paths_leaving_the_root_are_refused(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    (tmp_path / "home").mkdir()
    (ws / "src/link").symlink_to(tmp_path / "home")
    got = compute(ws, ["../x", "/etc", "src/link", "src/../../ws/src", "src/auth/../.."])
    reasons = dict(got.refused)
    assert set(reasons) == {"../x", "/etc", "src/link", "src/../../ws/src"}  # lexically out
    assert "resolves outside the workspace" in reasons["src/link"]
    assert str(ws) in got.carved  # "src/auth/../.." is the root itself


def test_symlinks_inside_a_carved_directory_get_no_rule(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    (ws / "escape").symlink_to("/etc")
    got = compute(ws, ["."])
    assert all(not path.startswith(str(ws / "escape")) for path, _ in got.rules())


def test_protected_paths_are_also_protected_at_their_real_location(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    real_cfg = ws / "src" / "cfg"
    real_cfg.mkdir()
    (real_cfg / "settings.json").write_text("{}")
    os.rename(ws / ".claude", tmp_path / "old-claude")
    (ws / ".claude").symlink_to("src/cfg")
    got = compute(ws, ["src"])
    assert str(ws / "src") in got.carved and str(real_cfg) in got.carved
    assert str(real_cfg / "settings.json") not in got.files


def test_extras_never_open_the_workspace_or_the_state_directory(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    state = tmp_path / "state"
    (state / "specs").mkdir(parents=True)
    (tmp_path / "cache").mkdir()
    got = compute(
        ws, ["src"], state_dir=str(state), extra_dirs=[str(tmp_path), str(state / "specs")]
    )
    assert got.carved == [str(tmp_path)]
    assert str(tmp_path / "cache") in got.dirs
    assert not any(writable.under(p, str(ws)) and p not in (str(ws / "src"), str(ws / ".git"))
                   for p, _ in got.rules())  # fmt: skip
    assert not any(writable.under(p, str(state)) for p, _ in got.rules())
    assert got.refused == [(str(state / "specs"), f"never writable ({state})")]


def test_an_extra_inside_the_workspace_obeys_the_workspace(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    got = compute(
        ws, [], extra_dirs=[str(ws / "docs"), str(ws)], extra_files=[str(ws / "README.md")]
    )
    assert str(ws) in got.carved and str(ws / "docs") in got.dirs
    assert not any(writable.under(p, str(ws / ".orchestration")) for p, _ in got.rules())
    got = compute(ws, [], extra_files=[str(ws / "docs")])
    assert got.refused == [(str(ws / "docs"), "not a file")]


def test_private_tmpdir(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    ok = tmp_path / "tmp" / "paw-1"
    assert compute(ws, [], tmpdir=str(ok), state_dir=str(state)).tmpdir == str(ok)
    for bad in (ws / "scratch", state / "tmp", tmp_path):
        got = compute(ws, [], tmpdir=str(bad), state_dir=str(state))
        assert got.tmpdir is None and got.refused[0][0] == str(bad)
    (tmp_path / "afile").write_text("")
    assert compute(ws, [], tmpdir=str(tmp_path / "afile")).tmpdir is None


def test_git_directory(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    assert compute(ws, [], git_dir=None).dirs == []
    (ws / ".git").rmdir()
    (ws / ".git").write_text("gitdir: /elsewhere/.git/worktrees/x\n")
    got = compute(ws, [])
    assert got.dirs == [] and "not a plain directory" in got.notes[0]


def test_devices_and_rules(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)
    got = compute_writable(str(ws), ["src"], tmpdir=str(tmp_path / "t"))
    rules = got.rules()
    assert ("/dev/null", False) in rules and ("/dev/pts", True) in rules
    assert (str(tmp_path / "t"), True) in rules
    spec = parse_spec(got.spec("comment\nlines"))
    assert spec.tmpdir == os.fsencode(str(tmp_path / "t"))
    assert [(os.fsdecode(p), d) for p, d in spec.rules] == rules[:-1]


def test_listing_failure_refuses_instead_of_granting(tmp_path: Path) -> None:
    ws = make_ws(tmp_path)

    class Unlistable(writable.OsFs):
        def listdir(self, path: str) -> list[str]:
            raise PermissionError(13, "Permission denied")

    got = compute(ws, ["."], fs=Unlistable())
    assert got.refused == [(".", f"cannot list {ws} to carve it: Permission denied")]
    assert got.dirs == [str(ws / ".git")]


def test_launch_chain_is_never_writable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    chain = launch_chain("/usr/bin/python3", str(tmp_path / "env.sh"), str(home))
    confine_dir = os.path.dirname(writable.__file__)
    assert confine_dir in chain and os.path.dirname(os.__file__) in chain
    assert str(home / ".profile") in chain and str(home / ".bashrc") in chain
    assert str(tmp_path / "env.sh") in chain and "/etc/profile" in chain
    ws = make_ws(tmp_path)
    (home / ".cache").mkdir(parents=True)
    (home / ".profile").write_text("")
    got = compute(ws, [], extra_dirs=[str(home)], never=chain)
    assert str(home) in got.carved and str(home / ".cache") in got.dirs
    assert str(home / ".profile") not in got.files


def test_resolving_through_the_kernel_agrees_with_os_path_realpath(tmp_path: Path) -> None:
    """The spec's paths are resolved with one ``open(O_PATH)`` where they exist: the same
    answers as ``os.path.realpath`` for plain paths, links (chained, relative, to
    directories, dangling, looping), ``..`` after a link, and paths that do not exist."""
    real = tmp_path / "real"
    (real / "deep" / "er").mkdir(parents=True)
    (real / "file").write_text("x")
    links = {
        "to-dir": real / "deep",
        "to-file": real / "file",
        "relative": Path("real/deep"),
        "chain": tmp_path / "to-dir",
        "dangling": tmp_path / "nowhere",
        "loop-a": tmp_path / "loop-b",
        "loop-b": tmp_path / "loop-a",
    }
    for name, target in links.items():
        (tmp_path / name).symlink_to(target)
    base = str(tmp_path)
    paths = [
        base,
        f"{base}/real/file",
        f"{base}/to-dir/er",
        f"{base}/to-dir/../file",
        f"{base}/to-file",
        f"{base}/relative/er",
        f"{base}/chain/er/../er",
        f"{base}/dangling",
        f"{base}/dangling/below",
        f"{base}/loop-a",
        f"{base}/missing/child",
        f"{base}/missing/../real",
        f"{base}/to-dir/missing",
        f"{base}/to-dir/missing/deeper",
        f"{base}/dangling/../real",
        f"{base}/missing/./../dangling/missing",
        f"{base}/missing/../to-dir/er/..",
        f"{base}/real/file/.",
        "/proc/self/root" + base,
        f"{base}/real/file/not-a-dir",
        f"{base}/./real//deep/",
        "/",
    ]
    remembering = writable.OsFs()  # resolves an absent path's parent through its memo
    for path in paths:
        assert realpath(path) == os.path.realpath(path), path
        assert remembering.realpath(path) == os.path.realpath(path), path
        assert remembering.realpath(path) == os.path.realpath(path), path  # from the memo
