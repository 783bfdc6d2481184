"""``active_intents.yaml`` loaded and dumped through ruamel.yaml's round-trip mode.

The file is the human's: an edit must keep its comments, order, quoting and layout. PyYAML
would drop every comment; ruamel.yaml's round-trip mode keeps them, so an edit loads the
file, changes the few nodes it must, and dumps it back. The list style (``- item`` under its
key, or indented past it) is read from the file itself, and long lines are never re-folded.
"""

from __future__ import annotations

import io
from typing import cast

from paw_tui.core.intents.editing import IntentEditError
from paw_tui.core.intents.model import ROOT_KEYS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

BOM = b"\xef\xbb\xbf"


class Document:
    """One loaded file: ``root`` (the top mapping) and how to write it back."""

    __slots__ = ("root", "path", "_yaml", "_bom")

    def __init__(self, data: bytes, path: str) -> None:
        from ruamel.yaml.comments import CommentedMap
        from ruamel.yaml.error import YAMLError

        self.path = path
        self._bom = data.startswith(BOM)
        text = data.decode("utf-8-sig")
        self._yaml = _round_trip(text)
        try:
            loaded = self._yaml.load(text) if text.strip() else None
        except YAMLError as exc:
            raise IntentEditError(
                f"{path} cannot be edited safely ({exc}); edit it by hand."
            ) from exc
        if loaded is None:
            loaded = CommentedMap()
        if not isinstance(loaded, CommentedMap):
            raise IntentEditError(f"{path} is not a mapping of intents; edit it by hand.")
        self.root: CommentedMap = loaded

    def entries(self, *, create: bool = False) -> CommentedSeq:
        """The list of intents (``active_intents:``, or ``intents:``); with ``create``, an
        empty list is put in place of a missing or empty one."""
        from ruamel.yaml.comments import CommentedSeq

        key = next((k for k in ROOT_KEYS if k in self.root), ROOT_KEYS[0])
        entries = self.root.get(key)
        if entries is None and create:
            entries = self.root[key] = CommentedSeq()
        if not isinstance(entries, CommentedSeq):
            raise IntentEditError(f"The '{key}' of {self.path} is not a list; edit it by hand.")
        return entries

    def entry(self, intent_id: str) -> CommentedMap:
        """The mapping of ``intent_id``; IntentEditError when it is not a plain entry."""
        for entry in self.entries():
            if isinstance(entry, dict) and str(entry.get("id", "")).strip() == intent_id:
                return entry  # type: ignore[return-value]
        raise IntentEditError(f"{intent_id} is not a plain entry of {self.path}; edit it by hand.")

    def dump(self) -> bytes:
        out = io.StringIO()
        self._yaml.dump(self.root, out)
        encoded = out.getvalue().encode("utf-8")
        return BOM + encoded if self._bom else encoded


def _round_trip(text: str) -> YAML:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-fold a long line
    yaml.indent(**indentation(text))
    return yaml


def indentation(text: str) -> dict[str, int]:
    """The file's own list style: ``- item`` under its key (offset) or indented past it."""
    lines = text.splitlines()
    for index, line in enumerate(lines[:-1]):
        stripped = line.strip()
        if stripped.endswith(":") and not stripped.startswith(("#", "-")):
            following = lines[index + 1]
            if following.lstrip().startswith("- "):
                key_indent = len(line) - len(line.lstrip())
                dash = len(following) - len(following.lstrip())
                offset = max(dash - key_indent, 0)
                return {"mapping": 2, "sequence": offset + 2, "offset": offset}
    return {"mapping": 2, "sequence": 4, "offset": 2}


def quoted_like(neighbour: object, value: str) -> str:
    """``value`` quoted as ``neighbour`` (an item of the same list) is, so an appended item
    looks like its list; a pattern is double-quoted when the list gives no lead (``*`` and
    ``!`` may not start a plain YAML scalar)."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    if isinstance(neighbour, SingleQuotedScalarString):
        return cast("str", SingleQuotedScalarString(value))
    if isinstance(neighbour, DoubleQuotedScalarString) or neighbour is None:
        return cast("str", DoubleQuotedScalarString(value))
    return value


def string_list(values: list[str], *, quoted: bool, like: object = None) -> CommentedSeq:
    """A block list of ``values`` (double-quoted when ``quoted``, else as ``like`` is)."""
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq()
    for value in values:
        seq.append(quoted_like(like, value) if quoted or like is not None else value)
    return seq
