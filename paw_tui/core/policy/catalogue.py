"""The tool catalogue (``catalogue.json`` beside this file): every client's tools, classified.

One entry per tool name as a client's hook payload spells it: its class and, for a tool that
writes files or runs commands, which input fields say where or what. Names are unique across
the clients (where two clients share a name, they share its meaning and the entry lists both
field spellings). The file is data, read once per process with the standard library.
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json

CATALOGUE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue.json")

READ_ONLY = "read_only"
FILE = "file"
SHELL = "shell"
PATCH = "patch"
MUTATING = "mutating"
CLASSES = (READ_ONLY, FILE, SHELL, PATCH, MUTATING)


class ToolEntry:
    """One catalogued tool. ``paths``: input fields naming the files it writes (``name[]``:
    a list of paths); ``text``:
    fields holding text, never read as paths; ``command``: the shell command's field;
    ``cwd``: the field naming the command's working directory; ``patch``: the patch body's
    field; ``clients``: who offers it."""

    __slots__ = ("name", "kind", "paths", "text", "command", "cwd", "patch", "clients")

    def __init__(self, name: str, data: dict[str, object], source: str = CATALOGUE_FILE) -> None:
        kind = data.get("class")
        if kind not in CLASSES:
            raise ValueError(f"{source}: tool {name!r} has an unknown class {kind!r}")
        self.name = name
        self.kind = str(kind)
        self.paths = _strings(data.get("paths"))
        self.text = frozenset(_strings(data.get("text")))
        self.command = _string(data.get("command"))
        self.cwd = _string(data.get("cwd"))
        self.patch = _string(data.get("patch"))
        self.clients = _strings(data.get("clients"))


def _strings(value: object) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def _string(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


class Catalogue:
    """The entries by name; an entry is built when first asked for (a gate call asks for one
    tool, and building all of them would cost it more than reading the file)."""

    __slots__ = ("_raw", "_built", "source")

    def __init__(self, raw: dict[str, dict[str, object]], source: str = CATALOGUE_FILE) -> None:
        self._raw = raw
        self._built: dict[str, ToolEntry] = {}
        self.source = source

    def get(self, tool: str) -> ToolEntry | None:
        entry = self._built.get(tool)
        if entry is None:
            data = self._raw.get(tool)
            if data is None:
                return None
            entry = self._built[tool] = ToolEntry(tool, data, self.source)
        return entry

    @property
    def names(self) -> list[str]:
        return list(self._raw)

    def entries(self) -> list[ToolEntry]:
        return [entry for entry in map(self.get, self._raw) if entry is not None]

    def for_client(self, client: str) -> list[ToolEntry]:
        return [entry for entry in self.entries() if client in entry.clients]


def _parsed(path: str) -> object:
    """The JSON in ``path``; from the gate's code cache when this module came from there and
    holds the file as it is (the hook reads the catalogue on every call)."""
    parsed_json = getattr(globals().get("__loader__"), "parsed_json", None)
    if parsed_json is not None:
        found = parsed_json(path)
        if found is not None:
            return found
    with open(path, "rb") as handle:
        return json.loads(handle.read())


def load_catalogue(path: str = CATALOGUE_FILE, *, check: bool = False) -> Catalogue:
    """The catalogue in ``path``; ValueError naming the file when it is malformed (every entry
    too with ``check``)."""
    data = _parsed(path)
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, dict):
        raise ValueError(f"{path}: no 'tools' object")
    bad = [name for name, entry in tools.items() if not isinstance(entry, dict)]
    if bad:
        raise ValueError(f"{path}: the entry of tool {bad[0]!r} is not an object")
    catalogue = Catalogue(tools, path)
    if check:
        catalogue.entries()
    return catalogue


_LOADED: list[Catalogue] = []


def catalogue() -> Catalogue:
    """The shipped catalogue, read on first use (immutable once read)."""
    if not _LOADED:
        _LOADED.append(load_catalogue())
    return _LOADED[0]
