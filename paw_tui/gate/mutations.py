"""PostToolUse: record what a tool changed (DESIGN §6, §7).

One ``mutation`` record per file the tool wrote: the file's sha256 after the write and,
where we know them, the line ranges the new text occupies (Write: the whole content; Edit:
the lines ``new_string`` occupies now). Then ``intent_map.md`` is regenerated. Nothing here
blocks: the tool already ran.
"""

from __future__ import annotations

import os

from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.ledger import records
from paw_tui.core.workspace.paths import resolve_path
from paw_tui.gate import tools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent

_HASH_LIMIT = 64 * 1024 * 1024  # beyond this a file is recorded without its hash


def _line_count(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _occupied_ranges(content: str, fragments: list[tuple[str, bool]]) -> list[dict[str, int]]:
    """Lines of ``content`` where each ``(new_string, every occurrence?)`` now stands."""
    ranges: list[dict[str, int]] = []
    for fragment, every in fragments:
        if not fragment:
            continue
        start = content.find(fragment)
        while start >= 0:
            first = content.count("\n", 0, start) + 1
            last = first + max(_line_count(fragment), 1) - 1
            if fragment.endswith("\n"):
                last = max(first, last)
            ranges.append({"start_line": first, "end_line": last})
            if not every:
                break
            start = content.find(fragment, start + len(fragment))
    ranges.sort(key=lambda r: (r["start_line"], r["end_line"]))
    merged: list[dict[str, int]] = []
    for item in ranges:
        if merged and item["start_line"] <= merged[-1]["end_line"] + 1:
            merged[-1]["end_line"] = max(merged[-1]["end_line"], item["end_line"])
        else:
            merged.append(dict(item))
    return merged


def _file_facts(path: str) -> tuple[str | None, str | None]:
    """(``sha256:<hex>`` of the file, its text when it is UTF-8), or Nones."""
    from paw_tui.core.support.hashing import content_hash

    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _HASH_LIMIT:
            return None, None
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None, None
    digest = content_hash(data)
    try:
        return digest, data.decode("utf-8")
    except UnicodeDecodeError:
        return digest, None


def _ranges_for(
    tool: str, tool_input: dict[str, object], text: str | None
) -> list[dict[str, int]] | None:
    if tool == "Write":
        content = tool_input.get("content")
        if isinstance(content, str) and content:
            return [{"start_line": 1, "end_line": _line_count(content)}]
        return None
    if text is None:
        return None
    if tool == "Edit":
        new = tool_input.get("new_string")
        if isinstance(new, str):
            return _occupied_ranges(text, [(new, bool(tool_input.get("replace_all")))]) or None
    if tool == "MultiEdit":
        edits = tool_input.get("edits")
        if isinstance(edits, list):
            fragments = [
                (edit.get("new_string"), bool(edit.get("replace_all")))
                for edit in edits
                if isinstance(edit, dict) and isinstance(edit.get("new_string"), str)
            ]
            return _occupied_ranges(text, fragments) or None  # type: ignore[arg-type]
    return None


def record_mutations(state: WorkspaceState, event: GateEvent, kind: str) -> None:
    tool = event.tool or ""
    if kind in tools.WRITES_NOTHING:
        return
    session = sessions_store.load_session(state.root, event.session_id)
    intent_id = session.intent_id if session is not None and session.holds_intent else None
    from paw_tui.gate.facts import raw_targets

    try:
        targets = [(target.path, target.cwd) for target in raw_targets(event, kind)]
    except ValueError:
        targets = []  # such a write was denied before it ran: nothing more to record
    recorded = False
    for path, cwd in targets:
        try:
            resolved = resolve_path(path, state.root, cwd=cwd or state.root)
        except ValueError:
            continue
        digest, text = _file_facts(resolved.absolute)
        state.record(
            records.MUTATION,
            session_id=event.session_id,
            intent_id=intent_id,
            client=event.client,
            tool=tool,
            paths=[resolved.display],
            content_hash=digest,
            ranges=_ranges_for(tool, event.tool_input, text) if kind != tools.SHELL else None,
            reason=None
            if digest or os.path.exists(resolved.absolute)
            else "the file no longer exists",
        )
        recorded = True
    if recorded and intent_id:
        from paw_tui.core.intents.intent_map import write_intent_map

        write_intent_map(state)
