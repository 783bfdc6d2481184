"""One ledger record as one line of the trace pane, laid out for the width it gets.

The order says what matters first: time (with the day, for a record not from today),
decision (a coloured mark, or the word when there is room), event, the paths (middle-elided
so the file name stays), then intent, session and tool as the width allows, and the reason
in whatever is left. Column widths come from the records on screen, not from fixed padding:
a wide screen shows events and tools whole, and gives what remains to the reason.

Every value is agent-written or may be: it is shown with its control characters escaped, so
one record is one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paw_tui.core.support.printable import printable
from paw_tui.tui.display import ELLIPSIS, elide_middle

MARKS = {"allow": "✓", "deny": "✗", "pending": "?", "breach": "!"}
TIME_WIDTH = 8  # HH:MM:SS
DAY_WIDTH = 6  # "MM-DD " before the time of a record not from today
WORD_WIDTH = max(len(word) for word in MARKS)  # "pending"
SESSION_WIDTH = 8  # enough to tell sessions apart; the filter takes any prefix
EVENT_MAX = 20  # on a narrow line; a wide one shows the event whole
INTENT_MAX = 12
TOOL_MAX = 16
PATHS_MIN = 40  # the paths come first: intent, session and tool only beside this much
PATHS_MIN_WHOLE = 24  # ... or beside this much, on a wide line, to show a tool whole
WORDS_FROM = 100  # from this width on, the decision is spelled out, events and tools whole
REASON_MIN = 12  # the reason only where it has this much room
GAP = 1


def subject(record: dict[str, object], *, or_tool: bool = True) -> str:
    """What the record is about: what a scope breach undid, else its paths (the first, then
    ``+N``), else a status change, else (``or_tool``: when no column shows it) the tool."""
    paths = record.get("paths")
    undone = record.get("restored")  # a scope breach: the protected files put back
    if isinstance(undone, list) and undone:
        return printable(f"undone: {', '.join(str(p) for p in undone)}")
    if isinstance(paths, list) and paths:
        more = f" +{len(paths) - 1}" if len(paths) > 1 else ""
        return printable(f"{paths[0]}{more}")
    if record.get("status_from") or record.get("status_to"):
        return printable(f"{record.get('status_from') or '?'} → {record.get('status_to') or '?'}")
    # a shell call, a tool without paths: at least its name
    return _text(record, "tool") if or_tool else ""


def _text(record: dict[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else printable(str(value))


def day_of(record: dict[str, object]) -> str:
    """The record's day, ``YYYY-MM-DD`` (UTC, as its ``ts`` is written)."""
    return _text(record, "ts")[:10]


@dataclass(frozen=True)
class Columns:
    """The widths of one screenful of lines (0: the column is left out). ``today``: the
    day whose records show only their time (None: every record shows only its time)."""

    width: int
    words: bool
    event: int
    subject: int
    intent: int
    session: int
    tool: int
    reason: int = 0
    days: bool = False
    today: str | None = None


def plan_columns(
    records: Sequence[dict[str, object] | None], width: int, today: str | None = None
) -> Columns:
    """Widths for ``records`` (those on screen) in ``width`` cells."""
    shown = [r for r in records if r is not None]
    words = width >= WORDS_FROM
    days = today is not None and any(day_of(r) != today for r in shown)
    longest_event = max((len(_text(r, "event")) for r in shown), default=5)
    event = longest_event if words else min(EVENT_MAX, longest_event)
    time = TIME_WIDTH + (DAY_WIDTH if days else 0)
    fixed = time + GAP + (WORD_WIDTH if words else 1) + GAP + event + GAP
    rest = max(0, width - fixed)
    wanted = max((len(subject(r)) for r in shown), default=0)
    # once the tool has a column of its own, the subject no longer repeats it
    wanted_beside_tool = max((len(subject(r, or_tool=False)) for r in shown), default=0)
    optional: list[int] = []
    complete = True  # every column with something to show found room
    for key, cap in (("intent_id", INTENT_MAX), ("session_id", SESSION_WIDTH), ("tool", TOOL_MAX)):
        longest = max((len(_text(r, key)) for r in shown), default=0)
        if not longest:
            optional.append(0)
            continue
        used = sum(optional) + GAP * sum(1 for w in optional if w)
        # whole where there is room (on a wide line the paths give a little for that), else
        # cut to the column's cap
        floor = PATHS_MIN_WHOLE if words else PATHS_MIN
        needs = [(longest, floor), (min(cap, longest), PATHS_MIN)]
        if key == "session_id":
            needs = needs[1:]
        fits = next((n for n, least in needs if rest - used - n - GAP >= min(wanted, least)), None)
        if fits is None:
            complete = False
            break
        optional.append(fits)
        if key == "tool":
            wanted = max(1, wanted_beside_tool)
    optional += [0] * (3 - len(optional))
    used = sum(optional) + GAP * sum(1 for w in optional if w)
    paths = rest - used
    reason = 0
    if complete and any(_text(r, "reason") for r in shown):
        paths = min(paths, wanted)  # the reason takes what the longest subject leaves
        left = rest - used - paths - GAP
        if left >= REASON_MIN:
            reason = left
    elif any(optional):
        paths = min(paths, wanted)  # the optional columns follow the longest subject
    intent, session, tool = optional
    return Columns(
        width, words, event, max(0, paths), intent, session, tool, reason, days=days, today=today
    )


@dataclass(frozen=True)
class Cell:
    """A piece of a line and what colours it: ``time``, ``mark``, ``event``, ``subject``,
    ``meta`` (intent, session, tool) or ``reason``."""

    text: str
    part: str


def _when(record: dict[str, object], columns: Columns) -> str:
    ts = _text(record, "ts")
    when = ts[11:19] if len(ts) >= 19 else ts
    if not columns.days:
        return f"{when:<{TIME_WIDTH}}"
    day = ts[5:10] if len(ts) >= 10 and day_of(record) != columns.today else ""
    return f"{day:<{DAY_WIDTH - 1}} {when:<{TIME_WIDTH}}"


def line_cells(record: dict[str, object] | None, columns: Columns) -> list[Cell]:
    """The cells of one line, padded to their columns (the last is not padded)."""
    if record is None:
        return [Cell("(not a JSON record)", "meta")]
    decision = _text(record, "decision")
    mark = decision if columns.words else MARKS.get(decision, " ")
    cells = [
        Cell(_when(record, columns), "time"),
        Cell(" ", "gap"),
        Cell(f"{mark:<{WORD_WIDTH if columns.words else 1}}", "mark"),
        Cell(" ", "gap"),
        Cell(f"{elide_middle(_text(record, 'event'), columns.event):<{columns.event}}", "event"),
    ]
    if columns.subject:
        about = subject(record, or_tool=not columns.tool) or "-"
        cells += [Cell(" ", "gap"), Cell(_fit(about, columns.subject), "subject")]
    for key, width in (
        ("intent_id", columns.intent),
        ("session_id", columns.session),
        ("tool", columns.tool),
    ):
        if width:
            value = _text(record, key)
            if key == "session_id":
                value = value[:width]
            elif key == "tool" and len(value) > width:  # mcp__server__name: the name says most
                value = ELLIPSIS + value[len(value) - width + 1 :]
            else:
                value = elide_middle(value, width)
            cells += [Cell(" ", "gap"), Cell(f"{value or '-':<{width}}", "meta")]
    if columns.reason:
        reason = _text(record, "reason")
        if len(reason) > columns.reason:  # a sentence: its start says the most
            reason = reason[: columns.reason - 1] + ELLIPSIS
        cells += [Cell(" ", "gap"), Cell(reason, "reason")]
    return cells


def _fit(text: str, width: int) -> str:
    return f"{elide_middle(text, width):<{width}}"


def plain(record: dict[str, object] | None, width: int, today: str | None = None) -> str:
    """The line as text, for a record alone in ``width`` cells."""
    columns = plan_columns([record], width, today)
    return "".join(cell.text for cell in line_cells(record, columns)).rstrip()
