"""Git subcommands that rewrite the worktree, checked as writes of every path they may change.

A pathspec names what it may change: each becomes a target, its glob (git's ``*`` crosses
``/``) or magic (``:/``, ``:(top)``) widened to the directory it is bound by. Without one, a
command that moves the worktree to another state (``reset --hard``, ``checkout BRANCH``,
``switch``, ``stash``, ``merge``, ``rebase``, ``pull``, ``am``, ``cherry-pick``, ``revert``,
``read-tree -u``, ``checkout-index -a``, ``sparse-checkout``, ``bisect``) may change any file
of the repository: the target is the whole worktree (:data:`WORKTREE`), which holds the
workspace root and its protected files, so no intent owns it. ``git apply`` writes the paths
named inside its patch (:mod:`.patches`).

``checkout X`` switches branches when X is a revision (a branch, tag or remote branch in the
repository's refs, or revision syntax), even when a file is also called X; otherwise it is a
path. Creating a branch where HEAD is (``switch -c new``, ``checkout -b new``) changes no file.
"""

from __future__ import annotations

import os

from .effects import Carried, Effects, copy_into, plain_operands
from .expansion import Field
from .options import getopt
from .results import CONTENTS, WORKTREE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .effects import Probe

    GitHandler = Callable[[list[Field], Effects, Probe], None]

_GLOB = frozenset("*?[\\")
_REVISION_NAMES = frozenset(
    {"HEAD", "@", "-", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD"}
)
_HEX = frozenset("0123456789abcdef")
_MAX_REFS = 8 * 1024 * 1024
"""Bytes of ``packed-refs`` read at most."""


def whole(eff: Effects) -> None:
    eff.hit(Field("."), WORKTREE, True)


def repository(cwd: str) -> tuple[str, str] | None:
    """(the worktree's top, its git directory) of the repository git finds from ``cwd``."""
    path = cwd
    for _ in range(128):
        dot = os.path.join(path, ".git")
        if os.path.isdir(dot):
            return path, os.path.realpath(dot)
        if os.path.isfile(dot):
            try:
                with open(dot, encoding="utf-8", errors="replace") as handle:
                    line = handle.read(4096).split("\n", 1)[0]
            except OSError:
                return path, dot
            if line.startswith("gitdir: "):
                return path, os.path.realpath(os.path.join(path, line[len("gitdir: ") :]))
            return path, dot
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return None


def _common_dir(git_dir: str) -> str:
    """A linked worktree's ``commondir``, where refs live."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            return os.path.normpath(os.path.join(git_dir, handle.read(4096).strip()))
    except OSError:
        return git_dir


def is_revision(name: Field, cwd: str | None) -> bool:
    """Whether git reads ``name`` as a revision (conservatively: yes when it cannot tell)."""
    text = name.text
    if name.dynamic or cwd is None:
        return True
    if text in _REVISION_NAMES or any(char in text for char in "~^:@{"):
        return True
    if 4 <= len(text) <= 64 and set(text.lower()) <= _HEX:
        return True
    found = repository(cwd)
    if found is None:
        return False
    common = _common_dir(found[1])
    for ref in (f"refs/heads/{text}", f"refs/tags/{text}", f"refs/remotes/{text}", f"refs/{text}"):
        if os.path.exists(os.path.join(common, ref)):
            return True
    try:
        remotes = os.listdir(os.path.join(common, "refs", "remotes"))
    except OSError:
        remotes = []
    if any(os.path.exists(os.path.join(common, "refs/remotes", r, text)) for r in remotes):
        return True
    try:
        with open(os.path.join(common, "packed-refs"), "rb") as handle:
            packed = handle.read(_MAX_REFS).decode("utf-8", "replace")
    except OSError:
        return False
    suffixes = (f" refs/heads/{text}", f" refs/tags/{text}", f"/{text}")
    return any(line.endswith(suffixes) for line in packed.splitlines())


def pathspecs(fields: list[Field], eff: Effects, probe: Probe, subtree: bool = True) -> None:
    """Each pathspec as what it may change: a directory's contents (:data:`CONTENTS`; git
    writes below it, its ``*`` crossing ``/``), else the file (with its subtree unless
    ``subtree`` is False)."""
    for field in fields:
        text = field.text
        if field.dynamic:
            eff.hit(field, "git", subtree)
            continue
        if text.startswith(":"):
            magic = _magic(text, eff.cwd)
            if magic is None:
                whole(eff)
                continue
            text = magic
        cut = next((i for i, char in enumerate(text) if char in _GLOB), None)
        if cut is not None:
            text = text[:cut].rsplit("/", 1)[0] if "/" in text[:cut] else "."
        text = text.rstrip("/") or "/"
        if cut is not None or text in (".", "..") or probe(text) == "d":
            eff.hit(Field(text), CONTENTS, True)
        else:
            eff.hit(Field(text), "git", subtree)


def _magic(text: str, cwd: str | None) -> str | None:
    """A magic pathspec as a path relative to git's directory, or None for the whole
    worktree (exclusions, ``:(glob)``, ``:(icase)``, ``:(attr)``, an unknown top)."""
    if text.startswith(":("):
        close = text.find(")")
        if close < 0:
            return None
        words = set(text[2:close].split(","))
        rest = text[close + 1 :]
        if words - {"top", "literal"}:
            return None
        top = "top" in words
    else:
        index = 1
        marks: set[str] = set()
        while index < len(text) and text[index] in "/!^":
            marks.add(text[index])
            index += 1
        if text[index : index + 1] == ":":
            index += 1
        rest = text[index:]
        if marks & {"!", "^"}:
            return None
        top = "/" in marks
    if not top:
        return rest or "."
    found = repository(cwd) if cwd is not None else None
    if found is None or cwd is None:
        return None
    up = os.path.relpath(found[0], cwd)
    return os.path.join(up, rest) if rest else up


def split_dashes(args: list[Field]) -> tuple[list[Field], list[Field] | None]:
    for index, field in enumerate(args):
        if field.text == "--" and not field.dynamic:
            return args[:index], args[index + 1 :]
    return args, None


def checkout(args: list[Field], eff: Effects, probe: Probe) -> None:
    before, paths = split_dashes(args)
    opts = getopt(
        before,
        valued="bB",
        long_valued=frozenset({"orphan", "pathspec-from-file", "conflict"}),
        long_optional=frozenset({"track", "recurse-submodules"}),
    )
    positional = opts.operands
    if opts.has("pathspec-from-file"):
        whole(eff)
    elif paths is not None:
        if paths:
            pathspecs(paths, eff, probe)
        elif opts.has("p", "patch") or not positional:
            whole(eff)  # checkout -p --, or checkout -- with nothing: every file it may offer
    elif opts.has("b", "B", "orphan", "detach"):
        if positional:
            whole(eff)  # a new branch somewhere else than HEAD
    elif not positional:
        if opts.has("p", "patch"):
            whole(eff)
    elif len(positional) > 1:
        first = positional[0]
        rest = positional[1:] if is_revision(first, eff.cwd) else positional
        pathspecs(rest, eff, probe)
    else:
        first = positional[0]
        kind = "" if first.dynamic else probe(first.text)
        if first.text == "." or (kind in ("d", "f") and not is_revision(first, eff.cwd)):
            pathspecs([first], eff, probe)
        else:
            whole(eff)


def switch(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="cC",
        long_valued=frozenset({"create", "force-create", "orphan", "conflict"}),
        long_optional=frozenset({"track", "recurse-submodules"}),
    )
    if opts.has("orphan") or opts.operands:
        whole(eff)  # another commit, or an empty tree (switch -c NEW alone changes nothing)


def restore(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args, valued="s", long_valued=frozenset({"source", "pathspec-from-file", "conflict"})
    )
    if opts.has("S", "staged") and not opts.has("W", "worktree"):
        return
    if opts.has("pathspec-from-file") or (opts.has("p", "patch") and not opts.operands):
        whole(eff)
        return
    pathspecs(opts.operands, eff, probe)


def reset(args: list[Field], eff: Effects, probe: Probe) -> None:
    if getopt(args).has("hard", "merge", "keep"):
        whole(eff)


_STASH_QUIET = frozenset({"list", "show", "drop", "clear", "create", "store"})


def stash(args: list[Field], eff: Effects, probe: Probe) -> None:
    if args and args[0].dynamic:
        whole(eff)
        return
    action = args[0].text if args and not args[0].text.startswith("-") else "push"
    if action in _STASH_QUIET:
        return
    if action != "push":
        whole(eff)  # save, pop, apply, branch: whatever the stash holds
        return
    rest = args[1:] if args and args[0].text == "push" else args
    opts = getopt(rest, valued="m", long_valued=frozenset({"message", "pathspec-from-file"}))
    if opts.has("pathspec-from-file") or not opts.operands:
        whole(eff)
    else:
        pathspecs(opts.operands, eff, probe)


def clean(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="e", long_valued=frozenset({"exclude"}))
    if opts.has("n", "dry-run"):
        return
    if opts.has("i", "interactive"):
        eff.opaque.append("git clean")
    pathspecs(opts.operands or [Field(".")], eff, probe)


def rm(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_valued=frozenset({"pathspec-from-file"}))
    if opts.has("n", "dry-run", "cached"):
        return
    if opts.has("pathspec-from-file"):
        whole(eff)
    pathspecs(opts.operands, eff, probe, opts.has("r"))


def mv(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args)
    if opts.has("n", "dry-run") or len(opts.operands) < 2:
        return
    sources, dest = opts.operands[:-1], opts.operands[-1]
    plain_operands(eff, "git", sources, True)
    copy_into(eff, "git", sources, dest, probe, recursive=True)


def read_tree(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_valued=frozenset({"prefix", "index-output", "exclude-per-directory"}))
    if not opts.has("u") or opts.has("n", "dry-run"):
        return
    prefix = opts.value("prefix")
    if prefix is not None and prefix.text.strip("/"):
        eff.hit(Field(prefix.text.rstrip("/"), prefix.dynamic), "git", True)
    else:
        whole(eff)


def checkout_index(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_valued=frozenset({"prefix", "stage"}))
    prefix = opts.value("prefix")
    if opts.has("a", "all", "stdin", "temp"):
        if prefix is not None and prefix.text.rstrip("/") and not opts.has("temp"):
            eff.hit(Field(prefix.text.rstrip("/"), prefix.dynamic), "git", True)
        else:
            whole(eff)
        return
    for field in opts.operands:
        text = (prefix.text if prefix is not None else "") + field.text
        eff.hit(Field(text, field.dynamic or (prefix is not None and prefix.dynamic)), "git")


def _unless(*quiet: str) -> GitHandler:
    """Commands that move the worktree unless given one of ``quiet``."""

    def handler(args: list[Field], eff: Effects, probe: Probe) -> None:
        if not any(field.text in quiet for field in args):
            whole(eff)

    return handler


def rebase(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="sXx",
        long_valued=frozenset(
            {"onto", "strategy", "strategy-option", "exec", "empty", "whitespace"}
        ),
    )
    if opts.has("quit", "show-current-patch", "edit-todo"):
        return
    for command in opts.values("x", "exec"):
        eff.carry(Carried("git rebase --exec", script=command))
    whole(eff)


def apply(args: list[Field], eff: Effects, probe: Probe) -> None:
    from .patches import patch_paths

    opts = getopt(
        args,
        valued="pCe",
        long_valued=frozenset(
            {"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}
        ),
    )
    if opts.has("check", "stat", "numstat", "summary") and not opts.has("apply"):
        return
    if opts.has("cached") and not opts.has("index"):
        return
    strip_field = opts.value("p")
    strip = int(strip_field.text) if strip_field is not None and strip_field.text.isdigit() else 1
    directory = opts.value("directory")
    for source in opts.operands or [Field("-")]:
        text = _patch_text(source, eff)
        found = None if text is None else patch_paths(text, strip)
        if found is None or (directory is not None and directory.dynamic):
            whole(eff)
            return
        paths, git_style = found
        top = top_from(eff.cwd) if git_style else "."
        if top is None:
            whole(eff)
            return
        for path in paths:
            if directory is not None:
                path = directory.text.rstrip("/") + "/" + path
            target = os.path.normpath(os.path.join(top, path))
            eff.hit(Field(target), "git")
            if opts.has("reject"):
                eff.hit(Field(target + ".rej"), "git")


def top_from(cwd: str | None) -> str | None:
    """The worktree's top relative to ``cwd`` (``.``, ``../..``), or None when unknown."""
    if cwd is None:
        return None
    found = repository(cwd)
    return "." if found is None else os.path.relpath(found[0], cwd)


def _patch_text(source: Field, eff: Effects) -> str | None:
    """A patch's text: a file read now, or the here-document on standard input."""
    from .patches import MAX_PATCH

    if source.dynamic:
        return None
    if source.text == "-":
        if eff.stdin is None or eff.stdin[1]:
            return None
        return eff.stdin[0]
    if eff.cwd is None:
        return None
    path = os.path.join(eff.cwd, source.text)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_PATCH + 1)
    except OSError:
        return None
    if len(data) > MAX_PATCH:
        return None
    return data.decode("utf-8", "replace")


def merge_file(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="L", long_valued=frozenset({"marker-size", "diff-algorithm"}))
    if not opts.has("p", "stdout") and opts.operands:
        eff.hit(opts.operands[0], "git")


def bisect(args: list[Field], eff: Effects, probe: Probe) -> None:
    action = args[0].text if args else ""
    if action in ("log", "visualize", "view", "terms", "help", ""):
        return
    if action == "run" and len(args) > 1:
        eff.carry(Carried("git bisect run", argv=args[1:]))
    whole(eff)


_FILTERS = frozenset(
    {"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter",
     "commit-filter", "tag-name-filter"}
)  # fmt: skip


def filter_branch(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_valued=_FILTERS | frozenset({"subdirectory-filter", "prune-empty",
                                                          "original", "setup", "state-branch"}))  # fmt: skip
    for key in sorted(_FILTERS | {"setup"}):
        for script in opts.values(key):
            eff.carry(Carried(f"git filter-branch --{key}", script=script, here=False))
    whole(eff)


WORKTREE_HANDLERS: dict[str, GitHandler] = {  # the names: git_reads.WORKTREE_COMMANDS
    "checkout": checkout,
    "switch": switch,
    "restore": restore,
    "reset": reset,
    "stash": stash,
    "clean": clean,
    "rm": rm,
    "mv": mv,
    "read-tree": read_tree,
    "checkout-index": checkout_index,
    "merge": _unless("--quit", "--continue"),
    "pull": _unless(),
    "am": _unless("--quit", "--show-current-patch"),
    "cherry-pick": _unless("--quit"),
    "revert": _unless("--quit"),
    "sparse-checkout": _unless("list"),
    "rebase": rebase,
    "apply": apply,
    "merge-file": merge_file,
    "bisect": bisect,
    "filter-branch": filter_branch,
}
