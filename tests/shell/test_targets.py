"""Write targets, exactly: every case of the old heuristic's tests (``tests/test_shell_targets.py``)
keeps its meaning here, next to the cases where the old parser disagreed with bash.

The working directory ``/w`` does not exist, so nothing is looked up on disk: where copying
into a directory depends on what the destination is, the destination is a subtree."""

from __future__ import annotations

import os

import pytest

from paw_tui.core.policy.shell.analysis import ShellTarget, analyse

W = "/w"


def T(
    path: str,
    how: str,
    cwd: str = W,
    *,
    subtree: bool = False,
    directory: bool = False,
    dynamic: bool = False,
    glob: bool = False,
) -> ShellTarget:
    return ShellTarget(path, cwd, how, subtree, directory, dynamic, glob)


def targets(command: str) -> list[ShellTarget]:
    result = analyse(command, W, home="/home/u", oldpwd="/prev")
    assert result.error is None, result.error
    return result.targets


# The old heuristic's cases. Deliberate differences (each is what bash and the programs do):
# "cp -t dir a b" names the files it writes (dir/a, dir/b); a copy's destination may be an
# existing directory, so it is a subtree; "sed -i.bak" also writes the backup; "mv" takes
# subtrees along; "touch \\" is valid bash (it touches a file named "\\").
OLD: dict[str, list[ShellTarget]] = {
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
    "cp a b": [T("b", "cp", subtree=True)],
    "cp -r src/ backup/": [T("backup/", "cp", subtree=True)],
    "cp -t dir a b": [T("dir/a", "cp"), T("dir/b", "cp")],
    "cp --target-directory=dir a b": [T("dir/a", "cp"), T("dir/b", "cp")],
    "mv a b": [T("a", "mv", subtree=True), T("b", "mv", subtree=True)],
    "rm -rf x y": [T("x", "rm", subtree=True), T("y", "rm", subtree=True)],
    "rm -- -weird": [T("-weird", "rm")],
    "rmdir d": [T("d", "rmdir", subtree=True)],
    "touch a": [T("a", "touch")],
    "mkdir -p a/b": [T("a/b", "mkdir", directory=True)],
    "sed -i 's/a/b/' f g": [T("f", "sed"), T("g", "sed")],
    "sed -i.bak -e 's/x/y/' f": [T("f", "sed"), T("f.bak", "sed")],
    "sed --in-place -e s/a/b/ f": [T("f", "sed")],
    "sed 's/a/b/' f": [],
    "ln -s a b": [T("b", "ln", subtree=True)],
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
    # sequences
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
    # cd
    "cd sub && echo x > a": [T("a", "redirect", "/w/sub")],
    "cd sub; touch a\ncd ..\ntouch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "cd /tmp && touch t": [T("t", "touch", "/tmp")],
    "cd sub/deeper && cd .. && touch m": [T("m", "touch", "/w/sub")],
    "(cd sub && touch a); touch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "echo $(cd x && pwd) > f": [T("f", "redirect")],
    # here-documents
    "cat <<EOF > out.txt\nrm -rf /\n> fake\nEOF\ntouch after": [
        T("out.txt", "redirect"),
        T("after", "touch"),
    ],
    "cat <<'EOF'\n> fake\nEOF": [],
    "cat <<-EOF > o\n\ttouch no\n\tEOF\ntouch yes": [T("o", "redirect"), T("yes", "touch")],
    "python - <<EOF\nopen('x', 'w')\nEOF": [],
    "touch \\": [T("\\", "touch")],
}


@pytest.mark.parametrize("command", list(OLD))
def test_old_cases(command: str) -> None:
    assert targets(command) == OLD[command]


@pytest.mark.parametrize(
    "command",
    ["echo 'unterminated", 'echo "a', "echo x > 'a", "echo $(x", "echo `x", "echo ${x", "echo $'x"],
)
def test_unparseable_commands_are_errors(command: str) -> None:
    result = analyse(command, W)
    assert result.error is not None and result.error.endswith(".")
    assert result.targets == [] and not result.read_only


def test_bare_cd_goes_home(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = analyse("cd && touch a", W)
    assert result.targets == [T("a", "touch", os.path.normpath(str(tmp_path)))]


def test_targets_compare_by_value() -> None:
    assert T("a", "touch") == ShellTarget("a", W, "touch")
    assert T("a", "touch") != T("a", "rm")
    assert T("a", "rm") != T("a", "rm", subtree=True)
    assert "ShellTarget('a'" in repr(T("a", "touch"))
    assert len({T("a", "touch"), T("a", "touch")}) == 1


# Where the old parser disagreed with bash.
AGREEMENT: dict[str, list[ShellTarget]] = {
    # comments
    "echo a # c\nrm -rf .git": [T(".git", "rm", subtree=True)],
    "echo a#b > f": [T("f", "redirect")],
    "echo a;#c\ntouch d": [T("d", "touch")],
    "echo 'a # b' > f": [T("f", "redirect")],
    # ANSI-C and locale quoting
    "echo $'it\\'s' > f": [T("f", "redirect")],
    "echo x > $'it\\'s'": [T("it's", "redirect")],
    "echo x > $'\\x61\\142'": [T("ab", "redirect")],
    'echo $"x y" > "$"f': [T("$f", "redirect")],
    'touch $"a b"': [T("a b", "touch")],
    "touch 'a'\"b\"\\c$'d'": [T("abcd", "touch")],
    # here-documents
    "cat <<EOF\nit's $'x\nEOF\nrm y": [T("y", "rm")],
    "cat <<'EOF'\nrm -rf .git\nEOF": [],
    'cat <<"E O F" > o\nrm x\nE O F\ntouch after': [T("o", "redirect"), T("after", "touch")],
    "cat <<\\EOF\n$(rm x)\nEOF": [],
    "cat <<EOF\n$(rm x)\nEOF": [T("x", "rm")],
    "cat <<EOF\n`touch y`\nEOF": [T("y", "touch")],
    'cat <<E"O"F\n$(rm x)\nEOF': [],
    "cat <<-EOF\n\trm x\n\tEOF\ntouch z": [T("z", "touch")],
    "cat <<A; cat <<B > o\nrm a\nA\nrm b\nB\ntouch c": [T("o", "redirect"), T("c", "touch")],
    "cat <<A | tee t\nA\ntouch z": [T("t", "tee"), T("z", "touch")],
    "cat <<EOF\nx\\\nEOF\nEOF\ntouch z": [T("z", "touch")],
    "cat <<EOF": [],
    "touch a \\\n  b": [T("a", "touch"), T("b", "touch")],
    "tou\\\nch x": [T("x", "touch")],
    # process substitution
    "tee >(cat) FILE": [T("FILE", "tee")],
    "diff <(rm a) >(touch b)": [T("a", "rm"), T("b", "touch")],
    "echo x >(cat > f)": [T("f", "redirect")],
    # reserved words hiding commands
    "if true; then rm -rf .git; fi": [T(".git", "rm", subtree=True)],
    "if false; then :; elif true; then rm a; else rm b; fi": [T("a", "rm"), T("b", "rm")],
    "{ rm x; }": [T("x", "rm")],
    "! rm x": [T("x", "rm")],
    "while false; do rm x; done": [T("x", "rm")],
    "until true; do rm x; done": [T("x", "rm")],
    "for f in a b; do touch $f; done": [T("a", "touch"), T("b", "touch")],
    "for f in $(ls); do touch $f; done": [T("$f", "touch", dynamic=True)],
    "for f in a b; do touch x; done": [T("x", "touch")],
    "for ((i=0; i<3; i++)); do touch t; done": [T("t", "touch")],
    "case x in a) rm y;; esac": [T("y", "rm")],
    "case x in (a|b) rm y;& *) rm z;;& esac": [T("y", "rm"), T("z", "rm")],
    "f() { rm x; }": [T("x", "rm")],
    "function g { rm y; }; g": [T("y", "rm")],
    "select x in a; do rm z; done": [T("z", "rm")],
    "coproc rm c": [T("c", "rm")],
    "coproc name { rm d; }": [T("d", "rm")],
    "time -p rm t": [T("t", "rm")],
    "! ! rm n": [T("n", "rm")],
    # cd
    "cd - && touch a": [T("a", "touch", "/prev")],
    'cd "$OLDPWD" && touch a': [T("a", "touch", "/prev")],
    "cd && touch a": [T("a", "touch", "/home/u")],
    "cd ~/p && touch a": [T("a", "touch", "/home/u/p")],
    "(cd sub; touch a); touch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "cd x | touch a": [T("a", "touch")],
    "cd sub & touch a": [T("a", "touch")],
    "# a comment\ncd sub && touch a": [T("a", "touch", "/w/sub")],
    "cd sub # here\ntouch a": [T("a", "touch", "/w/sub")],
    "pushd sub && touch a && popd && touch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "pushd a; pushd b; popd; touch c": [T("c", "touch", "/w/a")],
    "cd sub; cd -; touch a": [T("a", "touch")],
    "x=$(cd sub; touch a); touch b": [T("a", "touch", "/w/sub"), T("b", "touch")],
    "cd $D && touch a": [T("a", "touch", "/w/$D", dynamic=True)],
    "cd $D && touch /abs": [T("/abs", "touch", "/w/$D")],
    "cd; cd -; touch a": [T("a", "touch")],
    # redirections anywhere, on compound commands, and what is not one
    "> f echo x": [T("f", "redirect")],
    "echo > f x": [T("f", "redirect")],
    "{ echo; } > f": [T("f", "redirect")],
    "while false; do :; done > f": [T("f", "redirect")],
    "(echo) > f": [T("f", "redirect")],
    "if true; then :; fi > f": [T("f", "redirect")],
    "exec 3> file": [T("file", "redirect")],
    "{fd}>file echo": [T("file", "redirect")],
    "cmd 2>&file": [],
    "cmd <&0 >&- 3>&1 4<&-": [],
    "cmd &> /dev/null >/dev/fd/3 2>/dev/stderr": [],
    "(( 3 > 2 ))": [],
    "[[ b > a ]]": [],
    "[[ -n $(touch q) ]]": [T("q", "touch")],
    "echo $((3 > 2))": [],
    'let "a = 3 > 2"': [],
    'echo "a > b"': [],
    "x=$(( 1 << 2 ))": [],
    "cat <<< 'a > b'": [],
    # braces, tildes, globs, variables
    "rm -rf .{git,x}": [T(".git", "rm", subtree=True), T(".x", "rm", subtree=True)],
    "touch {a,b}{1,2}": [T("a1", "touch"), T("a2", "touch"), T("b1", "touch"), T("b2", "touch")],
    "touch f{1..3}": [T("f1", "touch"), T("f2", "touch"), T("f3", "touch")],
    "touch {a}": [T("{a}", "touch")],
    "touch '{a,b}'": [T("{a,b}", "touch")],
    "touch {a{b,c}}": [T("{ab}", "touch"), T("{ac}", "touch")],
    "touch ${HOME}{a,b}": [T("/home/ua", "touch"), T("/home/ub", "touch")],
    "echo > ~/x": [T("/home/u/x", "redirect")],
    "echo > ~nosuchuser/x": [T("~nosuchuser/x", "redirect", dynamic=True)],
    "echo > '~/x'": [T("~/x", "redirect")],
    "touch x=~/a": [T("x=/home/u/a", "touch")],
    "echo > .orch*/active_intents.yaml": [T(".orch*/active_intents.yaml", "redirect", glob=True)],
    "rm '*'": [T("*", "rm")],
    "F=.git/config; echo x > $F": [T(".git/config", "redirect")],
    "export F=x; echo > $F": [T("x", "redirect")],
    "F='a b'; touch $F": [T("a", "touch"), T("b", "touch")],
    "F='a b'; touch \"$F\"": [T("a b", "touch")],
    "F=x; F+=y; touch $F": [T("xy", "touch")],
    "F=x touch $F": [T("$F", "touch", dynamic=True)],
    "echo > $UNSET": [T("$UNSET", "redirect", dynamic=True)],
    "echo > $(pwd)/x": [T("$(pwd)/x", "redirect", dynamic=True)],
    'echo > "$PWD/x"': [T("/w/x", "redirect")],
    "read F; touch $F": [T("$F", "touch", dynamic=True)],
    "F=a; if x; then F=b; fi; touch $F": [T("b", "touch"), T("a", "touch")],
    # an excluded subtree destroyed through its directory
    "rm -rf src/auth/legacy": [T("src/auth/legacy", "rm", subtree=True)],
    # grouped and attached options
    "sed -Ei 's/a/b/' f": [T("f", "sed")],
    "sed -ni 's/a/b/p' f": [T("f", "sed")],
    "sed -E -i 's/a/b/' f": [T("f", "sed")],
    "sed -ie 's/a/b/' f": [T("f", "sed"), T("fe", "sed")],
    "sed 's/a/b/w out' f": [T("out", "sed")],
    "perl -pi -e 's/a/b/' f": [T("f", "perl")],
    "perl -i.bak -pe 's/a/b/' f": [T("f", "perl"), T("f.bak", "perl")],
    "cp -t.git f": [T(".git/f", "cp")],
    "cp -vt .git f": [T(".git/f", "cp")],
    "cp -rt dir a": [T("dir/a", "cp", subtree=True)],
    "cp --parents a/b d": [T("d/a/b", "cp")],
    "mv -t dir a b": [
        T("a", "mv", subtree=True),
        T("b", "mv", subtree=True),
        T("dir/a", "mv", subtree=True),
        T("dir/b", "mv", subtree=True),
    ],
    "install -D a b": [T("b", "install", subtree=True)],
    "install -m 644 a b": [T("b", "install", subtree=True)],
    "install -d d": [T("d", "install", directory=True)],
    "ln -sf a b": [T("b", "ln", subtree=True)],
    "ln a b": [T("a", "ln-source"), T("b", "ln", subtree=True)],
    "ln -T a b": [T("a", "ln-source"), T("b", "ln")],
    "rsync -a a/ b/": [T("b/", "rsync", subtree=True)],
    "rsync -a --delete src/ dst": [T("dst", "rsync", subtree=True)],
    "truncate -s0 f": [T("f", "truncate")],
    "touch -d yesterday F": [T("F", "touch")],
    "touch -r REF F": [T("F", "touch")],
    "touch -t 202001010000 F": [T("F", "touch")],
    "mkdir -m 755 DIR": [T("DIR", "mkdir", directory=True)],
    "mkdir -pm 755 D": [T("D", "mkdir", directory=True)],
    "chmod 644 a b": [T("a", "chmod"), T("b", "chmod")],
    "chmod -x f": [T("f", "chmod")],
    "chmod -R go-w d": [T("d", "chmod", subtree=True)],
    "chown -R u:g d": [T("d", "chown", subtree=True)],
    "chgrp staff f": [T("f", "chgrp")],
    "dd if=/dev/zero of=x count=1": [T("x", "dd")],
    "split -l 10 big part_": [T("part_*", "split", glob=True)],
    "tar -xf a.tar": [T(".", "tar", subtree=True)],
    "tar xzf a.tgz -C out": [T("out", "tar", subtree=True)],
    "tar -czf out.tgz src": [T("out.tgz", "tar")],
    "tar -tf a.tar": [],
    "unzip a.zip": [T(".", "unzip", subtree=True)],
    "unzip -d dir a.zip": [T("dir", "unzip", subtree=True)],
    "git checkout -- f": [T("f", "git", subtree=True)],
    "git restore f": [T("f", "git", subtree=True)],
    "git restore --staged f": [],
    "git rm f": [T("f", "git")],
    "git rm --cached f": [],
    "git mv a b": [T("a", "git", subtree=True), T("b", "git", subtree=True)],
    "git clean -fd": [T(".", "git-contents", subtree=True)],
    "git -C sub clean -fdx": [T(".", "git-contents", "/w/sub", subtree=True)],
    "git clone https://h/o/repo.git": [T("repo", "git", subtree=True)],
    "git diff --output=d.txt": [T("d.txt", "git")],
    # whole-tree rewrites: every file of the repository (a patch nobody can read: the same)
    "git apply p.diff": [T(".", "git-worktree", subtree=True)],
    "git stash": [T(".", "git-worktree", subtree=True)],
    "git reset --hard": [T(".", "git-worktree", subtree=True)],
    "git checkout -b new": [],
    "git switch -c new": [],
    "git switch main": [T(".", "git-worktree", subtree=True)],
    "git stash push -- src": [T("src", "git", subtree=True)],
    "git checkout -- '*.yaml'": [T(".", "git-contents", subtree=True)],
    "git rm 'src/*.py'": [T("src", "git-contents", subtree=True)],
    "find build -name '*.o' -delete": [T("build", "find-delete", subtree=True)],
    "find . -fprint list": [T("list", "find")],
    "find src -exec rm {} +": [T("src", "rm", subtree=True)],
    "find src -exec mv {} dst/ \\;": [T("src", "mv", subtree=True), T("dst/", "mv", subtree=True)],
    "sort -o out in": [T("out", "sort")],
    "uniq in out": [T("out", "uniq")],
    "gzip f": [T("f", "gzip"), T("f.gz", "gzip")],
    "curl -o page https://x": [T("page", "curl")],
    "wget -O page https://x": [T("page", "wget")],
    # nested commands
    "bash -c 'rm -rf x'": [T("x", "rm", subtree=True)],
    "sh -ec 'cd sub && touch a'": [T("a", "touch", "/w/sub")],
    'zsh -c "touch z"': [T("z", "touch")],
    "bash -c 'cd sub'; touch a": [T("a", "touch")],
    "eval 'touch e'": [T("e", "touch")],
    "eval cd sub; touch a": [T("a", "touch", "/w/sub")],
    "trap 'rm -f lock' EXIT": [T("lock", "rm")],
    "bash <<'EOF'\nrm -rf x\nEOF": [T("x", "rm", subtree=True)],
    "sh <<< 'touch h'": [T("h", "touch")],
    "xargs touch < list": [],
    "sudo -u u bash -c 'touch s'": [T("s", "touch")],
    "env -C sub touch x": [T("x", "touch", "/w/sub")],
    "timeout 5 touch t": [T("t", "touch")],
    "time touch t": [T("t", "touch")],
    "\\time -o log touch t": [T("log", "time"), T("t", "touch")],
    "flock lock touch t": [T("lock", "flock"), T("t", "touch")],
    'echo > "${HOME:-/tmp}/x" "${NOPE:+y}"': [T("/home/u/x", "redirect")],
    "F=a; touch ${F:+b} ${F:-c}": [T("b", "touch"), T("a", "touch")],
    "[[ $x =~ (a|b) ]] && touch m": [T("m", "touch")],
    "[[ $a == @(x|y) ]] && touch p": [T("p", "touch")],
    "ln -s .git d; touch d/config": [
        T("d", "ln", subtree=True),
        T("d/config", "touch"),
        T("/w/.git/config", "touch"),
    ],
    "ln -s .git/config x; echo hi > x": [
        T("x", "ln", subtree=True),
        T("x", "redirect"),
        T("/w/.git/config", "redirect"),
    ],
}


@pytest.mark.parametrize("command", list(AGREEMENT))
def test_what_bash_would_write(command: str) -> None:
    assert targets(command) == AGREEMENT[command]


def test_environment_resolves_variables() -> None:
    result = analyse("echo > $OUT; echo > $NOPE/x", W, environ={"OUT": "o.txt", "HOME": "/h"})
    assert result.targets == [T("o.txt", "redirect"), T("/x", "redirect")]


def test_unknown_oldpwd_makes_cd_minus_dynamic() -> None:
    result = analyse("cd - && touch a", W)
    assert result.targets == [T("a", "touch", "/w/$OLDPWD", dynamic=True)]


def test_cd_into_a_missing_directory_may_fail(tmp_path: object) -> None:
    root = str(tmp_path)
    os.mkdir(os.path.join(root, "there"))
    result = analyse("cd there; touch a; cd gone; touch b; cd gone && touch c", root)
    assert [(t.path, os.path.relpath(t.cwd, root)) for t in result.targets] == [
        ("a", "there"),
        ("b", "there"),
        ("c", "there/gone"),
    ]  # "cd gone" fails
    made = analyse("mkdir new; cd new; touch a", root)
    assert [(t.path, os.path.relpath(t.cwd, root)) for t in made.targets] == [
        ("new", "."),
        ("a", "new"),
        ("a", "."),
    ]


def test_copy_into_an_existing_directory_names_the_file(tmp_path: object) -> None:
    root = str(tmp_path)
    os.mkdir(os.path.join(root, "d"))
    open(os.path.join(root, "f"), "w").close()
    result = analyse("cp x d; cp x f; cp x new; mv y d/; ln -s z d", root)
    assert [(t.path, t.how, t.subtree) for t in result.targets] == [
        ("d/x", "cp", False),
        ("f", "cp", False),
        ("new", "cp", True),
        ("y", "mv", True),
        ("d/y", "mv", True),
        ("d/z", "ln", False),
    ]


def test_a_here_document_bash_cannot_expand_is_opaque_not_an_error() -> None:
    result = analyse('cat <<EOF > f\n$(touch "x\nEOF\ntouch y', W)
    assert result.error is None
    assert result.targets == [T("f", "redirect"), T("y", "touch")]
    assert result.opaque == ["here-document"]


def test_something_opaque_before_a_cd_may_have_made_its_directory(tmp_path: object) -> None:
    root = str(tmp_path)
    result = analyse("python gen.py; cd out; touch a", root)
    assert [(t.path, os.path.relpath(t.cwd, root)) for t in result.targets] == [
        ("a", "out"),
        ("a", "."),
    ]


FOLLOW_UPS: dict[str, list[ShellTarget]] = {
    # a for loop over words known now runs its body once per value, the variable bound
    "for f in a b; do for g in 1 2; do touch $f$g; done; done": [
        T("a1", "touch"),
        T("a2", "touch"),
        T("b1", "touch"),
        T("b2", "touch"),
    ],
    "for d in x y; do mkdir -p $d && cd $d; done; touch z": [
        T("x", "mkdir", directory=True),
        T("y", "mkdir", "/w/x", directory=True),
        T("y", "mkdir", directory=True),
        T("z", "touch"),
        T("z", "touch", "/w/x"),
        T("z", "touch", "/w/x/y"),
        T("z", "touch", "/w/y"),
    ],
    "for f in $(ls); do rm $f; done": [T("$f", "rm", dynamic=True)],
    # a variable holding what mktemp makes is that name, the template's X's kept
    'tmp=$(mktemp) && echo x > "$tmp" && rm -f "$tmp"': [
        T("/tmp/tmp.XXXXXXXXXX", "mktemp", glob=True),
        T("/tmp/tmp.XXXXXXXXXX", "redirect"),
        T("/tmp/tmp.XXXXXXXXXX", "rm"),
    ],
    'd=$(mktemp -d -p /var/tmp) && cp f "$d/g"': [
        T("/var/tmp/tmp.XXXXXXXXXX", "mktemp", directory=True, glob=True),
        T("/var/tmp/tmp.XXXXXXXXXX/g", "cp", subtree=True),
    ],
    'x=$(mktemp -u) && echo > "$x"': [T("$x", "redirect", dynamic=True)],
    # a hard-linking copy makes its source writable through the copy
    "cp -l a b": [T("a", "ln-source"), T("b", "cp", subtree=True)],
    "cp -al src dst": [T("src", "ln-source", subtree=True), T("dst", "cp", subtree=True)],
    # git config that sets writes a config file
    "git config core.hooksPath /tmp/x": [T(".git/config", "git")],
    "git config --global user.name x": [T("~/.gitconfig", "git")],
    "git config --file cfg a.b c": [T("cfg", "git")],
    "git config --get user.name": [],
    "git config -l": [],
}


@pytest.mark.parametrize("command", list(FOLLOW_UPS))
def test_follow_ups_from_the_attack_corpus(command: str) -> None:
    assert targets(command) == FOLLOW_UPS[command]


def test_alias_expansion_is_refused() -> None:
    """With expand_aliases on, later lines run what an alias says: not followed, refused."""
    result = analyse("shopt -s expand_aliases\nalias x='rm -rf .git'\nx", W)
    assert result.error is not None and "expand_aliases" in result.error
    assert analyse("shopt -s nullglob; ls", W).error is None


def test_every_worktree_command_is_read_not_left_opaque() -> None:
    """Each subcommand the whole-tree rules know is read for what it writes: none of them is
    left to the boundary as an opaque ``git NAME``."""
    from paw_tui.core.policy.shell.git_reads import WORKTREE_COMMANDS

    for name in sorted(WORKTREE_COMMANDS):
        result = analyse(f"git {name} x", W, home="/home/u")
        assert f"git {name}" not in result.opaque, (name, result)
