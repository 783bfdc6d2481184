"""Adding a pattern to an intent's ``owned_scope`` without losing the human's file.

``active_intents.yaml`` is the human's: a grant must keep its comments, order, quoting and
layout. ruamel.yaml's round-trip mode does that (PyYAML would drop every comment), so the file
is loaded, the one list is extended, and it is written back; the new text is compiled before it
is written, the write is atomic, and callers hold the state lock.
"""

from __future__ import annotations

import io

from paw_tui.core.intents.editing import IntentEditError, open_for_edit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.compiled import Policy

INTENTS_KEY = "active_intents"
SCOPE_KEY = "owned_scope"


def add_owned_pattern(root: str, intent_id: str, pattern: str) -> Policy:
    """Append ``pattern`` to ``intent_id``'s ``owned_scope``; returns the new policy. Already
    owned as written: nothing is written and the current policy is returned."""
    edit = open_for_edit(root, intent_id, "its scope")
    if pattern in edit.intent.owned_scope:
        return edit.policy
    new_bytes = _edited(edit.data, edit.path, intent_id, pattern)

    def holds(policy: Policy) -> bool:
        check = policy.intent(intent_id)
        return check is not None and pattern in check.owned_scope

    return edit.write(new_bytes, holds, f"Adding {pattern!r} to {intent_id}")


def _edited(data: bytes, path: str, intent_id: str, pattern: str) -> bytes:
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    bom = data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-fold a long line
    yaml.indent(**_indentation(text))
    try:
        document = yaml.load(text)
    except YAMLError as exc:
        raise IntentEditError(f"{path} cannot be edited safely ({exc}); edit it by hand.") from exc
    entry = _intent_entry(document, intent_id)
    if entry is None:
        raise IntentEditError(f"{intent_id} is not a plain entry of {path}; edit it by hand.")
    scope = entry.get(SCOPE_KEY)
    if scope is None:
        scope = entry[SCOPE_KEY] = CommentedSeq()
    if not isinstance(scope, list):
        raise IntentEditError(f"The owned_scope of {intent_id} in {path} is not a list.")
    last = scope[-1] if scope else None
    value: str = pattern
    if isinstance(last, DoubleQuotedScalarString):
        value = DoubleQuotedScalarString(pattern)
    elif isinstance(last, SingleQuotedScalarString):
        value = SingleQuotedScalarString(pattern)
    scope.append(value)
    out = io.StringIO()
    yaml.dump(document, out)
    encoded = out.getvalue().encode("utf-8")
    return b"\xef\xbb\xbf" + encoded if bom else encoded


def _intent_entry(document: object, intent_id: str) -> dict[str, object] | None:
    if not isinstance(document, dict):
        return None
    intents = document.get(INTENTS_KEY)
    if not isinstance(intents, list):
        return None
    for entry in intents:
        if isinstance(entry, dict) and str(entry.get("id", "")).strip() == intent_id:
            return entry
    return None


def _indentation(text: str) -> dict[str, int]:
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
