"""Pathname expansion as bash does it, for the glob targets the gate needs to resolve.

:func:`expand_glob` expands a target's pattern against the file system: ``*``, ``?`` and
``[...]`` (``!``/``^`` negation, ranges, ``[:class:]``), backslash escapes, per path
component; with bash's defaults (dotglob off: a leading ``.`` must be matched literally;
``.`` and ``..`` never match; no nullglob: no match leaves the word as it is). Names are
matched in linear time (:mod:`.glob_match`), and an expansion that reads or matches more
than its bounds raises :class:`~.limits.GlobLimit`.
"""

from __future__ import annotations

import os

from .expansion import is_glob
from .glob_match import compile_component
from .limits import GlobLimit

MAX_NAMES_READ = 100_000
"""Directory entries one glob may read: a pattern such as ``*/*/*/*/*`` over a big tree
would otherwise walk all of it; past this the command is refused (fail closed)."""
MAX_MATCHES = 10_000
"""Paths one command's globs may match; more is refused (fail closed) rather than sampled."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .results import ShellTarget


def _unescape(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            i += 1
        out.append(pattern[i])
        i += 1
    return "".join(out)


class _Walk:
    """One expansion's bounds: names read from directories so far, paths matched."""

    __slots__ = ("pattern", "read")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.read = 0

    def listed(self, count: int) -> None:
        self.read += count
        if self.read > MAX_NAMES_READ:
            raise GlobLimit(
                f"the glob {self._shown()} reads more than {MAX_NAMES_READ:,} directory "
                "entries (name fewer files at a time)"
            )

    def found(self, count: int) -> None:
        if count > MAX_MATCHES:
            raise GlobLimit(
                f"the glob {self._shown()} matches more than {MAX_MATCHES:,} paths "
                "(name fewer at a time)"
            )

    def _shown(self) -> str:
        """The pattern quoted, shortened; ``repr`` escapes every control character."""
        text = self.pattern
        return repr(text if len(text) <= 80 else text[:77] + "...")


def _matches(directory: str, component: str, only_dirs: bool, walk: _Walk) -> list[str]:
    matcher = compile_component(component)
    hidden_ok = component.startswith(".") or component.startswith("\\.")
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
    walk.listed(len(names))
    found = []
    for name in names:
        if name.startswith(".") and not hidden_ok:
            continue
        if name in (".", ".."):
            continue
        if matcher.match(name) and (
            not only_dirs or os.path.isdir(os.path.join(directory or ".", name))
        ):
            found.append(name)
    return sorted(found)


def expand_glob(target: str | ShellTarget, cwd: str | None = None) -> list[str]:
    """The paths bash's pathname expansion gives a target (or a pattern string, where a
    backslash escapes), relative to ``cwd`` (default: the target's); the target's own text
    when nothing matches or it has no glob."""
    if isinstance(target, str):
        pattern = target
        literal = _unescape(target)
    else:
        pattern = target.pattern or target.path
        literal = target.path
        if cwd is None:
            cwd = target.cwd
    if not is_glob(pattern):
        return [literal]
    base = cwd or "."
    absolute = pattern.startswith("/")
    parts = [part for part in pattern.split("/") if part]
    trailing = pattern.endswith("/")
    found = ["/"] if absolute else [""]
    walk = _Walk(pattern)
    for index, component in enumerate(parts):
        last = index == len(parts) - 1
        step: list[str] = []
        for prefix in found:
            directory = prefix if absolute else os.path.join(base, prefix)
            if is_glob(component):
                for name in _matches(directory, component, (not last) or trailing, walk):
                    step.append(os.path.join(prefix, name))
                walk.found(len(step))
            else:
                path = os.path.join(prefix, _unescape(component))
                full = path if absolute else os.path.join(base, path)
                if os.path.lexists(full) and (last or os.path.isdir(full)):
                    step.append(path)
        found = step
        if not found:
            return [literal]
    return [path + "/" if trailing else path for path in found]


def glob_matches(pattern: str, path: str) -> bool:
    """Whether bash's pattern (absolute, quoted characters escaped) would match ``path``."""
    wanted = [part for part in pattern.split("/") if part]
    names = [part for part in path.split("/") if part]
    if len(wanted) != len(names):
        return False
    for component, name in zip(wanted, names, strict=True):
        if name.startswith(".") and not component.startswith((".", "\\.")):
            return False
        if not compile_component(component).match(name):
            return False
    return True
