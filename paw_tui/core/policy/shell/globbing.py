"""Pathname expansion as bash does it, for the glob targets the gate needs to resolve.

:func:`expand_glob` expands a target's pattern against the file system: ``*``, ``?`` and
``[...]`` (``!``/``^`` negation, ranges, ``[:class:]``), backslash escapes, per path
component; with bash's defaults (dotglob off: a leading ``.`` must be matched literally;
``.`` and ``..`` never match; no nullglob: no match leaves the word as it is). It imports
``re`` only when called.
"""

from __future__ import annotations

import os

from .expansion import is_glob

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .results import ShellTarget

_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "xdigit": "0-9a-fA-F",
    "punct": "!-/:-@\\[-`{-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "print": " -~",
    "graph": "!-~",
    "word": "a-zA-Z0-9_",
}


def _unescape(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            i += 1
        out.append(pattern[i])
        i += 1
    return "".join(out)


def _translate(component: str) -> str:
    """A bash pattern (one path component) as a Python regular expression."""
    import re

    out: list[str] = []
    i = 0
    n = len(component)
    while i < n:
        char = component[i]
        i += 1
        if char == "\\" and i < n:
            out.append(re.escape(component[i]))
            i += 1
        elif char == "*":
            if not out or out[-1] != ".*":
                out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[":
            bracket, end = _bracket(component, i)
            out.append(bracket if bracket is not None else "\\[")
            i = end if bracket is not None else i
        else:
            out.append(re.escape(char))
    return "(?s:" + "".join(out) + ")\\Z"


def _bracket(component: str, j: int) -> tuple[str | None, int]:
    """The bracket expression whose text starts at ``j`` (after ``[``) as a regex class, and
    the index after it; None when it is not one (then ``[`` is an ordinary character)."""
    import re

    n = len(component)
    negate = j < n and component[j] in "!^"
    if negate:
        j += 1
    items: list[str] = []
    if j < n and component[j] == "]":
        items.append("\\]")
        j += 1
    while j < n:
        c = component[j]
        if c == "]":
            return "[" + ("^" if negate else "") + "".join(items) + "]", j + 1
        if c == "[" and component[j + 1 : j + 2] == ":":
            end = component.find(":]", j + 2)
            if end > 0 and component[j + 2 : end] in _CLASSES:
                items.append(_CLASSES[component[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\" and j + 1 < n:
            j += 1
            c = component[j]
        if component[j + 1 : j + 2] == "-" and j + 2 < n and component[j + 2] != "]":
            items.append(re.escape(c) + "-" + re.escape(component[j + 2]))
            j += 3
            continue
        items.append(re.escape(c))
        j += 1
    return None, j


def _matches(directory: str, component: str, only_dirs: bool) -> list[str]:
    import re

    matcher = re.compile(_translate(component))
    hidden_ok = component.startswith(".") or component.startswith("\\.")
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
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
    for index, component in enumerate(parts):
        last = index == len(parts) - 1
        step: list[str] = []
        for prefix in found:
            directory = prefix if absolute else os.path.join(base, prefix)
            if is_glob(component):
                for name in _matches(directory, component, (not last) or trailing):
                    step.append(os.path.join(prefix, name))
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
    import re

    wanted = [part for part in pattern.split("/") if part]
    names = [part for part in path.split("/") if part]
    if len(wanted) != len(names):
        return False
    for component, name in zip(wanted, names, strict=True):
        if name.startswith(".") and not component.startswith((".", "\\.")):
            return False
        if not re.match(_translate(component), name):
            return False
    return True
