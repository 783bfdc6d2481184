"""Which trees and files a confined shell may write: a pure computation over a few lookups.

``compute_writable`` turns an intent's grants (root-relative directories and files, the literal
prefixes of its ``owned_scope``) into Landlock rules, honouring three kinds of path that must
never become writable:

- ``protected``: root-relative paths and prefixes (``DEFAULT_PROTECTED``: the ledger, the
  instruction layers, every client's hook and MCP configuration);
- ``never``: absolute paths, such as the paw-tui state directory (the specs, the ledger key)
  and the files an unconfined process reads on the way to the confinement (``launch_chain``);
- for an extra tree outside the workspace, the whole workspace (an extra ``/tmp`` must not
  make a workspace under ``/tmp`` writable: pitfall 5).

Landlock rules only add rights, so a granted directory that *contains* a never-writable path
is **carved**: replaced by its entries minus that path, recursively for the entries that still
contain one; directories become directory rules, regular files file rules, symlinks and
special files are left out. The carved directory itself gets no rule, and the consequence is
real: nothing can be created, removed or renamed *directly* in a carved directory (a new
top-level file in a carved workspace root, an editor's atomic save there, ``rm`` of a file
there); the files it held when the spec was computed stay writable in place, and its
sub-directories stay fully writable. ``Writable.carved`` lists these directories so the caller
can say so. A grant that *is* or lies *beneath* a never-writable path is refused.

Paths are compared after ``realpath``: a grant whose real location leaves the workspace
(``src/auth`` made a symlink to ``/home``) is refused, and a protected path reached through a
symlinked directory is protected at its real location too. Hard links are not seen: an existing
second name of a protected file inside a granted tree stays writable (the gate denies writes to
such links; drift detection restores the file).

The repository's ``.git`` directory is granted whole (``git add`` and ``git commit`` create
``.git/index.lock`` and rename it, which a carved ``.git`` would forbid), so ``.git/config``,
``.git/hooks/`` and the rest stay writable: drift detection restores what makes git run a
program or read another repository (``drift_git``). A ``.git`` that is a file (a
worktree) or a symlink is not granted and is reported in ``notes``.

The device set (``ALWAYS_FILES``, ``ALWAYS_DIRS``): ``/dev/null``, ``/dev/zero``, ``/dev/full``,
``/dev/random``, ``/dev/urandom``, ``/dev/tty``, ``/dev/ptmx``, ``/dev/pts/`` (the terminal) and
``/dev/shm/`` (POSIX semaphores and shared memory: Python's ``multiprocessing`` needs it). A
shell writing ``> /dev/stderr`` reopens its own stderr through ``/proc/self/fd/2``: a pipe or a
terminal needs nothing more; a regular file is granted by the launcher (``--no-stdio`` aside).

The private temporary directory (``tmpdir``) is refused inside the workspace or when it
contains or lies beneath a never-writable path; the launcher creates it (0700) and exports
``TMPDIR``. Only the listing of carved directories and ``lstat``/``realpath`` touch the file
system, through an injectable ``fs`` object.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import sys

from paw_tui.core.policy.scope.protect import PROTECTED_FILES, PROTECTED_TREES
from paw_tui.core.support.realpath import realpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

DEFAULT_PROTECTED: tuple[str, ...] = tuple(
    path for path in (*PROTECTED_TREES, *PROTECTED_FILES) if path != ".git"
)
"""The gate's protected set (one list, in ``protect``), less ``.git``: the boundary grants
``.git`` whole so ``git commit`` works, and drift detection guards its config, hooks and the
rest of what makes git run a program (``drift_git``)."""
ALWAYS_FILES: tuple[str, ...] = (
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
)
ALWAYS_DIRS: tuple[str, ...] = ("/dev/pts", "/dev/shm")

DIR, FILE, LINK, OTHER, MISSING = "dir", "file", "link", "other", ""


class OsFs:
    """The file-system lookups ``compute_writable`` makes; replace it in tests. One instance
    serves one computation and remembers its answers: resolving a path ``lstat``s every
    component, and the same few hundred are asked again and again."""

    def __init__(self) -> None:
        self._kinds: dict[str, str] = {}
        self._real: dict[str, str] = {}

    def kind(self, path: str) -> str:
        """``dir``, ``file`` (regular), ``link``, ``other``, or "" when absent (``lstat``)."""
        found = self._kinds.get(path)
        if found is None:
            found = self._kinds[path] = _kind(path)
        return found

    def realpath(self, path: str) -> str:
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = realpath(path, self.realpath)
        return found

    def listdir(self, path: str) -> list[str]:
        return os.listdir(path)


def _kind(path: str) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return MISSING
    kind = mode & 0o170000
    if kind == 0o040000:
        return DIR
    if kind == 0o100000:
        return FILE
    return LINK if kind == 0o120000 else OTHER


class Writable:
    """The computed set: absolute ``dirs`` and ``files`` to grant, the private ``tmpdir``, the
    ``carved`` directories, ``refused`` grants with the reason, ``missing`` grants (as given),
    and ``notes`` for anything else a person should hear about."""

    __slots__ = ("dirs", "files", "tmpdir", "carved", "refused", "missing", "notes")

    def __init__(self) -> None:
        self.dirs: list[str] = []
        self.files: list[str] = []
        self.tmpdir: str | None = None
        self.carved: list[str] = []
        self.refused: list[tuple[str, str]] = []
        self.missing: list[str] = []
        self.notes: list[str] = []

    def rules(self) -> list[tuple[str, bool]]:
        """``(path, is_directory)`` for ``landlock.restrict_writes`` (the tmpdir included)."""
        rules = [(d, True) for d in self.dirs] + [(f, False) for f in self.files]
        return rules + ([(self.tmpdir, True)] if self.tmpdir else [])

    def spec(self, comment: str = "") -> bytes:
        """The launcher's spec file for this set (see ``spec.py``)."""
        from paw_tui.core.confine.spec import render_spec

        return render_spec(self.dirs, self.files, self.tmpdir, comment)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Writable({fields})"


def under(path: str, base: str) -> bool:
    """``path`` is ``base`` or lies beneath it (both absolute and normalised)."""
    return path == base or path.startswith(base if base == "/" else base + "/")


def compute_writable(
    root: str,
    grants: Iterable[str],
    *,
    protected: Iterable[str] = DEFAULT_PROTECTED,
    never: Iterable[str] = (),
    state_dir: str | None = None,
    extra_dirs: Iterable[str] = (),
    extra_files: Iterable[str] = (),
    tmpdir: str | None = None,
    git_dir: str | None = ".git",
    always_files: Iterable[str] = ALWAYS_FILES,
    always_dirs: Iterable[str] = ALWAYS_DIRS,
    fs: OsFs | None = None,
) -> Writable:
    """The writable set of a confined shell in workspace ``root``.

    ``grants`` are root-relative directories or files (``""`` or ``.`` is the root itself;
    a trailing ``/**`` or ``/`` is dropped). ``protected`` are root-relative never-writable
    prefixes; ``never`` and ``state_dir`` absolute never-writable paths. ``extra_dirs`` and
    ``extra_files`` are absolute (an extra inside the workspace obeys the workspace's rules).
    ``git_dir`` is root-relative (None: no git grant).
    """
    fs = fs or OsFs()
    result = Writable()
    real_root = fs.realpath(os.path.abspath(root))
    forbidden_ws: set[str] = set()
    for entry in protected:
        rel = _relative(entry)
        if rel is None or rel == ".":
            result.notes.append(f"protected entry {entry!r} ignored (not below the root)")
            continue
        literal = posixpath.join(real_root, rel)
        forbidden_ws.update((literal, fs.realpath(literal)))
    for entry in [*never, *([state_dir] if state_dir else [])]:
        absolute = os.path.abspath(entry)
        forbidden_ws.update((absolute, fs.realpath(absolute)))
    forbidden_out = forbidden_ws | {real_root}
    walker = _Walker(fs, result)

    for grant in grants:
        _grant_in_workspace(fs, walker, result, real_root, grant, forbidden_ws)

    for extra, want_dir in [*((e, True) for e in extra_dirs), *((e, False) for e in extra_files)]:
        absolute = os.path.abspath(extra)
        if not fs.kind(absolute):
            result.missing.append(extra)
            continue
        real = fs.realpath(absolute)
        walker.grant(
            real, forbidden_ws if under(real, real_root) else forbidden_out, extra, want_dir
        )

    if git_dir is not None:
        _grant_git(fs, walker, result, real_root, git_dir, forbidden_ws)

    for device in always_files:
        if fs.kind(fs.realpath(device)) in (FILE, OTHER):
            walker.grant(fs.realpath(device), forbidden_out, device, want_dir=False)
    for device in always_dirs:
        if fs.kind(fs.realpath(device)) == DIR:
            walker.grant(fs.realpath(device), forbidden_out, device)

    if tmpdir is not None:
        _set_tmpdir(fs, result, tmpdir, forbidden_out)
    _minimise(result)
    return result


class _Walker:
    """Adds grants to a result, carving directories that contain forbidden paths."""

    def __init__(self, fs: OsFs, result: Writable) -> None:
        self.fs = fs
        self.result = result

    def grant(
        self, real: str, forbidden: set[str], label: str, want_dir: bool | None = None
    ) -> None:
        paths = _PathSet(forbidden)
        blocking = min(paths.at_or_above(real), default=None)
        if blocking is not None:
            self.result.refused.append((label, f"never writable ({blocking})"))
            return
        kind = self.fs.kind(real)
        if not kind:  # a dangling symlink
            self.result.missing.append(label)
            return
        if want_dir is not None and (kind == DIR) != want_dir:
            wanted = "a directory" if want_dir else "a file"
            self.result.refused.append((label, f"not {wanted}"))
            return
        self.add(real, kind, paths, label)

    def add(self, path: str, kind: str, forbidden: _PathSet, label: str) -> None:
        if kind != DIR:
            if kind in (FILE, OTHER):
                self.result.files.append(path)
            return
        inside = _PathSet(forbidden.below(path))
        if not inside.members:
            self.result.dirs.append(path)
            return
        try:
            names = sorted(self.fs.listdir(path))
        except OSError as exc:
            self.result.refused.append((label, f"cannot list {path} to carve it: {exc.strerror}"))
            return
        self.result.carved.append(path)
        for name in names:
            child = posixpath.join(path, name)
            if child in forbidden.members:
                continue
            child_kind = self.fs.kind(child)
            if child_kind == DIR:
                self.add(child, DIR, inside, label)
            elif child_kind == FILE:
                self.result.files.append(child)
            # symlinks and special files inside a carved directory get no rule: a link's
            # target is checked where it lives, and a new name cannot be created here anyway


class _PathSet:
    """Absolute, normalised paths, asked which lie above or below a path: by looking up each
    ancestor, and by one bisection into the sorted list (a spec asks a thousand times)."""

    __slots__ = ("members", "ordered")

    def __init__(self, paths: Iterable[str]) -> None:
        self.members = frozenset(paths)
        self.ordered = sorted(self.members)

    def at_or_above(self, path: str) -> list[str]:
        """The members that are ``path`` or one of its ancestors."""
        found = []
        while True:
            if path in self.members:
                found.append(path)
            parent = posixpath.dirname(path)
            if parent == path:
                return found
            path = parent

    def below(self, path: str) -> list[str]:
        """The members strictly beneath ``path``."""
        prefix = path if path.endswith("/") else path + "/"
        start = bisect.bisect_left(self.ordered, prefix)
        found = []
        for member in self.ordered[start:]:
            if not member.startswith(prefix):
                break
            found.append(member)
        return found


def _relative(entry: str) -> str | None:
    """A normalised root-relative path ('.' for the root), or None if it leaves the root."""
    path = entry.strip()
    for suffix in ("/**", "/"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    if path in ("", "**"):
        return "."
    if path.startswith("/"):
        return None
    path = posixpath.normpath(path)
    if path == ".." or path.startswith("../"):
        return None
    return path


def _grant_in_workspace(
    fs: OsFs, walker: _Walker, result: Writable, real_root: str, grant: str, forbidden: set[str]
) -> None:
    rel = _relative(grant)
    if rel is None:
        result.refused.append((grant, "not a path below the workspace root"))
        return
    literal = posixpath.normpath(posixpath.join(real_root, rel))
    if not fs.kind(literal):
        result.missing.append(grant)
        return
    real = fs.realpath(literal)
    if not under(real, real_root):
        result.refused.append((grant, f"resolves outside the workspace, to {real}"))
        return
    walker.grant(real, forbidden, label=grant)


def _grant_git(
    fs: OsFs, walker: _Walker, result: Writable, real_root: str, git_dir: str, forbidden: set[str]
) -> None:
    rel = _relative(git_dir)
    if rel is None or rel == ".":
        result.notes.append(f"git directory {git_dir!r} ignored (not below the root)")
        return
    path = posixpath.join(real_root, rel)
    kind = fs.kind(path)
    if kind == DIR:
        walker.grant(path, forbidden, git_dir)
    elif kind:
        result.notes.append(
            f"{git_dir} is not a plain directory (a worktree file or a symlink): not granted;"
            " git commands that write will fail unless its git directory is an extra"
        )


def _set_tmpdir(fs: OsFs, result: Writable, tmpdir: str, forbidden: set[str]) -> None:
    absolute = os.path.abspath(tmpdir)
    real = fs.realpath(absolute)
    clash = next((f for f in sorted(forbidden) if under(real, f) or under(f, real)), None)
    if clash is not None:
        result.refused.append((tmpdir, f"private TMPDIR overlaps a never-writable path ({clash})"))
    elif fs.kind(real) not in (DIR, MISSING):
        result.refused.append((tmpdir, "private TMPDIR is not a directory"))
    else:
        result.tmpdir = real


def _minimise(result: Writable) -> None:
    """Sort, drop duplicates and any rule already covered by a directory rule."""
    dirs: list[str] = []
    for path in sorted(set(result.dirs), key=lambda p: p.split("/")):
        if not dirs or not under(path, dirs[-1]):  # descendants sort right after their parent
            dirs.append(path)
    tmp = result.tmpdir
    result.dirs = [d for d in dirs if not (tmp and d != tmp and under(d, tmp))]
    covered = {*result.dirs, *([tmp] if tmp else [])}
    result.files = [f for f in sorted(set(result.files)) if not _covered(f, covered)]
    result.carved = sorted(set(result.carved))


def _covered(path: str, dirs: set[str]) -> bool:
    """``path`` lies beneath one of ``dirs``: its ancestors looked up, not every directory
    compared (a carved workspace grants thousands of files one by one)."""
    parent = posixpath.dirname(path)
    while True:
        if parent in dirs:
            return True
        if parent == "/" or not parent:
            return False
        parent = posixpath.dirname(parent)


def launch_chain(
    python: str,
    bash_env_file: str | None = None,
    home: str | None = None,
    bash: str | None = "/bin/bash",
) -> list[str]:
    """Files an *unconfined* process reads on the way to the confinement: never writable.

    Whoever can write one of them runs code before the Landlock domain exists: the login
    profile files (Claude Code and Codex run ``bash -l``, which reads them first), the
    BASH_ENV file, bash, the Python named in it and the ``pyvenv.cfg`` files it consults, this
    interpreter's standard library, and this package directory (the launcher and its
    ``__pycache__``). Pass the result as ``never``. Files those profiles source in turn
    (``~/.nvm/nvm.sh``, pyenv's shims) are beyond this list: never grant ``HOME`` whole.
    """
    paths = [python, os.path.realpath(python), os.path.dirname(os.path.abspath(__file__))]
    bindir = os.path.dirname(os.path.abspath(python))
    paths += [os.path.join(bindir, "pyvenv.cfg"), os.path.join(bindir, "..", "pyvenv.cfg")]
    paths.append(os.path.dirname(os.__file__))
    paths += [entry for entry in sys.path if entry.endswith(".zip")]
    paths += ["/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc"]
    if bash:
        paths += [bash, os.path.realpath(bash)]
    if bash_env_file:
        paths.append(bash_env_file)
    if home:
        for name in (".profile", ".bash_profile", ".bash_login", ".bashrc", ".bash_logout"):
            paths.append(os.path.join(home, name))
    return [os.path.normpath(os.path.abspath(p)) for p in paths]
