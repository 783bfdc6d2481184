"""Fixed cases against real bash: every file bash changes is covered by a reported target;
the parser refuses exactly what bash refuses; some cases also pin the exact targets.

Each command runs with ``bash --norc --noprofile -c`` in a fresh scratch tree
(:mod:`tests.shell.sandbox`): ``a.txt``, ``b.txt``, ``c.log``, ``.hidden``, ``sub/c.txt``,
``sub/deep/d.txt``, ``dir with space/e.txt``, ``.orchestration/active_intents.yaml``,
``src/auth/legacy/old.py``, ``src/auth/new.py``, an ``empty`` directory; ``$HOME`` and
``$OLDPWD`` are directories of their own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from .sandbox import BASH, Sandbox, bash_rejected, uncovered

pytestmark = pytest.mark.skipif(not os.path.exists(BASH), reason="needs bash")


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    sandbox = Sandbox()
    yield sandbox
    sandbox.close()


WRITES = [
    # redirections of every kind
    "echo x > n1",
    "echo x >> a.txt",
    "echo x >| n1",
    "echo x &> n1",
    "echo x &>> n1",
    "echo x 2> n1",
    "echo x 1> n1",
    "echo x 3> n1",
    "echo x {fd}> n1",
    "echo x <> n1",
    "echo x >& n1",
    "echo x 2>&1 > n1",
    "> n1 echo x",
    "echo > n1 x",
    "exec 3> n1",
    "exec 4<> n1",
    "echo x>n1",
    "echo a>>b.txt;rm c.log",
    ": > n1 > n2",
    "cat < a.txt > n1",
    "cat <<< 'a > b' > n1",
    "{ echo; } > n1",
    "(echo) > n1",
    "if true; then :; fi > n1",
    "while false; do :; done > n1",
    "for i in 1; do :; done >> n1",
    "case x in x) :;; esac > n1",
    "echo x >& $'it\\'s'",
    'echo x >& "q\'r"',
    "echo x > 'dir with space/n1'",
    "echo x > dir\\ with\\ space/n2",
    'echo x > "$HOME/h1"',
    "echo x > ~/h2",
    "echo > ~+/n1",
    "echo > ~-/n1",
    "echo x > $'\\x6e1'",
    'echo x > $"n1"',
    "echo x > n{1,2}",
    "echo x > {n1}",
    "echo > .orch*/active_intents.yaml",
    "echo > *.nomatch",
    "echo > [ab].txt",
    "echo > s?b/c.txt",
    "echo x > /dev/null; echo y > n1",
    # programs
    "touch n1 n2",
    "touch -d yesterday n1",
    "touch -r a.txt n1",
    "touch -t 202001010000 n1",
    "touch -c n1 a.txt",
    "touch {a,b}.txt",
    "touch f{1..3}",
    "touch {a..c}z",
    "touch .{g1,g2}",
    "touch n{a,b{c,d}}",
    "touch '{n1,n2}'",
    "touch \\{n1,n2}",
    "touch ~/h3 ~/'h 4'",
    "touch x=~/h5",
    "touch -- -n1",
    "touch ./-n2",
    "touch \\",
    "touch 'a b' c\\ d",
    "cp a.txt n1",
    "cp a.txt sub",
    "cp a.txt sub/",
    "cp -r sub n1",
    "cp -r sub empty",
    "cp -t sub a.txt b.txt",
    "cp -vt sub a.txt",
    "cp -t.orchestration a.txt",
    "cp --target-directory=sub a.txt",
    "cp -rt empty sub",
    "cp --parents sub/c.txt empty",
    "cp a.txt b.txt sub",
    "cp -T a.txt n1",
    "cp -a sub/ n1",
    "cp a.txt 'dir with space'",
    "mv b.txt n1",
    "mv b.txt sub",
    "mv -t sub a.txt b.txt",
    "mv sub n1",
    "mv sub empty",
    "mv -T sub n1",
    "mv 'dir with space' n1",
    "rm a.txt",
    "rm -f a.txt n1",
    "rm -rf sub",
    "rm -r src/auth/legacy",
    "rm -rf .{hidden,x}",
    "rm -- c.log",
    "rm -rf 'dir with space'",
    "rmdir empty",
    "rmdir -p sub/deep || true",
    "mkdir n1",
    "mkdir -p n1/n2/n3",
    "mkdir -m 755 n1",
    "mkdir -pm 700 n1/n2",
    "mkdir -p sub/deep/n1",
    "ln -s a.txt n1",
    "ln -sf a.txt b.txt",
    "ln a.txt n1",
    "ln -s a.txt sub",
    "ln a.txt sub",
    "ln -s /nonexistent",
    "ln -sr a.txt sub/n1",
    "ln -s a.txt n1; echo x > n1",
    "ln -s sub n1 && touch n1/x",
    "ln -s ../a.txt sub/n2 && echo y >> sub/n2",
    "truncate -s0 a.txt",
    "truncate -s 10 n1",
    "truncate --size=0 b.txt",
    "dd if=a.txt of=n1 status=none",
    "dd of=n1 if=a.txt status=none",
    "sed -i 's/a/b/' a.txt",
    "sed -Ei 's/a/b/' a.txt",
    "sed -ni p a.txt",
    "sed -i.bak 's/a/b/' a.txt",
    "sed -E -i 's/a/b/' a.txt b.txt",
    "sed -ie 's/a/b/' a.txt",
    "sed --in-place=.orig -e s/a/b/ a.txt",
    "sed 's/a/b/w n1' a.txt",
    "sed -n '/a/w n2' a.txt",
    "sed -i -e 's/a/b/' -e 's/c/d/' a.txt",
    "sed -i'' 's/a/b/' a.txt",
    "perl -pi -e 's/a/b/' a.txt",
    "perl -i.bak -pe 's/a/b/' a.txt",
    "perl -p -i -e 's/a/b/' b.txt",
    "install -m 644 a.txt n1",
    "install -D a.txt n1/n2/n3",
    "install -d n1 n2",
    "install a.txt b.txt sub",
    "install -t sub a.txt",
    "chmod 600 a.txt",
    "chmod -R go-w sub",
    "chmod -x a.txt",
    "chmod --reference=a.txt b.txt",
    "chmod u+x a.txt b.txt",
    "chgrp -R 0 sub",
    "tee n1 < a.txt > /dev/null",
    "tee -a a.txt < b.txt > /dev/null",
    "cat a.txt | tee n1 n2",
    "tee >(cat > /dev/null) n1 < a.txt > /dev/null",
    "tee - < a.txt > /dev/null",
    "tar -cf n1 a.txt",
    "tar -cf n1 a.txt && tar -xf n1 -C empty",
    "tar cf n1 sub",
    "tar -cf x.tar a.txt; rm a.txt; tar -xf x.tar",
    "tar -czf n1.tgz sub && tar -tzf n1.tgz",
    "zip -q n1.zip a.txt",
    "zip -q n1 a.txt && unzip -q -d empty n1.zip",
    "zip -q n1.zip a.txt && rm a.txt && unzip -q n1.zip",
    "gzip a.txt",
    "gzip -k a.txt",
    "gzip a.txt && gzip -d a.txt.gz",
    "gzip -c a.txt > n1",
    "xz -k b.txt",
    "sort -o n1 a.txt",
    "sort a.txt -o a.txt",
    "uniq a.txt n1",
    "split -l 1 a.txt",
    "split -l 1 a.txt sp_",
    "split -l 1 --additional-suffix=.t a.txt p_",
    "csplit -s -f piece a.txt 2",
    "mkfifo n1",
    "shred -u a.txt",
    "unlink a.txt",
    "link a.txt n1",
    "find sub -name '*.txt' -delete",
    "find . -name c.log -delete",
    "find sub -fprint n1",
    "find sub -type f -exec rm {} +",
    "find sub -name c.txt -exec mv {} empty \\;",
    "find . -maxdepth 1 -name '*.txt' -exec chmod 600 {} \\;",
    "echo a.txt | xargs -I{} cp {} n1 || true",
    "mktemp n1.XXXX",
    "mktemp -d n1.XXXX",
    "mktemp -p sub",
    # wrappers
    "sudo -n true 2>/dev/null; env FOO=1 touch n1",
    "env -C sub touch n1",
    "env -u HOME touch n1",
    "nice -n 5 touch n1",
    "nice touch n1",
    "nohup touch n1 > /dev/null 2>&1",
    "timeout 5 touch n1",
    "timeout -s KILL 5 rm a.txt",
    "command touch n1",
    "time touch n1",
    "\\time -o n1 true 2>/dev/null || true",
    "builtin cd sub && touch n1",
    "exec touch n1",
    "stdbuf -o0 touch n1",
    "setsid touch n1",
    "flock n1 touch n2",
    # nested shells
    "bash -c 'touch n1'",
    "sh -c 'cd sub && touch n1'",
    "bash -ec 'rm -rf sub'",
    "bash -o pipefail -c 'touch n1 | cat'",
    "bash --norc -c 'touch n1'",
    "eval 'touch n1'",
    "eval touch n1 n2",
    "eval cd sub; touch n1",
    "bash <<'EOF'\ntouch n1\nEOF",
    "bash -s <<EOF\ntouch n1\nEOF",
    "sh <<< 'touch n1'",
    "trap 'touch n1' EXIT",
    'F=n1; bash -c "touch $F"',
    # substitutions
    "echo $(touch n1)",
    "x=`touch n1`",
    "cat <(touch n1)",
    "[[ -n $(touch n1) ]]",
    "(( $(touch n1; echo 1) ))",
    "echo ${x:-$(touch n1)}",
    'echo "$(touch n1)"',
    "echo $(cd sub && touch n1) && touch n2",
    "diff <(touch n1) <(touch n2) > /dev/null",
    "cat <<EOF\n$(touch n1)\nEOF",
    "cat <<EOF\n`touch n1`\nEOF",
    "cat <<EOF\n${x:-$(touch n1)}\nEOF",
    # control flow
    "if true; then touch n1; else touch n2; fi",
    "if false; then :; elif true; then rm a.txt; fi",
    "! touch n1",
    "{ rm a.txt; }",
    "for f in a b; do touch n1; done",
    "for ((i=0; i<2; i++)); do touch n1; done",
    "while [ ! -e n1 ]; do touch n1; done",
    "until [ -e n1 ]; do touch n1; done",
    "case a.txt in *.txt) rm a.txt;; esac",
    "case x in (x) touch n1;& y) touch n2;;& *) touch n3;; esac",
    "f() { touch n1; }; f",
    "function g { rm a.txt; }; g",
    "f() { cd sub; }; f; touch n1",
    "coproc touch n1; wait",
    "touch n1 & wait",
    "touch n1 && touch n2 || touch n3",
    "false || touch n1",
    "true && touch n1",
    "touch n1 | cat",
    "cat a.txt | sort > n1",
    "select x in a; do touch n1; break; done < /dev/null",
    "time -p touch n1 2>/dev/null",
    "! ! touch n1",
    "{ touch n1 ; } 2>/dev/null",
    # cd
    "cd sub && touch n1",
    "cd sub; touch n1",
    "cd sub; cd deep; touch n1; cd ..; touch n2",
    "cd 'dir with space' && touch n1",
    "cd && touch h6",
    "cd ~ && touch h7",
    "cd - && touch o1",
    'cd "$OLDPWD" && touch o2',
    "cd nonexistent; touch n1",
    "cd nonexistent && touch n1",
    "cd nonexistent || touch n1",
    "(cd sub; touch n1); touch n2",
    "cd sub | touch n1",
    "pushd sub > /dev/null && touch n1 && popd > /dev/null && touch n2",
    "pushd sub >/dev/null; pushd deep >/dev/null; popd >/dev/null; touch n1",
    "# comment\ncd sub && touch n1",
    "cd sub # c\ntouch n1",
    "mkdir n1; cd n1; touch n2",
    "mkdir -p n1 && cd n1 && touch n2",
    "rm -rf sub; cd sub; touch n1",
    "cd -P sub && touch n1",
    "cd ./sub/../sub && touch n1",
    "cd sub/deep && cd ../.. && touch n1",
    "F=sub; cd $F; touch n1",
    'cd "$HOME" && cd - && touch n1',
    "x=$(cd sub; touch n1); touch n2",
    # variables
    "F=n1; echo x > $F",
    'F=n1; touch "$F"',
    "export G=n1; touch $G",
    "declare H=n1; touch $H",
    "I='n1 n2'; touch $I",
    "J=sub/n1; K=$J; touch $K",
    "L=n; L+=1; touch $L",
    "M=~/h8; touch $M",
    "N=n1 touch n2",
    'export O={n1,n2}; touch "$O"',
    "local P=n1 2>/dev/null; touch n2",
    "readonly Q=n1; touch $Q",
    "unset HOME; touch n1",
    'touch "$PWD/n1"',
    "touch $PWD/n2",
    # comments, quoting, continuation, the old parser's desyncs
    "echo a # c\nrm -rf sub",
    "echo a#b > n1",
    "echo $'it\\'s' > n1",
    'echo $"x" > n1',
    "cat <<EOF > n1\nit's $'x\nEOF\nrm b.txt",
    "cat <<'EOF'\n$(rm a.txt)\nEOF\ntouch n1",
    'cat <<"E O F" > n1\nrm x\nE O F',
    "cat <<\\EOF\nrm a.txt\nEOF",
    "cat <<-EOF > n1\n\trm x\n\tEOF\ntouch n2",
    "cat <<A; cat <<B > n1\nrm a.txt\nA\nrm b.txt\nB\ntouch n2",
    "cat <<EOF\nx\\\nEOF\nEOF\ntouch n1",
    "touch n1 \\\n  n2",
    "tou\\\nch n1",
    'echo "a > b" > n1',
    "(( 3 > 2 )) && touch n1",
    "[[ b > a ]] && touch n1",
    "echo $((3 > 2)) > n1",
    "let 'x = 3 > 2'; touch n1",
    "x=$(( 1 << 2 )); touch n1",
    "echo 'touch poison' > n1",
    "echo a; # touch poison\ntouch n1",
]

SYNTAX = [
    # (command, bash refuses it)
    ("echo 'a", True),
    ('echo "a', True),
    ("echo $(x", True),
    ("echo `x", True),
    ("echo ${x", True),
    ("echo $'a", True),
    ("if true; then", True),
    ("if then fi", True),
    ("( )", True),
    ("{ }", True),
    ("echo a ; ; echo b", True),
    ("; echo", True),
    ("echo |", True),
    ("echo &&", True),
    ("echo a &;", True),
    ("done", True),
    ("}", True),
    ("in", True),
    ("f() echo x", True),
    ("echo a=(b)", True),
    ("echo @(a)", True),
    ("echo a | ! cat", True),
    ("[[ a b ]]", True),
    ("[[ -f ]]", True),
    ("[[ a ==\n a ]]", True),
    ("(echo) }", True),
    ("a=1 if true; then :; fi", True),
    ("echo >", True),
    ("echo > ;", True),
    ("cat <<", True),
    ("case x in a) echo", True),
    ("for x in a; echo", True),
    ("while true; done", True),
    ("touch \\", False),
    ("!", False),
    ("time", False),
    ("! ;", False),
    ("[[ ]]", False),
    ("case x in esac", False),
    ("for x do :; done", False),
    ("for ((;;)) do break; done", False),
    ("for i in 1; { :; }", False),
    ("cat <<EOF", False),
    ("function f ( echo )", False),
    ("coproc x { :; }", False),
    ("{ if true; then :; fi }", False),
    ("a=(1 2); b+=(3)", False),
    ("declare -a c=(1)", False),
    ("arr=(a\n b # c\n c)", False),
    ("echo $'\\0'", False),
    ("[[ a == a &&\n b == b ]]", False),
    ("echo ${a:-{}}", False),
    ("echo $((echo a); (echo b))", False),
    ("((echo a); (echo b))", False),
    ("case a in (a) :;; (b|c) :;& d) :;;& *) :;; esac", False),
]
# bash parses these substitutions only when it runs them, and reports the error then (the
# rest of the line still runs); the parser refuses the whole command line instead
STRICTER = ["echo $((1)+(2))", "echo `if`; echo after", "bash -c 'if'", "eval 'fi'"]


def run(box: Sandbox, command: str) -> None:
    box.reset()
    analysis = box.analyse(command)
    code, stderr, changed = box.changes(command)
    if bash_rejected(code, stderr):
        assert analysis.error is not None, f"bash refused it: {stderr}"
        return
    assert analysis.error is None, f"bash ran it ({stderr!r}) but: {analysis.error}"
    missing = uncovered(analysis, changed)
    assert not missing, f"{missing}\nreported: {analysis.targets}"
    assert not any("poison" in target.path for target in analysis.targets)


@pytest.mark.parametrize("command", WRITES)
def test_bash_writes_are_reported(box: Sandbox, command: str) -> None:
    run(box, command)


@pytest.mark.parametrize(("command", "refused"), SYNTAX)
def test_syntax_errors_agree(command: str, refused: bool, tmp_path: object) -> None:
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-n", "-c", command],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    )
    assert bash_rejected(done.returncode, done.stderr) == refused, done.stderr
    from paw_tui.core.policy.shell.analysis import analyse

    assert (analyse(command, str(tmp_path)).error is not None) == refused


# command lines agents write: bash accepts every one, so must the parser
REALISTIC = [
    "echo $(( $(wc -l < f) + 1 ))",
    'arr=("a b" c); for x in "${arr[@]}"; do echo "$x"; done',
    "echo ${arr[@]:1:2} ${#arr[@]} ${var//a/b} ${var^^} ${var,,} ${!prefix@} ${var@Q}",
    "[[ $x =~ ^[0-9]+$ ]]",
    "[[ $x =~ (a|b) ]]",
    '[[ "$a" == *.txt && -f "$a" ]]',
    'case "$1" in -h|--help) usage;; *) ;; esac',
    'while IFS= read -r line; do echo "$line"; done < <(ls)',
    "cat <<EOF | python -\nprint(1)\nEOF",
    "if ! command -v jq >/dev/null 2>&1; then echo missing; fi",
    "exec {fd}>&-",
    "time (sleep 1)",
    "(( i++ )); ((i+=1))",
    'echo "${HOME:-/tmp}"; : "${VAR:=default}"; echo ${x?error}',
    "echo $'\\u2603'",
    "ls -l | awk '{print $1}' | sort | uniq -c",
    "{ echo a; echo b; } | sort",
    "function foo() { local x=1; echo $x; }",
    'echo "$(echo "$(echo nested "quotes")")"',
    "x=`echo \\`echo hi\\``",
    "cat file | while read -r a b; do echo $a; done",
    "echo a\\ b \"a\\\"b\" 'a'\\''b'",
    "trap 'echo done' EXIT INT",
    "set -euo pipefail",
    "declare -A map=([a]=1 [b]=2)",
    "map[key]=value; echo ${map[key]}",
    "mapfile -t lines < file; readarray -t arr < <(cmd)",
    "printf -v var '%s' x",
    'if [[ -n "${CI:-}" ]]; then :; fi',
    "for ((i=0; i<10; i++)); do :; done",
    "echo $((16#ff)) $((2**10))",
    "shopt -s globstar; ls **/*.py",
    "cmd |& tee log",
    "! grep -q x file",
    '[ "$a" = "b" ] && [ -z "$c" ] || echo no',
    "nohup cmd > out 2>&1 &",
    "wait $!; echo $$ $! $? $# $@ $* $0 $1 ${10}",
    'echo "${!var}"; ls ${dir:+"$dir"}',
    "for f in a b; do x=$(cat <<EOF\n$f\nEOF\n); done",
    "#!/bin/bash\necho hi",
    "f() ( echo sub )",
    "[[ -v VAR ]]",
    "cat > file << 'EOF'\nx\nEOF",
    "cat <<-'EOF'\n\tx\n\tEOF",
    "python3 - <<'PY'\nimport os\nprint(os.getcwd())\nPY",
    'sudo -E env "PATH=$PATH" cmd',
    "git log --format='%H %s' | head",
    "find . -type f -name '*.py' -print0 | xargs -0 grep -l foo",
    'for f in *; do [ -d "$f" ] && echo "$f"; done',
    "until [ $n -ge 5 ]; do n=$((n+1)); done",
    'echo ${var:-"default value"} "${var%%.*}" "${var#*/}"',
    "echo $(< file)",
    'echo ~/"dir with space"',
    "alias ll='ls -l'",
    "x=( $(ls) )",
    "if (( $# > 0 )); then :; fi",
    "[[ $(uname) == Darwin ]]",
    'eval "$(ssh-agent -s)"',
    "source <(kubectl completion bash)",
    "diff -u <(sort a) <(sort b)",
    "ls -d */",
    'read -p "Continue? " -n 1 -r',
    'echo "a" >&2; echo b 2>&1 | tee log',
    "x=$(\n  echo a\n  # comment with ) paren\n  echo b\n)",
    "echo $(echo ')')",
    'echo "$(echo "a)b")"',
    'case x in (x) echo "a)";; esac',
    "echo ${x:-)}",
    "echo $(case x in x) echo y;; esac; echo z)",
    "echo `echo 'a'`",
    "[[ a < b ]] && [[ a > b ]] || [[ ( a == a ) ]]",
    "echo $((a<b?1:0))",
    "a=(1 2 3); echo ${a[$((1+1))]}",
    'echo "${a[@]/#/-}"',
    "echo $[1+1]",
    "let i++ j--",
    "if true; then :; fi; if true; then :; else :; fi",
    "while true; do break; done",
    "[ -f x ] || { echo no; exit 1; }",
    "echo 'a\nb'",
    'echo "a\nb"',
    "echo foo\\\nbar",
    'f() { echo "$@"; }; f "$@"',
    'function g() {\n  local -a arr=()\n  arr+=("x")\n}',
    "cat <<EOF\n$(date) ${HOME} $((1+2)) `whoami` \\$literal\nEOF",
    "echo hi # comment with 'quote",
    "echo hi;# comment",
    "ls &>/dev/null &",
    "coproc { cat; }",
    "exec 3<&0 4>&1",
    "printf '%s\\n' {1..3} | paste -sd,",
    'echo "${var:?}"',
    "[[ $a == @(x|y) ]]",
    'echo x | { read -r v; echo "$v"; }',
    "echo $'\\'' \"$'x'\"",
    "for i in {1..3}; { echo $i; }",
    "echo {a,b}/{c,d}.txt",
    "grep -E '^(a|b)$' f",
    "sed -e 's/(a)/\\1/' -e \"s|x|y|g\" f",
    "awk -F: '$3 > 1000 {print $1}' /etc/passwd",
    "echo -n; echo -e '\\x41'",
    'test "$(id -u)" -eq 0\n',
    "[[ $x =~ (a|b)c ]]",
    "[[ $x =~ a|b ]]",
    "[[ ( $x =~ (a) ) ]]",
    "[[ $a != !(x) ]]",
    "[[ x = +(a) ]]",
    "[[ $x =~ [[:space:]]+ ]]",
]


@pytest.mark.parametrize("command", REALISTIC)
def test_realistic_commands_parse(command: str, tmp_path: object) -> None:
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-n", "-c", command],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    )
    assert not bash_rejected(done.returncode, done.stderr), done.stderr
    from paw_tui.core.policy.shell.analysis import analyse

    assert analyse(command, str(tmp_path)).error is None


@pytest.mark.parametrize("command", STRICTER)
def test_deliberately_stricter(command: str, tmp_path: object) -> None:
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-n", "-c", command],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    )
    assert not bash_rejected(done.returncode, done.stderr)
    from paw_tui.core.policy.shell.analysis import analyse

    assert analyse(command, str(tmp_path)).error is not None


# exact targets in the sandbox: (path, cwd relative to the work directory, how, flags)
EXACT: dict[str, list[tuple[str, str, str, str]]] = {
    "cp a.txt sub": [("sub/a.txt", ".", "cp", "")],
    "cp a.txt b.txt": [("b.txt", ".", "cp", "")],
    "cp a.txt n1": [("n1", ".", "cp", "subtree")],
    "cp -r sub empty": [("empty/sub", ".", "cp", "subtree")],
    "mv b.txt sub": [("b.txt", ".", "mv", "subtree"), ("sub/b.txt", ".", "mv", "subtree")],
    "ln -s a.txt sub": [("sub/a.txt", ".", "ln", "")],
    "cd sub; touch n1": [("n1", "sub", "touch", "")],
    "cd nonexistent; touch n1": [("n1", ".", "touch", "")],
    "cd nonexistent && touch n1": [("n1", "nonexistent", "touch", "")],
    "cd - && touch o1": [("o1", "../../../o1/o2/old", "touch", "")],
    "echo > .orch*/active_intents.yaml": [(".orch*/active_intents.yaml", ".", "redirect", "glob")],
    "rm -rf src/auth/legacy": [("src/auth/legacy", ".", "rm", "subtree")],
    "find sub -name '*.txt' -delete": [("sub", ".", "find-delete", "subtree")],
    "tar -cf n1 a.txt && tar -xf n1 -C empty": [
        ("n1", ".", "tar", ""),
        ("empty", ".", "tar", "subtree"),
    ],
    "mkdir -p n1/n2/n3": [("n1/n2/n3", ".", "mkdir", "directory")],
    "sed -i.bak 's/a/b/' a.txt": [("a.txt", ".", "sed", ""), ("a.txt.bak", ".", "sed", "")],
    "ln -s a.txt n1; echo x > n1": [
        ("n1", ".", "ln", "subtree"),
        ("n1", ".", "redirect", ""),
        ("a.txt", ".", "redirect", ""),
    ],
}


def _flags(target: object) -> str:
    return ",".join(
        name for name in ("subtree", "directory", "dynamic", "glob") if getattr(target, name)
    )


@pytest.mark.parametrize("command", list(EXACT))
def test_exact_targets(box: Sandbox, command: str) -> None:
    box.reset()
    analysis = box.analyse(command)
    got = []
    for target in analysis.targets:
        path = target.path
        if path.startswith(box.work + "/"):
            path = os.path.relpath(path, box.work)
        got.append((path, os.path.relpath(target.cwd, box.work), target.how, _flags(target)))
    assert got == EXACT[command]


GIT = [
    "git checkout -- a.txt",
    "git checkout a.txt",
    "git checkout other",
    "git switch other",
    "git restore a.txt",
    "git restore --staged a.txt",
    "git restore -s HEAD~0 sub",
    "git rm a.txt",
    "git rm -r sub",
    "git rm --cached a.txt",
    "git mv a.txt n1",
    "git mv a.txt sub",
    "git clean -fd",
    "git clean -fdx",
    "git clean -fd sub",
    "git clean -n",
    "git stash",
    "git stash && git stash pop",
    "git reset --hard HEAD~1",
    "git -C sub checkout -- c.txt",
    "git diff --output=n1",
    "git log --output=n1 -1",
    "git format-patch -1 -q",
    "git format-patch -1 -o n1 -q",
    "git archive -o n1.tar HEAD",
    "git clone -q . n1",
    "git worktree add -q n1",
    "git init -q n1",
    "git apply p.diff",
    "git commit -qam x",
    "git branch n1 && git checkout -q n1",
]


@pytest.fixture(scope="module")
def repo() -> Iterator[Sandbox]:
    sandbox = Sandbox()
    script = (
        "git init -q && git config user.email t@t && git config user.name t && "
        "git add -A && git commit -qm one && git branch other && "
        "echo changed >> a.txt && git commit -qam two && echo dirty >> b.txt && "
        "touch untracked && mkdir -p build && touch build/o && git diff HEAD~1 > p.diff"
    )
    done = subprocess.run(
        ["bash", "-c", script], cwd=sandbox.work, env=sandbox.env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    template = sandbox.root + ".template"
    shutil.copytree(sandbox.root, template, symlinks=True)
    sandbox.template = template  # type: ignore[attr-defined]
    yield sandbox
    sandbox.close()
    shutil.rmtree(template, ignore_errors=True)


def _restore(box: Sandbox) -> None:
    shutil.rmtree(box.root)
    shutil.copytree(box.template, box.root, symlinks=True)  # type: ignore[attr-defined]


@pytest.mark.skipif(not os.path.exists("/usr/bin/git"), reason="needs git")
@pytest.mark.parametrize("command", GIT)
def test_git_writes_are_reported(repo: Sandbox, command: str) -> None:
    _restore(repo)
    analysis = repo.analyse(command)
    assert analysis.error is None
    code, stderr, changed = repo.changes(command)
    changed = {
        path: what
        for path, what in changed.items()
        if "/.git/" not in path + "/" and not path.endswith("/.git")
    }
    missing = uncovered(analysis, changed)
    if missing:  # a rewrite nobody can name must at least be opaque
        assert any(name.startswith("git") for name in analysis.opaque), (missing, stderr)
