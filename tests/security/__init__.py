"""The attack corpus: one test per way an agent could get around paw-tui (see TABLE.md)."""
