"""The attack corpus: one test per way an agent could get around paw-tui (the table is the
README's Security section)."""
