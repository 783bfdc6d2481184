"""The highlighted ledger record's fields, beside the trace on a wide screen: one name and
value a row, paths one a line, the reason whole, hashes shortened (``enter`` still opens the
record's JSON in full). Every value is shown with its control characters escaped."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from paw_tui.core.ledger.records import FIELD_ORDER
from paw_tui.core.support.printable import printable

HASH_SHOWN = 16  # characters of a digest: enough to compare two by eye
HIDDEN = frozenset({"v"})
LAST = ("prev", "mac")
NOTHING = "No record under the cursor."


def _short_digest(value: str) -> str:
    kind, sep, digest = value.rpartition(":")
    if len(digest) <= HASH_SHOWN:
        return value
    return f"{kind}{sep}{digest[:HASH_SHOWN]}…"


def _ranges(value: object) -> str:
    if not isinstance(value, list):
        return printable(str(value))
    parts = []
    for item in value:
        if isinstance(item, dict):
            start, end = item.get("start_line"), item.get("end_line")
            parts.append(f"{start}" if start == end else f"{start}–{end}")
    return ", ".join(parts)


def _value(name: str, value: object) -> str:
    if name == "ts" and isinstance(value, str) and len(value) >= 19:
        return f"{value[:10]} {value[11:]}".replace("Z", " UTC")
    if name == "ranges":
        return _ranges(value)
    if isinstance(value, list):
        return "\n".join(printable(str(item)) for item in value) or "-"
    text = printable(str(value))
    if name in ("content_hash", "prev", "mac") or text.startswith("sha256:"):
        return _short_digest(text)
    return text


def field_rows(record: dict[str, object]) -> list[tuple[str, str]]:
    """(name, value as shown) for every field of the record, in the ledger's order."""
    names = [n for n in FIELD_ORDER if n in record and n not in HIDDEN]
    names += sorted(n for n in record if n not in FIELD_ORDER and n not in LAST and n not in HIDDEN)
    names += [n for n in LAST if n in record]
    return [(printable(str(name)), _value(name, record[name])) for name in names]


class RecordFields(VerticalScroll, can_focus=False):
    """The fields of one record (``show``), or a line saying there is none."""

    DEFAULT_CSS = """
    RecordFields { height: 1fr; background: $boost; padding: 0 1; }
    """

    rows: list[tuple[str, str]] = []
    """What is shown, as (name, value) rows."""

    def compose(self) -> ComposeResult:
        yield Static(NOTHING, id="record-fields-body", markup=False)

    @property
    def text(self) -> str:
        """The fields as plain text, a ``name: value`` line each."""
        return "\n".join(f"{name}: {value}" for name, value in self.rows) or NOTHING

    def show(self, record: dict[str, object] | None) -> None:
        body = self.query_one("#record-fields-body", Static)
        self.rows = field_rows(record) if record is not None else []
        if record is None:
            body.update(NOTHING)
            return
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(ratio=1, overflow="fold")
        for name, value in self.rows:
            table.add_row(name, Text(value))
        body.update(table)
