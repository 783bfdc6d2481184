"""``trace export --format agent-trace``: Agent Trace 0.1.0 records from the ledger.

One trace record per ``mutation`` record, in ledger order (DESIGN §7). What is emitted, and
what is deliberately not:

- ``id`` is a UUID 5 of the ledger line's hash, so exporting twice gives the same ids;
  ``timestamp`` is the record's ``ts``; ``tool`` is paw-tui and its version.
- ``files[]`` holds the record's root-relative paths (an absolute path, outside the root,
  is not a valid ``path`` there and is listed under metadata instead). Each file has one
  conversation: ``contributor: {type: "ai"}`` (the ledger does not know the model) and
  ``related: [{type: "intent", url: "urn:intent:<id>"}]``.
- ``ranges`` are the record's ranges when it names exactly one path. When they are unknown
  the conversation carries ``ranges: []``: the schema requires the array, not an entry, and
  an invented ``1..1`` (what the reference implementation does) would attribute a line
  nobody recorded. ``metadata["dev.paw-tui"]["ranges_known"]`` says which case it is.
- no range ``content_hash``: the ledger keeps the hash of the whole file, not of a range's
  text; the whole-file hash goes to ``metadata["dev.paw-tui"]["content_hash"]``.
- no ``vcs``: the ledger does not record a revision, and the working tree's HEAD would not
  be the revision the line numbers refer to.
"""

from __future__ import annotations

import ntpath
import posixpath
import uuid

from paw_tui import __version__
from paw_tui.core.ledger.io import line_hash
from paw_tui.core.ledger.read import iter_records
from paw_tui.core.ledger.records import MUTATION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from paw_tui.core.ledger.io import LedgerFiles as Ledger
    from paw_tui.core.ledger.records import Record

AGENT_TRACE_VERSION = "0.1.0"
METADATA_KEY = "dev.paw-tui"
TOOL = {"name": "paw-tui", "version": __version__}
ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:paw-tui:agent-trace")
# RFC 3986 unreserved characters plus ":", which a URN's specific part may hold as is.
_URN_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")


def intent_urn(intent_id: str) -> str:
    """``urn:intent:<id>``, percent-encoding anything a URI may not hold."""
    encoded = "".join(
        ch
        if ch in _URN_SAFE
        else "".join(f"%{byte:02X}" for byte in ch.encode("utf-8", "surrogatepass"))
        for ch in intent_id
    )
    return f"urn:intent:{encoded}"


def _is_absolute(path: str) -> bool:
    return posixpath.isabs(path) or ntpath.isabs(path)


def _ranges(value: object) -> list[dict[str, int]] | None:
    if not isinstance(value, list) or not value:
        return None
    ranges = []
    for item in value:
        if not isinstance(item, dict):
            return None
        start, end = item.get("start_line"), item.get("end_line")
        if type(start) is not int or type(end) is not int or not 1 <= start <= end:
            return None
        ranges.append({"start_line": start, "end_line": end})
    return ranges


def to_agent_trace(record: Record, digest: str) -> dict[str, object] | None:
    """The trace record for one ledger record whose line hashes to ``digest``; None when it
    is not a ``mutation`` or lacks a timestamp."""
    if record.get("event") != MUTATION:
        return None
    ts = record.get("ts")
    if not isinstance(ts, str) or not ts:
        return None
    raw_paths = record.get("paths")
    paths = (
        [p for p in raw_paths if isinstance(p, str) and p] if isinstance(raw_paths, list) else []
    )
    single = len(paths) == 1
    ranges = _ranges(record.get("ranges")) if single else None
    intent_id = record.get("intent_id")
    files = []
    for path in paths:
        if _is_absolute(path):
            continue
        conversation: dict[str, object] = {
            "contributor": {"type": "ai"},
            "ranges": [dict(item) for item in ranges] if ranges else [],
        }
        if isinstance(intent_id, str) and intent_id:
            conversation["related"] = [{"type": "intent", "url": intent_urn(intent_id)}]
        files.append({"path": path.replace("\\", "/"), "conversations": [conversation]})
    extras: dict[str, object] = {"seq": record.get("seq"), "ledger_line_hash": digest}
    for key in ("intent_id", "session_id", "client", "tool"):
        value = record.get(key)
        if isinstance(value, str) and value:
            extras[key] = value
    content_hash = record.get("content_hash")
    if single and isinstance(content_hash, str) and content_hash:
        extras["content_hash"] = content_hash
    extras["ranges_known"] = ranges is not None
    outside = [path for path in paths if _is_absolute(path)]
    if outside:
        extras["paths_outside_root"] = outside
    return {
        "version": AGENT_TRACE_VERSION,
        "id": str(uuid.uuid5(ID_NAMESPACE, digest)),
        "timestamp": ts,
        "files": files,
        "tool": dict(TOOL),
        "metadata": {METADATA_KEY: extras},
    }


def export_agent_trace(ledger: Ledger) -> Iterator[dict[str, object]]:
    """Stream the trace records of ``ledger``'s mutations, in ledger order.

    Lines that are not JSON objects and a torn last line are skipped (``trace verify``
    reports them); the ledger is read forwards in blocks, never whole.
    """
    for _offset, line, record in iter_records(ledger.path):
        if record is None or record.get("event") != MUTATION:
            continue
        trace = to_agent_trace(record, line_hash(line))
        if trace is not None:
            yield trace
