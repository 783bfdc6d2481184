"""``paw-tui init``: the ``.paw/`` and ``.orchestration/`` skeletons of a new workspace.

Nothing that exists is ever overwritten: a file already there is reported and kept.
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
    (".orchestration/.gitignore", "orchestration_gitignore"),
)


class ScaffoldStep:
    """One entry of the skeleton and what ``init`` did with it."""

    __slots__ = ("path", "kind", "created")

    def __init__(self, path: str, kind: str, created: bool) -> None:
        self.path = path
        self.kind = kind  # "file" or "directory"
        self.created = created

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "kind": self.kind, "created": self.created}


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
            reason = exc.strerror or str(exc)
            raise WorkspaceError(
                f"Cannot create {target}: {reason[:1].lower()}{reason[1:]}."
            ) from exc
    return steps


def _create(relative: str, target: str, template: str | None) -> ScaffoldStep:
    if template is not None:
        return ScaffoldStep(relative, "file", create_new_file(target, _template(template)))
    if os.path.isdir(target):
        return ScaffoldStep(relative, "directory", False)
    if os.path.lexists(target):
        raise NotADirectoryError(0, "it exists and is not a directory")
    os.makedirs(target, exist_ok=True)
    return ScaffoldStep(relative, "directory", True)
