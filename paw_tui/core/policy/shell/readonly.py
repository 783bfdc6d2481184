"""Which commands only read: an allowlist, with the options that would make them write or run
programs ruled out.

:func:`read_only_command` answers for one command (its name and expanded arguments, after
wrappers such as ``time`` and ``timeout`` are stripped). Anything not listed is not
read-only: ``less`` and ``more`` (they run commands), ``awk``, interpreters, editors.
``sed`` counts when it edits nothing in place and its script has no ``w``/``e``; ``find``
when it has no ``-delete``, ``-fprint*``/``-fls`` and runs with ``-exec``/``-execdir`` only
commands from :data:`SAFE_WITH_ANY_ARGS`; ``xargs`` only with those.
"""

from __future__ import annotations

from .expansion import Field
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# read-only whatever their arguments (so also with arguments nobody can see: xargs, find -exec)
SAFE_WITH_ANY_ARGS = frozenset(
    {
        "ls",
        "cat",
        "head",
        "tail",
        "grep",
        "egrep",
        "fgrep",
        "wc",
        "file",
        "stat",
        "du",
        "basename",
        "dirname",
        "realpath",
        "readlink",
        "sha256sum",
        "md5sum",
        "sha1sum",
        "sha224sum",
        "sha384sum",
        "sha512sum",
        "b2sum",
        "cksum",
        "echo",
        "true",
        "false",
        "nl",
        "cut",
        "cmp",
        "diff",
        "tac",
        "rev",
        "strings",
        "od",
        "hexdump",
    }
)
_PLAIN = SAFE_WITH_ANY_ARGS | frozenset(
    {
        "pwd",
        "which",
        "type",
        "df",
        "test",
        "[",
        "whoami",
        "id",
        "uname",
        "tr",
        "jq",
        "printenv",
        ":",
        "seq",
        "paste",
        "comm",
        "fold",
        "expand",
        "unexpand",
        "column",
        "nproc",
        "arch",
        "tty",
        "groups",
        "locale",
        "logname",
        "sleep",
        "expr",
        "cd",
        "pushd",
        "popd",
        "dirs",
        "read",
        "exit",
        "tree",
        "env",
        "set",
        "atq",
    }
)
_HANDOFF = frozenset({"tmux", "screen", "at", "crontab", "systemctl"})
"""Programs that hand commands to another process; read-only only in their listing forms."""
_STANDARD_DIRS = (
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/opt/homebrew/bin/",
)
_HOSTNAME_FLAGS = frozenset(
    {
        "-s",
        "-f",
        "-i",
        "-I",
        "-d",
        "-a",
        "-A",
        "--short",
        "--fqdn",
        "--long",
        "--ip-address",
        "--all-ip-addresses",
        "--alias",
        "--domain",
        "--all-fqdns",
    }
)


def trusted_name(text: str) -> str | None:
    """The command name to judge: a bare name, or a path in a standard binary directory
    (``./ls`` could be anything)."""
    if "/" not in text:
        return text
    for directory in _STANDARD_DIRS:
        if text.startswith(directory) and "/" not in text[len(directory) :]:
            return text[len(directory) :]
    return None


def read_only_command(name: str, args: list[Field]) -> bool:
    check = _CHECKS.get(name)
    if check is not None:
        return check(name, args)
    if name in _HANDOFF:
        from .handoff import handoff_read_only

        return handoff_read_only(name, args)
    return name in _PLAIN


def _git(name: str, args: list[Field]) -> bool:
    from .git_reads import git_read_only

    return git_read_only(args)


def _find(name: str, args: list[Field]) -> bool:
    from .archives import read_find

    found = read_find(args)
    if found.deletes or found.writes or found.other:
        return False
    return all(
        words and not words[0].dynamic and trusted_name(words[0].text) in SAFE_WITH_ANY_ARGS
        for words in found.runs
    )


def _sort(name: str, args: list[Field]) -> bool:
    return not any(
        text.startswith(("-o", "--output", "--compress-program"))
        or (text.startswith("-") and not text.startswith("--") and "o" in text)
        for text in _texts(args)
    )


def _texts(args: list[Field]) -> list[str]:
    return [field.text for field in args]


def _none_start(*prefixes: str) -> Callable[[str, list[Field]], bool]:
    """Read-only unless an argument starts with one of ``prefixes``."""

    def check(name: str, args: list[Field]) -> bool:
        return not any(text.startswith(prefixes) for text in _texts(args))

    return check


_CHECKS: dict[str, Callable[[str, list[Field]], bool]] = {
    "git": _git,
    "rg": _none_start("--pre", "--hostname-bin"),
    "find": _find,
    "sed": lambda name, args: _sed_reads(args),
    "sort": _sort,
    "uniq": lambda name, args: len(getopt(args, valued="fsw").operands) <= 1,
    "date": _none_start("-s", "--set"),
    "hostname": lambda name, args: all(text in _HOSTNAME_FLAGS for text in _texts(args)),
    "printf": lambda name, args: not args or args[0].text != "-v",
    "tree": lambda name, args: (
        not any(text in ("-o", "-R") or text.startswith("--output") for text in _texts(args))
    ),
    "file": lambda name, args: (
        not any(
            text.startswith("-") and not text.startswith("--") and "C" in text
            for text in _texts(args)
        )
    ),
    "command": lambda name, args: bool(args) and args[0].text in ("-v", "-V"),
    "env": lambda name, args: (
        not any("=" in text and not text.startswith("-") for text in _texts(args))
    ),
}


def _sed_reads(args: list[Field]) -> bool:
    from .scripts import sed_script

    opts = getopt(
        args,
        valued="efl",
        optional="i",
        long_valued=frozenset({"expression", "file", "line-length"}),
        long_optional=frozenset({"in-place"}),
    )
    if opts.has("i", "in-place", "f", "file"):
        return False
    scripts = opts.values("e", "expression")
    if not scripts:
        if not opts.operands:
            return False
        scripts = opts.operands[:1]
    for script in scripts:
        if script.dynamic:
            return False
        found = sed_script(script.text)
        if found is None or found[0] or found[1]:
            return False
    return True
