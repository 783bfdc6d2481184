"""The protected paths no scope and no governance file can open (DESIGN §2).

``.orchestration/**``, ``.paw/instructions/**`` and ``.git/**`` (the ``.git`` file or
directory itself too, and ``.git`` at any depth: a nested repository's hooks run code), and
the workspace root itself. Names are compared case-insensitively, ignoring trailing dots and
spaces and an NTFS stream suffix. ``governance.yaml: protected:`` patterns add to them and
cannot remove them. Standard library only.
"""

from __future__ import annotations

BUILTIN_PROTECTED = (".orchestration/**", ".paw/instructions/**", ".git/**")
NESTED_GIT_RULE = "**/.git/**"
ROOT_RULE = "the workspace root itself"


def _fold_name(name: str) -> str:
    """A path component as Windows and case-insensitive volumes see it.

    Trailing dots and spaces are dropped and an NTFS stream suffix (``:name``) is cut, so
    ``.GIT``, ``.git.`` and ``.git::$INDEX_ALLOCATION`` all read as ``.git``.
    """
    return name.split(":", 1)[0].rstrip(". ").casefold()


def builtin_protection(relative: str, *, subtree: bool = False) -> str | None:
    """The built-in protected rule covering a root-relative POSIX path, or None.

    ``.orchestration`` and ``.paw/instructions`` are protected at the root; ``.git`` (a
    directory or a file) at the root and, as ``**/.git/**``, at any depth: a nested
    repository's hooks run code too. ``subtree`` is for an operation on a whole directory
    (``rm -r``, ``mv`` of a directory): then a directory *holding* a protected path (``.paw``,
    the root itself) is protected as well. The root itself is always protected.
    """
    if not relative:
        return ROOT_RULE
    if relative[0] != "." and "/." not in relative:
        return None  # every protected name starts with a dot
    first, _, rest = relative.partition("/")
    first = _fold_name(first)
    if first == ".orchestration":
        return BUILTIN_PROTECTED[0]
    if first == ".git":
        return BUILTIN_PROTECTED[2]
    if first == ".paw":
        if rest:
            if _fold_name(rest.partition("/")[0]) == "instructions":
                return BUILTIN_PROTECTED[1]
        elif subtree:
            return BUILTIN_PROTECTED[1]
    if rest and ".git" in rest.casefold():
        for name in rest.split("/"):
            if _fold_name(name) == ".git":
                return NESTED_GIT_RULE
    return None
