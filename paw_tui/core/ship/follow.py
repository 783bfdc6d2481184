"""``trace ship --follow``: ship as records are appended, woken by the OS.

The ledger's directory is watched with ``watchfiles`` (the TUI's watcher library: inotify on
Linux, FSEvents on macOS); a slow timer wakes the loop too, so a missed notification (a
network file system) delays a record by seconds at most, never forever.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from paw_tui.core.ship.shipper import Shipper, ShipReport

POLL_SECONDS = 5.0


def follow(
    shipper: Shipper,
    stop: threading.Event,
    on_report: Callable[[ShipReport], None],
) -> None:
    """Ship the backlog, then every change until ``stop`` is set."""
    on_report(shipper.ship_available())
    directory = os.path.dirname(shipper.ledger_path)
    name = os.path.basename(shipper.ledger_path)
    try:
        from watchfiles import watch
    except ImportError:  # pragma: no cover - a runtime dependency; polling still works
        while not stop.wait(POLL_SECONDS):
            _ship_if_any(shipper, on_report)
        return
    for changes in watch(
        directory,
        stop_event=stop,
        rust_timeout=int(POLL_SECONDS * 1000),
        yield_on_timeout=True,
        debounce=50,
        step=20,
    ):
        if stop.is_set():
            return
        if not changes or any(os.path.basename(path) == name for _, path in changes):
            _ship_if_any(shipper, on_report)


def _ship_if_any(shipper: Shipper, on_report: Callable[[ShipReport], None]) -> None:
    report = shipper.ship_available()
    if report.shipped or report.restarted or report.notes:
        on_report(report)
