"""Where a file tool's input holds the text the tool leaves in the file: what a ``mutation``
record's ``ranges`` are computed from (DESIGN §7), for every client.

A client adapter names the fields, per file tool, in a module-level ``NEW_TEXT`` mapping
(tool name -> :class:`NewText`); :mod:`paw_tui.gate.mutations` does the rest, the same way
for every client:

- ``content``: fields holding the file's whole new content (Claude Code's ``Write``, Gemini
  CLI's ``write_file``): the lines 1..(lines of it). The first one present wins, and over
  the others.
- ``fragment``: fields holding text an edit puts into the file (``Edit``'s ``new_string``):
  the lines where it now stands, found in the file after the write; text that makes the whole
  file (an editor's create) is found at its start, so it is the whole file too.
- ``every``: the field that, when true, says the edit replaced every occurrence: each one
  found is a range.
- ``edits``: the field holding a list of edits (``MultiEdit``'s ``edits``), each an object
  read with ``fragment`` and ``every``; ``edit_paths``: the fields of an edit naming its own
  file (VS Code's multi-file replacements), so only the recorded file's edits count.
- ``patches``: the fields holding an ``apply_patch`` body: each file it adds or updates gets
  the lines the patch left in it (:mod:`paw_tui.gate.patch_ranges`). No adapter names these:
  a tool the catalogue classifies as a patch for the client has its patch fields there
  (``catalogue.json``), and :mod:`~paw_tui.gate.mutations` reads them from it.

A tool no adapter names gets no ranges (the record omits them: unknown, never invented).
Standard library only, nothing imported: the adapters load this on the gate's hot path.
"""

from __future__ import annotations


class NewText:
    """The fields of one file tool's input that hold its new text (see the module doc)."""

    __slots__ = ("content", "fragment", "every", "edits", "edit_paths", "patches")

    def __init__(
        self,
        *,
        content: tuple[str, ...] = (),
        fragment: tuple[str, ...] = (),
        every: str | None = None,
        edits: str | None = None,
        edit_paths: tuple[str, ...] = (),
        patches: tuple[str, ...] = (),
    ) -> None:
        self.content = content
        self.fragment = fragment
        self.every = every
        self.edits = edits
        self.edit_paths = edit_paths
        self.patches = patches

    def __repr__(self) -> str:
        named = [
            f"{slot}={getattr(self, slot)!r}" for slot in self.__slots__ if getattr(self, slot)
        ]
        return f"NewText({', '.join(named)})"


def whole(*fields: str) -> NewText:
    """A tool that writes the whole file from the first of ``fields`` present."""
    return NewText(content=fields)


def edit(*fields: str, every: str | None = None) -> NewText:
    """A tool that puts the text of the first of ``fields`` present into the file."""
    return NewText(fragment=fields, every=every)
