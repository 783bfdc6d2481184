"""The lines a Codex patch leaves in each file it writes (the ``ranges`` of its ``mutation``
records, DESIGN §7).

An Add File's content is the whole file: lines 1 to n. An Update File's ``+`` lines are found
in the file as written: Codex replaces each chunk's old lines with the chunk's new lines (its
context and ``+`` lines, verbatim from the patch), so each chunk's new lines stand as one run
in the result, after the previous chunk's, and after its ``@@ context`` line when it has one.
A chunk whose run cannot be found (the file changed again since) contributes nothing: ranges
are left out rather than guessed, and so are those of a file whose search would cost more than
:data:`BUDGET` line comparisons (a hostile patch must not tie up a hook).
"""

from __future__ import annotations

from paw_tui.gate.patch import ADDED, UPDATED, Chunk, Hunk, PatchError, parse_patch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

Range = dict[str, int]
BUDGET = 2_000_000
"""Line comparisons spent finding one file's chunks, at most."""


class _OverBudget(Exception):
    pass


def patch_ranges(
    body: str, names_file: Callable[[str], bool], text: str | None
) -> list[Range] | None:
    """The line ranges the patch ``body`` leaves in the file whose content after the write is
    ``text`` (``names_file`` says whether a path the patch names, the Move target for a renamed
    file, is that file); None when unknown (no such file in the patch, an unreadable patch, a
    file that is not text)."""
    try:
        hunks = [h for h in parse_patch(body) if h.written is not None and names_file(h.written)]
    except PatchError:
        return None
    lines: set[int] = set()
    for hunk in hunks:
        if hunk.kind == ADDED:
            lines.update(range(1, len(hunk.lines) + 1))
        elif hunk.kind == UPDATED and text is not None:
            try:
                lines.update(_updated_lines(hunk, _split(text), [BUDGET]))
            except _OverBudget:
                return None
    return _spans(lines) or None


def _split(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _find(lines: list[str], run: list[str], start: int, budget: list[int]) -> int | None:
    """The first index at or after ``start`` where ``run`` stands in ``lines``; ``budget``
    (one count, spent here) bounds the comparisons."""
    width = len(run)
    first = run[0]
    for index in range(start, len(lines) - width + 1):
        budget[0] -= 1
        if lines[index] == first:
            budget[0] -= width
            if lines[index : index + width] == run:
                return index
        if budget[0] < 0:
            raise _OverBudget
    return None


def _locate(chunk: Chunk, lines: list[str], cursor: int, budget: list[int]) -> int | None:
    start = cursor
    if chunk.context is not None:
        wanted = chunk.context.strip()
        for index in range(cursor, len(lines)):
            budget[0] -= 1
            if lines[index].strip() == wanted:
                start = index + 1
                break
            if budget[0] < 0:
                raise _OverBudget
    if chunk.end_of_file:
        tail = len(lines) - len(chunk.new)
        if tail >= start and lines[tail:] == chunk.new:
            return tail
    found = _find(lines, chunk.new, start, budget)
    return found if found is not None else _find(lines, chunk.new, 0, budget)


def _updated_lines(hunk: Hunk, lines: list[str], budget: list[int]) -> list[int]:
    """1-based numbers of the lines the hunk's ``+`` lines occupy in ``lines``."""
    numbers: list[int] = []
    cursor = 0
    for chunk in hunk.chunks:
        if not chunk.new:
            continue
        index = _locate(chunk, lines, cursor, budget)
        if index is None:
            continue
        numbers.extend(index + offset + 1 for offset in chunk.added)
        cursor = index + len(chunk.new)
    return numbers


def _spans(lines: set[int]) -> list[Range]:
    spans: list[Range] = []
    for number in sorted(lines):
        if spans and number == spans[-1]["end_line"] + 1:
            spans[-1]["end_line"] = number
        else:
            spans.append({"start_line": number, "end_line": number})
    return spans
