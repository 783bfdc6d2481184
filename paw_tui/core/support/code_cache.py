"""The gate's code in one file: every module of ``paw_tui.core`` and ``paw_tui.gate`` as
compiled code, read with one ``open`` instead of one lookup, ``stat``, ``open`` and read per
module.

A hook call imports about fifty of paw-tui's modules; finding and reading them one by one is
about a tenth of the call. The cache lives beside the hook script in the state directory
(``paw-tui install`` writes it; the launcher rebuilds it when paw-tui was reinstalled). Every
module taken from it is checked against its source file's size and modification time, as
Python checks a ``.pyc``: a module whose source changed is imported from the source instead,
so the cache can make the gate slower, never different.

Standard library only, and nothing beyond ``os``, ``sys`` and ``marshal``: this runs before
the gate is imported.
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
FORMAT = 1

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType, ModuleType

# One entry: (is_package, source path, source mtime_ns, source size, offset, length): the
# module's marshalled code is ``length`` bytes at ``offset`` in the file, read when imported.
Entry = tuple[bool, str, int, int, int, int]
_HEADER = 8  # the index's length, then the index (marshalled), then the code


def stamp() -> str:
    """What a cache must have been built for: this Python's bytecode, this package's place
    and its installation (a reinstall rewrites ``__init__.py``)."""
    init = os.stat(os.path.join(PACKAGE_DIR, "__init__.py"))
    return f"{FORMAT}:{sys.implementation.cache_tag}:{PACKAGE_DIR}:{init.st_mtime_ns}"


def _modules() -> list[tuple[str, str, bool]]:
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


def build(path: str) -> int:
    """Compile every covered module into ``path`` (written whole, then renamed into place);
    the number of modules."""
    index: dict[str, Entry] = {}
    blobs: list[bytes] = []
    offset = 0
    for name, source, is_package in _modules():
        info = os.stat(source)
        with open(source, "rb") as handle:
            code = marshal.dumps(compile(handle.read(), source, "exec", dont_inherit=True))
        index[name] = (is_package, source, info.st_mtime_ns, info.st_size, offset, len(code))
        blobs.append(code)
        offset += len(code)
    head = marshal.dumps((stamp(), index))
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    temp = f"{path}.{os.getpid()}.tmp"
    with open(temp, "wb") as handle:
        handle.write(len(head).to_bytes(_HEADER, "little"))
        handle.write(head)
        handle.writelines(blobs)
    os.replace(temp, path)
    return len(index)


class CodeCache:
    """An open cache file: its index, and the code of one module on demand."""

    def __init__(self, fd: int, index: dict[str, Entry], base: int) -> None:
        self.fd = fd
        self.index = index
        self.base = base

    def code(self, entry: Entry) -> CodeType:
        data = os.pread(self.fd, entry[5], self.base + entry[4])
        if len(data) != entry[5]:
            raise ImportError(f"the gate's code cache is cut short at {entry[1]}")
        code: CodeType = marshal.loads(data)
        return code


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
    is unchanged; anything else (or a changed module) is left to the normal finders."""

    def __init__(self, cache: CodeCache) -> None:
        self.cache = cache
        self.served: list[str] = []
        """Modules taken from the cache, in import order (tests count them)."""
        self.stale: list[str] = []

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        entry = self.cache.index.get(name)
        if entry is None:
            return None
        is_package, source, mtime_ns, size = entry[:4]
        try:
            info = os.stat(source)
        except OSError:
            return None
        if info.st_mtime_ns != mtime_ns or info.st_size != size:
            self.stale.append(name)
            return None
        # The machinery's own ModuleSpec, without importing importlib's Python modules.
        spec = sys.modules["_frozen_importlib"].ModuleSpec(
            name, self, origin=source, is_package=is_package
        )
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(source)]
        return spec

    def create_module(self, spec: object) -> None:
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        entry = self.cache.index[module.__name__]
        code = self.cache.code(entry)
        module.__file__ = entry[1]
        self.served.append(module.__name__)
        exec(code, module.__dict__)


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
