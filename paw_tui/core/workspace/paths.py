"""Where a path really points, relative to the workspace root (DESIGN §5).

The gate checks what a write would touch, not what the agent typed. A path is normalised in
this order: ``\\`` becomes ``/``; a leading ``~`` is expanded; a relative path is joined to
the event's ``cwd``; the result is resolved with realpath semantics, then made relative to
the root (itself realpath'd). Resolution follows each symlink *before* the ``..`` after it
is applied, exactly as the kernel walks a path, and a path that does not exist yet resolves
to the realpath of its deepest existing ancestor plus the rest (``os.path.realpath`` with
``strict=False`` does both on POSIX; on Windows it applies ``..`` lexically first, which is
also how the Win32 API reads such a path). A dangling symlink resolves to its target, so a
write that would create a file outside the root through one is seen as outside.

A path the gate cannot reason about (not a string, empty, holding a NUL byte) raises
:class:`PathError`; a path that resolves outside the root is a value (``relative`` is None),
so the caller can name it in a deny.

Standard library only, and nothing heavier than ``os`` at import time: this module is on
the gate's hot path (DESIGN §10).
"""

from __future__ import annotations

import os
import stat

from paw_tui.core.errors import ValidationError
from paw_tui.core.support.realpath import realpath

_NATIVE_SEPS = tuple(sep for sep in (os.sep, os.altsep) if sep and sep != "/")


class PathError(ValidationError, ValueError):
    """A path that cannot be normalised (not a string, empty, or holding a NUL byte): exit 2.

    Also a ``ValueError``, the family ``os`` functions raise for an embedded NUL byte.
    """


class ResolvedPath:
    """One normalised path.

    ``absolute`` is the resolved absolute path in native form. ``relative`` is the POSIX
    path relative to the real root (``""`` for the root itself), or None when the path
    resolves outside the root.
    """

    __slots__ = ("given", "absolute", "relative")

    def __init__(self, given: str, absolute: str, relative: str | None) -> None:
        self.given = given
        self.absolute = absolute
        self.relative = relative

    @property
    def inside(self) -> bool:
        """Whether the path resolves to the root or below it."""
        return self.relative is not None

    @property
    def display(self) -> str:
        """The root-relative path (``.`` for the root), or the absolute path when outside."""
        if self.relative is None:
            return self.absolute
        return self.relative or "."

    def to_dict(self) -> dict[str, object]:
        return {
            "given": self.given,
            "absolute": self.absolute,
            "relative": self.relative,
            "inside": self.inside,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResolvedPath):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"ResolvedPath(given={self.given!r}, absolute={self.absolute!r}, "
            f"relative={self.relative!r})"
        )


def _require_path(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise PathError(f"The {what} must be a string, not {type(value).__name__}.")
    if not value:
        raise PathError(f"The {what} is empty.")
    if "\x00" in value:
        raise PathError(f"The {what} {value!r} contains a NUL byte.")
    return value


def real_root(root: str) -> str:
    """The realpath of a workspace root; compute it once and pass ``root_is_real=True``."""
    root = _require_path(root, "workspace root")
    return realpath(os.path.abspath(os.path.expanduser(root)))


def relative_to_root(real_path: str, root: str) -> str | None:
    """``real_path`` relative to ``root`` as a POSIX path; ``""`` for the root, None outside.

    Both must be absolute and already resolved. Comparison uses ``os.path.normcase`` (case
    folding on Windows only): a real path differing only in case from the root on a
    case-insensitive POSIX volume counts as outside, which fails closed.
    """
    path_key = os.path.normcase(real_path)
    root_key = os.path.normcase(root)
    if path_key == root_key:
        return ""
    prefix = root_key if root_key.endswith(os.sep) else root_key + os.sep
    if not path_key.startswith(prefix):
        return None
    relative = real_path[len(prefix) :]
    for sep in _NATIVE_SEPS:
        relative = relative.replace(sep, "/")
    return relative


def absolute_path(path: str, cwd: str | None = None) -> str:
    """``path`` with ``\\`` turned to ``/``, ``~`` expanded and made absolute, not resolved."""
    path = _require_path(path, "path").replace("\\", "/")
    if path.startswith("~"):
        path = os.path.expanduser(path)
    if not os.path.isabs(path):
        base = os.getcwd() if cwd is None else _require_path(cwd, "working directory")
        path = os.path.join(os.path.abspath(base), path)
    return path


def resolve_path(
    path: str, root: str, *, cwd: str | None = None, root_is_real: bool = False
) -> ResolvedPath:
    """Normalise ``path`` for a scope check against the workspace ``root`` (DESIGN §5).

    ``cwd`` is the event's working directory (default: this process's). Pass
    ``root_is_real=True`` when ``root`` already went through :func:`real_root`.
    Raises :class:`PathError` for a path that is not a string, is empty or holds a NUL byte.
    """
    base = root if root_is_real else real_root(root)
    given = absolute_path(path, cwd)
    absolute = _realpath_below(given, base)
    if absolute is None:
        absolute = realpath(given)
    return ResolvedPath(path, absolute, relative_to_root(absolute, base))


def _realpath_below(path: str, base: str) -> str | None:
    """``os.path.realpath(path)`` for an absolute ``path`` below ``base``, a resolved
    directory, looking only at the components below it (the root's own components are real
    already: a target costs an ``lstat`` per component under the root, and none past the
    first that is missing); None where that does not apply (not POSIX, not below ``base``, a
    symbolic link on the way: :func:`realpath` then does it all)."""
    if os.sep != "/" or base == "/" or not path.startswith(base + "/"):
        return None
    resolved = base
    missing = False
    for part in path[len(base) + 1 :].split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            resolved = os.path.dirname(resolved)
            missing = False
            continue
        candidate = resolved + "/" + part
        if not missing:
            try:
                mode = os.lstat(candidate).st_mode
            except OSError:
                missing = True  # nothing below a missing component exists either
            else:
                if stat.S_ISLNK(mode):
                    return None
        resolved = candidate
    return resolved
