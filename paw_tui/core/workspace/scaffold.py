"""``paw-tui init``: the ``.paw/`` and ``.orchestration/`` skeletons of a new workspace.

Nothing that exists is ever overwritten: a file already there is reported and kept. The one
exception is ``.orchestration/.gitignore``, which paw-tui shares with the person: it is
created when missing and, when it lacks one of the machine-owned entries, extended with it
(``updated``), the person's own lines kept (:mod:`paw_tui.core.workspace.machine_state`).
"""

from __future__ import annotations

import os
from importlib import resources

from paw_tui.core.errors import WorkspaceError
from paw_tui.core.support.fsutil import create_new_file

# (path relative to the workspace root, template file or None for a directory)
SKELETON: tuple[tuple[str, str | None], ...] = (
    (".paw", None),
    (".paw/instructions", None),
    (".paw/work", None),
    (".paw/README.md", "paw_readme.md"),
    (".orchestration", None),
    (".orchestration/active_intents.yaml", "active_intents.yaml"),
    (".orchestration/governance.yaml", "governance.yaml"),
)
IGNORE_FILE = ".orchestration/.gitignore"


class ScaffoldStep:
    """One entry of the skeleton and what ``init`` did with it (``updated``: an existing file
    that was extended, the ignore file alone)."""

    __slots__ = ("path", "kind", "created", "updated")

    def __init__(self, path: str, kind: str, created: bool, updated: bool = False) -> None:
        self.path = path
        self.kind = kind  # "file" or "directory"
        self.created = created
        self.updated = updated

    @property
    def outcome(self) -> str:
        return "created" if self.created else "updated" if self.updated else "kept"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "kind": self.kind,
            "created": self.created,
            "updated": self.updated,
        }


def _template(name: str) -> bytes:
    return resources.files("paw_tui.templates").joinpath("init", name).read_bytes()


def create_skeleton(root: str) -> list[ScaffoldStep]:
    """Create what is missing of the skeleton under ``root``; report every entry.

    Raises WorkspaceError when something cannot be created (for example a file standing
    where a directory belongs); entries made before the failure stay, nothing is removed.
    """
    steps: list[ScaffoldStep] = []
    for relative, template in SKELETON:
        target = os.path.join(root, *relative.split("/"))
        try:
            steps.append(_create(relative, target, template))
        except OSError as exc:
            raise _cannot_create(target, exc) from exc
    steps.append(_ignore_file(root))
    return steps


def _cannot_create(target: str, exc: OSError) -> WorkspaceError:
    reason = exc.strerror or str(exc)
    return WorkspaceError(f"Cannot create {target}: {reason[:1].lower()}{reason[1:]}.")


def _ignore_file(root: str) -> ScaffoldStep:
    from paw_tui.core.workspace.machine_state import ensure_machine_state_ignored

    target = os.path.join(root, *IGNORE_FILE.split("/"))
    existed = os.path.lexists(target)
    try:
        written = ensure_machine_state_ignored(root)
    except OSError as exc:
        raise _cannot_create(target, exc) from exc
    return ScaffoldStep(IGNORE_FILE, "file", written and not existed, written and existed)


def _create(relative: str, target: str, template: str | None) -> ScaffoldStep:
    if template is not None:
        return ScaffoldStep(relative, "file", create_new_file(target, _template(template)))
    if os.path.isdir(target):
        return ScaffoldStep(relative, "directory", False)
    if os.path.lexists(target):
        raise NotADirectoryError(0, "it exists and is not a directory")
    os.makedirs(target, exist_ok=True)
    return ScaffoldStep(relative, "directory", True)
