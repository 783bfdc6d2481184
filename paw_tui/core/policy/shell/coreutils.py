"""The coreutils that write the files they are given: cp, mv, ln, link, install, rm, rmdir,
unlink, tee, dd, touch, mkdir, mkfifo, mknod, truncate, shred, fallocate, chmod, chown, chgrp.

Options are read the way GNU getopt reads them (:func:`.options.getopt`), so option values
are not paths (``touch -d yesterday F``, ``mkdir -m 755 D``, ``truncate -s 0 F``) and
``-t``/``--target-directory`` destinations are found wherever they stand. A copy into an
existing directory writes ``DIR/NAME`` (:func:`.effects.copy_into`); ``mv`` also takes its
sources' subtrees; a hard link's source becomes writable through the link (``ln-source``);
a symbolic link is remembered so later writes through it reach what it names.
"""

from __future__ import annotations

from .effects import Effects, basename, copy_into, dest_and_sources, plain_operands
from .expansion import Field
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Handler, Probe

_E: frozenset[str] = frozenset()

_CP_LONG_FLAGS = frozenset(
    {
        "archive",
        "attributes-only",
        "copy-contents",
        "dereference",
        "force",
        "interactive",
        "link",
        "no-dereference",
        "no-clobber",
        "parents",
        "recursive",
        "remove-destination",
        "strip-trailing-slashes",
        "symbolic-link",
        "no-target-directory",
        "verbose",
        "one-file-system",
        "debug",
        "keep-directory-symlink",
    }
)
_TARGET = frozenset({"target-directory", "suffix"})


def _cp(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="St",
        long_flags=_CP_LONG_FLAGS,
        long_valued=_TARGET | {"no-preserve", "sparse"},
        long_optional=frozenset({"backup", "preserve", "reflink", "update", "context"}),
    )
    dest, sources, as_dir = dest_and_sources(opts)
    if dest is None:
        return
    recursive = opts.has("a", "r", "R", "archive", "recursive")
    if opts.has("l", "link"):  # hard links: each source becomes writable through its copy
        for source in sources:
            eff.hit(source, "ln-source", recursive)
    if opts.has("T", "no-target-directory"):
        eff.hit(dest, "cp", recursive)
        return
    copy_into(
        eff,
        "cp",
        sources,
        dest,
        probe,
        as_dir=as_dir or opts.has("parents"),
        recursive=recursive,
        keep_path=opts.has("parents"),
    )


def _mv(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="St",
        long_valued=_TARGET,
        long_flags=frozenset(
            {
                "force",
                "interactive",
                "no-clobber",
                "no-copy",
                "strip-trailing-slashes",
                "no-target-directory",
                "update",
                "verbose",
                "exchange",
            }
        ),
        long_optional=frozenset({"backup", "update", "context"}),
    )
    dest, sources, as_dir = dest_and_sources(opts)
    if dest is None:
        return
    for source in sources:
        eff.hit(source, "mv", True)
    if opts.has("T", "no-target-directory"):
        eff.hit(dest, "mv", True)
        return
    copy_into(eff, "mv", sources, dest, probe, as_dir=as_dir, recursive=True)


def _ln(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="St",
        long_valued=_TARGET,
        long_flags=frozenset(
            {
                "directory",
                "force",
                "interactive",
                "logical",
                "no-dereference",
                "physical",
                "relative",
                "symbolic",
                "no-target-directory",
                "verbose",
            }
        ),
        long_optional=frozenset({"backup"}),
    )
    target = opts.value("t", "target-directory")
    symbolic = opts.has("s", "symbolic")
    if target is not None:
        sources, dest, as_dir = opts.operands, target, True
    elif len(opts.operands) == 1:
        sources = opts.operands
        dest, as_dir = Field(basename(sources[0].text), sources[0].dynamic, sources[0].glob), False
    elif len(opts.operands) >= 2:
        sources, dest, as_dir = opts.operands[:-1], opts.operands[-1], False
    else:
        return
    if not symbolic:  # a hard link makes the source writable through the new name
        for source in sources:
            eff.hit(source, "ln-source")
    first = len(eff.hits)
    if opts.has("T", "no-target-directory") or (
        opts.has("n", "no-dereference") and len(sources) == 1 and not as_dir
    ):
        eff.hit(dest, "ln")
    else:
        copy_into(eff, "ln", sources, dest, probe, as_dir=as_dir)
    made = eff.hits[first:]
    if symbolic and len(made) == len(sources):  # later writes to the link land on its source
        for hit, source in zip(made, sources, strict=True):
            if not (hit.field is dest and as_dir):
                eff.links.append((hit.field, source))


def _link(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args)
    if len(opts.operands) == 2:
        eff.hit(opts.operands[0], "ln-source")
        eff.hit(opts.operands[1], "ln")


def _install(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="gmoSt",
        long_valued=_TARGET | {"group", "mode", "owner", "strip-program"},
        long_flags=frozenset(
            {
                "compare",
                "directory",
                "preserve-timestamps",
                "strip",
                "no-target-directory",
                "verbose",
                "preserve-context",
            }
        ),
        long_optional=frozenset({"backup", "context"}),
    )
    if opts.has("strip-program"):
        eff.opaque.append("install --strip-program")
    if opts.has("d", "directory"):
        plain_operands(eff, "install", opts.operands, directory=True)
        return
    dest, sources, as_dir = dest_and_sources(opts)
    if dest is None:
        return
    if opts.has("T", "no-target-directory"):
        eff.hit(dest, "install")
        return
    copy_into(eff, "install", sources, dest, probe, as_dir=as_dir)


def _rm(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        long_flags=frozenset(
            {"force", "recursive", "dir", "verbose", "one-file-system", "no-preserve-root"}
        ),
        long_optional=frozenset({"interactive", "preserve-root"}),
    )
    plain_operands(eff, "rm", opts.operands, opts.has("r", "R", "recursive"))


def _rmdir(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, long_flags=frozenset({"parents", "verbose", "ignore-fail-on-non-empty"}))
    for field in opts.operands:
        eff.hit(field, "rmdir", True)
        if opts.has("p", "parents") and not field.dynamic:
            text = field.text.rstrip("/")
            while "/" in text.strip("/"):
                text = text.rsplit("/", 1)[0].rstrip("/")
                eff.hit(Field(text, field.dynamic, field.glob), "rmdir", True)


def _simple(
    valued: str,
    long_valued: frozenset[str] = _E,
    subtree: bool = False,
    directory: bool = False,
    skip: int = 0,
    long_optional: frozenset[str] = _E,
    recursive: str = "",
) -> Handler:
    """Commands whose operands (after ``skip`` leading ones) are all written."""

    def handler(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
        opts = getopt(args, valued=valued, long_valued=long_valued, long_optional=long_optional)
        deep = subtree or (bool(recursive) and opts.has(*recursive.split(",")))
        plain_operands(eff, name, opts.operands[skip:], deep, directory)

    return handler


_MODE_CHARS = frozenset("rwxXstugoa,+-=0123456789")


def _chmod(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    # "chmod -w f": a mode that looks like an option
    words: list[Field] = []
    mode_seen = name != "chmod"
    for field in args:
        text = field.text
        if (
            not mode_seen
            and len(text) > 1
            and text[0] == "-"
            and not field.dynamic
            and all(c in _MODE_CHARS for c in text[1:])
            and any(c in "rwxXst" for c in text)
        ):
            mode_seen = True
            words.append(Field("=" + text, field.dynamic))  # keep it an operand
            continue
        words.append(field)
    opts = getopt(
        words,
        long_valued=frozenset({"reference", "from"}),
        long_flags=frozenset(
            {
                "changes",
                "silent",
                "quiet",
                "verbose",
                "recursive",
                "no-preserve-root",
                "preserve-root",
                "dereference",
                "no-dereference",
            }
        ),
    )
    operands = opts.operands if opts.has("reference") else opts.operands[1:]
    plain_operands(eff, name, operands, opts.has("R", "recursive"))


def _dd(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    for field in args:
        if field.text.startswith("of="):
            eff.hit(Field(field.text[3:], field.dynamic, field.glob), "dd")


def _tee(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        long_optional=frozenset({"output-error"}),
        long_flags=frozenset({"append", "ignore-interrupts"}),
    )
    plain_operands(eff, "tee", opts.operands)


COREUTILS: dict[str, Handler] = {
    "cp": _cp,
    "mv": _mv,
    "ln": _ln,
    "link": _link,
    "install": _install,
    "rm": _rm,
    "rmdir": _rmdir,
    "unlink": _simple(""),
    "tee": _tee,
    "dd": _dd,
    "touch": _simple("drt", frozenset({"date", "reference", "time"})),
    "mkdir": _simple(
        "m", frozenset({"mode"}), directory=True, long_optional=frozenset({"context"})
    ),
    "mkfifo": _simple("m", frozenset({"mode"})),
    "mknod": _simple("m", frozenset({"mode"})),
    "truncate": _simple("sr", frozenset({"size", "reference"})),
    "shred": _simple(
        "nsx",
        frozenset({"iterations", "random-source", "size"}),
        long_optional=frozenset({"remove"}),
    ),
    "fallocate": _simple("lonx", frozenset({"length", "offset"})),
    "chmod": _chmod,
    "chown": _chmod,
    "chgrp": _chmod,
}
