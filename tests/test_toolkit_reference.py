"""``paw-tui toolkit reference --tools FILE`` and its library API (DESIGN §8, seed 003 layer 1)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw_tui.core.errors import ValidationError
from paw_tui.core.prompt import toolkit_reference as tk

if TYPE_CHECKING:
    from conftest import RunCli, Workspace

DATA = Path(__file__).parent / "data" / "toolkit"
FORMATS = ["mcp_tools.json", "openai_tools.json", "anthropic_tools.json", "mcp_tools_list.json"]

EXPECTED = """\
## AVAILABLE TOOLS

### get_forecast
**Purpose**: Get the weather forecast for a city.

**Input Schema**:
- **city** (string, required): City name, e.g. "Lisbon"
- **days** (integer, default: 3): How many days ahead
- **unit** (string, default: "celsius"): Temperature unit (one of: "celsius", "fahrenheit")
- **location** (Location, required): Exact coordinates
- **hours** (array of integer, optional): Hours of the day to include
- **since** (string | null, default: null)
- **detail** (string, optional): (one of: "low", "high")

**Use When**:
- Questions about upcoming weather
- Planning outdoor events

### list_alerts
**Purpose**: List active weather alerts.

**Input Schema**:
(no parameters)

**Use When**:
- Severe weather questions
"""


def write_tools(tmp_path: Path, data: object, name: str = "tools.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_renders_the_same_reference(run_cli: RunCli, name: str) -> None:
    result = run_cli("toolkit", "reference", "--tools", str(DATA / name))
    assert (result.code, result.err) == (0, "")
    assert result.out == EXPECTED


def test_library_normalises_all_formats_to_the_same_rendering() -> None:
    rendered = set()
    for name in FORMATS:
        data = json.loads((DATA / name).read_text(encoding="utf-8"))
        entries = data["tools"] if isinstance(data, dict) else data
        rendered.add(tk.render_toolkit_reference(entries))
        tools = tk.load_tool_definitions(data)
        assert [tool.name for tool in tools] == ["get_forecast", "list_alerts"]
        assert tools[1].use_when == ["Severe weather questions"]
    assert rendered == {EXPECTED.rstrip("\n")}


def test_normalise_tool_reads_each_shape() -> None:
    schema: dict[str, object] = {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
    }
    shapes = [
        {"name": "search", "description": "Find things.", "inputSchema": schema},
        {
            "type": "function",
            "function": {"name": "search", "description": "Find things.", "parameters": schema},
        },
        {"type": "function", "name": "search", "description": "Find things.", "parameters": schema},
        {"name": "search", "description": "Find things.", "input_schema": schema},
    ]
    expected = tk.ToolDefinition("search", "Find things.", schema)
    for shape in shapes:
        assert tk.normalise_tool(shape) == expected


def test_json_rpc_tools_list_response_is_accepted(run_cli: RunCli, tmp_path: Path) -> None:
    mcp = json.loads((DATA / "mcp_tools.json").read_text(encoding="utf-8"))
    path = write_tools(tmp_path, {"jsonrpc": "2.0", "id": 1, "result": {"tools": mcp}})
    result = run_cli("toolkit", "reference", "--tools", str(path))
    assert (result.code, result.out) == (0, EXPECTED)


def test_output_schema_object_and_string(run_cli: RunCli, tmp_path: Path) -> None:
    tools = [
        {
            "name": "report",
            "description": "Build a report.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            "outputSchema": {
                "type": "object",
                "description": "The report.",
                "properties": {
                    "title": {"type": "string", "description": "Its title"},
                    "pages": {"type": "integer"},
                },
                "required": ["title"],
            },
        },
        {
            "name": "ping",
            "description": "Ping.",
            "inputSchema": {"type": "object"},
            "outputSchema": "Returns JSON with analysis results and insights.",
        },
        {
            "name": "count",
            "description": "Count.",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "integer"},
        },
    ]
    result = run_cli("toolkit", "reference", "--tools", str(write_tools(tmp_path, tools)))
    assert result.code == 0
    assert result.out == (
        "## AVAILABLE TOOLS\n\n"
        "### report\n**Purpose**: Build a report.\n\n**Input Schema**:\n"
        "- **id** (string, optional)\n\n"
        "**Output Schema**:\nThe report.\n- **title** (string, required): Its title\n"
        "- **pages** (integer, optional)\n\n"
        "### ping\n**Purpose**: Ping.\n\n**Input Schema**:\n(no parameters)\n\n"
        "**Output Schema**:\nReturns JSON with analysis results and insights.\n\n"
        "### count\n**Purpose**: Count.\n\n**Input Schema**:\n(no parameters)\n\n"
        "**Output Schema**:\nReturns integer.\n"
    )


def test_default_wins_over_required_and_defaults_are_json() -> None:
    schema = {
        "type": "object",
        "properties": {
            "flag": {"type": "boolean", "default": False},
            "opts": {"type": "object", "default": {"a": [1, "x"]}},
            "name": {"type": "string", "default": "é", "description": "Name"},
        },
        "required": ["flag"],
    }
    text = tk.render_toolkit_reference([{"name": "t", "description": "d", "inputSchema": schema}])
    assert "- **flag** (boolean, default: false)\n" in text
    assert '- **opts** (object, default: {"a": [1, "x"]})\n' in text
    assert '- **name** (string, default: "é"): Name' in text


def test_ref_to_enum_definition_is_shown_by_name() -> None:
    schema = {
        "type": "object",
        "properties": {
            "colour": {"$ref": "#/$defs/Colour"},
            "shades": {"type": "array", "items": {"$ref": "#/definitions/Shade"}},
            "either": {"oneOf": [{"$ref": "#/$defs/Colour"}, {"type": "integer"}]},
        },
        "required": ["colour"],
        "$defs": {"Colour": {"enum": ["red", "green"]}},
    }
    text = tk.render_toolkit_reference([{"name": "paint", "inputSchema": schema}])
    assert text == (
        "## AVAILABLE TOOLS\n\n### paint\n**Purpose**: (no description)\n\n**Input Schema**:\n"
        "- **colour** (Colour, required)\n- **shades** (array of Shade, optional)\n"
        "- **either** (Colour | integer, optional)"
    )


def test_repeat_is_byte_identical_and_cached_by_schema_hash(run_cli: RunCli) -> None:
    path = str(DATA / "mcp_tools.json")
    first = run_cli("toolkit", "reference", "--tools", path)
    second = run_cli("toolkit", "reference", "--tools", path)
    assert first.out.encode("utf-8") == second.out.encode("utf-8") == EXPECTED.encode("utf-8")

    tk.clear_cache()
    data = json.loads((DATA / "mcp_tools.json").read_text(encoding="utf-8"))
    one = tk.render_toolkit_reference(data)
    assert list(tk._cache) == [tk.reference_key(tk.load_tool_definitions(data))]
    assert tk.render_toolkit_reference(json.loads(json.dumps(data))) is one  # served from the cache
    data[0]["inputSchema"]["properties"]["city"]["description"] = "Changed"
    changed = tk.render_toolkit_reference(data)
    assert "- **city** (string, required): Changed" in changed
    assert len(tk._cache) == 2


def test_property_order_is_schema_order_not_sorted() -> None:
    schema = {
        "type": "object",
        "properties": {"zeta": {"type": "string"}, "alpha": {"type": "string"}},
    }
    text = tk.render_toolkit_reference([{"name": "t", "description": "d", "inputSchema": schema}])
    assert text.index("**zeta**") < text.index("**alpha**")


def test_reference_never_writes_into_the_workspace(run_cli: RunCli, ws: Workspace) -> None:
    path = write_tools(ws.root, json.loads((DATA / "mcp_tools.json").read_text(encoding="utf-8")))
    before = sorted(str(p) for p in ws.root.rglob("*"))
    result = run_cli("toolkit", "reference", "--tools", str(path), cwd=ws.root)
    assert result.code == 0
    assert sorted(str(p) for p in ws.root.rglob("*")) == before


def test_tools_from_stdin(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (DATA / "anthropic_tools.json").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    result = run_cli("toolkit", "reference", "--tools", "-")
    assert (result.code, result.out) == (0, EXPECTED)


def test_empty_list_says_no_tools(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("toolkit", "reference", "--tools", str(write_tools(tmp_path, [])))
    assert (result.code, result.out) == (0, "## AVAILABLE TOOLS\n\n(no tools)\n")


def test_malformed_file_names_the_entry(run_cli: RunCli) -> None:
    result = run_cli("toolkit", "reference", "--tools", str(DATA / "malformed_schema.json"))
    assert result.code == 2
    assert result.out == ""
    assert result.err == (
        "malformed_schema.json: tools[1] ('list_alerts'): 'inputSchema' must be a JSON object, not array.\n"
    )


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        (
            [{"name": "ok", "inputSchema": {}}, {"description": "no name"}],
            "tools[1] (no name): 'name' must be a non-empty string",
        ),
        (
            [{"name": "a"}, "just a string"],
            "tools[1] (no name): a tool definition must be a JSON object, not string",
        ),
        ([{"name": "a", "description": 5}], "tools[0] ('a'): 'description' must be a string"),
        (
            [{"name": "a", "inputSchema": {"properties": []}}],
            "tools[0] ('a'): 'inputSchema.properties' must be a JSON object",
        ),
        (
            [{"name": "a", "inputSchema": {"properties": {"x": 3}}}],
            "tools[0] ('a'): the schema of property 'x'",
        ),
        (
            [{"name": "a", "inputSchema": {"required": "x"}}],
            "tools[0] ('a'): 'inputSchema.required' must be a list",
        ),
        (
            [{"name": "a", "x-use-when": 7}],
            "tools[0] ('a'): 'x-use-when' must be a string or a list of strings",
        ),
        (
            [{"name": "a"}, {"name": "b"}, {"name": "a"}],
            "tools[2] ('a'): the name repeats that of tools[0]",
        ),
        (
            [{"type": "function", "function": "nope"}],
            "tools[0] (no name): 'function' must be a JSON object",
        ),
        (
            [{"type": "function", "function": {"name": "f", "parameters": 1}}],
            "tools[0] ('f'): 'parameters' must be a JSON object",
        ),
        ({"tool": []}, "the object has no 'tools' key"),
        ({"tools": {}}, "not object"),
        (42, "not integer"),
    ],
)
def test_malformed_entries_exit_2(
    run_cli: RunCli, tmp_path: Path, entries: object, fragment: str
) -> None:
    result = run_cli("toolkit", "reference", "--tools", str(write_tools(tmp_path, entries)))
    assert result.code == 2, result.out
    assert fragment in result.err
    assert result.err.startswith("tools.json: ")
    assert result.out == ""


def test_invalid_json_and_missing_file(run_cli: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[\n  {"name": "a",}\n]', encoding="utf-8")
    result = run_cli("toolkit", "reference", "--tools", str(bad))
    assert result.code == 2
    assert "not valid JSON at line 2, column" in result.err
    missing = run_cli("toolkit", "reference", "--tools", str(tmp_path / "nope.json"))
    assert missing.code == 2
    assert missing.err == f"Tool definitions file '{tmp_path / 'nope.json'}' does not exist.\n"


def test_library_error_is_a_validation_error() -> None:
    with pytest.raises(
        ValidationError, match=r"tools\[0\] \('x'\): 'inputSchema' must be a JSON object"
    ):
        tk.render_toolkit_reference([{"name": "x", "inputSchema": "str"}])


def test_use_when_string_list_and_schema_level() -> None:
    text = tk.render_toolkit_reference(
        [
            {"name": "a", "description": "A.", "x-use-when": "One  reason"},
            {
                "name": "b",
                "description": "B.",
                "inputSchema": {"type": "object", "x-use-when": ["x", "y"]},
            },
            {"name": "c", "description": "C.", "x-use-when": []},
        ]
    )
    assert (
        "### a\n**Purpose**: A.\n\n**Input Schema**:\n(no parameters)\n\n**Use When**:\n- One reason\n\n### b"
        in text
    )
    assert "**Use When**:\n- x\n- y\n\n### c" in text
    assert text.endswith("### c\n**Purpose**: C.\n\n**Input Schema**:\n(no parameters)")


def test_command_help_lists_toolkit(run_cli: RunCli) -> None:
    from paw_tui.commands.registry import COMMANDS

    assert COMMANDS["toolkit"][0] == "paw_tui.commands.toolkit"
    with pytest.raises(SystemExit) as raised:
        run_cli("toolkit", "reference", "--help")
    assert raised.value.code == 0
