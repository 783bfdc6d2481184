"""The tool catalogue (``catalogue.json`` beside this file): every client's tools, classified.

A tool is classified *for a client*: the name a client's hook payload gives a tool is looked up
in that client's own table, then in the shared one, where a name means the same for every
client offering it (``clients`` lists them). So one client's tool names never change another
client's decisions: Copilot's ``edit {path}`` and Qwen Code's ``edit {file_path}`` live in their
own tables. An entry gives the tool's class and, for a tool that writes files or runs
commands, which input fields say where or what. The file's ``format`` object documents every
field and how to add a client. The file is data, read once per process with the standard
library (from the gate's code cache when the hook runs).
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json

CATALOGUE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue.json")
FORMAT_VERSION = 2

READ_ONLY = "read_only"
FILE = "file"
SHELL = "shell"
PATCH = "patch"
MUTATING = "mutating"
CLASSES = (READ_ONLY, FILE, SHELL, PATCH, MUTATING)
LIST_SUFFIX = "[]"
"""A field spelled ``name[]`` holds a list (of paths, or of command lines)."""


class ToolEntry:
    """One catalogued tool, as one client (``client``; None for a shared entry) offers it.
    ``paths``: input fields naming the files it writes (``name[]``: a list of paths);
    ``text``: fields holding text, never read as paths; ``commands``: the fields holding its
    shell command (``name[]``: a list of command lines); ``cwd``: the field naming the
    command's working directory; ``patches``: the fields holding a patch body; ``clients``:
    who offers it."""

    __slots__ = ("name", "kind", "paths", "text", "commands", "cwd", "patches", "clients", "client")

    def __init__(
        self,
        name: str,
        data: dict[str, object],
        source: str = CATALOGUE_FILE,
        client: str | None = None,
    ) -> None:
        kind = data.get("class")
        where = f"tool {name!r}" + (f" of {client}" if client else "")
        if kind not in CLASSES:
            raise ValueError(f"{source}: {where} has an unknown class {kind!r}")
        self.name = name
        self.kind = str(kind)
        self.client = client
        self.paths = _strings(data.get("paths"))
        self.text = frozenset(_strings(data.get("text")))
        self.commands = _strings(data.get("command"))
        self.cwd = _string(data.get("cwd"))
        self.patches = _strings(data.get("patch"))
        self.clients = (client,) if client else _strings(data.get("clients"))


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value else ()
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def _string(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


class Catalogue:
    """The entries by client and name; an entry is built when first asked for (a gate call
    asks for one tool, and building all of them would cost it more than reading the file)."""

    __slots__ = ("_shared", "_clients", "_built", "source")

    def __init__(
        self,
        shared: dict[str, dict[str, object]],
        clients: dict[str, dict[str, dict[str, object]]] | None = None,
        source: str = CATALOGUE_FILE,
    ) -> None:
        self._shared = shared
        self._clients = clients or {}
        self._built: dict[tuple[str | None, str], ToolEntry] = {}
        self.source = source

    def get(self, tool: str, client: str | None = None) -> ToolEntry | None:
        """``tool`` as ``client`` offers it: the client's own entry, else the shared one."""
        own = self._clients.get(client) if client else None
        if own is not None and tool in own:
            return self._build(client, tool, own[tool])
        data = self._shared.get(tool)
        return None if data is None else self._build(None, tool, data)

    def _build(self, client: str | None, tool: str, data: dict[str, object]) -> ToolEntry:
        entry = self._built.get((client, tool))
        if entry is None:
            entry = self._built[client, tool] = ToolEntry(tool, data, self.source, client)
        return entry

    def classified_for(self, tool: str, client: str) -> bool:
        """Whether ``client``'s own table, or a shared entry naming ``client``, classifies
        ``tool`` (the real-client inventory's check: a default does not count)."""
        entry = self.get(tool, client)
        return entry is not None and client in entry.clients

    @property
    def clients(self) -> list[str]:
        """Every client the catalogue names, in its own table or in a shared entry's list."""
        named = dict.fromkeys(self._clients)
        for entry in self.shared_entries():
            named.update(dict.fromkeys(entry.clients))
        return list(named)

    def shared_entries(self) -> list[ToolEntry]:
        return [self._build(None, name, data) for name, data in self._shared.items()]

    def own_entries(self, client: str) -> list[ToolEntry]:
        """The entries of ``client``'s own table."""
        return [self._build(client, n, d) for n, d in self._clients.get(client, {}).items()]

    def entries(self) -> list[ToolEntry]:
        """Every entry: the shared ones, then each client's own."""
        found = self.shared_entries()
        for client in self._clients:
            found += self.own_entries(client)
        return found

    def for_client(self, client: str) -> list[ToolEntry]:
        """The tools ``client`` offers: its own entries, and the shared ones naming it."""
        own = self.own_entries(client)
        taken = {entry.name for entry in own}
        shared = [e for e in self.shared_entries() if client in e.clients and e.name not in taken]
        return own + shared


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


def _table(value: object, path: str, what: str) -> dict[str, dict[str, object]]:
    if not isinstance(value, dict):
        raise ValueError(f"{path}: {what} is not an object")
    bad = [name for name, entry in value.items() if not isinstance(entry, dict)]
    if bad:
        raise ValueError(f"{path}: the entry of tool {bad[0]!r} in {what} is not an object")
    return value


def load_catalogue(path: str = CATALOGUE_FILE, *, check: bool = False) -> Catalogue:
    """The catalogue in ``path``; ValueError naming the file when it is malformed (every entry
    too with ``check``)."""
    data = _parsed(path)
    if not isinstance(data, dict) or "shared" not in data:
        raise ValueError(f"{path}: no 'shared' object (catalogue format {FORMAT_VERSION})")
    shared = _table(data["shared"], path, "'shared'")
    clients = data.get("clients", {})
    if not isinstance(clients, dict):
        raise ValueError(f"{path}: 'clients' is not an object")
    tables = {str(c): _table(t, path, f"the table of client {c!r}") for c, t in clients.items()}
    catalogue = Catalogue(shared, tables, path)
    if check:
        catalogue.entries()
    return catalogue


_LOADED: list[Catalogue] = []


def catalogue() -> Catalogue:
    """The shipped catalogue, read on first use (immutable once read)."""
    if not _LOADED:
        _LOADED.append(load_catalogue())
    return _LOADED[0]
