"""The files a unified diff changes, read the way ``git apply`` reads one.

:func:`patch_paths` walks a patch's headers (``diff --git a/X b/Y``, ``--- X``, ``+++ Y``,
``rename from``/``to``, ``copy to``), skipping each hunk's lines by the counts its ``@@``
header gives (so a removed line that reads ``--- x`` is not taken for a header), and returns
every path it names on either side, ``-p`` components stripped. It gives up (None) on what it
cannot read: a header whose names cannot be split, a hunk header without counts.
"""

from __future__ import annotations

MAX_PATCH = 8 * 1024 * 1024
"""Bytes of a patch file read at most; a larger one counts as unreadable."""
_NULL = "/dev/null"


def _unquote(text: str) -> tuple[str, str] | None:
    """A C-quoted name at the start of ``text`` (git's ``"a/\\303\\251"``) and the rest."""
    out = bytearray()
    index = 1
    while index < len(text):
        char = text[index]
        index += 1
        if char == '"':
            return out.decode("utf-8", "replace"), text[index:]
        if char != "\\":
            out += char.encode("utf-8")
            continue
        if index >= len(text):
            return None
        code = text[index]
        if code in "01234567":
            digits = code
            while len(digits) < 3 and index + len(digits) < len(text):
                if text[index + len(digits)] not in "01234567":
                    break
                digits += text[index + len(digits)]
            out.append(int(digits, 8) & 0xFF)
            index += len(digits)
            continue
        out += {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\", "a": b"\a", "b": b"\b",
                "f": b"\f", "r": b"\r", "v": b"\v"}.get(code, code.encode("utf-8"))  # fmt: skip
        index += 1
    return None


def _name(text: str) -> str | None:
    """The file name of a ``---``/``+++`` line (a tab ends it: a timestamp follows)."""
    text = text.rstrip("\n")
    if text.startswith('"'):
        found = _unquote(text)
        return found[0] if found is not None else None
    return text.split("\t", 1)[0].rstrip(" ") or None


def _strip(name: str, strip: int) -> str | None:
    if name == _NULL:
        return None
    parts = [part for part in name.split("/") if part]
    if len(parts) <= strip:
        return None
    return "/".join(parts[strip:])


def _git_header(text: str) -> list[str] | None:
    """The two names of ``diff --git a/X b/Y``."""
    if text.startswith('"'):
        first = _unquote(text)
        if first is None:
            return None
        rest = first[1].lstrip(" ")
        second = _unquote(rest) if rest.startswith('"') else (rest, "")
        return None if second is None else [first[0], second[0]]
    if " " not in text:
        return None
    if text.count(" b/") == 1:
        left, right = text.split(" b/")
        return [left, "b/" + right]
    half = len(text) // 2  # "a/x y b/x y": the same name twice
    left, right = text[:half], text[half + 1 :]
    if text[half] == " " and left[2:] == right[2:]:
        return [left, right]
    return None


def patch_paths(text: str, strip: int = 1) -> tuple[list[str], bool] | None:
    """(the paths a patch changes, whether it is a git patch: paths from the top of the
    repository), or None when the patch cannot be read."""
    paths: list[str] = []
    git_style = False
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("diff --git "):
            git_style = True
            names = _git_header(line[len("diff --git ") :])
            if names is None:
                return None
            paths.extend(found for found in (_strip(n, strip) for n in names) if found)
        elif line.startswith(("--- ", "+++ ")):
            name = _name(line[4:])
            if name is None:
                return None
            found = _strip(name, strip)
            if found:
                paths.append(found)
        elif line.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            paths.append(line.split(" ", 2)[2])
        elif line.startswith("@@ "):
            counts = _hunk_counts(line)
            if counts is None:
                return None
            old, new = counts
            while (old > 0 or new > 0) and index < len(lines):
                body = lines[index]
                index += 1
                mark = body[:1]
                if mark in (" ", ""):
                    old, new = old - 1, new - 1
                elif mark == "-":
                    old -= 1
                elif mark == "+":
                    new -= 1
                elif mark != "\\":
                    return None
    return list(dict.fromkeys(paths)), git_style


def _hunk_counts(line: str) -> tuple[int, int] | None:
    """``@@ -a[,b] +c[,d] @@``: (b, d), a missing count being 1."""
    fields = line.split(" ")
    if len(fields) < 4 or not fields[1].startswith("-") or not fields[2].startswith("+"):
        return None
    counts: list[int] = []
    for field in fields[1:3]:
        _, comma, count = field[1:].partition(",")
        if comma and not count.isdigit():
            return None
        counts.append(int(count) if comma else 1)
    return counts[0], counts[1]
