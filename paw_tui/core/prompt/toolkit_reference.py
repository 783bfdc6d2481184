"""The toolkit reference (DESIGN §8, seed 003 layer 1): what tools exist and their contracts.

Tool definitions come in the shapes agent builders already have: MCP (``name``,
``description``, ``inputSchema``, optional ``outputSchema``), OpenAI function calling
(``{"type": "function", "function": {"name", "description", "parameters"}}``, or the flat
Responses form), Anthropic (``input_schema``), or a whole MCP ``tools/list`` result
(``{"tools": [...]}``). Each is normalised to a :class:`ToolDefinition`, so the same tool
renders byte for byte the same whichever shape it came in.

Rendering is pure and cached in process by a hash of the normalised definitions; nothing is
ever written to disk (a read command never writes into the workspace).
"""

from __future__ import annotations

import json
import os

from paw_tui.core.errors import ValidationError
from paw_tui.core.support.hashing import sha256_hex
from paw_tui.core.support.json_types import json_type_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

HEADING = "## AVAILABLE TOOLS"
NO_TOOLS = "(no tools)"
NO_PARAMETERS = "(no parameters)"
NO_DESCRIPTION = "(no description)"
USE_WHEN_KEY = "x-use-when"
MAX_TYPE_DEPTH = 8
_CACHE_LIMIT = 64
_cache: dict[str, str] = {}


class ToolDefinition:
    """One tool in the one shape the renderer knows, whatever shape it was given in."""

    __slots__ = ("name", "description", "input_schema", "output_schema", "use_when")

    def __init__(
        self,
        name: str,
        description: str = "",
        input_schema: dict[str, object] | None = None,
        output_schema: dict[str, object] | str | None = None,
        use_when: list[str] | None = None,
    ) -> None:
        self.name = name
        self.description = description
        self.input_schema = dict(input_schema or {})
        self.output_schema = output_schema
        self.use_when = list(use_when or [])

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolDefinition):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"ToolDefinition({self.name!r})"


def _label(entry: object, index: int | None) -> str:
    """``tools[2] ('get_weather')``: how an error names the entry at fault."""
    where = "the entry" if index is None else f"tools[{index}]"
    name = None
    if isinstance(entry, dict):
        name = entry.get("name")
        inner = entry.get("function")
        if name is None and isinstance(inner, dict):
            name = inner.get("name")
    if isinstance(name, str) and name.strip():
        return f"{where} ('{name.strip()}')"
    return f"{where} (no name)"


def _fail(entry: object, index: int | None, source: str | None, problem: str) -> ValidationError:
    prefix = f"{source}: " if source else ""
    return ValidationError(f"{prefix}{_label(entry, index)}: {problem}.")


def _check_schema(
    schema: object, what: str, entry: object, index: int | None, source: str | None
) -> dict[str, object]:
    if schema is None:
        return {}
    if not isinstance(schema, dict):
        raise _fail(
            entry, index, source, f"'{what}' must be a JSON object, not {json_type_name(schema)}"
        )
    properties = schema.get("properties")
    if properties is not None:
        if not isinstance(properties, dict):
            raise _fail(
                entry,
                index,
                source,
                f"'{what}.properties' must be a JSON object, not {json_type_name(properties)}",
            )
        for prop, prop_schema in properties.items():
            if not isinstance(prop_schema, (dict, bool)):
                raise _fail(
                    entry,
                    index,
                    source,
                    f"the schema of property '{prop}' in '{what}' must be a JSON object, "
                    f"not {json_type_name(prop_schema)}",
                )
            if isinstance(prop_schema, dict):
                description = prop_schema.get("description")
                if description is not None and not isinstance(description, str):
                    raise _fail(
                        entry,
                        index,
                        source,
                        f"the description of property '{prop}' in '{what}' must be a string",
                    )
                enum = prop_schema.get("enum")
                if enum is not None and not isinstance(enum, list):
                    raise _fail(
                        entry,
                        index,
                        source,
                        f"the 'enum' of property '{prop}' in '{what}' must be a list",
                    )
    required = schema.get("required")
    if required is not None and (
        not isinstance(required, list) or not all(isinstance(item, str) for item in required)
    ):
        raise _fail(entry, index, source, f"'{what}.required' must be a list of property names")
    return schema


def _use_when(value: object, entry: object, index: int | None, source: str | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value if item.strip()]
    raise _fail(entry, index, source, f"'{USE_WHEN_KEY}' must be a string or a list of strings")


def normalise_tool(
    entry: object, index: int | None = None, source: str | None = None
) -> ToolDefinition:
    """One tool definition in any supported shape as a :class:`ToolDefinition`.

    Raises ValidationError naming the entry (``tools[index] ('name')``) and what is wrong.
    """
    if isinstance(entry, ToolDefinition):
        return entry
    if not isinstance(entry, dict):
        raise _fail(
            entry,
            index,
            source,
            f"a tool definition must be a JSON object, not {json_type_name(entry)}",
        )
    body: dict[str, object] = entry
    input_key = "inputSchema"
    if "function" in entry:  # OpenAI chat completions: the definition is nested
        inner = entry["function"]
        if not isinstance(inner, dict):
            raise _fail(
                entry,
                index,
                source,
                f"'function' must be a JSON object, not {json_type_name(inner)}",
            )
        body = inner
        input_key = "parameters"
    else:
        for key in ("inputSchema", "input_schema", "parameters"):
            if key in entry:
                input_key = key
                break
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(entry, index, source, "'name' must be a non-empty string")
    description = body.get("description")
    if description is not None and not isinstance(description, str):
        raise _fail(
            entry,
            index,
            source,
            f"'description' must be a string, not {json_type_name(description)}",
        )
    input_schema = _check_schema(body.get(input_key), input_key, entry, index, source)
    output_key = "outputSchema" if "outputSchema" in body else "output_schema"
    output_raw = body.get(output_key)
    output_schema: dict[str, object] | str | None
    if output_raw is None or isinstance(output_raw, str):
        output_schema = (
            output_raw.strip() if isinstance(output_raw, str) and output_raw.strip() else None
        )
    else:
        output_schema = _check_schema(output_raw, output_key, entry, index, source)
    use_raw = entry.get(USE_WHEN_KEY)
    if use_raw is None:
        use_raw = body.get(USE_WHEN_KEY)
    if use_raw is None:
        use_raw = input_schema.get(USE_WHEN_KEY)
    return ToolDefinition(
        name.strip(),
        (description or "").strip(),
        input_schema,
        output_schema,
        _use_when(use_raw, entry, index, source),
    )


def load_tool_definitions(data: object, source: str | None = None) -> list[ToolDefinition]:
    """Every tool of a parsed FILE: a list of definitions or an MCP ``tools/list`` result."""
    prefix = f"{source}: " if source else ""
    entries = data
    if isinstance(data, dict):
        result = data.get("result")
        if "tools" not in data and isinstance(result, dict) and "tools" in result:
            data = result  # a whole JSON-RPC response to tools/list
        if "tools" not in data:
            raise ValidationError(
                f"{prefix}expected a JSON list of tool definitions or an object with a 'tools' list "
                "(an MCP tools/list result), but the object has no 'tools' key."
            )
        entries = data["tools"]
    if not isinstance(entries, list):
        raise ValidationError(
            f"{prefix}expected a JSON list of tool definitions or an object with a 'tools' list, "
            f"not {json_type_name(entries)}."
        )
    tools: list[ToolDefinition] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        tool = normalise_tool(entry, index, source)
        if tool.name in seen:
            raise _fail(entry, index, source, f"the name repeats that of tools[{seen[tool.name]}]")
        seen[tool.name] = index
        tools.append(tool)
    return tools


def read_tools_file(path: str, data: bytes | None = None) -> list[ToolDefinition]:
    """Load FILE (or ``data`` read from it, e.g. stdin); ValidationError names what is wrong."""
    from paw_tui.core.support.textfile import MAX_FILE_BYTES, describe_os_error, read_bytes_limited

    if data is None:
        try:
            data = read_bytes_limited(path, MAX_FILE_BYTES * 16)
        except (FileNotFoundError, NotADirectoryError):
            raise ValidationError(f"Tool definitions file '{path}' does not exist.") from None
        except OSError as exc:
            raise ValidationError(
                f"Cannot read tool definitions file '{path}': {describe_os_error(exc, path)}."
            ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{path}: not valid UTF-8 (byte offset {exc.start}).") from None
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}."
        ) from None
    return load_tool_definitions(parsed, os.path.basename(path) if path != "-" else "stdin")


def _ref_name(ref: str) -> str:
    tail = ref.rstrip("/").rsplit("/", 1)[-1]
    return tail.rsplit("#", 1)[-1] or ref


def type_label(schema: object, depth: int = 0) -> str:
    """The JSON Schema type of ``schema`` in a few words: ``string``, ``array of Address``,
    ``string | null``; a ``$ref`` by the name it points to; ``any`` when nothing says."""
    if not isinstance(schema, dict) or depth > MAX_TYPE_DEPTH:
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref:
        return _ref_name(ref)
    kind = schema.get("type")
    if isinstance(kind, list) and kind and all(isinstance(item, str) for item in kind):
        return " | ".join(kind)
    if isinstance(kind, str):
        items = schema.get("items")
        if kind == "array" and isinstance(items, dict):
            return f"array of {type_label(items, depth + 1)}"
        return kind
    for combiner in ("anyOf", "oneOf"):
        options = schema.get(combiner)
        if isinstance(options, list) and options:
            labels: list[str] = []
            for option in options:
                label = type_label(option, depth + 1)
                if label not in labels:
                    labels.append(label)
            return " | ".join(labels)
    every = schema.get("allOf")
    if isinstance(every, list) and len(every) == 1:
        return type_label(every[0], depth + 1)
    values = schema.get("enum")
    if isinstance(values, list) and values:
        kinds: list[str] = []
        for value in values:
            if json_type_name(value) not in kinds:
                kinds.append(json_type_name(value))
        return " | ".join(kinds)
    if "const" in schema:
        return json_type_name(schema["const"])
    return "any"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def property_lines(schema: dict[str, object]) -> list[str]:
    """``- **name** (type, default: JSON | required | optional): description`` per property,
    in schema order."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return []
    required = schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    lines: list[str] = []
    for name, prop in properties.items():
        prop_schema = prop if isinstance(prop, dict) else {}
        if "default" in prop_schema:
            qualifier = f"default: {_json(prop_schema['default'])}"
        elif name in required_names:
            qualifier = "required"
        else:
            qualifier = "optional"
        parts: list[str] = []
        description = prop_schema.get("description")
        if isinstance(description, str) and description.strip():
            parts.append(_one_line(description))
        enum = prop_schema.get("enum")
        if isinstance(enum, list) and enum:
            parts.append(f"(one of: {', '.join(_json(value) for value in enum)})")
        line = f"- **{name}** ({type_label(prop_schema)}, {qualifier})"
        lines.append(f"{line}: {' '.join(parts)}" if parts else line)
    return lines


def _output_lines(output: dict[str, object] | str) -> list[str]:
    if isinstance(output, str):
        return [output]
    lines: list[str] = []
    description = output.get("description")
    if isinstance(description, str) and description.strip():
        lines.append(description.strip())
    lines += property_lines(output)
    return lines or [f"Returns {type_label(output)}."]


def render_tool(tool: ToolDefinition) -> str:
    """One tool's section, from ``### <name>`` to its last line (no trailing newline)."""
    lines = [
        f"### {tool.name}",
        f"**Purpose**: {tool.description or NO_DESCRIPTION}",
        "",
        "**Input Schema**:",
    ]
    lines += property_lines(tool.input_schema) or [NO_PARAMETERS]
    if tool.output_schema is not None:
        lines += ["", "**Output Schema**:", *_output_lines(tool.output_schema)]
    if tool.use_when:
        lines += ["", "**Use When**:", *[f"- {_one_line(item)}" for item in tool.use_when]]
    return "\n".join(lines)


def reference_key(tools: list[ToolDefinition]) -> str:
    """The cache key: a hash of the normalised definitions (order matters, as in the output)."""
    canonical = json.dumps(
        [tool.to_dict() for tool in tools], ensure_ascii=False, separators=(",", ":"), default=repr
    )
    return sha256_hex(canonical.encode("utf-8", "surrogatepass"))


def render_toolkit_reference(tools: Iterable[object]) -> str:
    """The whole reference (no trailing newline) for tool definitions in any supported shape.

    The same definitions always give the same bytes; results are cached in process by
    :func:`reference_key`. Raises ValidationError naming a malformed entry.
    """
    definitions = load_tool_definitions(list(tools))
    key = reference_key(definitions)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    sections = [render_tool(tool) for tool in definitions] or [NO_TOOLS]
    text = HEADING + "\n\n" + "\n\n".join(sections)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.pop(next(iter(_cache)))
    _cache[key] = text
    return text


def clear_cache() -> None:
    _cache.clear()
