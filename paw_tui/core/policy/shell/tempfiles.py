"""``mktemp``: the name it will make, as the parser can know it before it runs.

The random part of the name is unknown, so it stays written as the template's ``X``s:
``$(mktemp)`` is ``/tmp/tmp.XXXXXXXXXX``. A variable assigned from it
(``tmp=$(mktemp)``) holds that text, so ``> "$tmp"`` and ``rm -f "$tmp"`` are targets in the
temporary directory (the gate lets a fresh temporary name through: it can clobber nothing)
instead of paths known only at run time.

Only a name this command's ``mktemp`` made counts as fresh, never one that merely looks like
it (``/tmp/fooXXX`` typed by hand may be a symbolic link planted earlier): the name carries
:data:`MARK`, a character no path holds, from ``mktemp`` through variables and words to the
target, where it is taken out again and the target is marked ``temp``
(:meth:`.record.Record.add_target`). A command that holds the character itself gets no such
targets.
"""

from __future__ import annotations

from .expansion import Field, escape_pattern
from .options import getopt
from .results import MARK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_TEMPLATE = "tmp.XXXXXXXXXX"
DEFAULT_DIRECTORY = "/tmp"  # $TMPDIR, usually: the gate treats both as temporary directories


class TempName:
    """What one ``mktemp`` call makes: ``path`` (template ``X``s kept, :data:`MARK` before
    them), its glob ``pattern``, whether it is a ``directory``, whether its directory is
    known only at run time (``dynamic``); None from :func:`temp_name` for ``-u`` (nothing
    made)."""

    __slots__ = ("path", "pattern", "directory", "dynamic")

    def __init__(self, path: str, pattern: str, directory: bool, dynamic: bool) -> None:
        self.path = path
        self.pattern = pattern
        self.directory = directory
        self.dynamic = dynamic


def temp_name(args: list[Field], env: Mapping[str, str | None] | None = None) -> TempName | None:
    """The name ``mktemp ARGS`` makes; ``env``: variables the command line sets (``TMPDIR``),
    None values known only at run time."""
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
    given = opts.value("p", "tmpdir")
    dynamic = any(field.dynamic for field in args)
    tmpdir: str | None = DEFAULT_DIRECTORY
    if env is not None and "TMPDIR" in env:
        tmpdir = env["TMPDIR"]
        if tmpdir is None:
            dynamic, tmpdir = True, "$TMPDIR"
        tmpdir = tmpdir or DEFAULT_DIRECTORY
    base: str | None = None
    if opts.has("t"):  # $TMPDIR first, then -p DIR, then /tmp
        base = tmpdir if env is not None and "TMPDIR" in env else None
        base = base or (given.text if given is not None else None) or tmpdir
    elif given is not None and given.text:
        base = given.text
    elif given is not None or opts.has("tmpdir") or not opts.operands:
        base = tmpdir
    prefix = base.rstrip("/") + "/" if base else ""
    path = prefix + stem + MARK + xs + suffix
    pattern = (
        (escape_pattern(base.rstrip("/")) + "/" if base else "")
        + escape_pattern(stem)
        + "*"
        + escape_pattern(suffix)
    )
    return TempName(path, pattern, opts.has("d", "directory"), dynamic)
