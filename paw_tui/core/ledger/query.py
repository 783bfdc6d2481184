"""The trace filter language, one rule for the TUI and ``paw-tui trace``:
``intent:INT-1 session:4b2d decision:deny``.

Intent ids, events and tools match case-insensitively and whole; a session matches by any
prefix of its id (case-insensitive); a decision is one of the ledger's. A term that cannot
be understood is named with what would be, and left out of the filter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from paw_tui.core.ledger.records import DECISIONS
from paw_tui.core.support.suggest import did_you_mean_sentence

FIELDS = {
    "intent": "intent_id",
    "session": "session_id",
    "decision": "decision",
    "event": "event",
    "tool": "tool",
}
PREFIX_FIELDS = frozenset({"session_id"})


@dataclass(frozen=True)
class TraceFilter:
    """What to keep (field -> value as typed) and why some terms were left out."""

    terms: tuple[tuple[str, str], ...] = ()
    problems: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.terms)

    def matches(self, record: dict[str, object] | None) -> bool:
        if record is None:
            return False
        for field, wanted in self.terms:
            value = record.get(field)
            if not isinstance(value, str):
                return False
            folded, target = value.casefold(), wanted.casefold()
            if not (folded.startswith(target) if field in PREFIX_FIELDS else folded == target):
                return False
        return True

    def needles(self) -> list[bytes]:
        """Byte strings every matching line holds (a cheap pre-filter over the raw file;
        :meth:`matches` decides). A case-insensitive value contributes only what has no
        case: the characters before its first letter (after the field name) and its longest
        run without letters."""
        found: list[bytes] = []
        for field, wanted in self.terms:
            if field == "decision":
                found.append(f'"decision":{json.dumps(wanted.lower())}'.encode())
                continue
            # the value's first characters, up to its first letter, follow the field name
            lead = ""
            for char in wanted:
                if not _caseless(char):
                    break
                lead += char
            found.append(f'"{field}":"{lead}'.encode())
            fragment = max(_letter_free_runs(wanted), key=len, default="")
            if len(fragment) >= 2:
                found.append(fragment.encode())
        return found

    @property
    def exact(self) -> bool:
        """Whether :meth:`needles` alone decide (a decision is written in one spelling)."""
        return all(field == "decision" for field, _ in self.terms)


def _caseless(char: str) -> bool:
    return char.isascii() and char.isprintable() and not char.isalpha() and char not in '"\\'


def _letter_free_runs(text: str) -> list[str]:
    """Runs of ASCII characters that have no case and that JSON writes as themselves."""
    runs, current = [], ""
    for char in text:
        if _caseless(char):
            current += char
        else:
            runs.append(current)
            current = ""
    runs.append(current)
    return [run for run in runs if run]


def parse_filter(text: str) -> TraceFilter:
    """The filter typed in ``text``; a bare word is an intent id."""
    terms: dict[str, str] = {}
    problems: list[str] = []
    for token in text.split():
        key, sep, value = token.partition(":")
        if not sep:
            key, value = "intent", token
        field = FIELDS.get(key.casefold())
        if field is None:
            hint = did_you_mean_sentence(key, FIELDS)
            problems.append(
                f"unknown key '{key}:'.{hint} Keys: {', '.join(k + ':' for k in FIELDS)}"
            )
            continue
        if not value:
            problems.append(f"'{key}:' needs a value, e.g. {key}:{_example(key)}")
            continue
        if field == "decision" and value.casefold() not in DECISIONS:
            problems.append(f"decision '{value}' is not one of {', '.join(DECISIONS)}")
            continue
        terms[field] = value
    return TraceFilter(tuple(terms.items()), tuple(problems))


def _example(key: str) -> str:
    return {"intent": "INT-001", "session": "4b2d", "decision": "deny"}.get(key, "Write")
