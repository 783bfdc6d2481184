"""Counts in words for what people read (near misses live in ``suggest``)."""

from __future__ import annotations


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 record``, ``2 records``, ``0 records``."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
