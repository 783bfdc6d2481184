"""What a bash command line would write, read the way bash reads it.

The gate calls :func:`analyse` before an agent's shell tool runs a command::

    analyse(command, cwd, *, home=None, oldpwd=None, environ=None) -> ShellAnalysis
    expand_glob(target, cwd=None) -> list[str]

What it understands
    bash's grammar, as bash 5.2 parses it (:mod:`.lexer`, :mod:`.scanner`, :mod:`.parser`,
    :mod:`.compound`): every quoting form (``'...'``, ``"..."``, ``\\x``, ``$'...'``,
    ``$"..."``), comments only where a word starts, line continuations, here-documents
    (quoted or not, ``<<-``, several per line; bodies are data, but an unquoted body's
    ``$(...)`` runs), all redirections (``n>``, ``{fd}>``, ``&>``, ``>|``, ``<>``, ``>&``,
    here-strings) wherever they stand, lists, pipelines, ``!``, ``time``, subshells, groups,
    ``if``/``while``/``until``/``for``/``select``/``case``, ``((...))`` and ``[[...]]``
    (whose ``<``/``>`` are not redirections), ``coproc``, functions, and the commands inside
    ``$(...)``, backquotes, ``<(...)``, ``>(...)``, ``${...}`` and ``$((...))``. Words are
    expanded as bash would where that needs no running (:mod:`.expansion`): braces exactly as
    bash does them (:mod:`.braces`), tildes, ``$HOME``/``$PWD``/``$OLDPWD``, variables the
    command assigns literally (and ``${V:-x}``/``${V:+x}`` of those), word splitting of them.
    It follows the working directory (:mod:`.state`, :mod:`.builtins`) through ``cd``
    (``cd``, ``cd -``, ``pushd``/``popd``; not out of subshells, pipelines, ``$(...)``,
    background jobs), keeping several possible places: a ``cd`` into a directory the file
    system says is missing fails, and the next command after ``;`` runs where the shell was;
    branches join. It strips wrappers (``sudo``, ``env``, ``nice``, ``timeout``, ``xargs``,
    ...), runs function bodies where they are called, and parses the strings given to
    ``bash -c``/``sh -c``/``zsh -c``, ``eval``, ``trap`` and here-documents fed to a shell.

What it reports (:class:`ShellAnalysis`)
    ``targets``: every path written by a redirection or by a program whose arguments say
    what it writes (:mod:`.coreutils`, :mod:`.targets`, :mod:`.archives`, :mod:`.git`: cp,
    mv, rm, rmdir, touch, mkdir, ln (a hard link's source too), install, rsync, tee,
    truncate, dd, sed -i (and its backup, and ``w`` files), perl -i, chmod/chown/chgrp,
    tar, unzip, zip, split, sort -o, uniq, mktemp, curl -o, wget -O, compressors, find
    -delete/-fprint/-exec, git checkout/restore/rm/mv/clean/clone/...), each with the
    directory it is relative to and flags (``subtree``, ``directory``, ``dynamic``,
    ``glob``); a write through a symbolic link the command made also names the link's
    target. ``error``: the sentence bash's syntax error would give (also for a script given
    to ``bash -c``/``eval`` or in backquotes that does not parse, which bash only finds when
    it runs it; for commands too deep or too long to walk; and past one of the analysis's
    bounds, naming it: a brace expansion's words, a glob's reads and matches, :mod:`.limits`).
    ``read_only``: only allowlisted commands, used in ways that cannot write or run programs
    (:mod:`.readonly`). ``commands``: every simple command's words, wrappers stripped,
    nested ones included (:class:`Argv`: ``extra_args`` for ``xargs``/``find -exec``).
    ``opaque``: commands that may write what the command line does not name.

What it cannot see (deliberately)
    what programs do beyond their arguments (``python x.py``, ``make``, ``npm``: opaque);
    values known only when the command runs (``$(...)``, ``$RANDOM``, variables it did not
    assign: the target is ``dynamic``, showing its text); what a glob matches until
    :func:`expand_glob` asks the file system; aliases (bash does not expand them in
    scripts); ``source``d files; options set while it runs (``set -f``, ``shopt -s
    nullglob``, ``dotglob``...) other than ``extglob``; ``CDPATH`` (a ``cd`` then loses
    track); how many times a loop runs (three rounds at most, then the place is lost); the
    file system as it will be when the command runs (it is asked as it is now).
"""

from __future__ import annotations

import os

from .limits import TooComplex
from .parser import parse
from .results import MARK, Argv, ShellAnalysis, ShellTarget
from .scanner import ShellSyntaxError
from .state import Place
from .walker import Walker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["Argv", "ShellAnalysis", "ShellTarget", "analyse", "expand_glob"]

_NOT_INHERITED = ("PWD", "OLDPWD", "IFS", "SHELLOPTS", "BASHOPTS")


def analyse(
    command: str,
    cwd: str,
    *,
    home: str | None = None,
    oldpwd: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> ShellAnalysis:
    """Everything ``command`` would write when run by bash in ``cwd``.

    ``home`` is ``$HOME`` (default: ``environ``'s, else this process's); ``oldpwd`` the
    shell's ``$OLDPWD`` (unknown when None, so ``cd -`` loses track). ``environ``, when
    given, is the command's whole environment: variables not in it expand to nothing;
    without it, variables the command does not assign are unknown (dynamic).
    """
    result = ShellAnalysis()
    extglob = "extglob" in command
    try:
        tree = parse(command, extglob)
    except ShellSyntaxError as error:
        result.error = _sentence(error, command)
        return result
    except RecursionError:
        result.error = "The command nests too deeply to be analysed."
        return result
    source = environ if environ is not None else os.environ
    if home is None:
        home = source.get("HOME")
    if oldpwd is None and environ is not None:
        oldpwd = environ.get("OLDPWD")
    variables: dict[str, str | None] = {}
    if environ is not None:
        variables.update(environ)
        for name in _NOT_INHERITED:
            variables.pop(name, None)
    variables["HOME"] = home
    cwd = os.path.normpath(cwd)
    walker = Walker(os.path.isdir(cwd), environ is not None, extglob, dict(variables))
    walker.trust_temp = MARK not in command
    walker.origin = cwd if walker.fs else None
    start = Place(cwd, False, oldpwd, (), variables, False, False)
    try:
        walker.run_list(tree, [start])
    except RecursionError:
        result.error = "The command is too complex to be analysed."
        return result
    except TooComplex as bound:
        result.error = "The command is too complex to be analysed" + (
            f": {bound}." if str(bound) else "."
        )
        return result
    if walker.error is not None:
        result.error = walker.error[0].upper() + walker.error[1:] + "."
        return result
    result.targets = _unique_targets(walker.targets)
    result.commands = _unique_commands(walker.commands)
    result.opaque = list(dict.fromkeys(walker.opaque))
    result.read_only = walker.read_only
    result.unreadable = list(dict.fromkeys(walker.unreadable))
    result.handoffs = list(dict.fromkeys(walker.handoffs))
    result.remote_refs = list(dict.fromkeys(walker.remote_refs))
    return result


def _sentence(error: ShellSyntaxError, command: str) -> str:
    line = command.count("\n", 0, error.pos) + 1
    where = f" (line {line})" if "\n" in command.rstrip("\n") else ""
    return f"Bash would refuse this command: {error.message}{where}."


def _unique_targets(targets: list[ShellTarget]) -> list[ShellTarget]:
    seen: set[tuple[tuple[str, str, str, bool, bool, bool, bool], bool]] = set()
    out: list[ShellTarget] = []
    for target in targets:
        key = (target.key(), target.temp)
        if key not in seen:
            seen.add(key)
            out.append(target)
    return out


def _unique_commands(commands: list[Argv]) -> list[Argv]:
    seen: set[tuple[tuple[str, ...], bool]] = set()
    out: list[Argv] = []
    for argv in commands:
        key = (tuple(argv), argv.extra_args)
        if key not in seen:
            seen.add(key)
            out.append(argv)
    return out


def expand_glob(target: str | ShellTarget, cwd: str | None = None) -> list[str]:
    """The paths bash's pathname expansion gives a glob target (see :mod:`.globbing`)."""
    from .globbing import expand_glob as expand

    return expand(target, cwd)
