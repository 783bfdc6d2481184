"""What the walk collects, and the questions it asks along the way.

:class:`Record` holds the results (targets, commands, opaque names, read-only-ness, an error
from a nested script) and the walk's bookkeeping: function definitions, symbolic links the
command makes (a later write through one also writes what it names), whether something the
command did may have made or removed a directory (so a ``cd`` into it may work), expanding
words in a place, and asking the file system whether a destination is a directory.
"""

from __future__ import annotations

import os

from .expansion import Expander, Field
from .nodes import LIT, CommandList, Part, Word
from .parser import parse_word
from .results import CONTENTS, MARK, WORKTREE, Argv, ShellTarget
from .scanner import ShellSyntaxError
from .state import Place, merge

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .nodes import Node

    Flow = tuple[list[Place], list[Place]]

_HARMLESS = frozenset(
    {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin", "/dev/zero", "/dev/full"}
)
# operations that are not harmless on a device file
_DESTRUCTIVE = frozenset(
    {"rm", "mv", "rmdir", "ln", "ln-source", "chmod", "chown", "chgrp", "shred", "unlink"}
)
# operations that can make or remove a directory (or a link to one)
# operations that can make a directory (or a link to one), and those that can remove one
_MAKES_DIRECTORIES = frozenset(
    {"mkdir", "cp", "mv", "install", "ln", "tar", "unzip", "rsync", "git", "scp", "mktemp"}
    | {WORKTREE, CONTENTS}
    | {"editor", "patch", "find"}
)
_REMOVES_DIRECTORIES = frozenset(
    {
        "rm",
        "rmdir",
        "mv",
        "find-delete",
        "git",
        "rsync",
        "tar",
        "zip",
        "find",
        "patch",
        WORKTREE,
        CONTENTS,
    }
)
MAX_DEPTH = 16  # nested scripts and function calls followed
MAX_STEPS = 20000  # simple commands walked (loops, calls): past it, the command is refused


class Record:
    """Results and bookkeeping; the walker subclasses supply the running."""

    def __init__(
        self, fs: bool, strict: bool, extglob: bool, child_vars: dict[str, str | None]
    ) -> None:
        self.targets: list[ShellTarget] = []
        self.commands: list[Argv] = []
        self.opaque: list[str] = []
        self.read_only = True
        self.error: str | None = None
        self.functions: dict[str, list[Node]] = {}  # every body defined under a name
        self.surely_defined: set[str] = set()  # defined outside any branch or subshell
        self.branching = 0  # inside a branch, loop, subshell or function body
        self.calls: list[Node] = []  # function bodies being run (recursion is cut short)
        self.depth = 0
        self.steps = 0  # simple commands walked (see MAX_STEPS)
        self.fs = fs  # the working directory exists: ask the file system
        self.strict = strict  # the environment is known
        self.extglob = extglob
        self.child_vars = child_vars  # what a new shell process starts with
        self.links: dict[str, str] = {}  # symbolic links the command makes: link -> target
        self.unreadable: list[str] = []  # commands handed to other programs, unreadable
        self.handoffs: list[str] = []  # labels of commands handed outside the shell's tree
        self.handing: list[str] = []  # the hand-overs outside the tree being walked now
        self.remote_refs: list[str] = []  # refs a push changes on a remote (Effects')
        self.trust_temp = True  # MARK in a word comes from mktemp (the command holds none)
        self.origin: str | None = None  # the directory the command line starts in

    def merge(self, places: list[Place]) -> list[Place]:
        return merge(places)

    def add_opaque(self, name: str) -> None:
        name = name.replace(MARK, "")
        self.opaque.append(name)
        if self.handing:
            self.cannot_read(
                self.handing[-1],
                f"would run {name}, which may write what its command line does not name",
            )

    def cannot_read(self, label: str, why: str) -> None:
        """A command handed to ``label`` that the analysis cannot read whole."""
        where = (
            " outside the shell (no kernel boundary, no drift detection)" if self.handing else ""
        )
        self.unreadable.append(f"{label}{where} {why}")

    def record(self, words: list[str], extra: bool) -> None:
        self.commands.append(Argv([word.replace(MARK, "") for word in words], extra))

    def add_target(
        self,
        field: Field,
        how: str,
        place: Place,
        subtree: bool = False,
        directory: bool = False,
        roots: list[Field] | None = None,
    ) -> None:
        glob = field.glob
        if roots is not None and any(field is root for root in roots):
            subtree, glob = True, False  # find -exec CMD {}: anything under the root
        path = field.text
        absolute = path.startswith("/")
        dynamic = field.dynamic or (not absolute and place.lost)
        temp = False
        cwd = place.cwd
        if MARK in path or (not absolute and MARK in cwd):
            temp = self.trust_temp
            path, cwd = path.replace(MARK, ""), cwd.replace(MARK, "")
            place = Place(cwd, place.lost, None, None, place.vars, place.blind, place.unlikely)
        if dynamic and self.handing:
            self.cannot_read(self.handing[-1], f"would write {path}, known only when it runs")
        if how not in _DESTRUCTIVE and not field.dynamic and (absolute or not place.lost):
            resolved = path if absolute else place.resolve(path)
            if resolved in _HARMLESS or resolved.startswith(("/dev/fd/", "/proc/self/fd/")):
                return
        self.read_only = False
        pattern = field.pattern.replace(MARK, "") if glob and field.pattern else None
        self.targets.append(
            ShellTarget(path, cwd, how, subtree, directory, dynamic, glob, pattern, temp)
        )
        if self.links and not dynamic:
            self.through_links(place.resolve(path), how, place, subtree, directory)

    def through_links(
        self, path: str, how: str, place: Place, subtree: bool, directory: bool
    ) -> None:
        """A write to a symbolic link the command made also writes what the link names."""
        for _ in range(8):
            for prefix in _prefixes(path):
                if prefix in self.links:
                    path = self.links[prefix] + path[len(prefix) :]
                    break
            else:
                return
            self.targets.append(ShellTarget(path, place.cwd, how, subtree, directory))

    def may_have_changed(self, path: str, exists: bool) -> bool:
        """Whether something the command did before may have created or removed ``path``."""
        if self.opaque:
            return True
        path = path.replace(MARK, "")
        for target in self.targets:
            if target.how not in (_REMOVES_DIRECTORIES if exists else _MAKES_DIRECTORIES):
                continue
            if target.dynamic:
                return True
            written = (
                target.path
                if target.path.startswith("/")
                else os.path.normpath(os.path.join(target.cwd, target.path))
            )
            if target.glob and target.pattern is not None:
                from .globbing import glob_matches

                pattern = (
                    target.pattern
                    if target.pattern.startswith("/")
                    else os.path.join(target.cwd, target.pattern)
                )
                if any(glob_matches(pattern, prefix) for prefix in _prefixes(path)):
                    return True
                continue
            if written == path or path.startswith(written + "/") or written.startswith(path + "/"):
                return True
        return False

    def expander(self, place: Place) -> Expander:
        strict = self.strict

        def lookup(name: str) -> str | None:
            return place.lookup(name, strict)

        return Expander(lookup, "IFS" not in place.vars, self.reparse)

    def reparse(self, raw: str) -> Word:
        if not raw:
            return Word("", [], 0)  # an empty brace alternative: no word at all
        if (len(raw) - len(raw.rstrip("\\"))) % 2:  # bash drops a lone trailing backslash
            word = self.reparse(raw[:-1]) if raw[:-1] else Word("", [], 0)
            return Word(raw, word.parts + [Part(LIT, "", True)], 0)
        try:
            return parse_word(raw, self.extglob)
        except ShellSyntaxError:
            return Word(raw, [Part(LIT, raw, True)], 0)

    def probe(self, place: Place) -> Callable[[str], str]:
        fs = self.fs and not place.lost

        def kind(text: str) -> str:
            if not fs and not text.startswith("/"):
                return ""
            path = place.resolve(text)
            if os.path.isdir(path):
                return "d"
            return "f" if os.path.lexists(path) else "-"

        return kind

    def chdir(self, place: Place, field: Field) -> Place:
        """The place a command runs in after ``env -C``/``git -C`` (for that command only)."""
        if field.dynamic:
            return place.moved(place.resolve(field.text), True)
        return place.moved(place.resolve(field.text), place.lost and not field.text.startswith("/"))

    def run_list(self, body: CommandList, places: list[Place]) -> Flow:  # pragma: no cover
        raise NotImplementedError

    def run_command(self, node: Node, places: list[Place]) -> Flow:  # pragma: no cover
        raise NotImplementedError

    def call(self, name: str, place: Place) -> Flow:  # pragma: no cover
        raise NotImplementedError

    def script(
        self, field: Field, place: Place, name: str, child: bool = True
    ) -> Flow:  # pragma: no cover
        raise NotImplementedError


def _prefixes(path: str) -> list[str]:
    """``/a/b/c``, ``/a/b``, ``/a``."""
    out = [path]
    while True:
        path = os.path.dirname(path)
        if path in ("/", "") or path == out[-1]:
            return out
        out.append(path)
