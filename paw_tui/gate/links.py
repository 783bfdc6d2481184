"""Hard links to protected files: the same inode under a name inside the scope.

``ln .orchestration/active_intents.yaml src/auth/notes.yaml`` gives a protected file a second
name an intent may own; a write to that name is a write to the protected file. A target with
more than one name is compared, by device and inode, with every protected file (looked up only
then: hard links are rare, and the gate's usual path never pays for this walk).
"""

from __future__ import annotations

import os

from paw_tui.core.policy.scope.protect import PROTECTED_FILES, PROTECTED_TREES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.gate.targets import Target

SKIPPED = frozenset({"objects", "lfs"})
"""Parts of ``.git`` not walked: content-addressed and large."""
MAX_FILES = 20000


def protected_inodes(root: str) -> dict[tuple[int, int], str]:
    """``(device, inode)`` of every protected regular file -> its root-relative path."""
    found: dict[tuple[int, int], str] = {}

    def note(path: str, relative: str) -> None:
        try:
            info = os.lstat(path)
        except OSError:
            return
        if (info.st_mode & 0o170000) == 0o100000:
            found[(info.st_dev, info.st_ino)] = relative

    for name in PROTECTED_FILES:
        note(os.path.join(root, *name.split("/")), name)
    for tree in PROTECTED_TREES:
        base = os.path.join(root, *tree.split("/"))
        for directory, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d not in SKIPPED]
            for file_name in files:
                path = os.path.join(directory, file_name)
                note(path, os.path.relpath(path, root).replace(os.sep, "/"))
                if len(found) > MAX_FILES:
                    return found
    return found


def mark_protected_aliases(root: str, targets: list[Target]) -> None:
    """Set ``alias_of`` on each target that is a hard link to a protected file."""
    inodes = protected_inodes(root)
    for target in targets:
        if target.relative is None:
            continue
        try:
            info = os.lstat(os.path.join(root, *target.relative.split("/")))
        except OSError:
            continue
        alias = inodes.get((info.st_dev, info.st_ino))
        if alias is not None and alias != target.relative:
            target.alias_of = alias
