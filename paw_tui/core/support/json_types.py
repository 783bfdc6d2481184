"""JSON Schema type names of decoded JSON values (shared by the toolkit reference and the
hand-off block checker)."""

from __future__ import annotations


def json_type_name(value: object) -> str:
    """``null``, ``boolean``, ``integer``, ``number``, ``string``, ``array`` or ``object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
