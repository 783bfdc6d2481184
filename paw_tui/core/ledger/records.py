"""What one ledger record is (DESIGN §7): its events, its field order, and its bytes.

Every event name the ledger knows is defined here, once; writers and readers (the gate, the
handshake, the TUI, ``trace``) import them. :func:`caller_fields` checks what a writer
supplies and :func:`encode_record` makes the one compact line that is appended. Standard
library only: the gate appends records.
"""

from __future__ import annotations

from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.support.keyed import Mac

Record = dict[str, object]

INTENT_SELECTED = "intent_selected"
SELECTION_REFUSED = "selection_refused"
APPROVAL_REQUESTED = "approval_requested"
APPROVAL_GRANTED = "approval_granted"
APPROVAL_REJECTED = "approval_rejected"
TOOL_ALLOWED = "tool_allowed"
TOOL_DENIED = "tool_denied"
MUTATION = "mutation"
INTENT_STATUS_CHANGED = "intent_status_changed"
SESSION_RELEASED = "session_released"
SCOPE_BREACH = "scope_breach"
SCOPE_REQUESTED = "scope_requested"
SCOPE_GRANTED = "scope_granted"
SCOPE_DENIED = "scope_denied"
LEDGER_REPAIRED = "ledger_repaired"
INTENT_CREATED = "intent_created"
INTENT_EDITED = "intent_edited"
SUPERVISOR_SET = "supervisor_set"
SUPERVISOR_CLEARED = "supervisor_cleared"
EVENTS = (
    INTENT_SELECTED, SELECTION_REFUSED, APPROVAL_REQUESTED, APPROVAL_GRANTED, APPROVAL_REJECTED,
    TOOL_ALLOWED, TOOL_DENIED, MUTATION, INTENT_STATUS_CHANGED, SESSION_RELEASED, SCOPE_BREACH,
    SCOPE_REQUESTED, SCOPE_GRANTED, SCOPE_DENIED, LEDGER_REPAIRED, INTENT_CREATED, INTENT_EDITED,
    SUPERVISOR_SET, SUPERVISOR_CLEARED,
)  # fmt: skip

DECISIONS = ("allow", "deny", "pending", "breach")
"""Values of the ``decision`` field (``breach``: a change found after the fact)."""

LEDGER_VERSION = 1
# Keys in the order they are written; any other key follows them, sorted, then "prev" and
# last the "mac" that signs everything before it (see sign_line).
FIELD_ORDER = (
    "v", "seq", "ts", "event", "session_id", "intent_id", "client", "tool", "paths",
    "decision", "reason", "content_hash", "ranges",
)  # fmt: skip
RESERVED_FIELDS = frozenset({"v", "seq", "ts", "prev", "mac"})
_CALLER_FIELDS = FIELD_ORDER[3:]
_KNOWN_FIELDS = frozenset(FIELD_ORDER) | {"prev", "mac"}


def _present(value: object) -> bool:
    if value is None:
        return False
    if isinstance(value, (str, list, tuple, dict)):
        return len(value) > 0
    return True


def _check_ranges(value: object) -> list[dict[str, int]]:
    if not isinstance(value, (list, tuple)):
        raise ValueError("ranges must be a list")
    ranges = []
    for item in value:
        start = item.get("start_line") if isinstance(item, dict) else None
        end = item.get("end_line") if isinstance(item, dict) else None
        if type(start) is not int or type(end) is not int or not 1 <= start <= end:
            raise ValueError(
                f"range {item!r} is not {{start_line, end_line}} with 1 <= start <= end"
            )
        ranges.append({"start_line": start, "end_line": end})
    return ranges


def caller_fields(record: Mapping[str, object]) -> dict[str, object]:
    """The caller's keys checked, without empty values, in ledger order (ValueError)."""
    reserved = RESERVED_FIELDS.intersection(record)
    if reserved:
        raise ValueError(f"the record sets {', '.join(sorted(reserved))}, which the ledger assigns")
    event = record.get("event")
    if not isinstance(event, str) or not event:
        raise ValueError("the record has no event")
    fields: dict[str, object] = {}
    for key in _CALLER_FIELDS:
        value = record.get(key)
        if not _present(value):
            continue
        if key == "paths":
            if not isinstance(value, (list, tuple)) or not all(isinstance(p, str) for p in value):
                raise ValueError("paths must be a list of strings")
            value = list(value)
        elif key == "ranges":
            value = _check_ranges(value)
        fields[key] = value
    extras = [key for key in record if key not in _KNOWN_FIELDS]
    if not all(isinstance(key, str) for key in extras):
        raise ValueError("field names must be strings")
    for key in sorted(extras):
        if _present(record[key]):
            fields[key] = record[key]
    return fields


def encode_record(record: Record) -> bytes:
    """The compact UTF-8 line for ``record`` (no newline); ValueError when not JSON-able."""
    try:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"the record is not JSON-serialisable ({error})") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (an undecodable file name): escape it
        return json.dumps(record, ensure_ascii=True, separators=(",", ":")).encode("ascii")


MAC_OPEN = b',"mac":"'
MAC_CLOSE = b'"}'


def sign_line(body: bytes, previous_mac: str, mac: Mac) -> tuple[bytes, str]:
    """``body`` (a record's line, without ``mac``) with its ``"mac"`` added last, and the mac.

    The MAC is HMAC-SHA256 over the previous record's mac (empty for the first) and the body,
    written as ``<key id>:<hex>`` so a ledger kept on several machines says whose key signed
    each record.
    """
    value = f"{mac.key_id}:{mac.hexdigest(previous_mac.encode('ascii'), body)}"
    return body[:-1] + MAC_OPEN + value.encode("ascii") + MAC_CLOSE, value


def split_mac(line: bytes) -> tuple[bytes, str] | None:
    """``(body, mac)`` of a signed line (the body as it was signed), or None when the line
    does not end with a mac where paw-tui writes it."""
    if not line.endswith(MAC_CLOSE):
        return None
    start = line.rfind(MAC_OPEN)
    if start < 0:
        return None
    value = line[start + len(MAC_OPEN) : -len(MAC_CLOSE)]
    if b'"' in value or b"\\" in value:
        return None
    return line[:start] + b"}", value.decode("ascii", "replace")
