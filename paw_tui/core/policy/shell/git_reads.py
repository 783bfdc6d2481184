"""Which git command lines only read (and run no configured program): the tables
:func:`git_read_only` answers from, shared with :mod:`.git` (what it reports as opaque)."""

from __future__ import annotations

from .expansion import Field
from .git_options import parse_globals
from .options import getopt

DIFF_LIKE = frozenset(
    {"log", "diff", "show", "whatchanged", "diff-tree", "diff-files", "diff-index", "shortlog",
     "range-diff"}
)  # fmt: skip
"""Read-only unless told to write an output file or run an external diff."""
_SIMPLE_READ = frozenset(
    {"status", "rev-parse", "ls-files", "blame", "describe", "ls-tree", "cat-file", "rev-list",
     "merge-base", "name-rev", "show-ref", "for-each-ref", "count-objects", "check-ignore",
     "check-attr", "version", "var", "cherry", "show-branch", "annotate", "ls-remote"}
)  # fmt: skip
"""Read-only whatever their arguments."""
READ = (
    DIFF_LIKE
    | _SIMPLE_READ
    | frozenset({"branch", "grep", "reflog", "remote", "tag", "stash", "config", "worktree"})
)
"""Commands that, with some arguments, only read (:func:`git_read_only` says which)."""
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


CONFIG_READS = (
    "--get", "--get-all", "--get-regexp", "-l", "--list", "--get-urlmatch", "--get-color",
    "--get-colorbool",
)  # fmt: skip


def git_read_only(args: list[Field]) -> bool:
    """Whether this git command line only reads (and runs no configured program)."""
    found = parse_globals(args)
    if found.unsafe or any(field.dynamic for field in args):
        return False
    if found.index >= len(args):
        return True
    command = args[found.index].text
    rest = args[found.index + 1 :]
    texts = [field.text for field in rest]
    if command in _SIMPLE_READ:
        return True
    if command in DIFF_LIKE:
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
        return any(text in CONFIG_READS for text in texts) or texts[:1] in (["get"], ["list"])
    return False


WORKTREE_COMMANDS = frozenset(
    {"checkout", "switch", "restore", "reset", "stash", "clean", "rm", "mv", "read-tree",
     "checkout-index", "merge", "pull", "am", "cherry-pick", "revert", "sparse-checkout",
     "rebase", "apply", "merge-file", "bisect", "filter-branch"}
)  # fmt: skip
"""Subcommands :mod:`.git_worktree` reads for the worktree files they may rewrite."""
