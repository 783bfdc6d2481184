"""Reading ``.orchestration/governance.yaml`` strictly, with a line for every problem.

Validated like ``active_intents.yaml`` (DESIGN §4): an unknown key, at the top or inside an
option, a value of the wrong type or out of range is a problem naming its line and the keys it
may have meant; while there is one, the policy is unavailable and every mutating tool is
denied. A typo never weakens the policy: ``aproval: required`` is not "approval off".

One reader per option (:data:`OPTIONS`), each knowing its sub-keys. Needs PyYAML: the slow
path only (the gate reads the compiled policy cache).
"""

from __future__ import annotations

from paw_tui.core.policy.governance import MAX_SESSION_TTL, Governance, parse_duration

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader, Problem

    Reader = Callable[[NodeReader, yaml.Node, dict[str, object]], None]

TOOL_CLASSES = ("read_only", "mutating", "shell")
CONFINE_KEYS = ("writable",)
CLAIMS_KEYS = ("remote",)
TRACE_KEYS = ("ship",)
SHIP_KEYS = ("endpoint",)
REMOTE_NAME = r"[A-Za-z0-9_][A-Za-z0-9._/-]{0,99}"
"""A git remote's name as ``claims: remote:`` may give it (never an option: no leading ``-``)."""


def _unknown(
    reader: NodeReader, key: str, key_node: yaml.Node, where: str, known: Iterable[str]
) -> None:
    names = list(known)
    inside = f" in {where}" if where else ""
    reader.problem(
        key_node,
        f"unknown key '{key}'{inside}{_meant(key, names)}; known keys: {', '.join(names)}",
    )


def _meant(key: str, known: list[str]) -> str:
    """`` (did you mean 'approval'?)``: a near miss, or a key cut short or run on
    (``protect``, ``shipping``)."""
    from paw_tui.core.support.suggest import near_misses

    folded = key.casefold()
    near = (
        near_misses(key, known, limit=2)
        or [
            name
            for name in known
            if min(len(folded), len(name)) >= 4
            and (name.startswith(folded) or folded.startswith(name))
        ][:2]
    )
    return f" (did you mean {' or '.join(repr(name) for name in near)}?)" if near else ""


def _keys(
    reader: NodeReader, node: yaml.Node, what: str, known: tuple[str, ...]
) -> Iterator[tuple[str, yaml.Node]]:
    """``(key, value node)`` of an option's mapping with only ``known`` keys; an empty value
    is an empty mapping (an option whose body is still commented out)."""
    if _is_null(node):
        return
    for key, key_node, value in reader.mapping(node, what):
        if key in known:
            yield key, value
        else:
            _unknown(reader, key, key_node, what, known)


def _is_null(node: yaml.Node) -> bool:
    import yaml

    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _choice(name: str, field: str, choices: tuple[str, str]) -> Reader:
    """An option with two words, stored as ``field`` = (value is the second word)."""

    def read(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
        from paw_tui.core.support.suggest import did_you_mean

        choice = reader.string(node, f"'{name}'")
        if choice is None:
            return
        if choice.strip() not in choices:
            reader.problem(
                node,
                f"'{name}' must be '{choices[0]}' or '{choices[1]}', not '{choice}'"
                + did_you_mean(choice.strip(), choices),
            )
        else:
            values[field] = choice.strip() == choices[1]

    return read


def _session_ttl(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    raw = reader.string(node, "'session_ttl'")
    if raw is None:
        return
    seconds = parse_duration(raw)
    if seconds is None:
        reader.problem(
            node, f"'session_ttl' must be a duration such as 8h, 30m or 90s, not '{raw}'"
        )
    elif not 0 < seconds <= MAX_SESSION_TTL:
        reader.problem(node, f"'session_ttl' must be more than 0s and at most 365d, not '{raw}'")
    else:
        values["session_ttl"] = seconds


def _protected(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    from paw_tui.core.intents.parse import glob_problem

    patterns = reader.string_list(node, "'protected'")
    if patterns is None:
        return
    for index, pattern in enumerate(patterns):
        message = glob_problem(pattern)
        if message:
            reader.problem(node.value[index], f"bad pattern '{pattern}' in 'protected': {message}")
    values["protected"] = patterns


def _names(reader: NodeReader, node: yaml.Node, what: str) -> list[str] | None:
    """A list of tool names: strings, none blank."""
    names = reader.string_list(node, what)
    if names is None:
        return None
    for index, name in enumerate(names):
        if not name.strip():
            reader.problem(node.value[index], f"an entry of {what} is blank")
    return [name.strip() for name in names]


def _tools(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    for sub, sub_node in _keys(reader, node, "'tools'", TOOL_CLASSES):
        names = _names(reader, sub_node, f"'tools.{sub}'")
        if names is not None:
            values[f"{sub}_tools"] = names


def _log_reads(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    flag = reader.boolean(node, "'log_reads'")
    if flag is not None:
        values["log_reads"] = flag


def _tool_instructions(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    mapping: dict[str, str] = {}
    if not _is_null(node):
        for tool, _tool_key, path_node in reader.mapping(node, "'tool_instructions'"):
            path = reader.string(path_node, f"the instructions path of '{tool}'")
            if path is not None:
                mapping[tool] = path
    values["tool_instructions"] = mapping


def _tool_defaults(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    """Checked for shape here (a mapping of mappings); the values are plain YAML data, read
    with ``safe_load`` once the whole file is valid."""
    if not _is_null(node):
        for tool, _tool_key, args_node in reader.mapping(node, "'tool_defaults'"):
            for _arg, _arg_key, _value in reader.mapping(args_node, f"the defaults of '{tool}'"):
                pass
    values["tool_defaults"] = None  # filled in by parse_governance


def _confine(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    """``confine: {writable: [paths]}``: absolute paths, or ``~/...``."""
    for _sub, sub_node in _keys(reader, node, "'confine'", CONFINE_KEYS):
        paths = reader.string_list(sub_node, "'confine.writable'")
        if paths is None:
            continue
        for index, path in enumerate(paths):
            if not (path.startswith("/") or path.startswith("~")):
                reader.problem(
                    sub_node.value[index],
                    f"'confine.writable' needs absolute paths (or ~/...), not '{path}'",
                )
        values["confine_writable"] = paths


def _claims(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    """``claims: {remote: <git remote>}`` (DESIGN §12): intent claims through that remote."""
    import re

    for _sub, sub_node in _keys(reader, node, "'claims'", CLAIMS_KEYS):
        remote = reader.string(sub_node, "'claims.remote'")
        if remote is None:
            continue
        if not re.fullmatch(REMOTE_NAME, remote.strip()):
            reader.problem(
                sub_node,
                f"'claims.remote' must name a git remote (such as origin), not '{remote}'",
            )
        else:
            values["claims_remote"] = remote.strip()


def _trace(reader: NodeReader, node: yaml.Node, values: dict[str, object]) -> None:
    """``trace: {ship: {endpoint: <url>}}`` (DESIGN §12): where ``trace ship`` sends the
    ledger when neither ``--endpoint`` nor the OpenTelemetry variables say."""
    for _sub, ship in _keys(reader, node, "'trace'", TRACE_KEYS):
        for _key, endpoint_node in _keys(reader, ship, "'trace.ship'", SHIP_KEYS):
            endpoint = reader.string(endpoint_node, "'trace.ship.endpoint'")
            if endpoint is None:
                continue
            problem = _url_problem(endpoint.strip())
            if problem:
                reader.problem(endpoint_node, f"'trace.ship.endpoint' {problem}, not '{endpoint}'")
            else:
                values["trace_endpoint"] = endpoint.strip()


def _url_problem(text: str) -> str | None:
    from urllib.parse import urlsplit

    if any(char.isspace() or ord(char) < 32 for char in text):
        return "must be a URL without spaces"
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises for a port out of range
    except ValueError:
        return "must be a URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host"
    return None


OPTIONS: dict[str, Reader] = {
    "approval": _choice("approval", "approval_required", ("none", "required")),
    "intent_sharing": _choice("intent_sharing", "intent_sharing", ("deny", "allow")),
    "session_ttl": _session_ttl,
    "protected": _protected,
    "tools": _tools,
    "log_reads": _log_reads,
    "tool_instructions": _tool_instructions,
    "tool_defaults": _tool_defaults,
    "confine": _confine,
    "claims": _claims,
    "trace": _trace,
}
KNOWN_KEYS = tuple(OPTIONS)


def parse_governance(text: str, file: str) -> tuple[Governance, list[Problem], list[Problem]]:
    """The policy, problems (the state is unusable while there are any) and warnings."""
    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader

    reader = NodeReader(file)
    root = reader.compose(text)
    if root is None or _is_null(root):
        return Governance(), reader.problems, []
    values: dict[str, object] = {}
    for key, key_node, node in reader.mapping(root, "the file"):
        option = OPTIONS.get(key)
        if option is None:
            _unknown(reader, key, key_node, "", KNOWN_KEYS)
            continue
        option(reader, node, values)
    if reader.problems:
        return Governance(), reader.problems, []
    if "tool_defaults" in values:
        loaded = yaml.safe_load(text) or {}
        values["tool_defaults"] = {
            str(tool): {str(arg): value for arg, value in (args or {}).items()}
            for tool, args in (loaded.get("tool_defaults") or {}).items()
        }
    return Governance(**values), [], []  # type: ignore[arg-type]
