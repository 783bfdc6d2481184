"""PostToolUse: record what a tool changed (DESIGN §6, §7).

One ``mutation`` record per file the tool wrote: the file's sha256 after the write and,
where we know them, the line ranges the new text occupies (Write: the whole content; Edit:
the lines ``new_string`` occupies now; a patch: each file's added lines,
:mod:`paw_tui.gate.patch_ranges`), for every client's file tools from the fields its adapter
names (:mod:`paw_tui.gate.new_text`). Then ``intent_map.md`` is regenerated. Nothing here
blocks: the tool already ran.

A shell command's files are read from the command again, from the directory it *started* in.
Claude Code's PostToolUse payload carries the working directory the command left behind (it
tracks ``cd`` through ``pwd -P`` after every command, seen with 2.1.197 and 2.1.330): read
from there, ``cd src && echo x > b.txt`` would be recorded as ``src/src/b.txt``, a file that
does not exist, and ``src/b.txt`` not at all. The allowed PreToolUse therefore notes the
start directory beside the call's drift snapshot (:func:`note_shell_start`), and PostToolUse
takes it back.
"""

from __future__ import annotations

import os

from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.ledger import records
from paw_tui.core.workspace.paths import resolve_path
from paw_tui.gate import tools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw_tui.core.workspace.state import WorkspaceState
    from paw_tui.gate.events import GateEvent
    from paw_tui.gate.new_text import NewText

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


def new_text_of(client: str, tool: str) -> NewText | None:
    """Which fields of ``tool``'s input hold its new text (:mod:`paw_tui.gate.new_text`): a
    patch tool's patch fields, as the catalogue names them for ``client`` (the fields the
    gate read the patch's files from); a file tool's, as ``client``'s adapter names them;
    None when neither does."""
    from paw_tui.core.policy.catalogue import PATCH, catalogue

    entry = catalogue().get(tool, client)
    if entry is not None and entry.kind == PATCH and entry.patches:
        from paw_tui.gate.new_text import NewText

        return NewText(patches=entry.patches)
    from paw_tui.gate.clients import load_adapter

    try:
        adapter = load_adapter(client)
    except (KeyError, ImportError):
        return None
    named: Mapping[str, NewText] = getattr(adapter, "NEW_TEXT", {})
    return named.get(tool)


def _fragments(item: Mapping[str, object], spec: NewText) -> list[tuple[str, bool]]:
    for field in spec.fragment:
        value = item.get(field)
        if isinstance(value, str):
            return [(value, bool(spec.every and item.get(spec.every) is True))]
    return []


def _ranges_for(
    spec: NewText | None,
    tool_input: Mapping[str, object],
    text: str | None,
    names_file: Callable[[str], bool],
) -> list[dict[str, int]] | None:
    """The lines the tool's new text occupies in the file (``text``, after the write), or
    None when they are unknown; ``names_file`` says whether an edit's own path is this file."""
    if spec is None:
        return None
    if spec.patches:
        bodies = [tool_input.get(field) for field in spec.patches]
        body = next((b for b in bodies if isinstance(b, str)), None)
        if body is None:
            return None
        from paw_tui.gate.patch_ranges import patch_ranges

        return patch_ranges(body, names_file, text)
    for field in spec.content:
        content = tool_input.get(field)
        if isinstance(content, str):
            return [{"start_line": 1, "end_line": _line_count(content)}] if content else None
    if text is None:
        return None
    if spec.edits is None:
        fragments = _fragments(tool_input, spec)
    else:
        items = tool_input.get(spec.edits)
        fragments = []
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            own = [item.get(f) for f in spec.edit_paths if isinstance(item.get(f), str)]
            if own and not names_file(str(own[0])):
                continue
            fragments += _fragments(item, spec)
    return _occupied_ranges(text, fragments) or None


def record_mutations(state: WorkspaceState, event: GateEvent, kind: str) -> None:
    tool = event.tool or ""
    if kind in tools.WRITES_NOTHING:
        return
    session = sessions_store.load_session(state.root, event.session_id)
    intent_id = session.intent_id if session is not None and session.holds_intent else None
    from paw_tui.gate.facts import raw_targets

    if kind == tools.SHELL:
        event = _as_started(state, event)
    try:
        targets = [(target.path, target.cwd) for target in raw_targets(event, kind)]
    except ValueError:
        targets = []  # such a write was denied before it ran: nothing more to record
    spec = new_text_of(event.client, tool) if kind != tools.SHELL else None
    recorded = False
    for path, cwd in targets:
        try:
            resolved = resolve_path(path, state.root, cwd=cwd or state.root)
        except ValueError:
            continue
        digest, text = _file_facts(resolved.absolute)

        def names_file(
            named: str, cwd: str | None = cwd, absolute: str = resolved.absolute
        ) -> bool:
            try:
                return resolve_path(named, state.root, cwd=cwd or state.root).absolute == absolute
            except ValueError:
                return False

        state.record(
            records.MUTATION,
            session_id=event.session_id,
            intent_id=intent_id,
            client=event.client,
            tool=tool,
            paths=[resolved.display],
            content_hash=digest,
            ranges=_ranges_for(spec, event.tool_input, text, names_file),
            reason=None
            if digest or os.path.exists(resolved.absolute)
            else "the file no longer exists",
        )
        recorded = True
    if recorded and intent_id:
        from paw_tui.core.intents.intent_map import write_intent_map

        write_intent_map(state)


def _start_file(state: WorkspaceState, event: GateEvent) -> str:
    from paw_tui.gate.shell_watch import START_SUFFIX, snapshot_path

    return snapshot_path(state.root, event.session_id, event.call_id) + START_SUFFIX


def note_shell_start(state: WorkspaceState, event: GateEvent) -> None:
    """At an allowed shell PreToolUse: where the command starts, for its PostToolUse."""
    if not event.cwd:
        return
    from paw_tui.core.support.fsutil import replace_unsynced

    path = _start_file(state, event)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    replace_unsynced(path, os.fsencode(event.cwd), 0o600)


def _as_started(state: WorkspaceState, event: GateEvent) -> GateEvent:
    """``event`` with the directory its command started in (noted at PreToolUse), which the
    note then leaves; ``event`` itself when none was noted."""
    import copy

    path = _start_file(state, event)
    try:
        with open(path, "rb") as handle:
            started = os.fsdecode(handle.read())
        os.unlink(path)
    except OSError:
        return event
    if not started or started == event.cwd:
        return event
    moved = copy.copy(event)
    moved.cwd = started
    return moved
