"""``loads`` and ``dumps`` on the C accelerator, without importing the ``json`` package.

``import json`` pulls in ``re`` (and with it ``enum``, ``functools``, ``collections``):
about 15 ms, most of a hook's whole budget. The C scanner and encoder in ``_json`` are what
``json`` itself calls; this module hands them the same settings ``json.loads`` /
``json.dumps(separators=..., ensure_ascii=...)`` would, so the bytes produced are identical.
Anything unusual (``indent``, a missing accelerator, a malformed document's error message)
falls back to the real ``json`` module, which is then imported only on that path.
"""

from __future__ import annotations

try:
    import _json
except ImportError:  # pragma: no cover - CPython always has it
    _json = None  # type: ignore[assignment]

_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _DecoderSettings:
    """The attributes the C scanner reads from a ``json.JSONDecoder``."""

    __slots__ = (
        "strict",
        "object_hook",
        "object_pairs_hook",
        "parse_float",
        "parse_int",
        "parse_constant",
        "memo",
    )

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = _CONSTANTS.__getitem__
        self.memo: dict[str, str] = {}


_WHITESPACE = " \t\n\r"
_scan = _json.make_scanner(_DecoderSettings()) if _json is not None else None  # type: ignore[arg-type]


def loads(data: str | bytes | bytearray) -> object:
    """``json.loads`` for UTF-8 text; raises ValueError (``json.JSONDecodeError``) when the
    document is not valid JSON."""
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    if text.startswith("\ufeff") or _scan is None:
        import json

        return json.loads(text)
    start = 0
    length = len(text)
    while start < length and text[start] in _WHITESPACE:
        start += 1
    try:
        value, end = _scan(text, start)
    except (StopIteration, SystemError, ValueError):
        # The C scanner builds its error from json.decoder, which is not imported here (it
        # can then fail with a SystemError): let json itself parse, and raise its
        # JSONDecodeError with the position.
        import json

        return json.loads(text)
    while end < length and text[end] in _WHITESPACE:
        end += 1
    if end != length:
        import json

        return json.loads(text)  # "Extra data": let json say where
    return value


def _refuse(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(
    value: object,
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] | None = None,
    allow_nan: bool = True,
    sort_keys: bool = False,
    indent: int | None = None,
) -> str:
    """``json.dumps`` with the same output for these options."""
    if indent is not None or _json is None:
        import json

        return json.dumps(
            value,
            ensure_ascii=ensure_ascii,
            separators=separators,
            allow_nan=allow_nan,
            sort_keys=sort_keys,
            indent=indent,
        )
    item_separator, key_separator = separators if separators is not None else (", ", ": ")
    string = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    if isinstance(value, str):
        return string(value)
    try:
        encode = _json.make_encoder(
            {}, _refuse, string, None, key_separator, item_separator, sort_keys, False, allow_nan
        )
    except TypeError:  # another interpreter's signature: use the module
        import json

        return json.dumps(
            value,
            ensure_ascii=ensure_ascii,
            separators=separators,
            allow_nan=allow_nan,
            sort_keys=sort_keys,
        )
    return "".join(encode(value, 0))
