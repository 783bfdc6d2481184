"""The chain check the trace pane shows: ``trace verify``, run in the TUI's own process.

A second process kept the check off the interpreter lock, but a second interpreter costs
~20 MB (Python itself, OpenSSL for hashlib, the CLI's imports): with a 1,000,000-record
ledger that put the TUI's process tree over its 64 MB budget (DESIGN §10), while the scan
itself needs a block of the file at a time. In process, the scan reads small blocks and
sleeps between them by the background index's rule (:data:`SCAN_SHARE`), and stands aside
while the pane asks (a new record on its way to the screen, the older lines still being
indexed), so the live tail keeps its pace. Free of textual, so it can be tested on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from paw_tui.core.ledger.line_index import LIVE_PAUSE, SCAN_SHARE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.ledger.verify import VerifyResult


class Stopped(Exception):
    """The check was called off: the TUI quit, or a newer check replaced this one."""


class Pacer:
    """The ``pace`` of :func:`~paw_tui.core.ledger.verify.verify`: called between two
    blocks, it sleeps (SCAN_SHARE - 1) times as long as the last block took, a moment more
    while ``wait()`` holds, and raises :class:`Stopped` once ``stopped()`` holds."""

    __slots__ = ("stopped", "wait", "began", "blocks")

    def __init__(self, stopped: Callable[[], bool], wait: Callable[[], bool]) -> None:
        self.stopped = stopped
        self.wait = wait
        self.began: float | None = None
        self.blocks = 0

    def __call__(self) -> None:
        if self.began is not None:
            time.sleep((time.perf_counter() - self.began) * (SCAN_SHARE - 1))
        if self.stopped():
            raise Stopped
        if self.wait():
            time.sleep(LIVE_PAUSE)
        self.blocks += 1
        self.began = time.perf_counter()


def check_chain(
    root: str, stopped: Callable[[], bool], wait: Callable[[], bool]
) -> tuple[str, bool] | None:
    """The workspace ledger's chain status for the trace pane, as ``(text, ok)``; None when
    ``stopped()`` called the check off."""
    from paw_tui.core.errors import PawError
    from paw_tui.core.ledger.store import Ledger
    from paw_tui.core.ledger.verify import verify

    try:
        result = verify(Ledger.for_workspace(root), pace=Pacer(stopped, wait))
    except Stopped:
        return None
    except (PawError, OSError, ValueError) as exc:  # as `trace verify` would have failed
        return f"not verified ({type(exc).__name__})", False
    return status_text(result), result.ok


def status_text(result: VerifyResult) -> str:
    """The few words the status line has room for."""
    if result.first_bad_line is not None:
        return f"broken at line {result.first_bad_line}"
    if not result.ok:
        return f"head {result.head_status}"
    return "verified"
