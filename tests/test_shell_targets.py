"""The shell write-target heuristic (DESIGN §6): the files a command visibly writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw_tui.core.policy.shell_targets import ShellTarget, write_targets

W = "/w"


def T(path: str, how: str, cwd: str = W) -> ShellTarget:
    return ShellTarget(path, cwd, how)


CASES: dict[str, list[ShellTarget]] = {
    # redirections
    "echo x > a.txt": [T("a.txt", "redirect")],
    "echo x >> a.txt": [T("a.txt", "redirect")],
    "echo x >| a": [T("a", "redirect")],
    "echo x>a": [T("a", "redirect")],
    "cmd &> log": [T("log", "redirect")],
    "cmd &>> log": [T("log", "redirect")],
    "cmd 2> err.log": [T("err.log", "redirect")],
    "cmd 1>out": [T("out", "redirect")],
    "cmd >& both.log": [T("both.log", "redirect")],
    "cmd 3<> rw.bin": [T("rw.bin", "redirect")],
    "echo x > 'my file.txt'": [T("my file.txt", "redirect")],
    # descriptors and harmless targets
    "cmd 2>&1": [],
    "cmd >&2": [],
    "cmd >&-": [],
    "cmd > /dev/null 2>&1": [],
    "cmd 2>/dev/null": [],
    "echo x > /dev/stderr": [],
    "cat < in.txt": [],
    "cmd 2>&1 > out": [T("out", "redirect")],
    # commands
    "cat a | tee b c": [T("b", "tee"), T("c", "tee")],
    "tee -a x": [T("x", "tee")],
    "cp a b": [T("b", "cp")],
    "cp -r src/ backup/": [T("backup/", "cp")],
    "cp -t dir a b": [T("dir", "cp")],
    "cp --target-directory=dir a b": [T("dir", "cp")],
    "mv a b": [T("a", "mv"), T("b", "mv")],
    "rm -rf x y": [T("x", "rm"), T("y", "rm")],
    "rm -- -weird": [T("-weird", "rm")],
    "rmdir d": [T("d", "rmdir")],
    "touch a": [T("a", "touch")],
    "mkdir -p a/b": [T("a/b", "mkdir")],
    "sed -i 's/a/b/' f g": [T("f", "sed"), T("g", "sed")],
    "sed -i.bak -e 's/x/y/' f": [T("f", "sed")],
    "sed --in-place -e s/a/b/ f": [T("f", "sed")],
    "sed 's/a/b/' f": [],
    "ln -s a b": [T("b", "ln")],
    "dd if=a of=b": [T("b", "dd")],
    "truncate -s 0 f": [T("f", "truncate")],
    "/usr/bin/touch abs": [T("abs", "touch")],
    # prefixes
    "sudo tee /etc/hosts": [T("/etc/hosts", "tee")],
    "echo x | sudo -u root tee f": [T("f", "tee")],
    "FOO=1 BAR=2 touch a": [T("a", "touch")],
    "env -u HOME touch y": [T("y", "touch")],
    "nice -n 5 touch n": [T("n", "touch")],
    "nohup rm -f z": [T("z", "rm")],
    # nothing written
    "ls": [],
    "ls -la src": [],
    "git status": [],
    "git commit -m 'x > y'": [],
    "echo a # > b": [],
    "python script.py": [],
    "": [],
}


@pytest.mark.parametrize("command", list(CASES))
def test_targets(command: str) -> None:
    assert write_targets(command, W) == CASES[command]


SEQUENCES: dict[str, list[ShellTarget]] = {
    "touch a && touch b": [T("a", "touch"), T("b", "touch")],
    "touch a || touch b": [T("a", "touch"), T("b", "touch")],
    "touch a; touch b": [T("a", "touch"), T("b", "touch")],
    "touch a & touch b": [T("a", "touch"), T("b", "touch")],
    "echo x | tee a | tee b": [T("a", "tee"), T("b", "tee")],
    "touch a\ntouch b": [T("a", "touch"), T("b", "touch")],
    "true;\ntouch c": [T("c", "touch")],
    "true &&\ntouch q": [T("q", "touch")],
    "a &&(touch b)": [T("b", "touch")],
    "echo a>>b;rm c": [T("b", "redirect"), T("c", "rm")],
    "echo x >&2;touch z": [T("z", "touch")],
}


@pytest.mark.parametrize("command", list(SEQUENCES))
def test_targets_across_separators(command: str) -> None:
    assert write_targets(command, W) == SEQUENCES[command]


CD: dict[str, list[ShellTarget]] = {
    "cd sub && echo x > a": [T("a", "redirect", "/w/sub")],
    "cd sub; touch a\ncd ..\ntouch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "cd /tmp && touch t": [T("t", "touch", "/tmp")],
    "cd sub/deeper && cd .. && touch m": [T("m", "touch", "/w/sub")],
    "(cd sub && touch a); touch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "echo $(cd x && pwd) > f": [T("f", "redirect")],
}


@pytest.mark.parametrize("command", list(CD))
def test_cd_is_followed(command: str) -> None:
    assert write_targets(command, W) == CD[command]


def test_bare_cd_goes_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert write_targets("cd && touch a", W) == [T("a", "touch", os.path.normpath(str(tmp_path)))]


HEREDOCS: dict[str, list[ShellTarget]] = {
    "cat <<EOF > out.txt\nrm -rf /\n> fake\nEOF\ntouch after": [
        T("out.txt", "redirect"),
        T("after", "touch"),
    ],
    "cat <<'EOF'\n> fake\nEOF": [],
    "cat <<-EOF > o\n\ttouch no\n\tEOF\ntouch yes": [T("o", "redirect"), T("yes", "touch")],
    "python - <<EOF\nopen('x', 'w')\nEOF": [],
}


@pytest.mark.parametrize("command", list(HEREDOCS))
def test_heredoc_bodies_are_data(command: str) -> None:
    assert write_targets(command, W) == HEREDOCS[command]


@pytest.mark.parametrize("command", ["echo 'unterminated", 'echo "a', "echo x > 'a", "touch \\"])
def test_unparseable_commands_give_none(command: str) -> None:
    assert write_targets(command, W) is None


def test_targets_compare_by_value() -> None:
    assert T("a", "touch") == ShellTarget("a", W, "touch")
    assert T("a", "touch") != T("a", "rm")
    assert "ShellTarget('a'" in repr(T("a", "touch"))
