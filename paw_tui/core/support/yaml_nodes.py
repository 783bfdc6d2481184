"""Reading human-owned YAML with line numbers for every problem.

PyYAML's plain ``safe_load`` forgets where values came from and silently keeps the last of
two duplicate keys. We compose the node graph instead (safe: no tags are constructed) and
check it ourselves, so every problem names ``file:line``. Imported only on the slow path
(the gate reads a compiled cache instead).
"""

from __future__ import annotations

import yaml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


class Problem:
    """One thing wrong with a file, at a 1-based line (0 when the whole file is at fault)."""

    __slots__ = ("file", "line", "message")

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line}: {self.message}"
            if self.line
            else f"{self.file}: {self.message}"
        )

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "message": self.message}


class NodeReader:
    """Typed access to composed YAML nodes that records a Problem instead of raising."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def problem(self, node: yaml.Node | None, message: str) -> None:
        self.problems.append(Problem(self.file, line_of(node), message))

    def compose(self, text: str) -> yaml.Node | None:
        """The document's root node, or None (empty document or a syntax error, recorded)."""
        # libyaml composes the same nodes and marks about 8x faster (a 5,000-intent file in
        # 0.25 s, not 2 s); its error messages differ, so a failure is read again in Python.
        fast = getattr(yaml, "CSafeLoader", None)
        if fast is not None:
            try:
                return yaml.compose(text, Loader=fast)
            except yaml.YAMLError:
                pass
        try:
            return yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark is not None else 0
            what = exc.problem or exc.context or "invalid YAML"
            self.problems.append(Problem(self.file, line, f"YAML syntax error: {what}"))
        except yaml.YAMLError as exc:
            self.problems.append(Problem(self.file, 0, f"YAML error: {exc}"))
        return None

    def mapping(self, node: yaml.Node, what: str) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """``(key, key node, value node)`` of a mapping; duplicate keys are problems."""
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, f"{what} must be a mapping, not {kind_of(node)}")
            return
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, f"{what} has a key that is not a plain name")
                continue
            key = str(key_node.value)
            if key in seen:
                self.problem(
                    key_node, f"duplicate key '{key}' in {what} (first at line {seen[key]})"
                )
                continue
            seen[key] = line_of(key_node)
            yield key, key_node, value_node

    def string(self, node: yaml.Node, what: str, allow_empty: bool = False) -> str | None:
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
            self.problem(node, f"{what} must be a string, not {kind_of(node)}")
            return None
        value = str(node.value)
        if not allow_empty and not value.strip():
            self.problem(node, f"{what} must not be empty")
            return None
        return value

    def string_list(self, node: yaml.Node, what: str) -> list[str] | None:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.problem(node, f"{what} must be a list of strings, not {kind_of(node)}")
            return None
        values: list[str] = []
        ok = True
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode) or item.tag == "tag:yaml.org,2002:null":
                self.problem(item, f"each entry of {what} must be a string, not {kind_of(item)}")
                ok = False
                continue
            values.append(str(item.value))
        return values if ok else None

    def boolean(self, node: yaml.Node, what: str) -> bool | None:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
            return str(node.value).lower() in ("true", "yes", "on", "y")
        self.problem(node, f"{what} must be true or false, not {describe_scalar(node)}")
        return None


def line_of(node: yaml.Node | None) -> int:
    return node.start_mark.line + 1 if node is not None and node.start_mark is not None else 0


def kind_of(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node.tag == "tag:yaml.org,2002:null":
        return "empty"
    return f"the scalar '{node.value}'"


def describe_scalar(node: yaml.Node) -> str:
    return kind_of(node)
