"""What the programs that write files write, from their arguments.

:func:`command_effects` takes a command's name and its expanded arguments and returns the
paths it writes (:class:`Hit`: how, whether a whole subtree goes along, whether a directory
is created), the names of effects it cannot see (``opaque``) and the commands it runs
itself (``find -exec``). Options are read the way each program reads them (see
:mod:`.options`), so ``touch -d yesterday F`` writes F only and ``cp -vt .git f`` writes
``.git/f``. Where copying into a directory depends on whether the destination is one, the
``probe`` callback answers from the file system (``"d"``, ``"f"``, ``"-"`` missing, ``""``
unknown).
"""

from __future__ import annotations

from .coreutils import COREUTILS
from .effects import Effects
from .expansion import Field, escape_pattern
from .options import getopt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .effects import Handler, Probe

_E: frozenset[str] = frozenset()


def _sed(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    from .scripts import sed_script

    opts = getopt(
        args,
        valued="efl",
        optional="i",
        long_valued=frozenset({"expression", "file", "line-length"}),
        long_optional=frozenset({"in-place"}),
        long_flags=frozenset(
            {
                "quiet",
                "silent",
                "debug",
                "follow-symlinks",
                "posix",
                "regexp-extended",
                "separate",
                "sandbox",
                "unbuffered",
                "null-data",
                "zero-terminated",
            }
        ),
    )
    scripts = [field for field in opts.values("e", "expression")]
    files = opts.operands
    if not scripts and not opts.has("f", "file"):
        if not files:
            return
        scripts, files = [files[0]], files[1:]
    if opts.has("f", "file"):
        eff.opaque.append("sed -f")
    for script in scripts:
        found = None if script.dynamic else sed_script(script.text)
        if found is None:
            eff.opaque.append("sed")
            continue
        writes, runs = found
        for path in writes:
            eff.hit(Field(path), "sed")
        if runs:
            eff.opaque.append("sed e")
    if opts.has("i", "in-place"):
        suffix = opts.value("i", "in-place")
        _rewritten(eff, "sed", files, suffix.text if suffix is not None else "")


def _rewritten(eff: Effects, how: str, files: list[Field], suffix: str) -> None:
    """Files edited in place, and their backups (a ``*`` in the suffix is the file name)."""
    for field in files:
        if field.text == "-":
            continue
        eff.hit(field, how)
        if suffix:
            if "*" in suffix:
                head, _, tail = field.text.rpartition("/")
                backup = (head + "/" if head else "") + suffix.replace("*", tail)
            else:
                backup = field.text + suffix
            eff.hit(Field(backup, field.dynamic, field.glob), how)


def _perl(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    from .scripts import perl_switches

    switches = perl_switches(args)
    if not switches.in_place:
        eff.opaque.append(name)
        return
    _rewritten(eff, "perl", switches.files, switches.suffix)


def _sort(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="kSToty",
        long_valued=frozenset(
            {
                "key",
                "buffer-size",
                "temporary-directory",
                "output",
                "field-separator",
                "batch-size",
                "compress-program",
                "files0-from",
                "parallel",
                "random-source",
                "sort",
            }
        ),
    )
    for output in opts.values("o", "output"):
        eff.hit(output, "sort")
    if opts.has("compress-program"):
        eff.opaque.append("sort --compress-program")


def _uniq(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="fsw",
        long_valued=frozenset({"skip-fields", "skip-chars", "check-chars"}),
        long_optional=frozenset({"all-repeated", "group"}),
    )
    if len(opts.operands) >= 2:
        eff.hit(opts.operands[1], "uniq")


def _split(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    if name == "csplit":
        opts = getopt(
            args, valued="bfn", long_valued=frozenset({"suffix-format", "prefix", "digits"})
        )
        prefix_field = opts.value("f", "prefix")
        prefix = prefix_field.text if prefix_field is not None else "xx"
        suffix = ""
    else:
        opts = getopt(
            args,
            valued="abClnt",
            long_valued=frozenset(
                {
                    "suffix-length",
                    "bytes",
                    "line-bytes",
                    "lines",
                    "number",
                    "separator",
                    "additional-suffix",
                    "filter",
                }
            ),
            long_optional=frozenset({"numeric-suffixes", "hex-suffixes"}),
        )
        if opts.has("filter"):
            eff.opaque.append("split --filter")
            return
        prefix = opts.operands[1].text if len(opts.operands) > 1 else "x"
        extra = opts.value("additional-suffix")
        suffix = extra.text if extra is not None else ""
    pattern = escape_pattern(prefix) + "*" + escape_pattern(suffix)
    eff.hit(Field(prefix + "*" + suffix, False, True, pattern), name)


def _mktemp(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    from .tempfiles import temp_name

    made = temp_name(args, eff.env)
    if made is not None:
        # the path keeps the template's X's; the pattern stands for the name mktemp picks
        field = Field(made.path, made.dynamic, not made.dynamic, made.pattern)
        eff.hit(field, "mktemp", directory=made.directory)


_COMPRESSORS = {
    "gzip": ".gz",
    "gunzip": ".gz",
    "bzip2": ".bz2",
    "bunzip2": ".bz2",
    "xz": ".xz",
    "unxz": ".xz",
    "lzma": ".lzma",
    "zstd": ".zst",
    "unzstd": ".zst",
    "lz4": ".lz4",
    "compress": ".Z",
    "uncompress": ".Z",
}


def _compress(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="SbBTLMo" if name in ("zstd", "unzstd") else "S",
        long_valued=frozenset({"suffix", "output", "format", "threads", "memlimit"}),
    )
    if opts.has("c", "stdout", "to-stdout", "t", "test", "l", "list"):
        return
    output = opts.value("o", "output") if name in ("zstd", "unzstd") else None
    if output is not None:
        eff.hit(output, name)
        return
    given = opts.value("S", "suffix")
    suffix = given.text if given is not None else _COMPRESSORS[name]
    decompress = name.startswith("un") or opts.has("d", "decompress", "uncompress")
    keep = opts.has("k", "keep") or name in ("zstd", "unzstd", "lz4")
    for field in opts.operands:
        if field.text == "-":
            continue
        if not keep:
            eff.hit(field, name)
        if decompress:
            text = field.text[: -len(suffix)] if field.text.endswith(suffix) else field.text
        else:
            text = field.text + suffix
        eff.hit(Field(text, field.dynamic, field.glob), name)


def _curl(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    writes = {
        "output",
        "dump-header",
        "cookie-jar",
        "trace",
        "trace-ascii",
        "stderr",
        "libcurl",
        "etag-save",
        "hsts",
        "alt-svc",
        "output-dir",
    }
    opts = getopt(
        args,
        valued="AbcCdDeEFHKmoPQrtTuUwxXyYz",
        long_valued=frozenset(
            writes
            | {
                "config",
                "data",
                "header",
                "request",
                "user",
                "url",
                "form",
                "upload-file",
                "write-out",
                "unix-socket",
                "abstract-unix-socket",
            }
        ),
    )
    if opts.has("unix-socket", "abstract-unix-socket"):
        from .remote_control import socket_cannot_read

        socket_cannot_read("curl --unix-socket", eff)
    for key in ("o", "D", "c"):
        for field in opts.values(key):
            if field.text != "-":
                eff.hit(field, name)
    for key in writes:
        for field in opts.values(key):
            if field.text != "-":
                eff.hit(field, name, key == "output-dir")
    if opts.has("O", "remote-name", "remote-name-all", "J", "remote-header-name", "K", "config"):
        eff.opaque.append("curl -O")


def _wget(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    opts = getopt(
        args,
        valued="OoaPeiBTtwQUlADIXRN",
        long_valued=frozenset(
            {"output-document", "output-file", "append-output", "directory-prefix"}
        ),
    )
    found = bool(opts.values("O", "output-document"))
    for field in opts.values("O", "output-document", "o", "output-file", "a", "append-output"):
        if field.text != "-":
            eff.hit(field, "wget")
    for field in opts.values("P", "directory-prefix"):
        eff.hit(field, "wget", True)
        found = True
    if not found:
        eff.opaque.append("wget")


def _editor(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    if name in ("vim", "nvim", "vi"):
        from .remote_control import editor_cannot_read, editor_remote

        remote = editor_remote(args)
        if remote is not None:
            editor_cannot_read(name, remote, eff)
            return
    eff.opaque.append(name)
    for field in args:
        if not field.text.startswith(("-", "+")):
            eff.hit(field, "editor")


HANDLERS: dict[str, Handler] = {
    "sed": _sed,
    "gsed": _sed,
    "perl": _perl,
    "sort": _sort,
    "uniq": _uniq,
    "split": _split,
    "csplit": _split,
    "mktemp": _mktemp,
    "curl": _curl,
    "wget": _wget,
    "sudoedit": _editor,
    "ed": _editor,
    "ex": _editor,
    "vi": _editor,
    "vim": _editor,
    "nvim": _editor,
    "nano": _editor,
    "emacs": _editor,
    "pico": _editor,
}
HANDLERS.update(COREUTILS)
for _name in _COMPRESSORS:
    HANDLERS[_name] = _compress
# loaded on first use (see command_effects): the programs of .archives, .git, .handoff
# and .containers
_LAZY = {
    "tar": "archives",
    "gtar": "archives",
    "bsdtar": "archives",
    "unzip": "archives",
    "zip": "archives",
    "rsync": "archives",
    "scp": "archives",
    "patch": "archives",
    "find": "archives",
    "gfind": "archives",
    "git": "git",
    # programs that hand commands to a process outside the shell's tree (.handoff)
    "tmux": "handoff",
    "screen": "handoff",
    "at": "handoff",
    "batch": "handoff",
    "atrm": "handoff",
    "crontab": "handoff",
    "systemd-run": "handoff",
    "systemctl": "handoff",
    "ssh": "handoff",
    # programs that ask a running server to act (.remote_control)
    **dict.fromkeys(
        (
            "wezterm",
            "zellij",
            "busctl",
            "gdbus",
            "xdotool",
            "pm2",
            "watchman",
            "ydotool",
            "wtype",
            "dbus-send",
            "qdbus",
            "osascript",
            "run0",
            "flatpak-spawn",
            "host-spawn",
            "distrobox-host-exec",
            "mosh",
            "tmate",
            "gnome-terminal",
            "xfce4-terminal",
            "tilix",
            "konsole",
            "kitty",
            "kitten",
            "emacsclient",
            "socat",
            "nc",
            "nc.openbsd",
            "ncat",
            "netcat",
        ),
        "remote",
    ),
    # container engines' clients: their engine writes through mounts (.containers)
    "docker": "containers",
    "podman": "containers",
    "podman-remote": "containers",
    "nerdctl": "containers",
    "docker-compose": "containers",
    "podman-compose": "containers",
}


def command_effects(
    name: str,
    args: list[Field],
    probe: Probe,
    env: Mapping[str, str | None] | None = None,
    stdin: tuple[str, bool] | None = None,
    cwd: str | None = None,
    origin: str | None = None,
) -> Effects:
    """What ``name args`` writes, and the commands it hands to other programs; ``env`` the
    variables the command line gives it, ``stdin`` a here-document's text, ``cwd`` and
    ``origin`` as :class:`Effects` has them. ``known`` is False when this module has no rules
    for it."""
    eff = Effects(env, stdin, cwd, origin)
    handler = HANDLERS.get(name)
    if handler is None and name in _LAZY:
        module = _LAZY[name]
        if module == "git":
            from .git import git

            HANDLERS["git"] = handler = git
        elif module == "handoff":
            from .handoff import HANDOFF_HANDLERS

            HANDLERS.update(HANDOFF_HANDLERS)
            handler = HANDLERS[name]
        elif module == "remote":
            from .remote_control import REMOTE_HANDLERS

            HANDLERS.update(REMOTE_HANDLERS)
            handler = HANDLERS[name]
        elif module == "containers":
            from .containers import CONTAINER_HANDLERS

            HANDLERS.update(CONTAINER_HANDLERS)
            handler = HANDLERS[name]
        else:
            from .archives import ARCHIVE_HANDLERS

            HANDLERS.update(ARCHIVE_HANDLERS)
            handler = HANDLERS[name]
    if handler is None:
        eff.known = False
        return eff
    handler(name, args, eff, probe)
    return eff
