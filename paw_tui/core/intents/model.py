"""Intents: the model, and reading ``.orchestration/active_intents.yaml`` strictly.

The model (:class:`Intent`) is standard library only: the gate rebuilds it from the compiled
policy cache. Parsing (:func:`parse_intents`) uses PyYAML and runs only on the slow path.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader, Problem

ROOT_KEYS = ("active_intents", "intents")
STATUSES = ("PENDING", "IN_PROGRESS", "BLOCKED", "COMPLETED", "ABANDONED")
SELECTABLE = ("PENDING", "IN_PROGRESS")
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}"
LIST_FIELDS = ("owned_scope", "constraints", "acceptance_criteria", "related_specs", "depends_on")


class Intent:
    """One entry of active_intents.yaml. ``status_span`` locates the status value in the file
    (1-based line, 0-based start and end columns) so a status change can edit that token
    alone and keep the human's comments and layout."""

    __slots__ = (
        "id",
        "name",
        "status",
        "description",
        "owned_scope",
        "constraints",
        "acceptance_criteria",
        "related_specs",
        "depends_on",
        "line",
        "status_span",
    )

    def __init__(
        self,
        id: str,
        name: str,
        status: str,
        description: str = "",
        owned_scope: list[str] | None = None,
        constraints: list[str] | None = None,
        acceptance_criteria: list[str] | None = None,
        related_specs: list[str] | None = None,
        depends_on: list[str] | None = None,
        line: int = 0,
        status_span: tuple[int, int, int] | None = None,
    ) -> None:
        self.id = id
        self.name = name
        self.status = status
        self.description = description
        self.owned_scope = list(owned_scope or [])
        self.constraints = list(constraints or [])
        self.acceptance_criteria = list(acceptance_criteria or [])
        self.related_specs = list(related_specs or [])
        self.depends_on = list(depends_on or [])
        self.line = line
        self.status_span = status_span

    @property
    def selectable(self) -> bool:
        return self.status in SELECTABLE

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "description": self.description,
            "owned_scope": list(self.owned_scope),
            "constraints": list(self.constraints),
            "acceptance_criteria": list(self.acceptance_criteria),
            "related_specs": list(self.related_specs),
            "depends_on": list(self.depends_on),
            "line": self.line,
            "status_span": list(self.status_span) if self.status_span else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Intent:
        span = data.get("status_span")
        return cls(
            id=str(data["id"]),
            name=str(data.get("name") or ""),
            status=str(data["status"]),
            description=str(data.get("description") or ""),
            owned_scope=list(data.get("owned_scope") or []),  # type: ignore[call-overload]
            constraints=list(data.get("constraints") or []),  # type: ignore[call-overload]
            acceptance_criteria=list(data.get("acceptance_criteria") or []),  # type: ignore[call-overload]
            related_specs=list(data.get("related_specs") or []),  # type: ignore[call-overload]
            depends_on=list(data.get("depends_on") or []),  # type: ignore[call-overload]
            line=int(data.get("line") or 0),  # type: ignore[call-overload]
            status_span=tuple(span) if span else None,  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"Intent({self.id!r}, {self.name!r}, {self.status!r})"


def parse_intents(text: str, file: str) -> tuple[list[Intent], list[Problem], list[Problem]]:
    """Intents, problems (the file is unusable while there are any) and warnings."""
    import yaml

    from paw_tui.core.support.yaml_nodes import NodeReader, kind_of, line_of

    reader = NodeReader(file)
    warnings = NodeReader(file)
    root = reader.compose(text)
    if root is None:
        return [], reader.problems, []
    if isinstance(root, yaml.ScalarNode) and root.tag == "tag:yaml.org,2002:null":
        return [], [], []
    entries: yaml.Node | None = None
    for key, _key_node, value in reader.mapping(root, "the file"):
        if key in ROOT_KEYS:
            if entries is not None:
                reader.problem(value, "use one of 'active_intents' or 'intents', not both")
            entries = value
    if reader.problems:
        return [], reader.problems, []
    if entries is None:
        reader.problem(root, "expected the top-level key 'active_intents' (or 'intents')")
        return [], reader.problems, []
    if isinstance(entries, yaml.ScalarNode) and entries.tag == "tag:yaml.org,2002:null":
        return [], [], []
    if not isinstance(entries, yaml.SequenceNode):
        reader.problem(
            entries, f"'active_intents' must be a list of intents, not {kind_of(entries)}"
        )
        return [], reader.problems, []

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
    for intent in intents:
        for dependency in intent.depends_on:
            if dependency not in first_line:
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


def _problem(file: str, line: int, message: str) -> Problem:
    from paw_tui.core.support.yaml_nodes import Problem

    return Problem(file, line, message)


def _parse_entry(reader: NodeReader, entry: yaml.Node) -> Intent | None:
    import yaml

    from paw_tui.core.support.yaml_nodes import line_of

    before = len(reader.problems)
    fields: dict[str, object] = {}
    nodes: dict[str, yaml.Node] = {}
    for key, _key_node, value in reader.mapping(entry, "an intent"):
        nodes[key] = value
    if len(reader.problems) > before and not nodes:
        return None
    where = "an intent"
    if "id" not in nodes:
        reader.problem(entry, "an intent has no 'id'")
        return None
    intent_id = reader.string(nodes["id"], "'id'")
    if intent_id is not None:
        intent_id = intent_id.strip()
        import re

        if not re.fullmatch(ID_PATTERN, intent_id):
            reader.problem(
                nodes["id"],
                f"invalid intent id '{intent_id}': use letters, digits and . _ : - "
                "(starting with a letter or digit, at most 128 characters)",
            )
            intent_id = None
        else:
            where = f"intent '{intent_id}'"
    if "status" not in nodes:
        reader.problem(entry, f"{where} has no 'status'")
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
    if "description" in nodes:
        node = nodes["description"]
        if not (isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"):
            fields["description"] = (
                reader.string(node, f"the description of {where}", allow_empty=True) or ""
            )
    for name in LIST_FIELDS:
        if name in nodes:
            values = reader.string_list(nodes[name], f"'{name}' of {where}")
            if values is not None:
                fields[name] = values
    scope_patterns: list[str] = fields.get("owned_scope") or []  # type: ignore[assignment]
    for index, pattern in enumerate(scope_patterns):
        message = glob_problem(pattern)
        if message:
            node = nodes["owned_scope"].value[index]
            reader.problem(
                node, f"bad pattern '{pattern}' in the owned_scope of {where}: {message}"
            )
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


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable owned-scope pattern, or None when it is."""
    from paw_tui.core.policy.scope.compile import compile_scope
    from paw_tui.core.policy.scope.patterns import ScopePatternError

    try:
        compile_scope([pattern])
    except ScopePatternError as exc:
        return exc.reason
    return None
