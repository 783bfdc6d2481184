"""Programs that write many files at once: archivers, copiers between trees, ``find``.

``tar -x`` and ``unzip`` write anywhere under the directory they extract into (``-C DIR``,
``-d DIR``, else the working directory): that directory is reported as a subtree. ``tar -c``
and ``zip`` write their archive. ``rsync`` writes its destination's subtree (and deletes
its sources with ``--remove-source-files``); ``scp`` its local destination. ``patch``
writes files named inside the patch (opaque). ``find`` deletes under its roots with
``-delete``, writes ``-fprint`` files, and runs ``-exec`` commands on paths under its roots
(returned as ``nested`` with the roots standing in for ``{}``).
"""

from __future__ import annotations

from .effects import Effects, plain_operands
from .expansion import Field
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Handler, Probe

_TAR_VALUED = "fCTXbgKLNVHIF"
_TAR_LONG_VALUED = frozenset(
    {
        "file",
        "directory",
        "files-from",
        "exclude-from",
        "blocking-factor",
        "listed-incremental",
        "starting-file",
        "tape-length",
        "newer",
        "after-date",
        "label",
        "format",
        "use-compress-program",
        "info-script",
        "new-volume-script",
        "to-command",
        "exclude",
        "transform",
        "xform",
        "owner",
        "group",
        "mode",
        "mtime",
        "checkpoint-action",
        "index-file",
        "rsh-command",
        "rmt-command",
        "suffix",
        "newer-mtime",
        "record-size",
        "sparse-version",
        "strip-components",
        "volno-file",
        "level",
        "quoting-style",
        "quote-chars",
        "no-quote-chars",
        "warning",
        "exclude-tag",
        "exclude-tag-all",
        "exclude-tag-under",
        "add-file",
        "hole-detection",
        "owner-map",
        "group-map",
        "atime-preserve",
        "pax-option",
        "clamp-mtime",
    }
)
_TAR_LONG_OPTIONAL = frozenset({"backup", "occurrence", "one-top-level", "checkpoint", "totals"})


def _tar(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    if args and not args[0].dynamic and args[0].text and args[0].text[0] != "-":
        # traditional form: "tar xzf a.tgz" - letters, then the values of those taking one
        letters = args[0].text
        rest = args[1:]
        rebuilt: list[Field] = []
        for letter in letters:
            rebuilt.append(Field("-" + letter))
            if letter in _TAR_VALUED and rest:
                rebuilt.append(rest[0])
                rest = rest[1:]
        args = rebuilt + rest
    opts = getopt(
        args, valued=_TAR_VALUED, long_valued=_TAR_LONG_VALUED, long_optional=_TAR_LONG_OPTIONAL
    )
    for key in (
        "to-command",
        "info-script",
        "new-volume-script",
        "checkpoint-action",
        "use-compress-program",
        "rsh-command",
        "rmt-command",
        "F",
        "I",
    ):
        if opts.has(key):
            eff.opaque.append("tar --" + key if len(key) > 1 else "tar -" + key)
    for key in ("index-file", "volno-file"):
        for field in opts.values(key):
            eff.hit(field, "tar")
    if opts.has("x", "extract", "get"):
        if opts.has("O", "to-stdout", "to-command"):
            return
        directories = opts.values("C", "directory")
        if not directories:
            eff.hit(Field("."), "tar", True)
        for directory in directories:
            eff.hit(directory, "tar", True)
        return
    if opts.has(
        "c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete"
    ):
        archive = opts.value("f", "file")
        if archive is not None and archive.text != "-":
            eff.hit(archive, "tar")
        if opts.has("remove-files"):
            plain_operands(eff, "tar", opts.operands, True)


def _unzip(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="dxPOI")
    if opts.has("l", "t", "v", "z", "p", "c", "Z"):
        return
    directory = opts.value("d")
    eff.hit(directory if directory is not None else Field("."), "unzip", True)


def _zip(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="bnPtxiOZs",
        long_valued=frozenset(
            {
                "out",
                "temp-path",
                "suffixes",
                "password",
                "exclude",
                "include",
                "compression-method",
                "split-size",
            }
        ),
    )
    output = opts.value("O", "out")
    if opts.operands:
        archive = opts.operands[0]
        text = archive.text if "." in archive.text.rsplit("/", 1)[-1] else archive.text + ".zip"
        eff.hit(output if output is not None else Field(text, archive.dynamic, archive.glob), "zip")
        if opts.has("m", "move"):
            plain_operands(eff, "zip", opts.operands[1:], True)


def _local(field: Field) -> bool:
    """Not ``host:path`` or ``rsync://``."""
    text = field.text
    colon = text.find(":")
    return colon < 0 or "/" in text[:colon]


def _rsync(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    writes = ("log-file", "write-batch", "only-write-batch", "backup-dir")
    opts = getopt(
        args,
        valued="efBMT",
        long_valued=frozenset(
            {
                "rsh",
                "rsync-path",
                "exclude",
                "include",
                "filter",
                "files-from",
                "exclude-from",
                "include-from",
                "log-file",
                "log-file-format",
                "backup-dir",
                "partial-dir",
                "temp-dir",
                "compare-dest",
                "copy-dest",
                "link-dest",
                "chmod",
                "block-size",
                "max-size",
                "min-size",
                "timeout",
                "port",
                "password-file",
                "out-format",
                "bwlimit",
                "suffix",
                "write-batch",
                "read-batch",
                "only-write-batch",
                "remote-option",
                "usermap",
                "groupmap",
                "chown",
                "iconv",
                "protocol",
                "sockopts",
                "outbuf",
                "max-delete",
                "modify-window",
                "contimeout",
                "address",
                "skip-compress",
                "checksum-choice",
                "compress-choice",
                "compress-level",
                "stop-after",
                "stop-at",
                "info",
                "debug",
                "mkpath-mode",
            }
        ),
    )
    for key in writes:
        for field in opts.values(key):
            eff.hit(field, "rsync", key == "backup-dir")
    operands = opts.operands
    if len(operands) < 2:
        return
    dest = operands[-1]
    if _local(dest):
        eff.hit(dest, "rsync", True)
    if opts.has("remove-source-files"):
        plain_operands(eff, "rsync", [s for s in operands[:-1] if _local(s)], True)


def _scp(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(args, valued="cDFiJloPSX")
    if len(opts.operands) >= 2 and _local(opts.operands[-1]):
        eff.hit(opts.operands[-1], "scp", True)


def _patch(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="BDdFgiopruVYz",
        long_valued=frozenset(
            {
                "output",
                "directory",
                "input",
                "strip",
                "reject-file",
                "backup-if-mismatch",
                "prefix",
                "basename-prefix",
                "suffix",
                "fuzz",
                "get",
                "quoting-style",
                "version-control",
            }
        ),
    )
    if opts.has("dry-run", "C", "check"):
        return
    eff.opaque.append("patch")
    for field in opts.values("o", "output", "r", "reject-file"):
        if field.text != "-":
            eff.hit(field, "patch")
    if opts.operands:
        eff.hit(opts.operands[0], "patch")


_FIND_VALUED = frozenset(
    {
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-perm",
        "-size",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-newer",
        "-anewer",
        "-cnewer",
        "-samefile",
        "-inum",
        "-links",
        "-maxdepth",
        "-mindepth",
        "-printf",
        "-fstype",
        "-lname",
        "-ilname",
        "-context",
        "-used",
        "-files0-from",
        "-regextype",
        "-D",
        "-newermt",
        "-newerct",
        "-newerat",
    }
)
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = {"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}


class FindExpression:
    """What a find command line does: its roots, and its acting predicates."""

    __slots__ = ("roots", "deletes", "runs", "writes", "other")

    def __init__(self) -> None:
        self.roots: list[Field] = []
        self.deletes = False
        self.runs: list[list[Field]] = []  # -exec CMD ... ; (the command's words)
        self.writes: list[Field] = []
        self.other = False  # something it could not read (a dynamic predicate)


def read_find(args: list[Field]) -> FindExpression:
    result = FindExpression()
    index = 0
    count = len(args)
    while (
        index < count
        and args[index].text in ("-H", "-L", "-P")
        or (index < count and args[index].text.startswith(("-D", "-O")))
    ):
        index += 2 if args[index].text == "-D" else 1
    while (
        index < count
        and not args[index].text.startswith("-")
        and args[index].text not in ("(", "!", ")", ",")
    ):
        result.roots.append(args[index])
        index += 1
    if not result.roots:
        result.roots.append(Field("."))
    while index < count:
        field = args[index]
        text = field.text
        index += 1
        if field.dynamic:
            result.other = True
        elif text == "-delete":
            result.deletes = True
        elif text in _FIND_EXEC:
            words: list[Field] = []
            while index < count and args[index].text not in (";", "+"):
                words.append(args[index])
                index += 1
            index += 1
            result.runs.append(words)
        elif text in _FIND_WRITES:
            if index < count:
                result.writes.append(args[index])
            index += _FIND_WRITES[text]
        elif text in _FIND_VALUED:
            index += 1
    return result


def _find(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    found = read_find(args)
    for field in found.writes:
        eff.hit(field, "find")
    if found.deletes:
        for root in found.roots:
            eff.hit(root, "find-delete", True)
    for words in found.runs:
        if words:
            eff.nested.append((words, found.roots))
    if found.other:
        eff.opaque.append("find")


ARCHIVE_HANDLERS: dict[str, Handler] = {
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "unzip": _unzip,
    "zip": _zip,
    "rsync": _rsync,
    "scp": _scp,
    "patch": _patch,
    "find": _find,
    "gfind": _find,
}
