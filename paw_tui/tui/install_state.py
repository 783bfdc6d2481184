"""Which agent clients are set up in the workspace, for the trace's empty-state hint: before
any, it says how to install one; after, that it waits for the client's first tool call.

A client counts as set up when ``install`` would change nothing: its plan writes files and
every one of them already holds what ``install`` would write. Read-only (a plan only reads).
"""

from __future__ import annotations


def installed_clients(root: str) -> list[str]:
    """The names of the clients set up in ``root``, in the registry's order."""
    from paw_tui.core.clients.registry import CLIENTS

    found = []
    for info in CLIENTS.values():
        try:
            plan = info.plan(root)
        except Exception:  # a file of the person's own where ours would go: not set up
            continue
        if plan.files and not any(planned.changed for planned in plan.files):
            found.append(info.name)
    return found
