"""What an analysis returns: :class:`ShellTarget`, :class:`Argv` and :class:`ShellAnalysis`."""

from __future__ import annotations

WORKTREE = "git-worktree"
"""The ``how`` of a target standing for every file of the repository git runs in."""
CONTENTS = "git-contents"
"""The ``how`` of a directory whose contents git writes (a pathspec), not the directory."""
MARK = "\ufdd0"
"""Put before the ``X``s of a name ``mktemp`` makes (a Unicode noncharacter, no path holds
it): how a target knows it is that name (:mod:`.tempfiles`, :attr:`ShellTarget.temp`)."""


class ShellTarget:
    """A path a command writes.

    ``path`` is the word as bash produces it (quotes removed, braces and tildes expanded;
    for copies into a directory, ``DIR/NAME``), relative to ``cwd`` unless absolute.
    ``how`` names the operation (``redirect``, ``tee``, ``cp``, ``rm``, ``git``, ...);
    ``subtree``: everything under the path goes along (``rm -r``, ``mv``, ``rmdir``, extraction
    into a directory, ``find -delete``); ``directory``: the command creates it as a directory;
    ``dynamic``: the path (or its directory) holds an expansion nobody can know before the
    command runs, and ``path`` shows its source text; ``glob``: the path has unquoted glob
    characters, and ``pattern`` is the glob to expand (quoted characters escaped). ``temp``:
    the path is, or lies below, a name this same command's ``mktemp`` makes (its random part
    still written as the template's ``X``s); a name that only looks like one is not.
    """

    __slots__ = (
        "path", "cwd", "how", "subtree", "directory", "dynamic", "glob", "pattern", "temp",
    )  # fmt: skip

    def __init__(
        self,
        path: str,
        cwd: str,
        how: str,
        subtree: bool = False,
        directory: bool = False,
        dynamic: bool = False,
        glob: bool = False,
        pattern: str | None = None,
        temp: bool = False,
    ) -> None:
        self.path = path
        self.cwd = cwd
        self.how = how
        self.subtree = subtree
        self.directory = directory
        self.dynamic = dynamic
        self.glob = glob
        self.pattern = pattern if glob else None
        self.temp = temp

    def key(self) -> tuple[str, str, str, bool, bool, bool, bool]:
        return (
            self.path,
            self.cwd,
            self.how,
            self.subtree,
            self.directory,
            self.dynamic,
            self.glob,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShellTarget):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        flags = "".join(
            f", {name}=True"
            for name in ("subtree", "directory", "dynamic", "glob", "temp")
            if getattr(self, name)
        )
        return f"ShellTarget({self.path!r}, cwd={self.cwd!r}, how={self.how!r}{flags})"


class Argv(list[str]):
    """A command's arguments; ``extra_args`` when it runs with more that nobody can see
    (``xargs CMD``, ``find -exec CMD {}``)."""

    __slots__ = ("extra_args",)

    def __init__(self, words: list[str], extra_args: bool = False) -> None:
        super().__init__(words)
        self.extra_args = extra_args

    def __repr__(self) -> str:
        return f"Argv({list(self)!r}{', extra_args=True' if self.extra_args else ''})"


class ShellAnalysis:
    """Everything :func:`analyse` found in one command line.

    ``error``: bash would refuse it as a syntax error (one sentence), and nothing else is
    filled in. ``targets``: the paths it writes, in order, without repeats. ``read_only``: it
    provably only reads. ``commands``: every simple command's arguments, wrappers stripped,
    nested ones included (also those handed to other programs). ``opaque``: names of commands
    that may write files nobody can name from the command line (interpreters, build tools,
    unknown programs, ``eval $x``, ...). ``unreadable``: one sentence per command handed to
    another program that cannot be read whole (it arrives through a variable, standard input
    or a file; or it runs outside the shell's process tree, where neither the kernel
    boundary nor drift detection reaches, and may write what its command line does not
    name). ``handoffs``: labels of the commands handed to a process outside the shell's tree
    (``tmux new-window``, ``at``). ``remote_refs``: the refs a ``git push`` changes on a
    remote, as written (``*``: any ref).
    """

    __slots__ = (
        "targets", "error", "read_only", "commands", "opaque", "unreadable", "handoffs",
        "remote_refs",
    )  # fmt: skip

    def __init__(self) -> None:
        self.targets: list[ShellTarget] = []
        self.error: str | None = None
        self.read_only = False
        self.commands: list[Argv] = []
        self.opaque: list[str] = []
        self.unreadable: list[str] = []
        self.handoffs: list[str] = []
        self.remote_refs: list[str] = []

    def __repr__(self) -> str:
        if self.error is not None:
            return f"ShellAnalysis(error={self.error!r})"
        return (
            f"ShellAnalysis(targets={self.targets!r}, read_only={self.read_only}, "
            f"commands={self.commands!r}, opaque={self.opaque!r}, "
            f"unreadable={self.unreadable!r})"
        )
