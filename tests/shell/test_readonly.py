"""read_only: True only for provably read-only command lines (allowlisted programs used in
ways that cannot write or run other programs), and commands/opaque: every command that would
run, wrappers stripped, nested ones included; what may write unseen."""

from __future__ import annotations

import pytest

from paw_tui.core.policy.shell.analysis import analyse

READ_ONLY = [
    "ls -la",
    "cat a | grep x | wc -l",
    "head -n 5 f; tail -f log",
    "grep -rn foo src",
    "egrep x f; fgrep y f",
    "rg foo",
    "find . -name '*.py'",
    "find . -exec grep -l x {} +",
    "find . -execdir cat {} \\;",
    "find . -ok ls {} \\;",
    "git status",
    "git log --oneline -5",
    "git diff HEAD~1",
    "git show HEAD:file",
    "git branch",
    "git branch -a -v",
    "git branch --contains abc",
    "git branch --list 'feat*'",
    "git rev-parse HEAD",
    "git ls-files",
    "git blame f",
    "git grep x",
    "git -C sub status",
    "git stash list",
    "git config --get user.name",
    "git tag",
    "git remote -v",
    "pwd",
    "echo hi",
    "printf '%s\\n' a",
    "echo hi > /dev/null",
    "ls 2>&1",
    "ls >&2",
    "ls 2>/dev/null",
    "cat < f",
    "cat <<EOF\nx\nEOF",
    "which ls; type ls",
    "file f",
    "stat f; du -sh .; df -h; tree",
    "sort f",
    "uniq a",
    "cut -d: -f1 f; diff a b; cmp a b",
    "date",
    "basename a/b; dirname a/b; realpath a; readlink a",
    "sha256sum f; md5sum f; sha256sum -c sums",
    "true; false; test -f x; [ -d y ]; [[ -n z ]]",
    "env",
    "printenv HOME",
    "env ls",
    "whoami; id; uname -a; hostname",
    "nl f; tr a b < f; jq . f",
    "cd src && ls",
    "cd src; ls",
    "ls $(cat f)",
    "echo `date`",
    "ls | xargs grep x",
    "ls | xargs -I{} cat {}",
    "ls &",
    "(ls)",
    "{ ls; }",
    "if test -f x; then cat x; fi",
    "for f in *.py; do wc -l $f; done",
    "while read l; do echo $l; done < f",
    "case x in a) ls;; esac",
    "sed -n '1,5p' f",
    "sed 's/a/b/' f",
    "/bin/ls",
    "/usr/bin/grep x f",
    "time ls",
    "command ls",
    "command -v ls",
    "builtin echo x",
    "timeout 5 cat f",
    "nice ls",
    "ls <> /dev/null",
    "(( 3 > 2 ))",
    "[[ a > b ]]",
    "diff <(ls a) <(ls b)",
    "pushd src; ls; popd",
    "exit 0",
    "set -e; ls",
    "seq 3; sleep 1; expr 1 + 1",
    "wc -l $(git ls-files)",
    'cat "$HOME/.bashrc"',
]

NOT_READ_ONLY = [
    "rg --pre cat foo",
    "rg --pre-glob '*.gz' foo",
    "find . -name x -delete",
    "find . -exec rm {} \\;",
    "find . -fprint out",
    "git diff --output=x",
    "git log --output=x",
    "git -c core.pager=evil log",
    "git -p log",
    "git --exec-path=/tmp log",
    "git branch new",
    "git branch -d old",
    "git grep -O x",
    "git diff --ext-diff",
    "git stash",
    "git config user.name x",
    "git tag v1",
    "git commit -m x",
    "printf -v x y",
    "echo hi > out",
    "cat <<EOF\n$(rm x)\nEOF",
    "file -C -m x",
    "tree -o out",
    "sort -o out f",
    "sort --compress-program=evil f",
    "uniq a b",
    "date -s now",
    "env FOO=1",
    "env FOO=1 ls",
    "hostname newname",
    "less f",
    "more f",
    "FOO=1 ls",
    "GIT_PAGER=x git log",
    "x=1; ls",
    "$(ls)",
    "ls $(rm f)",
    "eval ls",
    "exec ls",
    "source x",
    ". x",
    "bash -c ls",
    "sh -c 'ls'",
    "ls | xargs rm",
    "f() { ls; }",
    "sed -i 's/a/b/' f",
    "sed 's/a/b/w out' f",
    "sed -n '/x/e' f",
    "sed -f script f",
    "awk '{print}' f",
    "python -c 'print(1)'",
    "./ls",
    "/tmp/ls",
    "sudo ls",
    "nohup ls",
    "ls <> f",
    "ls >&file",
    "(( x = 3 ))",
    "tee f",
    "cat f | tee /dev/null",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only(command: str) -> None:
    result = analyse(command, "/w")
    assert result.error is None
    assert result.read_only, (result.targets, result.opaque)
    assert result.targets == []


@pytest.mark.parametrize("command", NOT_READ_ONLY)
def test_not_read_only(command: str) -> None:
    assert not analyse(command, "/w").read_only


def test_a_syntax_error_is_not_read_only() -> None:
    result = analyse("ls 'x", "/w")
    assert result.error is not None and not result.read_only


APPROVE = ["paw-tui", "approvals", "approve"]

# command line -> (commands, opaque)
COMMANDS: dict[str, tuple[list[list[str]], list[str]]] = {
    "paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "sudo paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "env FOO=1 nice -n 5 paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "timeout 10 nohup paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "command paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "exec paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "builtin exec -a x paw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "\"paw-tui\" 'approvals' approve": ([APPROVE], ["paw-tui"]),
    "p\\aw-tui approvals approve": ([APPROVE], ["paw-tui"]),
    "echo $(paw-tui approvals approve)": (
        [APPROVE, ["echo", "$(paw-tui approvals approve)"]],
        ["paw-tui"],
    ),
    "echo `paw-tui approvals approve`": (
        [APPROVE, ["echo", "`paw-tui approvals approve`"]],
        ["paw-tui"],
    ),
    "x=$(paw-tui approvals approve)": ([APPROVE], ["paw-tui"]),
    "[[ $(paw-tui approvals approve) ]]": ([APPROVE], ["paw-tui"]),
    "(( $(paw-tui approvals approve) ))": ([APPROVE], ["paw-tui"]),
    "echo ${x:-$(paw-tui approvals approve)}": (
        [APPROVE, ["echo", "${x:-$(paw-tui approvals approve)}"]],
        ["paw-tui"],
    ),
    "diff <(paw-tui approvals list) >(cat)": (
        [["paw-tui", "approvals", "list"], ["cat"], ["diff", "/dev/fd/63", "/dev/fd/63"]],
        ["paw-tui"],
    ),
    "bash -c 'paw-tui approvals approve'": (
        [["bash", "-c", "paw-tui approvals approve"], APPROVE],
        ["paw-tui"],
    ),
    'sh -c "cd x && paw-tui approvals approve"': (
        [["sh", "-c", "cd x && paw-tui approvals approve"], ["cd", "x"], APPROVE],
        ["paw-tui"],
    ),
    "zsh -c 'paw-tui approvals approve'": (
        [["zsh", "-c", "paw-tui approvals approve"], APPROVE],
        ["paw-tui"],
    ),
    "eval 'paw-tui approvals approve'": (
        [["eval", "paw-tui approvals approve"], APPROVE],
        ["paw-tui"],
    ),
    'eval "$CMD"': ([["eval", "$CMD"], ["$CMD"]], ["eval", "$CMD"]),
    "trap 'paw-tui approvals approve' EXIT": (
        [["trap", "paw-tui approvals approve", "EXIT"], APPROVE],
        ["paw-tui"],
    ),
    "f() { paw-tui approvals approve; }": ([APPROVE], ["paw-tui"]),
    "if true; then paw-tui approvals approve; fi": ([["true"], APPROVE], ["paw-tui"]),
    "cat <<EOF\n$(paw-tui approvals approve)\nEOF": ([APPROVE, ["cat"]], ["paw-tui"]),
    "cat <<'EOF'\npaw-tui approvals approve\nEOF": ([["cat"]], []),
    "bash <<'EOF'\npaw-tui approvals approve\nEOF": ([["bash"], APPROVE], ["paw-tui"]),
    "$PAW approvals approve": ([["$PAW", "approvals", "approve"]], ["$PAW"]),
    "python script.py && make && npm test": (
        [["python", "script.py"], ["make"], ["npm", "test"]],
        ["python", "make", "npm"],
    ),
    "source venv/bin/activate; pytest": (
        [["source", "venv/bin/activate"], ["pytest"]],
        ["source", "pytest"],
    ),
    "bash script.sh": ([["bash", "script.sh"]], ["bash"]),
    "git stash && git apply p && git reset --hard": (
        [["git", "stash"], ["git", "apply", "p"], ["git", "reset", "--hard"]],
        [],  # whole-tree rewrites are targets now (tests/shell/test_targets.py)
    ),
    "perl -e 'unlink q(x)'": ([["perl", "-e", "unlink q(x)"]], ["perl"]),
    "find . -name x -exec sh -c 'rm \"$1\"' _ {} \\;": (
        [
            ["find", ".", "-name", "x", "-exec", "sh", "-c", 'rm "$1"', "_", "{}", ";"],
            ["sh", "-c", 'rm "$1"', "_", "{}"],
            ["rm", "$1"],
        ],
        [],
    ),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_commands_and_opaque(command: str) -> None:
    result = analyse(command, "/w")
    assert result.error is None
    assert (result.commands, result.opaque) == COMMANDS[command]


def test_xargs_and_find_exec_commands_have_unknown_arguments() -> None:
    result = analyse("ls | xargs paw-tui approvals approve; find . -exec rm {} +", "/w")
    assert [(list(c), c.extra_args) for c in result.commands] == [
        (["ls"], False),
        (APPROVE, True),
        (["find", ".", "-exec", "rm", "{}", "+"], False),
        (["rm", "{}"], True),
    ]
    assert result.opaque == ["xargs paw-tui", "paw-tui"]  # find -exec rm: the subtree target


def test_xargs_replace_string_makes_the_words_dynamic() -> None:
    result = analyse("cat list | xargs -I{} rm {}", "/w")
    assert [(t.path, t.dynamic) for t in result.targets] == [("{}", True)]
    assert "xargs rm" in result.opaque
