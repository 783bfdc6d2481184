"""Reading ``.orchestration/active_intents.yaml`` strictly (DESIGN §4).

Every problem names ``file:line``: YAML syntax, duplicate ids or keys, unknown statuses, bad
patterns, wrong types, and keys no intent has (a typo such as ``owned_scop`` would otherwise
leave the intent owning nothing, silently). Keys starting with ``x-`` are a team's own and
are left alone. A dependency on an unknown id is a warning. Needs PyYAML: the slow path only.
"""

from __future__ import annotations

from paw_tui.core.intents.model import (
    EXTENSION_PREFIX,
    ID_PATTERN,
    KNOWN_FIELDS,
    LIST_FIELDS,
    ROOT_KEYS,
    STATUSES,
    Intent,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader, Problem

NULL_TAG = "tag:yaml.org,2002:null"


def _is_null(node: yaml.Node) -> bool:
    import yaml

    return isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG


def parse_intents(text: str, file: str) -> tuple[list[Intent], list[Problem], list[Problem]]:
    """Intents, problems (the file is unusable while there are any) and warnings."""
    from paw_tui.core.support.yaml_nodes import NodeReader

    reader = NodeReader(file)
    warnings = NodeReader(file)
    entries = _entries_node(reader, text)
    if entries is None:
        return [], reader.problems, []
    intents = _parse_all(reader, entries)
    known = {intent.id for intent in intents}
    for intent in intents:
        for dependency in intent.depends_on:
            if dependency not in known:
                warnings.problems.append(
                    _problem(
                        file,
                        intent.line,
                        f"intent '{intent.id}' depends on unknown intent '{dependency}'",
                    )
                )
    # Problems in file order, so "the first problem" is the one nearest the top.
    reader.problems.sort(key=lambda problem: problem.line)
    return intents, reader.problems, warnings.problems


def _entries_node(reader: NodeReader, text: str) -> yaml.Node | None:
    """The list of intents, or None when there is none to read (problems say why)."""
    import yaml

    from paw_tui.core.support.yaml_nodes import kind_of

    root = reader.compose(text)
    if root is None or _is_null(root):
        return None
    entries: yaml.Node | None = None
    for key, _key_node, value in reader.mapping(root, "the file"):
        if key in ROOT_KEYS:
            if entries is not None:
                reader.problem(value, "use one of 'active_intents' or 'intents', not both")
            entries = value
    if reader.problems:
        return None
    if entries is None:
        reader.problem(root, "expected the top-level key 'active_intents' (or 'intents')")
        return None
    if _is_null(entries):
        return None
    if not isinstance(entries, yaml.SequenceNode):
        reader.problem(
            entries, f"'active_intents' must be a list of intents, not {kind_of(entries)}"
        )
        return None
    return entries


def _parse_all(reader: NodeReader, entries: yaml.Node) -> list[Intent]:
    from paw_tui.core.support.yaml_nodes import line_of

    intents: list[Intent] = []
    first_line: dict[str, int] = {}
    for entry in entries.value:
        intent = _parse_entry(reader, entry)
        if intent is None:
            continue
        if intent.id in first_line:
            reader.problem(
                entry, f"duplicate intent id '{intent.id}' (first at line {first_line[intent.id]})"
            )
            continue
        first_line[intent.id] = line_of(entry)
        intents.append(intent)
    return intents


def _problem(file: str, line: int, message: str) -> Problem:
    from paw_tui.core.support.yaml_nodes import Problem

    return Problem(file, line, message)


def _parse_entry(reader: NodeReader, entry: yaml.Node) -> Intent | None:
    from paw_tui.core.support.yaml_nodes import line_of

    before = len(reader.problems)
    items = list(reader.mapping(entry, "an intent"))
    nodes = {key: value for key, _key_node, value in items}
    if len(reader.problems) > before and not nodes:
        return None
    if "id" not in nodes:
        reader.problem(entry, "an intent has no 'id'")
        return None
    intent_id = _read_id(reader, nodes["id"])
    where = f"intent '{intent_id}'" if intent_id else "an intent"
    _check_keys(reader, [(key, key_node) for key, key_node, _value in items], where)
    fields = _read_fields(reader, nodes, where)
    if len(reader.problems) > before or intent_id is None:
        return None
    status_node = nodes["status"]
    span = (
        status_node.start_mark.line + 1,
        status_node.start_mark.column,
        status_node.end_mark.column
        if status_node.end_mark.line == status_node.start_mark.line
        else -1,
    )
    return Intent(
        id=intent_id,
        name=str(fields.get("name") or ""),
        status=str(fields["status"]),
        description=str(fields.get("description") or ""),
        owned_scope=fields.get("owned_scope"),  # type: ignore[arg-type]
        constraints=fields.get("constraints"),  # type: ignore[arg-type]
        acceptance_criteria=fields.get("acceptance_criteria"),  # type: ignore[arg-type]
        related_specs=fields.get("related_specs"),  # type: ignore[arg-type]
        depends_on=fields.get("depends_on"),  # type: ignore[arg-type]
        line=line_of(entry),
        status_span=span,
    )


def _read_id(reader: NodeReader, node: yaml.Node) -> str | None:
    import re

    intent_id = reader.string(node, "'id'")
    if intent_id is None:
        return None
    intent_id = intent_id.strip()
    if not re.fullmatch(ID_PATTERN, intent_id):
        reader.problem(
            node,
            f"invalid intent id '{intent_id}': use letters, digits and . _ : - "
            "(starting with a letter or digit, at most 128 characters)",
        )
        return None
    return intent_id


def _check_keys(reader: NodeReader, keys: list[tuple[str, yaml.Node]], where: str) -> None:
    from paw_tui.core.support.suggest import did_you_mean

    for key, key_node in keys:
        if key in KNOWN_FIELDS or key.startswith(EXTENSION_PREFIX):
            continue
        reader.problem(
            key_node,
            f"unknown key '{key}' in {where}{did_you_mean(key, KNOWN_FIELDS)}; known keys: "
            f"{', '.join(KNOWN_FIELDS)} (prefix your own with '{EXTENSION_PREFIX}')",
        )


def _read_fields(reader: NodeReader, nodes: dict[str, yaml.Node], where: str) -> dict[str, object]:
    fields: dict[str, object] = {}
    if "status" not in nodes:
        reader.problem(next(iter(nodes.values())), f"{where} has no 'status'")
    else:
        status = reader.string(nodes["status"], f"the status of {where}")
        if status is not None:
            if status.strip() not in STATUSES:
                reader.problem(
                    nodes["status"],
                    f"unknown status '{status}' for {where}; use one of {', '.join(STATUSES)}",
                )
            else:
                fields["status"] = status.strip()
    if "name" in nodes:
        fields["name"] = reader.string(nodes["name"], f"the name of {where}") or ""
    if "description" in nodes and not _is_null(nodes["description"]):
        fields["description"] = (
            reader.string(nodes["description"], f"the description of {where}", allow_empty=True)
            or ""
        )
    for name in LIST_FIELDS:
        if name in nodes:
            values = reader.string_list(nodes[name], f"'{name}' of {where}")
            if values is not None:
                fields[name] = values
    patterns: list[str] = fields.get("owned_scope") or []  # type: ignore[assignment]
    for index, pattern in enumerate(patterns):
        message = glob_problem(pattern)
        if message:
            reader.problem(
                nodes["owned_scope"].value[index],
                f"bad pattern '{pattern}' in the owned_scope of {where}: {message}",
            )
    return fields


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable owned-scope pattern, or None when it is (translated
    once per process: compiling the policy right after reuses it)."""
    from paw_tui.core.policy.scope.compile import pattern_problem

    return pattern_problem(pattern)
