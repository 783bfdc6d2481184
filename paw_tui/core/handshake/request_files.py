"""Requests a person decides, one JSON file each under ``.orchestration/`` (approvals of
selections, scope requests): written atomically, read tolerantly (an unreadable file is
skipped, never deleted), listed in arrival order. One :class:`RequestFolder` per kind."""

from __future__ import annotations

import json
import os

from paw_tui.core.support.fsutil import atomic_write
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace import layout
from paw_tui.core.workspace.machine_state import machine_dir

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing stays off the gate's path (a selection reads approvals)
    from collections.abc import Callable, Iterator
    from typing import Protocol, TypeVar

    class Request(Protocol):
        @property
        def id(self) -> str: ...
        @property
        def requested_at(self) -> float: ...
        @property
        def pending(self) -> bool: ...
        def to_dict(self) -> dict[str, object]: ...

    R = TypeVar("R", bound=Request)
    Reader = Callable[[dict[str, object]], R]


class RequestFolder:
    """Where requests of one kind live (``folder``), how their ids start (``prefix``) and what
    a person calls them (``what``); readers take the kind's ``from_dict``."""

    def __init__(self, folder: str, prefix: str, what: str) -> None:
        self.folder = folder
        self.prefix = prefix
        self.what = what

    def new_id(self, now: float) -> str:
        """Sortable by arrival (milliseconds first), unique by a random suffix."""
        return f"{self.prefix}-{int(now * 1000):013d}-{os.urandom(3).hex()}"

    def path(self, root: str, request_id: str) -> str:
        """``<folder>/<id>.json``; ValueError for an id that could leave the folder."""
        if (
            not request_id
            or "/" in request_id
            or "\\" in request_id
            or "\0" in request_id
            or request_id.startswith(".")
        ):
            raise ValueError(f"invalid {self.what} id {request_id!r}")
        return os.path.join(layout.at(root, self.folder), request_id + ".json")

    def save(self, root: str, request: Request) -> None:
        """Atomic; callers hold the state lock."""
        path = self.path(root, request.id)
        machine_dir(root, self.folder)
        atomic_write(path, json.dumps(request.to_dict(), ensure_ascii=False, indent=1).encode())

    def load(self, root: str, request_id: str, from_dict: Reader[R]) -> R | None:
        """The request ``request_id``; None when the id is invalid or the file is missing or
        unreadable."""
        try:
            data = json.loads(read_regular(self.path(root, request_id)))
            return from_dict(data) if isinstance(data, dict) else None
        except (OSError, ValueError, TypeError, AttributeError):
            return None

    def ids(self, root: str) -> list[str]:
        """The ids of the files in the folder (none when it does not exist)."""
        try:
            names = sorted(os.listdir(layout.at(root, self.folder)))
        except OSError:
            return []
        return [n[: -len(".json")] for n in names if n.endswith(".json") and not n.startswith(".")]

    def all(self, root: str, from_dict: Reader[R]) -> Iterator[R]:
        """Every readable request, in arrival order."""
        loaded = (self.load(root, i, from_dict) for i in self.ids(root))
        found = [request for request in loaded if request is not None]
        found.sort(key=lambda request: (request.requested_at, request.id))
        yield from found

    def pending(self, root: str, from_dict: Reader[R]) -> list[R]:
        return [request for request in self.all(root, from_dict) if request.pending]
