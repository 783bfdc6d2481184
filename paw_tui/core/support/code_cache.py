"""The gate's code in one file: every module of ``paw_tui.core`` and ``paw_tui.gate`` as
compiled code, read with one ``open`` instead of one lookup, ``stat``, ``open`` and read per
module.

A hook call imports about fifty of paw-tui's modules; finding and reading them one by one is
about a tenth of the call. The cache lives beside the hook script in the state directory
(``paw-tui install`` writes it; the launcher rebuilds it when paw-tui was reinstalled). Every
module taken from it is checked against its source file's size and modification time, as
Python checks a ``.pyc``: a module whose source changed is imported from the source instead,
so the cache can make the gate slower, never different.

A module's unconditional imports (the ones its body makes at its top) come with it, run
straight from the table before its body, in an order each can run in: the import system's
own bookkeeping costs about as much per module as running most of the gate's modules.

Standard library only, and nothing beyond ``os``, ``sys`` and ``marshal`` to read it: this
runs before the gate is imported (building it, rarely, also takes ``ast`` and ``json``).
"""

from __future__ import annotations

import marshal
import os
import sys

CACHE_NAME = "gate-code.bin"
OPTION = "--code-cache"
"""The launcher's option naming the cache (``--code-cache PATH``, first on its command line:
the hook script passes it)."""
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The directory of the ``paw_tui`` package this file belongs to."""
COVERED = ("core", "gate")
"""Sub-packages whose modules go into the cache (the gate's whole import graph)."""
DATA_FILES = (os.path.join("core", "policy", "catalogue.json"),)
"""JSON files the gate reads on every call, kept parsed (marshalled) beside the code: the
catalogue loads in a fifth of the time JSON parsing takes (``CodeCacheFinder.parsed_json``)."""
FORMAT = 3

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from importlib.machinery import ModuleSpec
    from types import CodeType, ModuleType

# One entry: (is_package, source path, source mtime_ns, source size, offset, length, preload):
# the module's marshalled code is ``length`` bytes at ``offset`` in the file, read when
# imported; ``preload`` names the covered modules its body imports unconditionally (directly
# or through them), in an order each can run in (see ``CodeCacheFinder.exec_module``).
Entry = tuple[bool, str, int, int, int, int, tuple[str, ...]]
_HEADER = 8  # the index's length, then the index (marshalled), then the code


def stamp() -> str:
    """What a cache must have been built for: this Python's bytecode, this package's place
    and its installation (a reinstall rewrites ``__init__.py``)."""
    init = os.stat(os.path.join(PACKAGE_DIR, "__init__.py"))
    return f"{FORMAT}:{sys.implementation.cache_tag}:{PACKAGE_DIR}:{init.st_mtime_ns}"


def covered_modules() -> list[tuple[str, str, bool]]:
    """``(module name, source path, is_package)`` for the package root and ``COVERED``."""
    found = [("paw_tui", os.path.join(PACKAGE_DIR, "__init__.py"), True)]
    for sub in COVERED:
        top = os.path.join(PACKAGE_DIR, sub)
        for directory, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            relative = os.path.relpath(directory, PACKAGE_DIR).replace(os.sep, ".")
            for filename in sorted(filenames):
                if not filename.endswith(".py"):
                    continue
                stem = filename[:-3]
                path = os.path.join(directory, filename)
                if stem == "__init__":
                    found.append((f"paw_tui.{relative}", path, True))
                else:
                    found.append((f"paw_tui.{relative}.{stem}", path, False))
    return found


def _top_level_imports(tree: ast.Module, name: str, is_package: bool) -> list[str]:
    """Every module a body's own statements import, unconditionally and in order (a
    ``from a.b import c`` names ``a``, ``a.b`` and ``a.b.c``, which may be a module or not);
    imports under ``if``, ``try`` or inside functions are left to run as they come."""
    import ast

    package = name if is_package else name.rpartition(".")[0]
    named: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            named.extend(".".join(parts[:end]) for end in range(1, len(parts) + 1))
    return named


def _preload_order(module: str, imports: dict[str, list[str]]) -> tuple[str, ...]:
    """The covered modules importing ``module`` pulls in at once, each after its parent
    packages and the modules it imports (a post-order walk of the import graph); none when
    the walk meets a cycle: Python's own order decides who sees whom half-built there, and
    only the import system reproduces that."""
    order: list[str] = []
    state: dict[str, int] = {module: 1}  # 1: on the walk's path, 2: placed
    pending: list[tuple[str, list[str]]] = [(module, list(imports[module]))]
    while pending:
        name, needs = pending[-1]
        if not needs:
            pending.pop()
            state[name] = 2
            if name != module:
                order.append(name)
            continue
        needed = needs.pop(0)
        mark = state.get(needed)
        if mark == 1:
            return ()
        if mark is None:
            state[needed] = 1
            parent = needed.rpartition(".")[0]
            pending.append((needed, ([parent] if parent else []) + imports[needed]))
    return tuple(order)


def build(path: str) -> int:
    """Compile every covered module into ``path`` (written whole, then renamed into place);
    the number of modules."""
    import ast

    found: list[tuple[str, str, os.stat_result, bool, bytes]] = []
    imports: dict[str, list[str]] = {}
    for name, source, is_package in covered_modules():
        info = os.stat(source)
        with open(source, "rb") as handle:
            tree = ast.parse(handle.read(), source)
        found.append(
            (
                name,
                source,
                info,
                is_package,
                marshal.dumps(compile(tree, source, "exec", dont_inherit=True)),
            )
        )
        imports[name] = _top_level_imports(tree, name, is_package)
    covered = {name for name, *_ in found}
    imports = {
        name: [n for n in dict.fromkeys(named) if n in covered and n != name]
        for name, named in imports.items()
    }
    index: dict[str, Entry] = {}
    offset = 0
    for name, source, info, is_package, code in found:
        index[name] = (
            is_package,
            source,
            info.st_mtime_ns,
            info.st_size,
            offset,
            len(code),
            _preload_order(name, imports),
        )
        offset += len(code)
    for relative in DATA_FILES:  # keyed by path: no module name holds a separator
        import json

        source = os.path.join(PACKAGE_DIR, relative)
        info = os.stat(source)
        with open(source, "rb") as handle:
            data = marshal.dumps(json.loads(handle.read()))
        index[source] = (False, source, info.st_mtime_ns, info.st_size, offset, len(data), ())
        found.append((source, source, info, False, data))
        offset += len(data)
    head = marshal.dumps((stamp(), index))
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    temp = f"{path}.{os.getpid()}.tmp"
    with open(temp, "wb") as handle:
        handle.write(len(head).to_bytes(_HEADER, "little"))
        handle.write(head)
        handle.writelines(code for *_, code in found)
    os.replace(temp, path)
    return len(index)


class CodeCache:
    """An open cache file: its index, and the code of one module on demand."""

    def __init__(self, fd: int, index: dict[str, Entry], base: int) -> None:
        self.fd = fd
        self.index = index
        self.base = base

    def code(self, entry: Entry) -> CodeType:
        code: CodeType = marshal.loads(self.blob(entry))
        return code

    def blob(self, entry: Entry) -> bytes:
        data = os.pread(self.fd, entry[5], self.base + entry[4])
        if len(data) != entry[5]:
            raise ImportError(f"the gate's code cache is cut short at {entry[1]}")
        return data


def read(path: str) -> CodeCache | None:
    """The cache when it was built for this installation, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        size = int.from_bytes(os.pread(fd, _HEADER, 0), "little")
        if size > os.fstat(fd).st_size:
            raise ValueError("the index is longer than the file")
        found, index = marshal.loads(os.pread(fd, size, _HEADER))
    except Exception:  # whatever is wrong with it, the cache is rebuilt
        os.close(fd)
        return None
    if not isinstance(index, dict) or found != stamp():
        os.close(fd)
        return None
    return CodeCache(fd, index, _HEADER + size)


class CodeCacheFinder:
    """First on ``sys.meta_path``: serves covered modules from the table while their source
    is unchanged; anything else (or a changed module) is left to the normal finders.

    A module served this way brings the covered modules its body imports unconditionally
    with it, run straight from the table before the body (``preload``): the import system
    spends about 25 microseconds on each module it loads, more than many of the gate's
    modules take to run, and those modules would be imported at once anyway. The order is
    one the bodies can run in, so each body finds its imports done, as it would have."""

    def __init__(self, cache: CodeCache) -> None:
        self.cache = cache
        self.served: list[str] = []
        """Modules taken from the cache, in import order (tests count them)."""
        self.stale: list[str] = []
        self.preloaded: list[str] = []
        """The served modules that were run straight from the table, without the import
        system's help (tests count them)."""

    def _fresh(self, name: str, entry: Entry) -> bool:
        try:
            info = os.stat(entry[1])
        except OSError:
            return False
        if info.st_mtime_ns != entry[2] or info.st_size != entry[3]:
            self.stale.append(name)
            return False
        return True

    def _spec(self, name: str, entry: Entry) -> ModuleSpec:
        # The machinery's own ModuleSpec, without importing importlib's Python modules. No
        # "location": ``exec_module`` sets ``__file__`` itself, and a location would make the
        # machinery work out a ``__pycache__`` path for every module.
        spec: ModuleSpec = sys.modules["_frozen_importlib"].ModuleSpec(
            name, self, origin=entry[1], is_package=entry[0]
        )
        if entry[0]:
            spec.submodule_search_locations = [os.path.dirname(entry[1])]
        return spec

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        entry = self.cache.index.get(name)
        if entry is None or not self._fresh(name, entry):
            return None
        return self._spec(name, entry)

    def parsed_json(self, path: str) -> object | None:
        """The parsed content of ``path`` (one of ``DATA_FILES``) while the file is as it was
        when the cache was built; None (read it yourself) otherwise. A module served from
        here finds this on its ``__loader__``."""
        entry = self.cache.index.get(path)
        if entry is None or not self._fresh(path, entry):
            return None
        try:
            value: object = marshal.loads(self.cache.blob(entry))
        except (ImportError, ValueError, EOFError, TypeError):
            return None
        return value

    def create_module(self, spec: object) -> None:
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        entry = self.cache.index[module.__name__]
        for name in entry[6]:
            if name not in sys.modules:
                self._preload(name)
        self._run(module, entry)

    def _run(self, module: ModuleType, entry: Entry) -> None:
        code = self.cache.code(entry)
        module.__file__ = entry[1]
        self.served.append(module.__name__)
        exec(code, module.__dict__)

    def _preload(self, name: str) -> None:
        """Import ``name`` as the import system would, minus its bookkeeping. A changed (or
        missing) module is left alone: the body that needs it imports it the usual way."""
        entry = self.cache.index.get(name)
        if entry is None or not self._fresh(name, entry):
            return
        parent, _, child = name.rpartition(".")
        if parent and parent not in sys.modules:
            return  # its package did not load from here: let the import system order it
        module = type(sys)(name)
        spec = self._spec(name, entry)
        module.__spec__ = spec
        module.__loader__ = self  # type: ignore[assignment]
        module.__package__ = name if entry[0] else parent
        if entry[0]:
            module.__path__ = [os.path.dirname(entry[1])]
        sys.modules[name] = module
        spec._initializing = True  # type: ignore[attr-defined]
        try:
            self._run(module, entry)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        finally:
            spec._initializing = False  # type: ignore[attr-defined]
        self.preloaded.append(name)
        # as the import system does: a module may put another object in its place
        module = sys.modules[name]
        if parent:
            setattr(sys.modules[parent], child, module)


def install(path: str) -> CodeCacheFinder | None:
    """Put the cache at ``path`` in front of the import system, rebuilding it first when it
    is missing or was built for another installation; None (imports as usual) when it can be
    neither read nor rebuilt."""
    cache = read(path)
    if cache is None:
        try:
            build(path)
        except (OSError, SyntaxError, ValueError):
            return None
        cache = read(path)
        if cache is None:
            return None
    finder = CodeCacheFinder(cache)
    sys.meta_path.insert(0, finder)  # type: ignore[arg-type]
    return finder
