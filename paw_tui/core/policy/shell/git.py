"""``git``: which subcommands write which worktree paths, which only read, and the commands
git runs for them.

Global options are read first: ``-C DIR`` moves the paths (and a repository found there that
is not this one, whose configuration and hooks an agent may have written, cannot be read);
``-c key=value`` and ``--config-env`` give configuration, read key by key for the programs it
names (:mod:`.git_commands`: ``alias.x=!cmd``, ``core.fsmonitor``, ``core.editor``...), as are
the ``GIT_*`` variables the command line sets; ``--git-dir``, ``--work-tree`` and
``--exec-path=DIR`` point git at what it would read from elsewhere. An alias is expanded:
``!cmd`` runs in a shell with the arguments after it, anything else is more git arguments.

Named paths are reported for ``checkout -- F``, ``restore``, ``rm``, ``mv``, ``clean``,
``clone``, ``worktree add``, ``init DIR``, ``archive -o``, ``format-patch``, ``--output=F``
and ``git config`` (the file it writes); whole-tree rewrites (``reset --hard``, ``checkout
BRANCH``, ``stash``, ``merge``...) and ``apply`` are :mod:`.git_worktree`'s. Commands git is
told to run (``rebase --exec``, ``bisect run``, ``submodule foreach``, ``difftool -x``,
``grep -O CMD``, ``--upload-pack``/``--receive-pack``/``--exec``, ``filter-branch``'s
filters) are read as commands; ``ext::`` transports, ``git daemon`` and ``instaweb`` cannot
be. Writes confined to ``.git`` (``add``, ``commit``'s objects, refs) are not reported; the
refs a ``push`` changes on the remote are (``remote_refs``).
"""

from __future__ import annotations

import os

from .effects import Carried, Effects, plain_operands, quote
from .expansion import Field, joined
from .git_options import parse_globals
from .git_reads import CONFIG_READS, DIFF_LIKE, READ, WORKTREE_COMMANDS
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Probe

_TRANSPORTS = frozenset({"fetch", "pull", "clone", "ls-remote", "push", "archive"})
_TRANSPORT_COMMANDS = ("--upload-pack", "--receive-pack", "--exec")
MAX_ALIASES = 8
"""Aliases expanded in a row at most (git itself stops at a loop)."""
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
    for given in opts.values("c", "config"):
        from .git_commands import config_carries

        key, eq, value = given.text.partition("=")
        config_carries(key, Field(value, given.dynamic) if eq else None, eff, "git clone -c")
    for command in opts.values("u", "upload-pack"):
        eff.carry(Carried("git clone --upload-pack", script=command))
    _template(opts.value("template"), eff, "git clone")
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


def _template(template: Field | None, eff: Effects, label: str) -> None:
    """``--template=DIR``: hooks copied into the new repository (an empty value copies none)."""
    if template is not None and (template.dynamic or template.text):
        eff.cannot_read(
            label + " --template", "copies hooks from a directory an agent may have written"
        )


def _worktree(args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="bB", long_valued=frozenset({"reason", "expire"}))
    if not opts.operands:
        return
    action, rest = opts.operands[0].text, opts.operands[1:]
    if action in ("add", "remove", "move"):
        plain_operands(eff, "git", rest[:1] if action == "add" else rest, True)
    elif action not in ("list", "prune", "lock", "unlock", "repair"):
        eff.opaque.append("git worktree")


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
    _template(opts.value("template"), eff, "git init")
    plain_operands(eff, "git", opts.operands[:1], True)


def _transport_commands(command: str, args: list[Field], eff: Effects) -> None:
    """``--upload-pack``, ``--receive-pack``, ``--exec`` (and ``clone -u``): a command git
    runs (in a shell) to talk to the other side; an ``ext::`` URL is a command too."""
    for index, field in enumerate(args):
        text = field.text
        if text.startswith("ext::") or "::ext::" in text:
            eff.cannot_read(f"git {command}", "would run an ext:: transport's command")
        if command not in _TRANSPORTS or not text.startswith(_TRANSPORT_COMMANDS):
            continue
        if "=" in text:
            value = Field(text.split("=", 1)[1], field.dynamic)
        elif index + 1 < len(args) and text in _TRANSPORT_COMMANDS:
            value = args[index + 1]
        else:
            continue
        eff.carry(Carried(f"git {command} {text.split('=', 1)[0]}", script=value))


def _submodule(args: list[Field], eff: Effects, probe: Probe) -> None:
    operands = getopt(args).operands
    action = operands[0].text if operands else "status"
    if action == "add" and len(operands) > 1:
        eff.hit(
            operands[-1]
            if len(operands) > 2
            else Field(operands[1].text.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")),
            "git",
            True,
        )
    elif action == "foreach":
        words = [
            field for field in args[args.index(operands[0]) + 1 :] if field.text != "--recursive"
        ]
        if words:
            eff.carry(Carried("git submodule foreach", script=joined(words), here=False))
    elif action not in ("status", "summary"):
        eff.opaque.append("git submodule " + action)


def _pager_or_tool(command: str, args: list[Field], eff: Effects) -> None:
    """``grep -O[CMD]``/``--open-files-in-pager[=CMD]``, ``difftool -x CMD``/``--extcmd``."""
    if command == "grep":
        opts = getopt(args, optional="O", long_optional=frozenset({"open-files-in-pager"}))
        given = opts.values("O", "open-files-in-pager")
        if given:
            eff.carry(Carried("git grep -O", script=given[-1]))
        elif opts.has("O", "open-files-in-pager"):
            eff.opaque.append("git grep -O")
        return
    opts = getopt(args, valued="xt", long_valued=frozenset({"extcmd", "tool"}))
    for extcmd in opts.values("x", "extcmd"):
        eff.carry(Carried("git difftool --extcmd", script=extcmd))
    eff.opaque.append("git difftool")


def _elsewhere_repository(eff: Effects, chdir: Field | None) -> None:
    """A repository found where git runs that is not the one the command started in (nor
    a linked worktree or submodule of it), whose configuration and hooks git would run."""
    if chdir is not None and chdir.dynamic:
        eff.cannot_read(f"git -C {chdir.text}", "runs git in a directory known only when it runs")
        return
    if eff.cwd is None or eff.origin is None:
        return
    here = os.path.normpath(os.path.join(eff.cwd, chdir.text)) if chdir is not None else eff.cwd
    if here == eff.origin:
        return
    from .git_worktree import repository

    theirs = repository(here)
    if theirs is None:
        return
    mine = repository(eff.origin)
    if mine is not None and (theirs[1] == mine[1] or theirs[1].startswith(mine[1] + os.sep)):
        return
    if mine is None and (theirs[0] + os.sep).startswith(eff.origin + os.sep):
        return
    eff.cannot_read(
        "git" if chdir is None else f"git -C {chdir.text}",
        f"would read the configuration and hooks of another repository ({theirs[0]}), "
        "which an agent may have written",
    )


def git(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    _git(args, eff, probe, 0)
    if eff.carried and eff.cwd is not None:
        # git runs what it carries from the top of the worktree (aliases, editors, hooks)
        from .git_worktree import top_from

        here = eff.cwd if eff.chdir is None else os.path.join(eff.cwd, eff.chdir.text)
        top = top_from(os.path.normpath(here))
        for carried in eff.carried:
            if carried.here and carried.cwd is None and top is not None:
                carried.cwd = Field(top)


def _git(args: list[Field], eff: Effects, probe: Probe, aliases: int) -> None:
    found = parse_globals(args, eff.env)
    for option in found.unsafe:
        eff.opaque.append("git " + option)
    if aliases == 0 and eff.env:
        from .git_commands import environment_carries

        environment_carries(eff.env, eff)
    for option in found.elsewhere:
        why = "points git at a repository or programs an agent may have written"
        eff.cannot_read("git " + option, why)
    alias_values: dict[str, Field | None] = {}
    for key, value in found.configs:
        from .git_commands import config_carries

        config_carries(key, value, eff, "git -c")
        if key.lower().startswith("alias.") and key.count(".") == 1:
            alias_values[key[len("alias.") :].lower()] = value
    chdir: Field | None = None
    if found.chdirs:
        chdir = found.chdirs[0]
        for more in found.chdirs[1:]:
            chdir = (
                more
                if more.text.startswith("/")
                else Field(chdir.text.rstrip("/") + "/" + more.text, chdir.dynamic or more.dynamic)
            )
        eff.chdir = chdir
    if aliases == 0:
        _elsewhere_repository(eff, chdir)
    if found.index >= len(args):
        return
    sub = args[found.index]
    rest = args[found.index + 1 :]
    _transport_commands(sub.text, rest, eff)
    if sub.dynamic:
        eff.opaque.append("git")
    elif sub.text.lower() in alias_values and sub.text not in _KNOWN:
        _alias(args[: found.index], alias_values[sub.text.lower()], rest, eff, probe, aliases)
    else:
        _subcommand(sub.text, rest, eff, probe)


def _push(args: list[Field], eff: Effects) -> None:
    """``git push``/``send-pack REMOTE REFSPEC...``: the refs it changes on the remote
    (``--mirror``: every ref). It stays opaque: the ``pre-push`` hook runs too."""
    from .git_commands import push_destination

    opts = getopt(
        args,
        valued="o",
        long_valued=frozenset({"repo", "push-option", "receive-pack", "exec"}),
        long_optional=frozenset({"force-with-lease", "recurse-submodules", "signed"}),
    )
    if opts.has("mirror"):
        eff.remote_refs.append("*")
    deleting = opts.has("d", "delete")
    eff.remote_refs += [push_destination(refspec, deleting) for refspec in opts.operands[1:]]


def _subcommand(command: str, rest: list[Field], eff: Effects, probe: Probe) -> None:
    if command in ("push", "send-pack"):
        _push(rest, eff)
    if command in _HANDLERS:
        _HANDLERS[command](rest, eff, probe)
    elif command in WORKTREE_COMMANDS:
        from .git_worktree import WORKTREE_HANDLERS

        WORKTREE_HANDLERS[command](rest, eff, probe)
    elif command in DIFF_LIKE or command in ("archive", "format-patch"):
        _output(rest, eff, probe, command)
    elif command in ("grep", "difftool"):
        _pager_or_tool(command, rest, eff)
    elif command in ("daemon", "instaweb"):
        eff.cannot_read(f"git {command}", "starts a server that runs on after the call ends")
    elif command not in READ and command not in _INTERNAL:
        eff.opaque.append("git " + command)


def _alias(
    before: list[Field],
    value: Field | None,
    rest: list[Field],
    eff: Effects,
    probe: Probe,
    aliases: int,
) -> None:
    """An alias invoked: ``!cmd`` runs in a shell with the arguments after it; anything else
    runs git again with the alias's words in front of them."""
    from .git_commands import split_cmdline

    if value is not None and value.text.startswith("!"):
        dynamic = value.dynamic or any(field.dynamic for field in rest)
        given = " ".join(quote(field.text) for field in rest) if not dynamic else '"$@"'
        script = Field(value.text[1:] + " " + given, value.dynamic)
        eff.carry(Carried("git alias", script=script))
        return
    words = split_cmdline(value.text) if value is not None else None
    if words is None or aliases >= MAX_ALIASES:
        eff.cannot_read("git alias", "expands to git arguments paw-tui cannot read")
        return
    _git(before + [Field(word) for word in words] + rest, eff, probe, aliases + 1)


def _config(args: list[Field], eff: Effects, probe: Probe) -> None:
    """``git config`` that sets or unsets writes a config file: the repository's
    ``.git/config`` unless ``--global``, ``--system``, ``--worktree`` or ``--file`` says which.
    (Every file git reads by itself is protected or outside the workspace; one named with
    ``--file`` runs nothing until something includes it, which cannot be read.)"""
    texts = [field.text for field in args]
    if any(text in CONFIG_READS for text in texts) or texts[:1] in (["get"], ["list"]):
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
    "clone": _clone,
    "worktree": _worktree,
    "init": _init,
    "submodule": _submodule,
}
_KNOWN = (
    READ
    | _INTERNAL
    | DIFF_LIKE
    | frozenset(_HANDLERS)
    | WORKTREE_COMMANDS
    | frozenset(
        {"archive", "format-patch", "grep", "difftool", "daemon", "instaweb", "commit", "push",
         "pull", "fetch", "help", "hook", "mergetool", "send-email", "bundle", "bugreport",
         "maintenance", "range-diff", "replay", "sparse-checkout", "whatchanged"}
    )
)  # fmt: skip
"""git's own commands: an alias of the same name is never used."""
