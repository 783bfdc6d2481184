"""Where one ledger's files are: the JSONL file, its lock and its machine-owned cache.

A plain value (no I/O), shared by the writer and by the modules that read the ledger or
keep indexes beside it, so none of them needs the writer to know its paths.
"""

from __future__ import annotations

import os

from paw_tui.core.workspace import layout


class LedgerFiles:
    """The paths of the ledger at ``path`` for the workspace at ``workspace_root``."""

    __slots__ = ("path", "workspace_root", "cache_dir", "lock_path", "lock_timeout")

    def __init__(self, path: str, *, workspace_root: str, lock_timeout: float = 5.0) -> None:
        self.path = os.path.abspath(path)
        self.workspace_root = os.path.abspath(workspace_root)
        self.cache_dir = os.path.join(os.path.dirname(self.path), ".cache")
        self.lock_path = os.path.join(self.cache_dir, os.path.basename(self.path) + ".lock")
        self.lock_timeout = lock_timeout

    @classmethod
    def of_workspace(cls, workspace_root: str) -> LedgerFiles:
        return cls(layout.at(workspace_root, layout.LEDGER), workspace_root=workspace_root)
