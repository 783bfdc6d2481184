"""Hypothesis strategies for the bash the parser claims to understand: simple commands that
write (and harmless ones), every redirection, quoting style, brace expansion, tilde and
variable forms, lists, pipelines, groups, subshells, if/while/for/case, here-documents,
comments and cd. Targets are mostly literal, so the differential check cannot pass by
reporting "dynamic". Words containing "poison" must never be written nor reported: they
only appear where bash treats them as data (quoted strings, comments, here-document bodies).
"""

from __future__ import annotations

from hypothesis import strategies as st

NEW_FILES = [
    "n1",
    "n2",
    "n3.txt",
    "sub/n4",
    "sub/deep/n5",
    "dir with space/n6",
    ".n7",
    "it's",
    "a b",
    "n#8",
    "-n9",
]
OLD_FILES = [
    "a.txt",
    "b.txt",
    "c.log",
    ".hidden",
    "sub/c.txt",
    "sub/deep/d.txt",
    "dir with space/e.txt",
]
OLD_DIRS = ["sub", "sub/deep", "empty", "src/auth/legacy", "dir with space"]
NEW_DIRS = ["d1", "sub/d2", "d3/d4", "d 5"]
_PLAIN_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+,:@%")


def _single(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _double(text: str) -> str:
    return '"' + "".join("\\" + c if c in '"\\$`' else c for c in text) + '"'


def _backslash(text: str, every: bool) -> str:
    out = []
    for char in text:
        if char == "\n":
            out.append("'\n'")
        elif every or char not in _PLAIN_SAFE:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def _ansi(text: str, hexes: bool) -> str:
    out = []
    for char in text:
        if char == "'" or char == "\\":
            out.append("\\" + char)
        elif hexes and char.isalpha():
            out.append("\\x%02x" % ord(char))
        else:
            out.append(char)
    return "$'" + "".join(out) + "'"


def _plain_ok(text: str) -> bool:
    return bool(text) and all(c in _PLAIN_SAFE or c == "-" for c in text) and text[0] != "-"


@st.composite
def quoted(draw: st.DrawFn, text: str) -> str:
    """``text`` as a shell word, quoted one of many ways (same value after quote removal)."""
    style = draw(
        st.sampled_from(
            [
                "plain",
                "single",
                "double",
                "escape",
                "escape-all",
                "ansi",
                "ansi-hex",
                "mixed",
                "locale",
            ]
        )
    )
    if style == "plain":
        return text if _plain_ok(text) else _backslash(text, False)
    if style == "single":
        return _single(text)
    if style == "double":
        return _double(text)
    if style == "escape":
        return _backslash(text, False)
    if style == "escape-all":
        return _backslash(text, True)
    if style == "ansi":
        return _ansi(text, False)
    if style == "ansi-hex":
        return _ansi(text, True)
    if style == "locale":
        return "$" + _double(text)
    if len(text) < 2:
        return _single(text)
    cut = draw(st.integers(1, len(text) - 1))
    return draw(quoted(text[:cut])) + draw(quoted(text[cut:]))


def _dashless(word: str) -> str:
    return "./" + word if word.startswith("-") else word


@st.composite
def new_file(draw: st.DrawFn) -> str:
    """A target word for a file that may not exist yet."""
    form = draw(st.integers(0, 19))
    if form == 0:
        return draw(
            st.sampled_from(
                [
                    "{n1,n2}",
                    "n{1,2}",
                    "sub/{n10,n11}",
                    "f{1..3}",
                    "{x,y}{1,2}",
                    ".{g1,g2}",
                    "{01..02}.t",
                    "{a..c}z",
                    "n{a,b{c,d}}",
                    "{n12}",
                    "'{n13,n14}'",
                    "\\{n15,n16}",
                ]
            )
        )
    if form == 1:
        return draw(
            st.sampled_from(
                ["~/h1", "~/'h 2'", '"$HOME"/h3', "${HOME}/h4", '"$PWD/n17"', "$PWD/n18", "~+/n19"]
            )
        )
    if form == 2:
        return draw(
            st.sampled_from(
                [
                    "*.log",
                    "sub/*.txt",
                    ".orch*/active_intents.yaml",
                    "[ab].txt",
                    "?.txt",
                    "s*/deep/d.txt",
                    "*.nomatch",
                ]
            )
        )
    name = draw(st.sampled_from(NEW_FILES + OLD_FILES))
    return _dashless(draw(quoted(name)))


@st.composite
def old_file(draw: st.DrawFn) -> str:
    return draw(quoted(draw(st.sampled_from(OLD_FILES))))


@st.composite
def new_dir(draw: st.DrawFn) -> str:
    return draw(quoted(draw(st.sampled_from(NEW_DIRS))))


@st.composite
def old_dir(draw: st.DrawFn) -> str:
    return draw(quoted(draw(st.sampled_from(OLD_DIRS))))


@st.composite
def redirect(draw: st.DrawFn) -> str:
    target = draw(new_file())
    op = draw(
        st.sampled_from(
            [">", ">>", ">|", "&>", "&>>", "2>", "1>", "<>", "3>", "{fd}>", "2>>", ">&"]
        )
    )
    space = draw(st.sampled_from(["", " "]))
    return f"{op}{space}{target}"


HARMLESS_REDIRECTS = [
    "2>&1",
    ">&2",
    "> /dev/null",
    "2>/dev/null",
    "&>/dev/null",
    "<a.txt",
    "<<<'x > y'",
    "3>&-",
    "<&0",
    ">/dev/stderr",
    ">/dev/fd/2",
]

HARMLESS = [
    "echo hi",
    "true",
    ":",
    "cat a.txt",
    "ls",
    "grep -q a a.txt",
    "test -f a.txt",
    "[ -d sub ]",
    "[[ b > a ]]",
    "(( 3 > 2 ))",
    "x=$((1 << 2))",
    'let "y = 3 > 2"',
    'echo "a > b"',
    "echo 'x > y'",
    "echo a#b",
    "echo $'it\\'s'",
    'echo $"loc"',
    "echo {a,b}",
    "echo ~",
    "echo $(echo inner)",
    "echo `echo back`",
    "echo 'touch poison1'",
    'echo "rm -rf poison2"',
    "false",
    "echo $((3>2))",
    "pwd",
    "echo >&2 err",
    "wc -l < a.txt",
]


@st.composite
def write_command(draw: st.DrawFn) -> str:
    t = draw(new_file())
    f = draw(old_file())
    nd = draw(new_dir())
    od = draw(old_dir())
    return draw(
        st.sampled_from(
            [
                f"touch {t}",
                f"echo x > {t}",
                f"printf y >> {t}",
                f": >| {t}",
                f"echo z &> {t}",
                f"echo q 2> {t}",
                f"cat a.txt | tee {t}",
                f"tee -a {t} <<< line > /dev/null",
                f"cp a.txt {t}",
                f"cp -r sub {nd}",
                f"cp -t {od} a.txt",
                f"cp -vt {od} b.txt",
                f"mv {f} {t}",
                f"mv b.txt {od}",
                f"rm -f {t}",
                f"rm -rf {od}",
                f"mkdir -p {nd}",
                f"mkdir -m 755 {nd}",
                f"mkdir -pm 700 {nd}",
                "rmdir empty",
                f"ln -s a.txt {t}",
                f"ln -sf a.txt {t}",
                f"ln a.txt {t}",
                f"truncate -s0 {f}",
                f"truncate -s 10 {t}",
                f"dd if=a.txt of={t} status=none",
                f"sed -i 's/a/b/' {f}",
                f"sed -Ei 's/a/b/' {f}",
                f"sed -i.bak -e 's/x/y/' {f}",
                f"sed -ni p {f}",
                f"perl -pi -e 's/a/b/' {f}",
                f"perl -i.orig -pe 's/b/c/' {f}",
                f"install -m 644 a.txt {t}",
                f"install -D a.txt {nd}/f",
                f"chmod 600 {f}",
                f"chmod -R go-w {od}",
                f"touch -d yesterday {t}",
                f"touch -r a.txt {t}",
                f"touch -t 202001010000 {t}",
                f"tar -cf {t} a.txt",
                f"sort -o {t} a.txt",
                f"uniq a.txt {t}",
                f"gzip -k {f}",
                "split -l 1 a.txt sp_",
                f"echo x {draw(redirect())}",
                f"{draw(redirect())} echo pre",
                f"exec 4> {t}",
                f"tee >(cat > /dev/null) {t} < a.txt > /dev/null",
                f'F={t}; touch "$F"',
                f'export G={t}; echo > "$G"',
                "I='a b'; touch $I",
                f"echo a{draw(redirect())}b",
                f"cat > {t} <<< here",
                f"{{ echo grouped; }} > {t}",
                f"(echo sub) >> {t}",
                f"if true; then echo in; fi > {t}",
                f"while false; do :; done > {t}",
                f"echo $(touch {t})",
                f"x=`touch {t}`",
                f"cat <(touch {t})",
                f"ln -s {f} {nd}",
                f"cp {f} {od}",
                f"rm -r {od}",
                f"gzip {f}",
                f"tar -cf x.tar {f} && tar -xf x.tar -C {od}",
            ]
        )
    )


@st.composite
def cd_command(draw: st.DrawFn) -> str:
    return draw(
        st.sampled_from(
            [
                "cd sub",
                "cd sub/deep",
                "cd ..",
                "cd -",
                "cd",
                "cd ~",
                "cd nonexistent",
                "cd 'dir with space'",
                'cd "$OLDPWD"',
                "pushd sub > /dev/null",
                "popd > /dev/null",
                'cd "$HOME"',
                "cd ./sub",
                "cd -- sub",
                "cd -P sub",
                "cd sub || true",
                "cd nonexistent && touch n1",
            ]
        )
    )


@st.composite
def heredoc(draw: st.DrawFn) -> str:
    t = draw(new_file())
    form = draw(st.integers(0, 6))
    body = draw(
        st.sampled_from(
            [
                "x",
                "it's",
                "$'x",
                "rm -rf poison4",
                "> poison5",
                "a\tb",
                "`touch poison6`" if form in (1, 2, 3) else "plain",
            ]
        )
    )
    return _heredoc_text(t, form, body) + "\n"


def _heredoc_text(t: str, form: int, body: str) -> str:
    if form == 0:
        return f"cat <<EOF > {t}\n{body}\nEOF"
    if form == 1:
        return f"cat <<'EOF'\n$(touch poison7) {body}\nEOF"
    if form == 2:
        return f'cat <<"E O F" > {t}\n{body} $(touch poison8)\nE O F'
    if form == 3:
        return f"cat <<\\EOF\n{body} $(touch poison9)\nEOF"
    if form == 4:
        return f"cat <<-EOF > {t}\n\t{body}\n\tEOF"
    if form == 5:
        return f"cat <<A > {t}; cat <<B\n{body}\nA\nbody\nB"
    return f"cat <<EOF\n$(touch {t}) {body}\nEOF"


@st.composite
def simple(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind < 5:
        return draw(write_command())
    if kind < 7:
        return draw(st.sampled_from(HARMLESS)) + draw(
            st.sampled_from([""] + [" " + r for r in HARMLESS_REDIRECTS])
        )
    if kind < 9:
        return draw(cd_command())
    return draw(heredoc())


@st.composite
def command_list(draw: st.DrawFn, depth: int) -> str:
    items = draw(st.lists(command(depth), min_size=1, max_size=3))
    out = items[0]
    for item in items[1:]:
        if out.endswith("\n"):  # a here-document's last line
            separator = ""
        else:
            separator = draw(
                st.sampled_from(["; ", " && ", " || ", "\n", " # touch poison10\n", ";\n"])
            )
        out = out + separator + item
    return out


@st.composite
def command(draw: st.DrawFn, depth: int = 0) -> str:
    if depth >= 2 or draw(st.integers(0, 2)) == 0:
        return draw(simple())
    form = draw(st.integers(0, 9))
    inner = draw(command_list(depth + 1))
    other = draw(command_list(depth + 1))
    if form == 0:
        return f"{{ {inner}\n}}"
    if form == 1:
        return f"( {inner}\n)"
    if form == 2:
        return (
            f"if {draw(st.sampled_from(['true', 'false', 'test -d sub', '! false']))}; "
            f"then {inner}\nelse {other}\nfi"
        )
    if form == 3:
        return f"for i in 1 2; do {inner}\ndone"
    if form == 4:
        return f"while false; do {inner}\ndone; until true; do {other}\ndone"
    if form == 5:
        return f"case x in\n  x) {inner}\n  ;;\n  *) {other}\n  ;;\nesac"
    if form == 6:
        return f"! {{ {inner}\n}}"
    if form == 7:
        return f"f() {{ {inner}\n}}; f"
    if form == 8:
        return f"{draw(write_command())} | {{ {inner}\n}}"
    return f"{{ {inner}\n}} && {{ {other}\n}}"


@st.composite
def script(draw: st.DrawFn) -> str:
    text = draw(command_list(0))
    first = text.find("cd ..")
    if first >= 0:  # one "cd .." (run twice at most, in a loop) stays inside the scratch tree
        text = text[: first + 5] + text[first + 5 :].replace("cd ..", "cd ./sub")
    return text  # no "wait": bash's wait blocks on a >(...) whose writer it holds
