"""The vocabulary of write effects shared by the modules that know programs' arguments.

A :class:`Hit` is one path a command writes; :class:`Effects` collects a command's hits,
the effects nobody can see (``opaque``), the commands it runs itself (``nested``:
``find -exec``), the commands it hands to another program to run (:class:`Carried`:
git's aliases and editors, a multiplexer's new window, a scheduler's job) and the refs a
``git push`` changes on a remote (``remote_refs``).
:func:`copy_into` is the rule cp, mv, ln and install share: ``DEST/NAME`` when the
destination is (or must be) a directory, else the destination itself.
"""

from __future__ import annotations

from .expansion import Field, escape_pattern
from .options import Options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Probe = Callable[[str], str]
    Handler = Callable[[str, list[Field], "Effects", Probe], None]


class Hit:
    """One path a command writes; ``outside`` names the program that writes it when that is
    not the shell's child (a container engine's daemon), so the kernel boundary never holds
    the write and a path known only at run time cannot be left to it."""

    __slots__ = ("field", "how", "subtree", "directory", "outside")

    def __init__(
        self, field: Field, how: str, subtree: bool, directory: bool, outside: str | None = None
    ) -> None:
        self.field = field
        self.how = how
        self.subtree = subtree
        self.directory = directory
        self.outside = outside


class Carried:
    """A command one program hands another to run: a shell command line (``script``), a
    command's words (``argv``), or one the parser cannot read (``unreadable``, a sentence
    saying why: it arrives through a variable, standard input or a file).

    ``label`` names the hand-over (``tmux new-window``, ``git -c alias.x``). ``outside``:
    it runs in a process that is not a descendant of the shell (a multiplexer's server, a
    scheduler, a service manager), so neither the kernel boundary nor drift detection
    reaches it. ``cwd``: the directory it runs in, relative to the command's; None is the
    command's own directory when ``here``, else a directory nobody can know.
    """

    __slots__ = ("label", "script", "argv", "unreadable", "outside", "cwd", "here")

    def __init__(
        self,
        label: str,
        *,
        script: Field | None = None,
        argv: list[Field] | None = None,
        unreadable: str | None = None,
        outside: bool = False,
        cwd: Field | None = None,
        here: bool = True,
    ) -> None:
        self.label = label
        self.script = script
        self.argv = argv
        self.unreadable = unreadable
        self.outside = outside
        self.cwd = cwd
        self.here = here

    def __repr__(self) -> str:
        what = self.script or self.argv or self.unreadable
        return f"Carried({self.label!r}, {what!r}, outside={self.outside})"


class Effects:
    """What one command does to files.

    ``env``: the variables the command line itself gives the program (``VAR=x cmd``, ``env
    VAR=x``, earlier assignments; None values are known only at run time); ``stdin``: the
    text a here-document or here-string gives it, and whether it holds expansions; ``cwd``:
    the absolute directory it runs in when the file system may be asked about it (else
    None); ``origin``: the directory the whole command line started in.
    """

    __slots__ = (
        "hits", "opaque", "nested", "known", "chdir", "links", "carried", "env", "stdin", "cwd",
        "origin", "remote_refs",
    )  # fmt: skip

    def __init__(
        self,
        env: Mapping[str, str | None] | None = None,
        stdin: tuple[str, bool] | None = None,
        cwd: str | None = None,
        origin: str | None = None,
    ) -> None:
        self.hits: list[Hit] = []
        self.opaque: list[str] = []
        # commands it runs: (argv, the fields standing for paths under a root, or None)
        self.nested: list[tuple[list[Field], list[Field] | None]] = []
        self.known = True
        self.chdir: Field | None = None  # git -C DIR: paths are relative to DIR
        self.links: list[tuple[Field, Field]] = []  # symbolic links made: (link, what it names)
        self.carried: list[Carried] = []
        # refs a push changes on a remote, as written (``+HEAD:refs/x`` gives ``refs/x``;
        # ``*`` any ref: --mirror)
        self.remote_refs: list[str] = []
        self.env: Mapping[str, str | None] = env if env is not None else {}
        self.stdin = stdin
        self.cwd = cwd
        self.origin = origin

    def hit(
        self,
        field: Field,
        how: str,
        subtree: bool = False,
        directory: bool = False,
        outside: str | None = None,
    ) -> None:
        self.hits.append(Hit(field, how, subtree, directory, outside))

    def carry(self, carried: Carried) -> None:
        self.carried.append(carried)

    def cannot_read(self, label: str, why: str, outside: bool = False) -> None:
        self.carried.append(Carried(label, unreadable=why, outside=outside))


def quote(text: str) -> str:
    """``text`` as one shell word (single quotes)."""
    if text and all(char.isalnum() or char in "%+,-./:=@_" for char in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def join(base: Field, name: str) -> Field:
    """``base/name`` as a field (``name`` is literal text)."""
    text = base.text
    joined = text + name if text.endswith("/") else text + "/" + name
    pattern = None
    if base.glob:
        prefix = base.pattern or escape_pattern(text)
        pattern = prefix + ("" if prefix.endswith("/") else "/") + escape_pattern(name)
    return Field(joined, base.dynamic, base.glob, pattern)


def basename(text: str) -> str:
    return text.rstrip("/").rsplit("/", 1)[-1]


def plain_operands(
    eff: Effects, how: str, fields: list[Field], subtree: bool = False, directory: bool = False
) -> None:
    for field in fields:
        eff.hit(field, how, subtree, directory)


def copy_into(
    eff: Effects,
    how: str,
    sources: list[Field],
    dest: Field,
    probe: Probe,
    *,
    as_dir: bool = False,
    recursive: bool = False,
    keep_path: bool = False,
) -> None:
    """Copy-like writes of ``sources`` to ``dest``: ``dest/NAME`` when ``dest`` is (or must
    be) a directory, else ``dest`` itself (a subtree unless it is known to be a file)."""
    kind = "" if dest.dynamic or dest.glob else probe(dest.text)
    if as_dir or len(sources) > 1 or kind == "d":
        for source in sources:
            name = source.text.strip("/") if keep_path else basename(source.text)
            if source.dynamic or source.glob or name in ("", ".", ".."):
                eff.hit(dest, how, True)
            else:
                eff.hit(join(dest, name), how, recursive)
        return
    eff.hit(dest, how, recursive or kind != "f")


def dest_and_sources(opts: Options) -> tuple[Field | None, list[Field], bool]:
    """(destination, sources, destination is a directory) for cp/mv/ln/install."""
    target = opts.value("t", "target-directory")
    if target is not None:
        return target, opts.operands, True
    if len(opts.operands) < 2:
        return None, opts.operands, False
    return opts.operands[-1], opts.operands[:-1], False
