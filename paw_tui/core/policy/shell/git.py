"""``git``: which subcommands write which worktree paths, and which only read.

Global options are read first (``-C DIR`` moves the paths, ``-c``, ``--config-env``,
``--exec-path``, ``--git-dir``, ``--work-tree`` and ``-p`` can run configured programs or
point at another repository). Named paths are reported for ``checkout -- F``, ``restore``,
``rm``, ``mv``, ``clean`` (the working directory's subtree without pathspecs), ``clone``,
``worktree add``, ``init DIR``, ``archive -o``, ``format-patch`` and ``--output=F``. Commands
that rewrite the worktree without naming paths (``checkout BRANCH``, ``switch``, ``stash``,
``reset --hard``, ``apply``, ``am``, ``merge``, ``rebase``, ``pull``, ...) and those that run
hooks are opaque. Writes confined to ``.git`` (``add``, ``commit``'s objects, refs) are not
reported.
"""

from __future__ import annotations

from .effects import Effects, copy_into, plain_operands
from .expansion import Field
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Probe

_GLOBAL_VALUED = frozenset(
    {
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--super-prefix",
        "--config-env",
        "--list-cmds",
        "--attr-source",
    }
)
_GLOBAL_UNSAFE = frozenset(
    {"-c", "--git-dir", "--work-tree", "--config-env", "--exec-path", "-p", "--paginate"}
)
_READ = frozenset(
    {
        "status",
        "log",
        "diff",
        "show",
        "branch",
        "rev-parse",
        "ls-files",
        "blame",
        "grep",
        "shortlog",
        "describe",
        "ls-tree",
        "cat-file",
        "rev-list",
        "merge-base",
        "name-rev",
        "show-ref",
        "for-each-ref",
        "count-objects",
        "check-ignore",
        "check-attr",
        "reflog",
        "remote",
        "tag",
        "stash",
        "config",
        "worktree",
        "version",
        "whatchanged",
        "diff-tree",
        "diff-files",
        "diff-index",
        "ls-remote",
        "var",
        "cherry",
        "show-branch",
        "annotate",
        "range-diff",
    }
)
_DIFF_LIKE = frozenset(
    {
        "log",
        "diff",
        "show",
        "whatchanged",
        "diff-tree",
        "diff-files",
        "diff-index",
        "shortlog",
        "range-diff",
    }
)
_SIMPLE_READ = frozenset(
    {
        "status",
        "rev-parse",
        "ls-files",
        "blame",
        "describe",
        "ls-tree",
        "cat-file",
        "rev-list",
        "merge-base",
        "name-rev",
        "show-ref",
        "for-each-ref",
        "count-objects",
        "check-ignore",
        "check-attr",
        "version",
        "var",
        "cherry",
        "show-branch",
        "annotate",
        "ls-remote",
    }
)
# writes stay inside .git, and no hook or configured program runs
_INTERNAL = frozenset(
    {
        "add",
        "fetch",
        "gc",
        "update-index",
        "update-ref",
        "notes",
        "replace",
        "prune",
        "repack",
        "fsck",
        "symbolic-ref",
        "mktag",
        "mktree",
        "hash-object",
        "write-tree",
        "commit-tree",
        "pack-refs",
        "maintenance",
        "rerere",
        "verify-commit",
        "verify-tag",
        "verify-pack",
        "index-pack",
        "unpack-objects",
        "pack-objects",
        "request-pull",
        "stage",
    }
)
_BRANCH_LIST_VALUED = frozenset(
    {
        "contains",
        "no-contains",
        "merged",
        "no-merged",
        "points-at",
        "sort",
        "format",
        "column",
        "abbrev",
    }
)


class _Globals:
    __slots__ = ("index", "chdirs", "unsafe")

    def __init__(self) -> None:
        self.index = 0
        self.chdirs: list[Field] = []
        self.unsafe: list[str] = []


def _globals(args: list[Field]) -> _Globals:
    result = _Globals()
    index = 0
    while index < len(args):
        field = args[index]
        text = field.text
        if field.dynamic or not text.startswith("-"):
            break
        index += 1
        name = text.split("=", 1)[0] if text.startswith("--") else text
        if name in _GLOBAL_UNSAFE or (text.startswith("-c") and len(text) > 2):
            result.unsafe.append(name[:2] if name.startswith("-c") else name)
        if text == "-C":
            if index < len(args):
                result.chdirs.append(args[index])
        elif text.startswith("-C") and not text.startswith("--"):
            result.chdirs.append(Field(text[2:], field.dynamic))
            continue
        if text in _GLOBAL_VALUED:
            index += 1
    result.index = index
    return result


def _split_dashes(args: list[Field]) -> tuple[list[Field], list[Field] | None]:
    for index, field in enumerate(args):
        if field.text == "--" and not field.dynamic:
            return args[:index], args[index + 1 :]
    return args, None


def _checkout(args: list[Field], eff: Effects, probe: Probe) -> None:
    before, paths = _split_dashes(args)
    opts = getopt(
        before,
        valued="bB",
        long_valued=frozenset({"orphan", "pathspec-from-file", "conflict"}),
        long_optional=frozenset({"track", "recurse-submodules"}),
    )
    if opts.has("p", "patch", "pathspec-from-file"):
        eff.opaque.append("git checkout")
        return
    if paths is not None:
        plain_operands(eff, "git", paths, True)
        return
    positional = opts.operands
    if opts.has("b", "B", "orphan", "detach") or not positional:
        if positional or opts.has("detach"):
            eff.opaque.append("git checkout")
        return
    first, rest = positional[0], positional[1:]
    plain_operands(eff, "git", rest, True)
    kind = "" if first.dynamic else probe(first.text)
    if first.text == "." or kind in ("d", "f", ""):
        eff.hit(first, "git", True)
    if not rest and kind in ("-", ""):
        eff.opaque.append("git checkout")


def _restore(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args, valued="s", long_valued=frozenset({"source", "pathspec-from-file", "conflict"})
    )
    if opts.has("p", "patch", "pathspec-from-file"):
        eff.opaque.append("git restore")
        return
    if opts.has("S", "staged") and not opts.has("W", "worktree"):
        return
    plain_operands(eff, "git", opts.operands, True)


def _rm(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_valued=frozenset({"pathspec-from-file"}))
    if opts.has("n", "dry-run", "cached"):
        return
    if opts.has("pathspec-from-file"):
        eff.opaque.append("git rm")
    plain_operands(eff, "git", opts.operands, opts.has("r"))


def _mv(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args)
    if opts.has("n", "dry-run") or len(opts.operands) < 2:
        return
    sources, dest = opts.operands[:-1], opts.operands[-1]
    plain_operands(eff, "git", sources, True)
    copy_into(eff, "git", sources, dest, probe, recursive=True)


def _clean(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="e", long_valued=frozenset({"exclude"}))
    if opts.has("n", "dry-run"):
        return
    if opts.has("i", "interactive"):
        eff.opaque.append("git clean")
    plain_operands(eff, "git", opts.operands or [Field(".")], True)


def _clone(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="bocju",
        long_valued=frozenset(
            {
                "branch",
                "origin",
                "config",
                "depth",
                "reference",
                "reference-if-able",
                "separate-git-dir",
                "template",
                "jobs",
                "filter",
                "upload-pack",
                "shallow-since",
                "shallow-exclude",
                "server-option",
                "bundle-uri",
                "ref-format",
            }
        ),
    )
    if not opts.operands:
        return
    if len(opts.operands) > 1:
        eff.hit(opts.operands[1], "git", True)
        return
    url = opts.operands[0]
    name = url.text.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    if name.endswith(".git"):
        name = name[:-4]
    eff.hit(Field(name or ".", url.dynamic, url.glob), "git", True)


def _worktree(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="bB", long_valued=frozenset({"reason", "expire"}))
    if not opts.operands:
        return
    action, rest = opts.operands[0].text, opts.operands[1:]
    if action in ("add", "remove", "move"):
        plain_operands(eff, "git", rest[:1] if action == "add" else rest, True)
    elif action not in ("list", "prune", "lock", "unlock", "repair"):
        eff.opaque.append("git worktree")


def _stash(args: list[Field], eff: Effects, probe: Probe) -> None:
    action = next((f.text for f in args if not f.text.startswith("-")), "push")
    if action not in ("list", "show", "drop", "clear", "create", "store"):
        eff.opaque.append("git stash")


def _reset(args: list[Field], eff: Effects, probe: Probe) -> None:
    if getopt(args).has("hard", "merge", "keep"):
        eff.opaque.append("git reset")


def _apply(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="pCe",
        long_valued=frozenset(
            {"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}
        ),
    )
    if opts.has("cached", "check", "stat", "numstat", "summary") and not opts.has("index", "apply"):
        return
    eff.opaque.append("git apply")


def _output(args: list[Field], eff: Effects, probe: Probe, command: str) -> None:
    opts = getopt(
        args,
        valued="o" if command in ("archive", "format-patch") else "",
        long_valued=frozenset({"output", "output-directory"}),
    )
    for field in opts.values("o", "output", "output-directory"):
        eff.hit(field, "git", command == "format-patch")
    if (
        command == "format-patch"
        and not opts.values("o", "output-directory")
        and not opts.has("stdout")
    ):
        eff.hit(Field("*.patch", False, True, "*.patch"), "git")
    if opts.has("ext-diff"):
        eff.opaque.append("git " + command + " --ext-diff")


def _init(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        long_valued=frozenset(
            {"template", "separate-git-dir", "object-format", "ref-format", "initial-branch"}
        ),
        valued="b",
    )
    plain_operands(eff, "git", opts.operands[:1], True)


def git(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    found = _globals(args)
    for option in found.unsafe:
        eff.opaque.append("git " + option)
    if found.chdirs:
        chdir = found.chdirs[0]
        for more in found.chdirs[1:]:
            chdir = (
                more
                if more.text.startswith("/")
                else Field(chdir.text.rstrip("/") + "/" + more.text, chdir.dynamic or more.dynamic)
            )
        eff.chdir = chdir
    if found.index >= len(args):
        return
    sub = args[found.index]
    rest = args[found.index + 1 :]
    command = sub.text
    if sub.dynamic:
        eff.opaque.append("git")
    elif command in _HANDLERS:
        _HANDLERS[command](rest, eff, probe)
    elif command in _DIFF_LIKE or command in ("archive", "format-patch"):
        _output(rest, eff, probe, command)
    elif command in ("submodule", "bundle"):
        operands = getopt(rest).operands
        if command == "bundle" and len(operands) > 1 and operands[0].text == "create":
            eff.hit(operands[1], "git")
        elif command == "submodule" and len(operands) > 1 and operands[0].text == "add":
            eff.hit(
                operands[-1]
                if len(operands) > 2
                else Field(operands[1].text.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")),
                "git",
                True,
            )
        else:
            eff.opaque.append("git " + command)
    elif command == "grep":
        if getopt(rest, long_optional=frozenset({"open-files-in-pager"})).has(
            "O", "open-files-in-pager"
        ):
            eff.opaque.append("git grep -O")
    elif command not in _READ and command not in _INTERNAL:
        eff.opaque.append("git " + command)


_CONFIG_READS = (
    "--get", "--get-all", "--get-regexp", "-l", "--list", "--get-urlmatch", "--get-color",
    "--get-colorbool",
)  # fmt: skip


def _config(args: list[Field], eff: Effects, probe: Probe) -> None:
    """``git config`` that sets or unsets writes a config file: the repository's
    ``.git/config`` unless ``--global``, ``--system``, ``--worktree`` or ``--file`` says which."""
    texts = [field.text for field in args]
    if any(text in _CONFIG_READS for text in texts) or texts[:1] in (["get"], ["list"]):
        return
    if not [field for field in args if not field.text.startswith("-")]:
        return  # nothing to set: git prints its usage
    for index, field in enumerate(args):
        text = field.text
        if text in ("-f", "--file") and index + 1 < len(args):
            eff.hit(args[index + 1], "git")
            return
        if text.startswith("--file="):
            eff.hit(Field(text[len("--file=") :], field.dynamic), "git")
            return
        if text == "--global":
            eff.hit(Field("~/.gitconfig"), "git")
            return
        if text == "--system":
            eff.hit(Field("/etc/gitconfig"), "git")
            return
        if text == "--worktree":
            eff.hit(Field(".git/config.worktree"), "git")
            return
    eff.hit(Field(".git/config"), "git")


_HANDLERS = {
    "config": _config,
    "checkout": _checkout,
    "restore": _restore,
    "rm": _rm,
    "mv": _mv,
    "clean": _clean,
    "clone": _clone,
    "worktree": _worktree,
    "stash": _stash,
    "reset": _reset,
    "apply": _apply,
    "init": _init,
}


def git_read_only(args: list[Field]) -> bool:
    """Whether this git command line only reads (and runs no configured program)."""
    found = _globals(args)
    if found.unsafe or any(field.dynamic for field in args):
        return False
    if found.index >= len(args):
        return True
    command = args[found.index].text
    rest = args[found.index + 1 :]
    texts = [field.text for field in rest]
    if command in _SIMPLE_READ:
        return True
    if command in _DIFF_LIKE:
        return not any(text.startswith(("--output", "--ext-diff")) for text in texts)
    if command == "grep":
        return not any(text.startswith(("-O", "--open-files-in-pager")) for text in texts)
    if command == "branch" or command == "tag":
        opts = getopt(
            rest,
            valued="n" if command == "tag" else "",
            long_valued=_BRANCH_LIST_VALUED,
            long_optional=frozenset({"color"}),
        )
        allowed = set("arlvi") | {
            "list",
            "verbose",
            "show-current",
            "color",
            "no-color",
            "ignore-case",
            "all",
            "remotes",
            "no-column",
            "omit-empty",
        }
        allowed |= _BRANCH_LIST_VALUED | {"n"}
        if any(found_name not in allowed for found_name, _ in opts.found):
            return False
        return not opts.operands or opts.has("l", "list")
    if command == "stash":
        return bool(texts) and texts[0] in ("list", "show")
    if command == "reflog":
        return not texts or texts[0] not in ("expire", "delete", "drop")
    if command == "remote":
        return not texts or texts[0] in ("-v", "--verbose", "show", "get-url")
    if command == "worktree":
        return texts[:1] == ["list"]
    if command == "config":
        return any(text in _CONFIG_READS for text in texts) or texts[:1] in (["get"], ["list"])
    return False
