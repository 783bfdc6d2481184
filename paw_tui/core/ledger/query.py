"""The trace filter language, one rule for the TUI and ``paw-tui trace``:
``intent:INT-1 session:4b2d decision:deny event:mutation tool:Write path:auth/ token``.

Intent ids, events and tools match case-insensitively and whole; a session matches by any
prefix of its id (case-insensitive); a path by any part of any of the record's paths; a
decision and an event are the ledger's own (an unknown one is named with the valid ones).
A bare word is free text, found (in any case) in the record's paths, tool, reason or intent
id. A term that cannot be understood is named with what would be, and left out of the
filter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from paw_tui.core.ledger.records import DECISIONS, EVENTS
from paw_tui.core.support.suggest import did_you_mean_sentence

PATHS = "paths"
TEXT = "text"
"""The pseudo-field of a bare word: free text."""
FIELDS = {
    "intent": "intent_id",
    "session": "session_id",
    "decision": "decision",
    "event": "event",
    "tool": "tool",
    "path": PATHS,
}
PREFIX_FIELDS = frozenset({"session_id"})
TEXT_FIELDS = ("tool", "reason", "intent_id")
"""Where free text is looked for, besides the paths."""
KNOWN_VALUES = {"decision": DECISIONS, "event": EVENTS}


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
            target = wanted.casefold()
            if field == PATHS:
                if not any(target in path for path in _paths(record)):
                    return False
                continue
            if field == TEXT:
                texts = _paths(record) + [_folded(record.get(name)) for name in TEXT_FIELDS]
                if not any(target in text for text in texts):
                    return False
                continue
            value = record.get(field)
            if not isinstance(value, str):
                return False
            folded = value.casefold()
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
            if field in (PATHS, TEXT):  # anywhere in the line: only what has no case
                fragment = max(_letter_free_runs(wanted), key=len, default="")
                if len(fragment) >= 2:
                    found.append(fragment.encode())
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


def _folded(value: object) -> str:
    return value.casefold() if isinstance(value, str) else ""


def _paths(record: dict[str, object]) -> list[str]:
    paths = record.get("paths")
    if not isinstance(paths, list):
        return []
    return [path.casefold() for path in paths if isinstance(path, str)]


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
    """The filter typed in ``text``; a bare word is free text (every one must be found)."""
    terms: dict[str, str] = {}
    words: list[tuple[str, str]] = []
    problems: list[str] = []
    for token in text.split():
        key, sep, value = token.partition(":")
        if not sep or (not key and value):  # a word, or ":word"
            words.append((TEXT, token.lstrip(":") if sep else token))
            continue
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
        known = KNOWN_VALUES.get(field)
        if known is not None and value.casefold() not in known:
            hint = did_you_mean_sentence(value.casefold(), known)
            problems.append(f"{key} '{value}' is unknown.{hint} Valid: {', '.join(known)}")
            continue
        terms[field] = value
    return TraceFilter(tuple(terms.items()) + tuple(words), tuple(problems))


def _example(key: str) -> str:
    return {
        "intent": "INT-001",
        "session": "4b2d",
        "decision": "deny",
        "event": "mutation",
        "path": "src/auth/",
    }.get(key.casefold(), "Write")
