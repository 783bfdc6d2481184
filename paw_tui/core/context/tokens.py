"""The one token estimate every view and limit uses: ceil(characters / 4).

Context Protocol v1 counts tokens this way (seed 004), and it is close enough for showing
which instruction layer costs what; no tokenizer is needed or loaded.
"""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """ceil(len(text) / 4)."""
    return (len(text) + 3) // 4
