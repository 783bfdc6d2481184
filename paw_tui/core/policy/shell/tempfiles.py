"""``mktemp``: the name it will make, as the parser can know it before it runs.

The random part of the name is unknown, so it stays written as the template's ``X``s:
``$(mktemp)`` is ``/tmp/tmp.XXXXXXXXXX``. A variable assigned from it
(``tmp=$(mktemp)``) holds that text, so ``> "$tmp"`` and ``rm -f "$tmp"`` are targets in the
temporary directory (the gate lets a fresh temporary name through: it can clobber nothing)
instead of paths known only at run time.
"""

from __future__ import annotations

from .expansion import Field, escape_pattern
from .options import getopt

DEFAULT_TEMPLATE = "tmp.XXXXXXXXXX"
DEFAULT_DIRECTORY = "/tmp"  # $TMPDIR, usually: the gate treats both as temporary directories


class TempName:
    """What one ``mktemp`` call makes: ``path`` (template ``X``s kept), its glob ``pattern``,
    whether it is a ``directory``; None from :func:`temp_name` for ``-u`` (nothing made)."""

    __slots__ = ("path", "pattern", "directory")

    def __init__(self, path: str, pattern: str, directory: bool) -> None:
        self.path = path
        self.pattern = pattern
        self.directory = directory


def temp_name(args: list[Field]) -> TempName | None:
    opts = getopt(
        args,
        valued="p",
        long_valued=frozenset({"suffix", "tmpdir"}),
        long_optional=frozenset({"tmpdir"}),
    )
    if opts.has("u", "dry-run"):
        return None
    template = opts.operands[0].text if opts.operands else DEFAULT_TEMPLATE
    stem = template.rstrip("X")
    xs = template[len(stem) :] or "XXX"
    suffix_field = opts.value("suffix")
    suffix = suffix_field.text if suffix_field is not None else ""
    directory = opts.value("p", "tmpdir")
    base = directory.text if directory is not None else None
    if base is None and (opts.has("t", "tmpdir") or not opts.operands):
        base = DEFAULT_DIRECTORY
    prefix = base.rstrip("/") + "/" if base else ""
    path = prefix + stem + xs + suffix
    pattern = (
        (escape_pattern(base.rstrip("/")) + "/" if base else "")
        + escape_pattern(stem)
        + "*"
        + escape_pattern(suffix)
    )
    return TempName(path, pattern, opts.has("d", "directory"))


def is_fresh_temp_name(path: str, temp_dirs: tuple[str, ...]) -> bool:
    """Whether ``path`` lies in a name ``mktemp`` makes in a temporary directory: its first
    component below the directory keeps a template's ``XXX`` (a real name never does)."""
    for directory in temp_dirs:
        prefix = directory.rstrip("/") + "/"
        if path.startswith(prefix):
            first = path[len(prefix) :].split("/", 1)[0]
            return "XXX" in first
    return False
