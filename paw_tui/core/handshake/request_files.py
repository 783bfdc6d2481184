"""Requests a person decides, one JSON file each under ``.orchestration/`` (approvals of
selections, scope requests): written atomically, read tolerantly (an unreadable file is
skipped, never deleted), listed in arrival order."""

from __future__ import annotations

import json
import os

from paw_tui.core.support.fsutil import atomic_write
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")


def request_path(root: str, folder: str, request_id: str, what: str) -> str:
    """``<folder>/<id>.json``; ValueError for an id that could leave the folder."""
    if (
        not request_id
        or "/" in request_id
        or "\\" in request_id
        or "\0" in request_id
        or request_id.startswith(".")
    ):
        raise ValueError(f"invalid {what} id {request_id!r}")
    return os.path.join(layout.at(root, folder), request_id + ".json")


def save(path: str, data: dict[str, object]) -> None:
    """Atomic; callers hold the state lock."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))


def load(path: str, from_dict: Callable[[dict[str, object]], T]) -> T | None:
    """The request in ``path``; None when it is missing or unreadable."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read())
        if not isinstance(data, dict):
            return None
        return from_dict(data)
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def request_ids(root: str, folder: str) -> list[str]:
    """The ids of the files in ``folder`` (none when it does not exist)."""
    try:
        names = sorted(os.listdir(layout.at(root, folder)))
    except OSError:
        return []
    return [
        name[: -len(".json")]
        for name in names
        if name.endswith(".json") and not name.startswith(".")
    ]
