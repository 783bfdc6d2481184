"""What a shell command writes, for the gate: the parser's targets made checkable.

A glob is checked as what it matches now (bash keeps the pattern's text when nothing does);
``find DIR -delete`` as the contents of DIR; a name this same command's ``mktemp`` makes in
a temporary directory, and what is written in or below it (``tmp=$(mktemp -d); cp f
"$tmp/"``), is not checked once its real path is still in a temporary directory: a fresh
name can clobber nothing. A name that only looks like mktemp's (``/tmp/fooXXX``, perhaps a
symbolic link planted earlier) is checked like any other path.

A command handed to another program that the parser cannot read whole (through a variable,
standard input or a file; or one run outside the shell's process tree, by a multiplexer, a
scheduler or a service manager, that may write what its command line does not name) is
refused: nothing after the gate would see what it does. So is a git command that may rewrite
every file of a repository (``reset --hard``, ``checkout BRANCH``, ``stash``, ``merge``...):
the whole worktree holds the workspace root and its protected files.

A path known only when the command runs (``> "$f"``, ``sed -i "$f"``) is not checked here:
the kernel boundary holds it where there is one, and drift detection records it (and undoes
it on a protected file) everywhere. Two kinds are refused instead, because what they destroy
cannot be put back: removing or moving such a path (``rm -rf "$D"``, ``xargs rm``), and any
write in a working directory known only when it runs (``cd -`` without ``$OLDPWD``,
``cd "$DIR" && rm x``).
"""

from __future__ import annotations

import os

from paw_tui.gate.targets import RawTarget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.policy.shell.results import ShellAnalysis, ShellTarget

CONTENTS_OF = frozenset({"find-delete", "git-contents"})
DESTROYS = frozenset({"rm", "rmdir", "mv", "find-delete", "shred", "unlink"})
"""Operations whose damage drift detection cannot undo outside the protected files."""


class UncheckableWrite(ValueError):
    """A write the gate cannot place; the call is denied with this sentence."""


def _fresh_temp(target: ShellTarget, environ: Mapping[str, str]) -> bool:
    """Whether ``target`` is (or lies below) a name this command's ``mktemp`` makes, and its
    real path, symbolic links followed, is still that name (the template's ``X``s) right in
    a temporary directory."""
    if not target.temp:
        return False
    from paw_tui.core.support.tempdirs import temp_directories

    real = os.path.realpath(os.path.join(target.cwd, target.path))
    for directory in temp_directories(environ):
        prefix = os.path.realpath(directory).rstrip("/") + "/"
        if real.startswith(prefix) and "XXX" in real[len(prefix) :].split("/", 1)[0]:
            return True
    return False


def _unknown_directory(target: ShellTarget) -> bool:
    return "$" in target.cwd or "`" in target.cwd


SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})
INTERPRETERS = frozenset(
    {"python", "python2", "python3", "pypy", "pypy3", "ipython", "node", "nodejs", "deno",
     "bun", "perl", "ruby", "irb", "php", "lua", "luajit", "tclsh", "wish", "julia", "R"}
)  # fmt: skip
"""Programs that, given no script and no code on the command line, run what they read from
their input: what arrives there later (Codex's ``write_stdin``, a pipe) no hook ever sees."""
CODE_OPTIONS = frozenset("ceEmp")
"""Option letters giving the code on the command line (``-c``, ``-e``, ``-m``, ``-p``)."""


def reads_commands_from_input(argv: list[str]) -> bool:
    """Whether ``argv`` starts a shell or interpreter with no script and no code to run: it
    will run whatever it reads from its input."""
    name = os.path.basename(argv[0]) if argv else ""
    versioned = name.rstrip("0123456789.")
    if name not in SHELLS and name not in INTERPRETERS and versioned not in INTERPRETERS:
        return False
    for arg in argv[1:]:
        if arg in ("-", "-s", "--"):
            return True  # explicitly from standard input
        if arg.startswith("--"):
            if arg in ("--eval", "--print", "--command") or arg.startswith(("--eval=", "--print=")):
                return False
            continue
        if arg.startswith(("-", "+")):
            if CODE_OPTIONS & set(arg[1:]):
                return False
            continue
        return False  # a script file (or a subcommand): the command line says what runs
    return True


def write_targets(analysis: ShellAnalysis, environ: Mapping[str, str]) -> list[RawTarget]:
    """Every path ``analysis`` says the command writes, globs expanded; raises
    :class:`UncheckableWrite` when one cannot be placed."""
    from paw_tui.core.policy.shell.analysis import expand_glob
    from paw_tui.core.policy.shell.globbing import MAX_MATCHES
    from paw_tui.core.policy.shell.limits import GlobLimit
    from paw_tui.core.policy.shell.results import WORKTREE

    if analysis.unreadable:
        raise UncheckableWrite(
            analysis.unreadable[0] + "; a command handed to another program runs under an "
            "intent only when paw-tui can read all of it"
        )
    opaque = {os.path.basename(name) for name in analysis.opaque}
    for argv in analysis.commands:
        words = list(argv)
        if words and os.path.basename(words[0]) in opaque and reads_commands_from_input(words):
            raise UncheckableWrite(
                f"{words[0]} would run commands it reads from its input, which paw-tui never "
                "sees; give it the commands with -c (or a script file)"
            )
    for name in analysis.opaque:
        words = name.split()
        if len(words) >= 2 and words[0] == "xargs" and words[1] in DESTROYS:
            raise UncheckableWrite(
                f"{name} on paths known only when the command runs; name the paths (or use "
                "find ... -delete) so their scope can be checked"
            )
    found: list[RawTarget] = []
    matched = 0
    for target in analysis.targets:
        if target.how == WORKTREE:
            raise UncheckableWrite(
                "the command has git rewrite every file of the repository it runs in "
                f"({target.cwd}: reset --hard, checkout or switch to another commit, stash, "
                "merge, rebase, pull, am, cherry-pick, revert, read-tree -u, checkout-index -a, "
                "a patch paw-tui cannot read), protected files and other intents' files "
                "included; name the paths it may change (git restore --source=REV -- PATHS, "
                "git checkout REV -- PATHS, git stash push -- PATHS)"
            )
        if _unknown_directory(target) and not os.path.isabs(target.path):
            raise UncheckableWrite(
                f"the command writes {target.path} in a directory known only when it runs "
                f"({target.cwd}); use a path from the workspace root"
            )
        if target.dynamic:
            if target.how in DESTROYS:
                raise UncheckableWrite(
                    f"{target.how} of {target.path}, a path known only when the command runs; "
                    "name the path so its scope can be checked"
                )
            continue  # known only when it runs: the boundary and drift detection see it
        if _fresh_temp(target, environ):
            continue
        contents = target.how in CONTENTS_OF
        try:
            paths = expand_glob(target) if target.glob else [target.path]
        except GlobLimit as bound:
            raise UncheckableWrite(str(bound)) from None
        matched += len(paths)
        if matched > MAX_MATCHES:
            raise UncheckableWrite(
                f"the command's globs match more than {MAX_MATCHES:,} paths; name fewer at a time"
            )
        for path in paths:
            found.append(
                RawTarget(
                    path,
                    target.cwd,
                    subtree=target.subtree or contents,
                    directory=target.directory,
                    contents=contents,
                )
            )
    return found
