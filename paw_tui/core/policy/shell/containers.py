"""Container engines' clients (``docker``, ``podman``, ``nerdctl``, compose), read for what
their engine does to this machine's files.

The client only asks: the engine (Docker's daemon, podman's service, containerd) starts the
container, so whatever a container writes through a mount is written by a process the kernel
boundary does not hold, after PostToolUse, unseen by drift detection. A command line is
therefore read for the host paths it lets a container write:

- ``run``/``create``: each writable bind mount (``-v SRC:DST``, ``--mount type=bind,...``, a
  volume bound to a host directory) is a write of SRC's whole tree; read-only mounts (``:ro``,
  ``readonly``), named and anonymous volumes and tmpfs write nothing here. What reaches files
  no mount names (``--volumes-from``, ``--privileged``, ``--device``, ``--cap-add
  SYS_ADMIN``) cannot be read. Mount options are looked for on the whole line, the
  container's own command included: ``run`` has about a hundred options, and misjudging where
  they end must never hide a mount (a ``-v`` in the container's command is read as a mount
  too, which can only deny).
- ``cp`` to a local path writes that tree; into a container, it writes behind mounts paw-tui
  cannot see. ``build``, ``save`` and ``export`` write their output files.
- ``exec``, ``start``, ``restart``, ``unpause``, compose's ``up``/``run``/``exec``/...,
  ``buildx bake``, ``stack deploy``: a container runs with mounts no command line here
  names, so they cannot be read.
- The rest (``ps``, ``logs``, ``pull``, ``stop``, ``rm``, ...) write no file here.

An unknown subcommand, an option known only at run time or an engine option paw-tui does not
follow cannot be read. A remote engine (``-H``, ``--url``, a context) is judged as if it were
this machine's.
"""

from __future__ import annotations

from .effects import Effects
from .expansion import Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .effects import Handler, Probe

ENGINES = ("docker", "podman", "podman-remote", "nerdctl")
COMPOSERS = ("docker-compose", "podman-compose")
_ENGINE_VALUED = frozenset(
    {"config", "context", "host", "log-level", "tlscacert", "tlscert", "tlskey",
     "cgroup-manager", "conmon", "connection", "events-backend", "hooks-dir", "identity",
     "module", "network-cmd-path", "network-config-dir", "runtime", "runtime-flag", "ssh",
     "storage-driver", "storage-opt", "url", "address", "namespace", "snapshotter",
     "cni-path", "cni-netconfpath", "data-root", "host-gateway-ip"}
)  # fmt: skip
_ENGINE_WRITES = frozenset({"root", "runroot", "tmpdir", "volumepath", "imagestore", "out"})
"""Engine options naming a directory the engine writes (podman runs as the client's child)."""
_ENGINE_FLAGS = frozenset(
    {"debug", "tls", "tlsverify", "remote", "syslog", "noout", "insecure-registry",
     "experimental", "help", "version"}
)  # fmt: skip
_ENGINE_SHORT_VALUED = "cHln"
_ENGINE_SHORT_FLAGS = "Dhrv"
_GROUPS = frozenset({"container", "image", "builder", "buildx"})
"""Management commands whose next word is the verb (``container run`` is ``run``)."""
_WRITE_NOTHING = frozenset(
    {"ps", "ls", "list", "images", "logs", "inspect", "version", "info", "pull", "push", "tag",
     "stop", "kill", "rm", "rmi", "pause", "network", "search", "history", "diff", "top",
     "stats", "port", "events", "wait", "rename", "update", "login", "logout", "context",
     "manifest", "system", "prune", "commit", "load", "import", "du", "df",
     "healthcheck", "secret", "node", "namespace", "help", "--help", "-h"}
)  # fmt: skip
_RUNS_UNSEEN = {
    "exec": "runs a command in a container",
    "start": "starts a container's own command again",
    "restart": "starts a container's own command again",
    "unpause": "lets a paused container's command go on",
    "attach": "attaches to a container's command",
    "bake": "builds what a bake file names, its outputs included",
    "stack": "deploys what a compose file names",
    "service": "runs services",
    "plugin": "installs an engine plugin",
    "play": "runs what a Kubernetes file names",
    "kube": "runs what a Kubernetes file names",
    "pod": "runs pods",
    "generate": "writes units for a service manager",
    "machine": "runs commands in a virtual machine that mounts this machine's folders",
    "compose": "runs containers with the mounts its compose file names",
}
UNSEEN_MOUNTS = (
    "with mounts paw-tui cannot see (the engine runs it: no kernel boundary, no drift detection)"
)
_RUN_VALUED = "acehlmpuvw"
"""``run``'s short options that take a value (their values are never read as options)."""
_COMPOSE_VALUED = frozenset(
    {"file", "project-name", "project-directory", "env-file", "profile", "ansi", "progress",
     "parallel"}
)  # fmt: skip
_COMPOSE_READS = frozenset(
    {"ps", "ls", "logs", "config", "convert", "images", "top", "version", "port", "events",
     "down", "stop", "kill", "rm", "pause", "pull", "push", "build"}
)  # fmt: skip
_REACHES_HOST = "gives a container files no mount names"
_MOUNT_CAPABILITIES = frozenset({"ALL", "SYS_ADMIN", "CAP_SYS_ADMIN", "DAC_OVERRIDE"})


def engine(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """``docker|podman|nerdctl [ENGINE OPTIONS] VERB ...``."""
    rest = _engine_options(name, args, eff)
    if rest is None:
        return
    verb, operands = _verb(rest)
    if verb is None:
        return  # the engine's own help or version
    if verb.dynamic:
        eff.cannot_read(name, "is given a command known only when it runs", True)
        return
    _judge(f"{name} {verb.text}", verb.text, operands, eff)


def compose(name: str, args: list[Field], eff: Effects, probe: Probe) -> None:
    """``docker-compose ...`` (and ``podman-compose``): compose's own verbs."""
    _compose(name, args, eff)


def _judge(label: str, verb: str, args: list[Field], eff: Effects) -> None:
    if verb in ("run", "create"):
        _mounts(label, args, eff)
    elif verb == "cp":
        _copy(label, args, eff)
    elif verb == "build":
        _build(label, args, eff)
    elif verb in ("save", "export"):
        for output in _values(args, "o", "output"):
            eff.hit(output, label)
    elif verb == "volume":
        _volume(label, args, eff)
    elif verb == "compose":
        _compose(label, args, eff)
    elif verb in _RUNS_UNSEEN:
        eff.cannot_read(label, f"{_RUNS_UNSEEN[verb]} {UNSEEN_MOUNTS}", True)
    elif verb not in _WRITE_NOTHING:
        eff.cannot_read(label, "is a command paw-tui does not follow", True)


def _engine_options(name: str, args: list[Field], eff: Effects) -> list[Field] | None:
    """The words after the engine's own options; None when they cannot be followed."""
    index = 0
    while index < len(args):
        field = args[index]
        text = field.text
        if field.dynamic:
            if text.startswith("-") or not text:
                eff.cannot_read(name, "is given options known only when they run", True)
                return None
            return args[index:]
        if not text.startswith("-") or text == "-":
            return args[index:]
        index += 1
        if text == "--":
            return args[index:]
        if text.startswith("--"):
            option, eq, value = text[2:].partition("=")
            if option in _ENGINE_FLAGS:
                continue
            if option not in _ENGINE_VALUED | _ENGINE_WRITES:
                eff.cannot_read(
                    f"{name} --{option}", "is an engine option paw-tui does not follow", True
                )
                return None
            if not eq:
                if index >= len(args):
                    return []
                given = args[index]
                index += 1
            else:
                given = Field(value, field.dynamic, field.glob)
            if option in _ENGINE_WRITES:
                eff.hit(given, f"{name} --{option}", True, True)
            continue
        letter = text[1]
        if letter in _ENGINE_SHORT_FLAGS and len(text) == 2:
            continue
        if letter in _ENGINE_SHORT_VALUED:
            if len(text) == 2:
                index += 1
            continue
        eff.cannot_read(f"{name} {text}", "is an engine option paw-tui does not follow", True)
        return None
    return []


def _verb(words: list[Field]) -> tuple[Field | None, list[Field]]:
    """(the verb, its arguments), a management command's group word skipped."""
    if not words:
        return None, []
    first = words[0]
    if first.text in _GROUPS and not first.dynamic and len(words) > 1:
        return words[1], words[2:]
    return first, words[1:]


def _options(args: list[Field], valued: str) -> list[tuple[str, Field | None]]:
    """Every option on the line as (name, value): long names without dashes, short letters
    alone; grouped letters are split and a valued letter takes the rest of its word or the
    next one (as the engines' flag parser does), unless that one starts with ``-``. Operands
    are passed over, never ended at."""
    found: list[tuple[str, Field | None]] = []
    index = 0
    while index < len(args):
        field = args[index]
        text = field.text
        index += 1
        if len(text) < 2 or text[0] != "-" or text == "--":
            continue
        if text.startswith("--"):
            name, eq, value = text[2:].partition("=")
            if eq:
                found.append((name, Field(value, field.dynamic, field.glob)))
            elif index < len(args) and not args[index].text.startswith("-"):
                found.append((name, args[index]))  # a flag's "value" is an operand: harmless
            else:
                found.append((name, None))
            continue
        for position in range(1, len(text)):
            letter = text[position]
            if letter in valued:
                attached = text[position + 1 :]
                if attached.startswith("="):
                    attached = attached[1:]  # -v=SRC:DST, as the engines' flag parser reads it
                if attached:
                    found.append((letter, Field(attached, field.dynamic, field.glob)))
                elif index < len(args) and not args[index].text.startswith("-"):
                    # a word that looks like an option is read as one, never swallowed as a
                    # value: where this table and an engine differ, a mount is read, not hidden
                    found.append((letter, args[index]))
                    index += 1
                break
            found.append((letter, None))
    return found


def _values(args: list[Field], short: str, long: str) -> list[Field]:
    return [
        value
        for name, value in _options(args, short)
        if value is not None and name in (short, long)
    ]


def _mounts(label: str, args: list[Field], eff: Effects) -> None:
    for name, value in _options(args, _RUN_VALUED):
        if name in ("v", "volume") and value is not None:
            _volume_spec(label, value, eff)
        elif name == "mount" and value is not None:
            _mount_spec(label, value, eff)
        elif name in ("volumes-from", "device") or (
            name == "privileged" and (value is None or value.text.lower() not in ("false", "0"))
        ):
            eff.cannot_read(f"{label} --{name}", _REACHES_HOST, True)
        elif name == "cap-add" and value is not None:
            wanted = {cap.strip().upper() for cap in value.text.split(",")}
            if value.dynamic or wanted & _MOUNT_CAPABILITIES:
                eff.cannot_read(f"{label} --cap-add", _REACHES_HOST, True)
        elif name == "cidfile" and value is not None:
            eff.hit(value, f"{label} --cidfile")


def _volume_spec(label: str, spec: Field, eff: Effects) -> None:
    """``-v SRC:DST[:OPTIONS]``: a host path SRC (absolute or ``./``-relative) is bound."""
    parts = spec.text.split(":")
    if len(parts) < 2:
        return  # an anonymous volume at a container path
    source, options = parts[0], parts[2] if len(parts) > 2 else ""
    if {option.strip() for option in options.split(",")} & {"ro", "readonly"}:
        return
    if spec.dynamic or source.startswith(("/", ".", "~")):
        eff.hit(Field(source, spec.dynamic, spec.glob), f"{label} -v", True, True, label)


def _csv(spec: Field) -> list[tuple[str, str]]:
    """``key=value,...`` read as the engines read it (a CSV record: a quoted field may hold
    commas and quotes), as (lower-case key, value) pairs."""
    import csv

    try:
        fields = next(csv.reader([spec.text]), [])
    except csv.Error:
        fields = spec.text.split(",")
    return [
        (key.strip().lower(), value.strip())
        for key, _, value in (item.partition("=") for item in fields)
    ]


def _mount_spec(label: str, spec: Field, eff: Effects) -> None:
    """``--mount type=bind,source=S,...``; a volume bound to a host directory
    (``volume-opt=device=S``) is a bind mount too."""
    if spec.dynamic:
        eff.cannot_read(f"{label} --mount", "is given a mount known only when it runs", True)
        return
    pairs = _csv(spec)
    keys = dict(pairs)
    kind = keys.get("type", "volume")
    if any(
        key in ("readonly", "ro") and value.lower() not in ("false", "0") for key, value in pairs
    ):
        return
    if kind == "bind":
        source = keys.get("source", keys.get("src"))
        if source:
            eff.hit(Field(source), f"{label} --mount", True, True, label)
        else:
            eff.cannot_read(f"{label} --mount", "binds a source paw-tui cannot find in it", True)
    elif kind == "volume":
        for key, value in pairs:
            option, _, device = value.partition("=")
            if key == "volume-opt" and option.strip() == "device":
                eff.hit(Field(device), f"{label} --mount volume-opt", True, True, label)
    elif kind not in ("tmpfs", "image", "npipe", "cluster"):
        eff.cannot_read(f"{label} --mount", f"mounts a {kind!r} paw-tui does not follow", True)


def _copy(label: str, args: list[Field], eff: Effects) -> None:
    """``cp SRC DST``: a local destination is written; a container's is behind its mounts."""
    operands = [field for field in args if not field.text.startswith("-") or field.text == "-"]
    if len(operands) < 2:
        return
    destination = operands[-1]
    if destination.text == "-":
        return  # a tar stream on standard output
    if destination.dynamic:
        eff.cannot_read(label, "copies to a place known only when it runs", True)
    elif destination.text.startswith(("/", ".")) or ":" not in destination.text:
        eff.hit(destination, label, True)
    else:
        eff.cannot_read(label, f"copies into a container, {UNSEEN_MOUNTS}", True)


def _build(label: str, args: list[Field], eff: Effects) -> None:
    """``build``: the image stays with the engine; ``-o``/``--output``, ``--iidfile`` and
    ``--metadata-file`` are written here."""
    for name, value in _options(args, "fot"):
        if value is None:
            continue
        if name in ("o", "output"):
            _build_output(label, value, eff)
        elif name in ("iidfile", "metadata-file"):
            eff.hit(value, f"{label} --{name}")


def _build_output(label: str, value: Field, eff: Effects) -> None:
    if value.dynamic:
        eff.cannot_read(f"{label} --output", "writes to a place known only when it runs", True)
        return
    if "=" not in value.text:
        if value.text != "-":
            eff.hit(value, f"{label} --output", True, True)
        return
    keys = dict(_csv(value))
    destination = keys.get("dest")
    if destination and destination != "-":
        eff.hit(Field(destination), f"{label} --output", True)


def _volume(label: str, args: list[Field], eff: Effects) -> None:
    """``volume create --opt device=DIR --opt o=bind``: a named volume that is a host
    directory (a later ``-v NAME:/x`` writes there): the directory is written."""
    if not args or args[0].text != "create":
        return
    for name, value in _options(args[1:], "do"):
        if name in ("o", "opt") and value is not None:
            option, _, device = value.text.partition("=")
            if value.dynamic:
                eff.cannot_read(f"{label} create", "is given options known only when it runs", True)
            elif option.strip() == "device":
                eff.hit(Field(device), f"{label} create --opt device", True, True, label)


def _compose(label: str, args: list[Field], eff: Effects) -> None:
    index = 0
    while index < len(args):
        field = args[index]
        if field.dynamic:
            eff.cannot_read(label, "is given a command known only when it runs", True)
            return
        if not field.text.startswith("-"):
            break
        index += 1
        name, eq, _ = field.text.lstrip("-").partition("=")
        if not eq and (name in _COMPOSE_VALUED or name in ("f", "p")):
            index += 1
    verb = args[index].text if index < len(args) else ""
    if verb and verb not in _COMPOSE_READS:
        eff.cannot_read(f"{label} {verb}", f"{_RUNS_UNSEEN['compose']}, {UNSEEN_MOUNTS}", True)


CONTAINER_HANDLERS: dict[str, Handler] = {
    **{name: engine for name in ENGINES},
    **{name: compose for name in COMPOSERS},
}
