"""The paths a tool call would write: as found (:class:`RawTarget`) and as resolved
(:class:`Target`)."""

from __future__ import annotations


class RawTarget:
    """A path as the call names it, relative to ``cwd`` (the event's when None).

    ``subtree``: the operation takes a directory's contents along (``rm -r``, ``mv``);
    ``directory``: it creates a directory (``mkdir``: ``dir/**`` owns the directory it makes);
    ``contents``: it writes below the path but not the path itself (``find DIR -delete``).
    """

    __slots__ = ("path", "cwd", "subtree", "directory", "contents")

    def __init__(
        self,
        path: str,
        cwd: str | None = None,
        *,
        subtree: bool = False,
        directory: bool = False,
        contents: bool = False,
    ) -> None:
        self.path = path
        self.cwd = cwd
        self.subtree = subtree
        self.directory = directory
        self.contents = contents

    def __repr__(self) -> str:
        flags = [name for name in ("subtree", "directory", "contents") if getattr(self, name)]
        return f"RawTarget({self.path!r}, cwd={self.cwd!r}{''.join(', ' + f for f in flags)})"


class Target:
    """One path the tool call would write, as given and as resolved.

    ``relative`` is the root-relative POSIX path (``""`` for the root) or None outside the
    root; ``display`` is what records and messages show. The flags are :class:`RawTarget`'s.
    """

    __slots__ = ("given", "relative", "display", "subtree", "directory", "contents", "alias_of")

    def __init__(
        self,
        given: str,
        relative: str | None,
        display: str,
        raw: RawTarget | None = None,
    ) -> None:
        self.given = given
        self.relative = relative
        self.display = display
        self.subtree = raw.subtree if raw is not None else False
        self.directory = raw.directory if raw is not None else False
        self.contents = raw.contents if raw is not None else False
        self.alias_of: str | None = None
        """The protected file this one is a hard link to (the same inode), if any."""

    def __repr__(self) -> str:
        return f"Target({self.display!r}, subtree={self.subtree}, directory={self.directory})"
