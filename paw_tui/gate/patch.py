"""An ``apply_patch`` body read the way Codex 0.169.0 reads it, line for line.

::

    *** Begin Patch
    *** Add File: path          (created: the '+' lines that follow are its content)
    *** Update File: path       (changed, chunk by chunk; ``*** Move to: other`` right after it
                                 renames it)
    *** Delete File: path       (removed)
    *** End Patch

The grammar was established against the real binary (``codex --codex-run-as-apply-patch``
and sessions of ``codex exec``; ``tests/realclients/README.md``, quirks), not from the
documentation, because the two differ where it matters: Codex trims the whitespace around a
hunk header, so `` *** Add File: x`` after an Add File's body is a header, while the same line
inside an Update File's chunk is a context line. A parser that saw only unindented headers let
a patch hide a file from the gate. The rules, as observed:

- The whole text is trimmed, then split on ``\\n`` (one ``\\r`` before it dropped). The first
  line, trimmed, must be ``*** Begin Patch`` and the last ``*** End Patch``; failing that, a
  text whose first line is exactly ``<<EOF``, ``<<'EOF'`` or ``<<"EOF"`` and whose last line
  ends with ``EOF`` (four lines at least) is read without them.
- Where a hunk may start, the line is trimmed: ``*** Add File: ``, ``*** Delete File: ``,
  ``*** Update File: `` followed by the path (everything after the marker's space, so a second
  space is part of the path), or ``*** End Patch``, after which only blank lines may follow.
  Anything else (a blank line included) is an error.
- An Add File's content is the run of lines starting with ``+`` (untrimmed) after it.
- An Update File may be followed by ``*** Move to: path`` (untrimmed at its start, trailing
  whitespace dropped), then by chunks. Between chunks, empty lines are skipped (not lines of
  whitespace: those are read as a chunk's lines); a line that *starts* (untrimmed) with a
  hunk header, or reads ``*** End Patch`` once its trailing whitespace is dropped, ends the
  Update. A chunk starts with ``@@`` or ``@@ context`` (the
  first may omit it); its lines start with `` ``, ``+`` or ``-``, or are empty; ``*** End of
  File`` (trailing whitespace dropped) ends it; any other line ends it too, or is an error as
  its first line.
- "Trimmed" is Rust's ``str::trim``: Unicode White_Space (so a no-break space or U+2028
  indents a header too; ``\\x1c``-``\\x1f``, which Python's ``strip`` also removes, do not).

A body Codex would refuse is refused (the call is denied): a patch the gate cannot read the
way Codex does cannot be checked; so is one over :data:`MAX_PATCH` characters. Paths are kept exactly as written (relative to the working
directory, absolute, with ``..``: Codex accepts all three); the caller resolves and checks them.
"""

from __future__ import annotations

import os

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ADD = "*** Add File: "
DELETE = "*** Delete File: "
UPDATE = "*** Update File: "
MOVE = "*** Move to: "
END_OF_FILE = "*** End of File"
CONTEXT = "@@"
HEADERS = (ADD, DELETE, UPDATE)
HEREDOC_STARTS = ("<<EOF", "<<'EOF'", '<<"EOF"')
RUST_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""Rust's ``char::is_whitespace`` (Unicode White_Space), what Codex's ``trim`` removes."""

ADDED, DELETED, UPDATED = "add", "delete", "update"
MAX_PATCH = 1 << 20
"""Characters of a patch the gate reads, at most: reading is linear, but a hostile patch of
one-line chunks costs a few microseconds a line, and the answer must come well within the
client's hook timeout. A model's patch is far smaller; a larger one is refused (split it)."""


class PatchError(ValueError):
    """The body is not a patch Codex would apply; the message says where it fails."""


class Chunk:
    """One ``@@`` block of an Update File: the lines it leaves (``new``), and which of them
    are the hunk's own ``+`` lines (``added``: indexes into ``new``)."""

    __slots__ = ("context", "new", "added", "end_of_file")

    def __init__(self, context: str | None) -> None:
        self.context = context
        self.new: list[str] = []
        self.added: list[int] = []
        self.end_of_file = False


class Hunk:
    """One file operation: ``kind`` (:data:`ADDED`, :data:`DELETED`, :data:`UPDATED`), the
    path as written, the Move target, the Add File's content lines, the Update's chunks."""

    __slots__ = ("kind", "path", "move_to", "lines", "chunks")

    def __init__(self, kind: str, path: str) -> None:
        self.kind = kind
        self.path = path
        self.move_to: str | None = None
        self.lines: list[str] = []
        self.chunks: list[Chunk] = []

    @property
    def written(self) -> str | None:
        """The path holding this hunk's result (the Move target of a renamed file)."""
        if self.kind == DELETED:
            return None
        return self.move_to or self.path

    def __repr__(self) -> str:
        move = f" -> {self.move_to!r}" if self.move_to else ""
        return f"Hunk({self.kind} {self.path!r}{move})"


def _trim(text: str) -> str:
    return text.strip(RUST_WHITESPACE)


def _trim_end(text: str) -> str:
    return text.rstrip(RUST_WHITESPACE)


def _lines(body: str) -> list[str]:
    """Rust's ``body.trim().lines()``."""
    text = _trim(body)
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _inside(lines: list[str]) -> list[str]:
    """The lines between the Begin and End markers, or PatchError."""
    if lines and _trim(lines[0]) != BEGIN:
        raise PatchError(f"the first line of the patch must be '{BEGIN}'")
    if len(lines) < 2 or _trim(lines[-1]) != END:
        raise PatchError(f"the last line of the patch must be '{END}'")
    return lines[1:-1]


def _body_lines(body: str) -> list[str]:
    lines = _lines(body)
    try:
        return _inside(lines)
    except PatchError:
        if len(lines) >= 4 and lines[0] in HEREDOC_STARTS and lines[-1].endswith("EOF"):
            return _inside(lines[1:-1])  # Codex's "lenient" mode: a heredoc's markers kept
        raise


def parse_patch(body: str) -> list[Hunk]:
    """The hunks of ``body`` in order, or PatchError where Codex would refuse it (or it is
    longer than :data:`MAX_PATCH`)."""
    if len(body) > MAX_PATCH:
        raise PatchError(
            f"the patch holds {len(body):,} characters, more than the {MAX_PATCH:,} the gate "
            "reads; send it as several smaller patches"
        )
    lines = _body_lines(body)
    hunks: list[Hunk] = []
    index, count = 0, len(lines)
    while index < count:
        number = index + 2  # the patch's own line number (Begin is line 1)
        head = _trim(lines[index])
        if head == END:
            if any(_trim(lines[rest]) for rest in range(index + 1, count)):
                raise PatchError(f"the last line of the patch must be '{END}'")
            break
        if head.startswith(ADD):
            hunk = Hunk(ADDED, head[len(ADD) :])
            index += 1
            while index < count and lines[index].startswith("+"):
                hunk.lines.append(lines[index][1:])
                index += 1
        elif head.startswith(DELETE):
            hunk = Hunk(DELETED, head[len(DELETE) :])
            index += 1
        elif head.startswith(UPDATE):
            hunk = Hunk(UPDATED, head[len(UPDATE) :])
            index = _update(lines, index + 1, hunk, number)
        else:
            raise PatchError(
                f"line {number}: '{head}' is not a hunk header "
                f"('{ADD}', '{DELETE}' or '{UPDATE}' and a path)"
            )
        hunks.append(hunk)
    return hunks


def _ends_update(line: str) -> bool:
    return line.startswith(HEADERS) or _trim_end(line) == END


def _update(lines: list[str], index: int, hunk: Hunk, number: int) -> int:
    """Read an Update File's Move target and chunks from ``index``; the index after them."""
    count = len(lines)
    if index < count:
        moved = _trim_end(lines[index])
        if moved.startswith(MOVE):
            hunk.move_to = moved[len(MOVE) :]
            index += 1
    while index < count:
        line = lines[index]
        if not line:  # only an empty line: one of whitespace starts a chunk (or is an error)
            index += 1
            continue
        if _ends_update(line):
            break
        index = _chunk(lines, index, hunk)
    if not hunk.chunks:
        raise PatchError(f"line {number}: the Update File hunk for '{hunk.path}' is empty")
    return index


def _chunk(lines: list[str], index: int, hunk: Hunk) -> int:
    """Read one chunk of ``hunk`` starting at ``index``; the index after it."""
    first = lines[index]
    if _trim_end(first) == CONTEXT:
        chunk = Chunk(None)
        index += 1
    elif first.startswith(CONTEXT + " "):
        chunk = Chunk(first[len(CONTEXT) + 1 :])
        index += 1
    elif hunk.chunks:
        raise PatchError(f"line {index + 2}: expected a chunk to start with '@@', got '{first}'")
    else:
        chunk = Chunk(None)
    parsed = 0
    for position in range(index, len(lines)):  # by index: a slice per chunk is quadratic
        line = lines[position]
        mark = line[:1]
        if mark == "*" and _trim_end(line) == END_OF_FILE:
            if not parsed:
                break
            chunk.end_of_file = True
            parsed += 1
            break
        if mark in ("", " "):
            chunk.new.append(line[1:])
        elif mark == "+":
            chunk.added.append(len(chunk.new))
            chunk.new.append(line[1:])
        elif mark != "-":
            if not parsed:
                raise PatchError(
                    f"line {index + 2}: '{line}' in an Update File chunk: every line starts "
                    "with ' ', '+' or '-'"
                )
            break
        parsed += 1
    if not parsed:
        raise PatchError(f"line {index + 2}: an Update File chunk holds no lines")
    hunk.chunks.append(chunk)
    return index + parsed


def patch_paths(body: str) -> list[str]:
    """Every path the patch creates, changes, deletes or moves to, in order, once each.

    Where ``\\`` is no separator (POSIX), a path holding one is refused: the gate reads it as
    a separator (DESIGN §5), Codex as part of a file name, so they would name different files.
    """
    found: dict[str, None] = {}  # ordered, and a set: a patch may name many files
    for hunk in parse_patch(body):
        for path in (hunk.path, hunk.move_to):
            if path is not None and path not in found:
                if "\\" in path and os.sep == "/":
                    raise PatchError(f"'{path}' holds a backslash, part of a file name here")
                found[path] = None
    if not found:
        raise PatchError("the patch names no file")
    return list(found)
