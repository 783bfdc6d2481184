"""Whether the resident server still runs the installation's code.

The server notes the modification time and size of every file its code came from when it
starts, and looks again every second; at the first difference (an upgrade, an edit) it
leaves, and the next hook call starts a server with the new code. A call in that second is
answered by the old code, as a call already running in its own process would be.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping

Stamps = Mapping[str, tuple[int, int]]


def code_stamps(dependencies: Iterable[str] = ()) -> dict[str, tuple[int, int]]:
    """Modification time and size of every file the running code came from: paw-tui's
    modules and data files, and the modules of the ``dependencies`` (top-level package
    names, the launcher's list) it loaded."""
    from paw_tui.core.support import code_cache

    wanted = {"paw_tui", *dependencies}
    paths = [os.path.join(code_cache.PACKAGE_DIR, data) for data in code_cache.DATA_FILES]
    for name, module in list(sys.modules.items()):
        top = name.partition(".")[0]
        if top in wanted:
            path = getattr(module, "__file__", None)
            if isinstance(path, str):
                paths.append(path)
    stamps = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        stamps[path] = (info.st_mtime_ns, info.st_size)
    return stamps


def changed(stamps: Stamps) -> str | None:
    """The first file that changed or went since ``stamps`` were taken; None."""
    for path, (mtime, size) in stamps.items():
        try:
            info = os.stat(path)
        except OSError:
            return path
        if (info.st_mtime_ns, info.st_size) != (mtime, size):
            return path
    return None
