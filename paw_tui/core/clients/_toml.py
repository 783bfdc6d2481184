"""Setting a few keys of one table in a TOML file people also edit by hand (Codex's
``config.toml``), keeping everything else byte for byte: comments, order, other tables.

The standard library reads TOML (``tomllib``) but does not write it, and rewriting a whole
file would drop the person's comments and layout. So the text is edited line by line: a key
of ours is replaced where it stands (a value spanning lines included), a missing key is added
under the table's header, a missing table is appended at the end. The result is read back and
must equal the file's data with only our keys changed; when it does not (the table is written
inline, or dotted keys define it), nothing is written and the error says what to change.
"""

from __future__ import annotations

import json
import tomllib

from paw_tui.core.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def load(text: str, where: str) -> dict[str, object]:
    """The TOML data of ``text``; ValidationError naming ``where`` and the line when invalid."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError(f"{where}: not valid TOML ({exc}); nothing was changed.") from None


def key(part: str) -> str:
    """One key as TOML spells it: bare when it can be, else a quoted string."""
    return part if part and set(part) <= BARE_KEY else value(part)


def header(path: Sequence[str]) -> str:
    return "[" + ".".join(key(part) for part in path) + "]"


def value(item: object) -> str:
    """``item`` (str, bool, int, list of those) as a TOML value."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        # JSON's escapes are TOML's; DEL is allowed raw in JSON but not in a TOML string
        return json.dumps(item, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(item, list | tuple):
        return "[" + ", ".join(value(element) for element in item) + "]"
    raise TypeError(f"cannot write {type(item).__name__} as TOML")


def table_at(data: Mapping[str, object], path: Sequence[str]) -> dict[str, object] | None:
    """The table at ``path`` in parsed data (None when absent or not a table)."""
    node: object = data
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node if isinstance(node, dict) else None


def set_keys(text: str, path: Sequence[str], values: Mapping[str, object], where: str) -> str:
    """``text`` with ``values`` set in table ``path``; ValidationError (naming ``where``) when
    the file is not TOML or the table cannot be edited safely."""
    data = load(text, where)
    current = table_at(data, path) or {}
    if all(current.get(name) == wanted for name, wanted in values.items()):
        return text
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    section = _find_section(lines, tuple(path))
    if section is None:
        block = [header(path) + "\n", *(f"{key(n)} = {value(v)}\n" for n, v in values.items())]
        lines += (["\n"] if lines and lines[-1].strip() else []) + block
    else:
        start, end = section
        lines[start:end] = _edit_section(lines[start:end], values)
    result = "".join(lines)
    try:
        after: dict[str, object] | None = tomllib.loads(result)
    except tomllib.TOMLDecodeError:  # our table was already defined some other way
        after = None
    _check(data, after, path, values, where)
    return result


def _edit_section(body: list[str], values: Mapping[str, object]) -> list[str]:
    """The lines of one table (header first) with our keys replaced or added."""
    body = list(body)
    for name, wanted in values.items():
        line = f"{key(name)} = {value(wanted)}\n"
        span = _key_span(body, name)
        if span is None:
            insert = len(body)
            while insert > 1 and not body[insert - 1].strip():
                insert -= 1  # before the blank lines that separate the next table
            body.insert(insert, line)
        else:
            body[span[0] : span[1]] = [line]
    return body


def _key_span(body: list[str], name: str) -> tuple[int, int] | None:
    """Lines ``[start, end)`` holding ``name = <value>`` in a table's body (a value may span
    lines: the smallest run that reads as one key-value pair)."""
    for start in range(1, len(body)):
        stripped = body[start].lstrip()
        if not stripped.startswith(key(name)):
            continue
        rest = stripped[len(key(name)) :].lstrip()
        if not rest.startswith("="):
            continue
        for end in range(start + 1, len(body) + 1):
            try:
                parsed = tomllib.loads("".join(body[start:end]))
            except tomllib.TOMLDecodeError:
                continue
            if name in parsed:
                return start, end
        return None
    return None


def _find_section(lines: list[str], path: tuple[str, ...]) -> tuple[int, int] | None:
    """Lines ``[start, end)`` of the ``[path]`` table: its header up to the next header."""
    start = None
    for index, line in enumerate(lines):
        found = _header_path(line)
        if found is None:
            continue
        if start is not None:
            return start, index
        if found == path:
            start = index
    return (start, len(lines)) if start is not None else None


def _header_path(line: str) -> tuple[str, ...] | None:
    """The key path of a ``[table]`` header line; ``()`` for an ``[[array]]`` header (a
    section boundary that is never ours); None for any other line."""
    stripped = line.strip()
    if not stripped.startswith("["):
        return None
    try:
        parsed: object = tomllib.loads(stripped + "\n")
    except tomllib.TOMLDecodeError:
        return None
    if stripped.startswith("[["):
        return ()
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        ((name, parsed),) = parsed.items()
        path.append(name)
    return tuple(path) if isinstance(parsed, dict) and not parsed else None


def _check(
    before: Mapping[str, object],
    after: Mapping[str, object] | None,
    path: Sequence[str],
    values: Mapping[str, object],
    where: str,
) -> None:
    """The edit changed our keys and nothing else, or ValidationError."""
    expected = _with_keys(before, path, values)
    if after != expected:
        raise ValidationError(
            f"{where}: cannot set {', '.join(values)} in {header(path)} without touching other "
            f"entries (is {'.'.join(path)} written inline or with dotted keys?). Write it as a "
            f"{header(path)} table, or set it by hand; nothing was changed."
        )


def _with_keys(
    data: Mapping[str, object], path: Sequence[str], values: Mapping[str, object]
) -> dict[str, object]:
    copy = dict(data)
    if not path:
        copy.update(values)
        return copy
    inner = copy.get(path[0])
    copy[path[0]] = _with_keys(inner if isinstance(inner, dict) else {}, path[1:], values)
    return copy
