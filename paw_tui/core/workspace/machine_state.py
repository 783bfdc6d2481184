"""Machine-owned state inside ``.orchestration/`` stays out of git (DESIGN §2).

Sessions, approval and scope requests, caches and locks belong to one machine and are
rebuilt or re-signed there; a team commits the human-owned files, the ledger and
``intent_map.md``. Whichever paw-tui command first creates one of these directories (``init``,
``install``, the gate, a person's act) makes ``.orchestration/.gitignore`` list them, through
:func:`machine_dir`: one ``stat`` when the directory exists, the ignore file only when it was
just made. Standard library only: the gate creates sessions.
"""

from __future__ import annotations

import os

from paw_tui.core.workspace import layout

HEADER = "# Machine-owned state that paw-tui rebuilds or that belongs to one machine.\n"


def _below(relative: str) -> str:
    return relative.removeprefix(layout.ORCHESTRATION + "/")


MACHINE_ENTRIES = (
    _below(layout.CACHE) + "/",
    _below(layout.SESSIONS) + "/",
    _below(layout.APPROVALS) + "/",
    _below(layout.SCOPE_REQUESTS) + "/",
    "*.torn-*",
    ".*.tmp",
)
"""What ``.orchestration/.gitignore`` lists: caches and locks, sessions, requests, the torn
tail a repaired ledger moved aside, and a crashed writer's temporary file."""


def ensure_machine_state_ignored(root: str) -> bool:
    """``.orchestration/.gitignore`` lists :data:`MACHINE_ENTRIES` (created when missing,
    extended when it lacks one, the person's lines kept); True when it was written. Raises
    OSError when it cannot be."""
    from paw_tui.core.workspace.gitignore import ensure_ignored

    return ensure_ignored(layout.at(root, layout.ORCHESTRATION), MACHINE_ENTRIES, header=HEADER)


def machine_dir(root: str, relative: str) -> str:
    """The machine-owned directory ``relative`` (a :mod:`layout` name under
    ``.orchestration/``) of ``root``, made when missing, and then git-ignored. Failing to
    write the ignore file never fails the caller: the state is written all the same."""
    path = layout.at(root, relative)
    if not os.path.isdir(path):
        os.makedirs(path, exist_ok=True)
        from paw_tui.core.errors import PawError

        try:
            ensure_machine_state_ignored(root)
        except (OSError, PawError):  # a lock that timed out, an unwritable file
            pass
    return path
