"""The shell state the walk tracks: where the shell is and what its variables hold.

A :class:`Place` is immutable: ``cd``, ``pushd``, ``popd`` and assignments make new ones.
The walk keeps a short list of the places the shell may be in (a ``cd`` into a directory
that does not exist may fail, and ``;`` then runs the next command where the shell was;
``if``/``||`` branches join), so a target is reported relative to every directory it may be
written from. ``unlikely`` marks places reached only if a ``cd`` into an existing directory
failed; a list drops them when it goes on after ``;`` as long as a likely place remains.
"""

from __future__ import annotations

import os

# variables bash sets itself: never taken from a given environment
_SHELL_SET = frozenset(
    {
        "RANDOM",
        "SRANDOM",
        "SECONDS",
        "LINENO",
        "BASHPID",
        "EPOCHREALTIME",
        "EPOCHSECONDS",
        "PPID",
        "UID",
        "EUID",
        "SHLVL",
        "PIPESTATUS",
        "FUNCNAME",
        "GROUPS",
        "DIRSTACK",
        "OPTIND",
        "OPTARG",
        "REPLY",
        "BASH_COMMAND",
        "BASH_SUBSHELL",
        "BASH_SOURCE",
        "BASH_LINENO",
        "BASH_REMATCH",
        "_",
        "HISTCMD",
        "COPROC",
        "MAPFILE",
    }
)


class Place:
    """Working directory, OLDPWD, directory stack and known variables of one possible shell."""

    __slots__ = ("cwd", "lost", "oldpwd", "stack", "vars", "blind", "unlikely")

    def __init__(
        self,
        cwd: str,
        lost: bool,
        oldpwd: str | None,
        stack: tuple[str, ...] | None,
        variables: dict[str, str | None],
        blind: bool,
        unlikely: bool,
    ) -> None:
        self.cwd = cwd  # absolute; when lost, the best guess (its text shows what is unknown)
        self.lost = lost  # the working directory cannot be known
        self.oldpwd = oldpwd  # None: unknown
        self.stack = stack  # pushd's stack, None: unknown
        self.vars = variables  # None values: assigned, but to something unknown
        self.blind = blind  # something (source, eval $x) may have set any variable
        self.unlikely = unlikely

    def key(self) -> tuple[object, ...]:
        return (
            self.cwd,
            self.lost,
            self.oldpwd,
            self.stack,
            self.blind,
            tuple(sorted(self.vars.items(), key=_first)),
        )

    def lookup(self, name: str, strict: bool) -> str | None:
        """A variable's value; None when it cannot be known. ``strict``: the environment is
        known, so a variable nobody set is empty."""
        if name in self.vars:
            return self.vars[name]
        if name == "PWD":
            return None if self.lost else self.cwd
        if name == "OLDPWD":
            return self.oldpwd
        if (
            strict
            and not self.blind
            and name not in _SHELL_SET
            and not name.startswith("BASH")
            and not name.isdigit()
            and name not in "@*#?-$!"
        ):
            return ""
        return None

    def with_vars(self, variables: dict[str, str | None], blind: bool | None = None) -> Place:
        return Place(
            self.cwd,
            self.lost,
            self.oldpwd,
            self.stack,
            variables,
            self.blind if blind is None else blind,
            self.unlikely,
        )

    def forget(self, names: list[str]) -> Place:
        """The same place with these variables unknown."""
        if not names:
            return self
        variables = dict(self.vars)
        for name in names:
            variables[name] = None
        return self.with_vars(variables)

    def moved(self, cwd: str, lost: bool) -> Place:
        """After a successful cd to ``cwd``."""
        return Place(
            cwd,
            lost,
            None if self.lost else self.cwd,
            self.stack,
            self.vars,
            self.blind,
            self.unlikely,
        )

    def with_stack(self, stack: tuple[str, ...] | None) -> Place:
        return Place(self.cwd, self.lost, self.oldpwd, stack, self.vars, self.blind, self.unlikely)

    def marked(self, unlikely: bool) -> Place:
        if unlikely == self.unlikely:
            return self
        return Place(self.cwd, self.lost, self.oldpwd, self.stack, self.vars, self.blind, unlikely)

    def resolve(self, path: str) -> str:
        """``path`` as an absolute, normalised path (logically, as ``cd`` does)."""
        joined = os.path.normpath(os.path.join(self.cwd, path))
        if joined.startswith("//") and not joined.startswith("///"):
            joined = joined[1:]
        return joined


def _first(item: tuple[str, str | None]) -> str:
    return item[0]


def merge(places: list[Place], limit: int = 16) -> list[Place]:
    """The distinct places (a likely one wins over an unlikely twin). Past ``limit``, likely
    places are kept first and the rest become one lost place (where relative paths are
    dynamic)."""
    if len(places) < 2:
        return places
    out: list[Place] = []
    index: dict[tuple[object, ...], int] = {}
    for place in places:
        key = place.key()
        seen = index.get(key)
        if seen is None:
            index[key] = len(out)
            out.append(place)
        elif out[seen].unlikely and not place.unlikely:
            out[seen] = place
    if len(out) <= limit:
        return out
    out = _by_directory(out)  # the same directory with other variables: one place
    if len(out) <= limit:
        return out
    ordered = [p for p in out if not p.unlikely] + [p for p in out if p.unlikely]
    kept, dropped = ordered[: limit - 1], ordered[limit - 1 :]
    first = dropped[0]
    lost = Place(
        first.cwd if first.lost else os.path.join(first.cwd, "..."),
        True,
        None,
        None,
        {name: None for name in first.vars},
        True,
        all(p.unlikely for p in dropped),
    )
    return kept + [lost]


def _by_directory(places: list[Place]) -> list[Place]:
    """Places joined by working directory: what differs among them becomes unknown."""
    groups: dict[tuple[str, bool], Place] = {}
    for place in places:
        key = (place.cwd, place.lost)
        seen = groups.get(key)
        if seen is None:
            groups[key] = place
            continue
        variables: dict[str, str | None] = {}
        for name in set(seen.vars) | set(place.vars):
            value = seen.vars.get(name)
            same = name in seen.vars and name in place.vars and place.vars[name] == value
            variables[name] = value if same else None
        groups[key] = Place(
            seen.cwd,
            seen.lost,
            seen.oldpwd if seen.oldpwd == place.oldpwd else None,
            seen.stack if seen.stack == place.stack else None,
            variables,
            seen.blind or place.blind,
            seen.unlikely and place.unlikely,
        )
    return list(groups.values())


def settle(places: list[Place]) -> list[Place]:
    """The places a list goes on from after ``;``: the likely ones, if there are any."""
    likely = [place for place in places if not place.unlikely]
    return likely if likely else places


def identifiers(text: str) -> list[str]:
    """The names in an arithmetic expression."""
    names: list[str] = []
    current: list[str] = []
    for char in text + " ":
        if char.isalnum() or char == "_":
            current.append(char)
            continue
        if current and not current[0].isdigit():
            names.append("".join(current))
        current = []
    return names


def assigns_in_arithmetic(text: str) -> bool:
    """Whether arithmetic text assigns (``=``, ``+=``, ``++``, ...; not ``==``/``<=``...)."""
    if "++" in text or "--" in text:
        return True
    for index, char in enumerate(text):
        if char == "=":
            before = text[index - 1] if index else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            if after != "=" and before not in "=!<>":
                return True
            if before in "<>" and index > 1 and text[index - 2] == before:  # <<= >>=
                return True
    return False
