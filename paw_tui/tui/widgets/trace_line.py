"""One ledger record as one line of the trace pane, laid out for the width it gets.

The order says what matters first: time, decision (a coloured mark, or the word when there is
room), event, the paths (middle-elided so the file name stays), then intent, session and tool
as the width allows. Column widths come from the records on screen, not from fixed padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paw_tui.tui.display import elide_middle

MARKS = {"allow": "✓", "deny": "✗", "pending": "?", "breach": "!"}
TIME_WIDTH = 8  # HH:MM:SS
WORD_WIDTH = max(len(word) for word in MARKS)  # "pending"
SESSION_WIDTH = 8  # enough to tell sessions apart; the filter takes any prefix
EVENT_MAX = 20
INTENT_MAX = 12
TOOL_MAX = 16
PATHS_MIN = 40  # the paths come first: intent, session and tool only beside this much
WORDS_FROM = 100  # from this width on, the decision is spelled out
GAP = 1


def subject(record: dict[str, object]) -> str:
    """What the record is about: what a scope breach undid, else its paths (the first, then
    ``+N``), else a status change, else the tool."""
    paths = record.get("paths")
    undone = record.get("restored")  # a scope breach: the protected files put back
    if isinstance(undone, list) and undone:
        return f"undone: {', '.join(str(p) for p in undone)}"
    if isinstance(paths, list) and paths:
        more = f" +{len(paths) - 1}" if len(paths) > 1 else ""
        return f"{paths[0]}{more}"
    if record.get("status_from") or record.get("status_to"):
        return f"{record.get('status_from') or '?'} → {record.get('status_to') or '?'}"
    return _text(record, "tool")  # a shell call, a tool without paths: at least its name


def _text(record: dict[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Columns:
    """The widths of one screenful of lines (0: the column is left out)."""

    width: int
    words: bool
    event: int
    subject: int
    intent: int
    session: int
    tool: int


def plan_columns(records: Sequence[dict[str, object] | None], width: int) -> Columns:
    """Widths for ``records`` (those on screen) in ``width`` cells."""
    shown = [r for r in records if r is not None]
    words = width >= WORDS_FROM
    event = min(EVENT_MAX, max((len(_text(r, "event")) for r in shown), default=5))
    fixed = TIME_WIDTH + GAP + (WORD_WIDTH if words else 1) + GAP + event + GAP
    rest = max(0, width - fixed)
    wanted = max((len(subject(r)) for r in shown), default=0)
    optional: list[int] = []
    for key, cap in (("intent_id", INTENT_MAX), ("session_id", SESSION_WIDTH), ("tool", TOOL_MAX)):
        need = min(cap, max((len(_text(r, key)) for r in shown), default=0))
        used = sum(optional) + GAP * len(optional)
        if need and rest - used - need - GAP >= min(wanted, PATHS_MIN):
            optional.append(need)
        else:
            break
    optional += [0] * (3 - len(optional))
    used = sum(optional) + GAP * sum(1 for w in optional if w)
    paths = rest - used
    if any(optional):
        paths = min(paths, wanted)  # the optional columns follow the longest subject
    return Columns(width, words, event, max(0, paths), *optional)


@dataclass(frozen=True)
class Cell:
    """A piece of a line and what colours it: ``time``, ``mark``, ``event``, ``subject`` or
    ``meta`` (intent, session, tool)."""

    text: str
    part: str


def line_cells(record: dict[str, object] | None, columns: Columns) -> list[Cell]:
    """The cells of one line, padded to their columns (the last is not padded)."""
    if record is None:
        return [Cell("(not a JSON record)", "meta")]
    ts = _text(record, "ts")
    when = ts[11:19] if len(ts) >= 19 else ts
    decision = _text(record, "decision")
    mark = decision if columns.words else MARKS.get(decision, " ")
    cells = [
        Cell(f"{when:<{TIME_WIDTH}}", "time"),
        Cell(" ", "gap"),
        Cell(f"{mark:<{WORD_WIDTH if columns.words else 1}}", "mark"),
        Cell(" ", "gap"),
        Cell(f"{elide_middle(_text(record, 'event'), columns.event):<{columns.event}}", "event"),
    ]
    if columns.subject:
        cells += [Cell(" ", "gap"), Cell(_fit(subject(record), columns.subject), "subject")]
    for key, width in (
        ("intent_id", columns.intent),
        ("session_id", columns.session),
        ("tool", columns.tool),
    ):
        if width:
            value = _text(record, key)
            value = value[:width] if key == "session_id" else elide_middle(value, width)
            cells += [Cell(" ", "gap"), Cell(f"{value or '-':<{width}}", "meta")]
    return cells


def _fit(text: str, width: int) -> str:
    return f"{elide_middle(text, width):<{width}}"


def plain(record: dict[str, object] | None, width: int) -> str:
    """The line as text, for a record alone in ``width`` cells."""
    columns = plan_columns([record], width)
    return "".join(cell.text for cell in line_cells(record, columns)).rstrip()
