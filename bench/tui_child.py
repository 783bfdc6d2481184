"""The TUI as the benches measure it: run by ``tui_big_ledger.py`` and ``tui_latency.py`` in a
child process with an installed paw-tui (``python bench/tui_child.py ROOT NEWEST [APPENDS]``).

It opens the app headless, notes when the newest record is first painted (the trace view's
``render_line`` is wrapped: a record counts once a line showing it was rendered), then, with
APPENDS > 0, starts another process that appends that many records through the ledger, as
the gate does, and notes when each is painted. It prints one JSON object: the first paint
(seconds since this process started), each append's latency (seconds from just before the
append call to the first paint of its line), whether the background index scan and the
chain verification were still running at each append, and this process's peak RSS.

``python bench/tui_child.py --hello`` is the baseline: the smallest Textual app (one line
of text), timed to its first paint the same way, so a run on a loaded machine still says how
the TUI compares with what any Textual app costs there. Every first paint is given as wall
time and as CPU time (this process, all its threads), which the machine's load disturbs
less.
"""

from __future__ import annotations

import time

STARTED = time.time()

import asyncio
import json
import resource
import subprocess
import sys
from typing import Any

from paw_tui.tui.app import PawApp
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

APPENDER = r"""
import json, random, sys, time
from paw_tui.core.ledger.store import Ledger
root, count, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
ledger = Ledger.for_workspace(root)
random.seed(7)
for n in range(count):
    time.sleep(gap * (0.5 + random.random()))
    before = time.time()
    record = ledger.append({"event": "tool_allowed", "session_id": f"bench-{n}", "decision": "allow", "tool": "Write"})
    print(json.dumps({"seq": record["seq"], "at": before}), flush=True)
"""

APPENDER_MARK = "bench-appender"
"""The appender's last argument: the parent's memory sampling leaves it out of the app's tree."""

painted: dict[int, float] = {}
painted_cpu: dict[int, float] = {}
watch_from = 0
_render_line = TraceView.render_line


def _noting_render_line(self: TraceView, y: int) -> Any:
    row = self.top_row() + y  # the row this line shows, as the view decides it (before it paints)
    strip = _render_line(self, y)
    if row < self.row_count:
        record = self.index.record(self.line_of(row))
        seq = record.get("seq") if record else None
        if isinstance(seq, int) and seq >= watch_from and seq not in painted:
            painted[seq] = time.time()
            painted_cpu[seq] = time.process_time()
    return strip


TraceView.render_line = _noting_render_line  # type: ignore[method-assign]


async def main(root: str, newest: int, appends: int, gap: float) -> dict[str, object]:
    global watch_from
    watch_from = newest
    app = PawApp(root, watch_approvals=False)
    result: dict[str, object] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(TracePane)
        while newest not in painted:
            await pilot.pause(0.002)
        result["first_paint"] = painted[newest] - STARTED
        result["first_paint_cpu"] = painted_cpu[newest]
        # the watcher starts once the newest records are painted: appends are timed from then
        while app.main.watcher.mode == "starting" and time.time() - STARTED < 60:
            await pilot.pause(0.01)
        result["mode"] = app.main.watcher.mode
        if appends:
            appender = subprocess.Popen(
                [sys.executable, "-c", APPENDER, root, str(appends), str(gap), APPENDER_MARK],
                stdout=subprocess.PIPE,
                text=True,
            )
            busy: list[dict[str, bool]] = []
            exited_at = 0.0
            while True:
                await pilot.pause(0.01)
                # what ran in the background while the appends were made
                busy.append(
                    {
                        "indexing": not pane.index.fully_indexed,
                        "verifying": pane.chain.startswith("verifying"),
                    }
                )
                if appender.poll() is None:
                    continue
                exited_at = exited_at or time.time()
                shown = sum(1 for seq in painted if seq > newest)
                if shown >= appends or time.time() - exited_at > 5:
                    break
            out, _ = appender.communicate()
            made = [json.loads(line) for line in out.splitlines() if line.strip()]
            result["latencies"] = [
                (painted[item["seq"]] - item["at"]) if item["seq"] in painted else None
                for item in made
            ]
            result["background_share"] = {
                "indexing": sum(b["indexing"] for b in busy) / max(1, len(busy)),
                "verifying": sum(b["verifying"] for b in busy) / max(1, len(busy)),
            }
        while not pane.index.fully_indexed and time.time() - STARTED < 120:
            await pilot.pause(0.05)
        result["indexed_after"] = time.time() - STARTED if pane.index.fully_indexed else None
        result["fully_indexed"] = pane.index.fully_indexed
        result["records_indexed"] = len(pane.index)
    result["self_peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


async def hello() -> dict[str, object]:
    """The baseline: a Textual app of one line, to its first paint."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    seen: list[tuple[float, float]] = []

    class Line(Static):
        def render(self):  # type: ignore[no-untyped-def]
            if not seen:
                seen.append((time.time(), time.process_time()))
            return super().render()

    class Hello(App[None]):
        def compose(self) -> ComposeResult:
            yield Line("hello")

    app = Hello()
    async with app.run_test(size=(120, 40)) as pilot:
        while not seen:
            await pilot.pause(0.002)
    return {
        "first_paint": seen[0][0] - STARTED,
        "first_paint_cpu": seen[0][1],
        "self_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


if __name__ == "__main__":
    if sys.argv[1] == "--hello":
        print(json.dumps(asyncio.run(hello())))
        sys.exit(0)
    sys.setswitchinterval(0.001)  # as run_app does
    root_arg, newest_arg = sys.argv[1], int(sys.argv[2])
    appends_arg = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    gap_arg = float(sys.argv[4]) if len(sys.argv) > 4 else 0.08
    print(json.dumps(asyncio.run(main(root_arg, newest_arg, appends_arg, gap_arg))))
