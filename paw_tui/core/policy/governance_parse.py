"""Reading ``.orchestration/governance.yaml`` strictly, with a line for every problem.

One reader per option (:data:`OPTIONS`); an unknown option is a warning naming the known
ones. Needs PyYAML: the slow path only (the gate reads the compiled policy cache).
"""

from __future__ import annotations

from paw_tui.core.policy.governance import Governance, parse_duration

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader, Problem

    Reader = Callable[[NodeReader, NodeReader, yaml.Node, dict[str, object]], None]

TOOL_CLASSES = ("read_only", "mutating", "shell")


def _choice(name: str, field: str, choices: tuple[str, str]) -> Reader:
    """An option with two words, stored as ``field`` = (value is the second word)."""

    def read(
        reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
    ) -> None:
        choice = reader.string(node, f"'{name}'")
        if choice is None:
            return
        if choice.strip() not in choices:
            reader.problem(
                node, f"'{name}' must be '{choices[0]}' or '{choices[1]}', not '{choice}'"
            )
        else:
            values[field] = choice.strip() == choices[1]

    return read


def _session_ttl(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    raw = reader.string(node, "'session_ttl'")
    if raw is None:
        return
    seconds = parse_duration(raw)
    if seconds is None or seconds <= 0:
        reader.problem(
            node, f"'session_ttl' must be a duration such as 8h, 30m or 90s, not '{raw}'"
        )
    else:
        values["session_ttl"] = seconds


def _protected(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    from paw_tui.core.intents.parse import glob_problem

    patterns = reader.string_list(node, "'protected'")
    if patterns is None:
        return
    for index, pattern in enumerate(patterns):
        message = glob_problem(pattern)
        if message:
            reader.problem(node.value[index], f"bad pattern '{pattern}' in 'protected': {message}")
    values["protected"] = patterns


def _tools(
    reader: NodeReader, warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    for sub, sub_key, sub_node in reader.mapping(node, "'tools'"):
        if sub not in TOOL_CLASSES:
            warnings.problem(
                sub_key,
                f"unknown tool class 'tools.{sub}' (ignored); use {', '.join(TOOL_CLASSES)}",
            )
            continue
        names = reader.string_list(sub_node, f"'tools.{sub}'")
        if names is not None:
            values[f"{sub}_tools"] = [name.strip() for name in names]


def _log_reads(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    flag = reader.boolean(node, "'log_reads'")
    if flag is not None:
        values["log_reads"] = flag


def _tool_instructions(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    mapping: dict[str, str] = {}
    for tool, _tool_key, path_node in reader.mapping(node, "'tool_instructions'"):
        path = reader.string(path_node, f"the instructions path of '{tool}'")
        if path is not None:
            mapping[tool] = path
    values["tool_instructions"] = mapping


def _tool_defaults(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    """Checked for shape here (a mapping of mappings); the values are plain YAML data, read
    with ``safe_load`` once the whole file is valid."""
    for tool, _tool_key, args_node in reader.mapping(node, "'tool_defaults'"):
        for _arg, _arg_key, _value in reader.mapping(args_node, f"the defaults of '{tool}'"):
            pass
    values["tool_defaults"] = None  # filled in by parse_governance


def _confine(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    """``confine: {writable: [paths]}``: absolute paths, or ``~/...``."""
    for sub, sub_key, sub_node in reader.mapping(node, "'confine'"):
        if sub != "writable":
            reader.problem(sub_key, f"unknown option 'confine.{sub}'; use confine.writable")
            continue
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


def _claims(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    """``claims: {remote: <git remote name>}`` (DESIGN §12): intent claims through the remote."""
    for sub, sub_key, sub_node in reader.mapping(node, "'claims'"):
        if sub != "remote":
            reader.problem(sub_key, f"unknown option 'claims.{sub}'; use claims.remote")
            continue
        remote = reader.string(sub_node, "'claims.remote'")
        if remote is None:
            continue
        remote = remote.strip()
        if not remote or remote.startswith("-") or any(c.isspace() for c in remote):
            reader.problem(sub_node, f"'claims.remote' must name a git remote, not '{remote}'")
        else:
            values["claims_remote"] = remote


def _trace(
    reader: NodeReader, _warnings: NodeReader, node: yaml.Node, values: dict[str, object]
) -> None:
    """``trace: {ship: {endpoint: <OTLP/HTTP URL>}}`` (DESIGN §12)."""
    for sub, sub_key, sub_node in reader.mapping(node, "'trace'"):
        if sub != "ship":
            reader.problem(sub_key, f"unknown option 'trace.{sub}'; use trace.ship")
            continue
        for leaf, leaf_key, leaf_node in reader.mapping(sub_node, "'trace.ship'"):
            if leaf != "endpoint":
                reader.problem(
                    leaf_key, f"unknown option 'trace.ship.{leaf}'; use trace.ship.endpoint"
                )
                continue
            url = reader.string(leaf_node, "'trace.ship.endpoint'")
            if url is None:
                continue
            if not url.strip().startswith(("http://", "https://")):
                reader.problem(
                    leaf_node, f"'trace.ship.endpoint' must be an http(s) URL, not '{url}'"
                )
            else:
                values["ship_endpoint"] = url.strip()


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
    warnings = NodeReader(file)
    root = reader.compose(text)
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == "tag:yaml.org,2002:null"):
        return Governance(), reader.problems, []
    values: dict[str, object] = {}
    for key, key_node, node in reader.mapping(root, "the file"):
        option = OPTIONS.get(key)
        if option is None:
            warnings.problem(
                key_node,
                f"unknown option '{key}' (ignored); known options: {', '.join(KNOWN_KEYS)}",
            )
            continue
        option(reader, warnings, node, values)
    if reader.problems:
        return Governance(), reader.problems, warnings.problems
    if "tool_defaults" in values:
        loaded = yaml.safe_load(text) or {}
        values["tool_defaults"] = {
            str(tool): {str(arg): value for arg, value in (args or {}).items()}
            for tool, args in (loaded.get("tool_defaults") or {}).items()
        }
    return Governance(**values), [], warnings.problems  # type: ignore[arg-type]
