"""The ``<intent_context>`` block an agent receives when its selection succeeds.

Every value is XML-escaped (a constraint holding ``<`` or ``&`` cannot break or inject into
the block) and every list and string is capped, so the block stays small whatever the YAML
or the ledger hold. Standard library only: the gate renders it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from paw_tui.core.intents.model import Intent

MAX_TEXT = 500
MAX_DESCRIPTION = 2000
MAX_ITEMS = 25
MAX_HISTORY = 20
MAX_TOUCHED = 50


def xml_escape(text: str, quote: bool = False) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one budget: cut at ``limit`` characters with a visible ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _list(tag: str, item: str, values: Sequence[str]) -> list[str]:
    if not values:
        return [f"<{tag} />"]
    lines = [f"<{tag}>"]
    lines += [f"<{item}>{xml_escape(clip(value))}</{item}>" for value in values[:MAX_ITEMS]]
    if len(values) > MAX_ITEMS:
        lines.append(f"<!-- {len(values) - MAX_ITEMS} more not shown -->")
    lines.append(f"</{tag}>")
    return lines


def _attrs(pairs: Iterable[tuple[str, object]]) -> str:
    return "".join(
        f' {name}="{xml_escape(clip(str(value), 200), quote=True)}"'
        for name, value in pairs
        if value is not None and value != ""
    )


def render_intent_context(
    intent: Intent,
    history: Sequence[Mapping[str, object]] = (),
    touched: Sequence[Mapping[str, object]] = (),
) -> str:
    """The block for ``intent``; ``history`` holds ledger records (newest last) and
    ``touched`` holds ``{path, content_hash, changed}`` entries of the per-intent index."""
    lines = [f"<intent_context{_attrs((('id', intent.id), ('status', intent.status)))}>"]
    lines.append(f"<name>{xml_escape(clip(intent.name))}</name>")
    lines.append(
        f"<description>{xml_escape(clip(intent.description, MAX_DESCRIPTION))}</description>"
    )
    lines += _list("constraints", "constraint", intent.constraints)
    lines += _list("owned_scope", "pattern", intent.owned_scope)
    lines += _list("acceptance_criteria", "criterion", intent.acceptance_criteria)
    lines += _list("related_specs", "spec", intent.related_specs)
    recent = list(history)[-MAX_HISTORY:]
    if recent:
        lines.append("<recent_history>")
        for record in recent:
            paths = record.get("paths") or []
            text = ", ".join(str(p) for p in paths) if isinstance(paths, list) else str(paths)
            attrs = _attrs(
                (name, record.get(name))
                for name in ("seq", "ts", "event", "session_id", "tool", "decision")
            )
            lines.append(f"<action{attrs}>{xml_escape(clip(text))}</action>")
        lines.append("</recent_history>")
    else:
        lines.append("<recent_history />")
    files = list(touched)[:MAX_TOUCHED]
    if files:
        lines.append("<touched_files>")
        for entry in files:
            changed = entry.get("changed")
            if changed is None and isinstance(entry.get("status"), str):
                # The per-intent index says how the file is now: unchanged, changed, deleted
                # or unknown (no hash recorded); only "unchanged" means not changed since.
                changed = entry.get("status") != "unchanged"
            attrs = _attrs(
                (
                    ("path", entry.get("path")),
                    ("hash", entry.get("content_hash")),
                    ("changed_since", None if changed is None else ("yes" if changed else "no")),
                )
            )
            lines.append(f"<file{attrs} />")
        if len(touched) > MAX_TOUCHED:
            lines.append(f"<!-- {len(touched) - MAX_TOUCHED} more not shown -->")
        lines.append("</touched_files>")
    else:
        lines.append("<touched_files />")
    lines.append("</intent_context>")
    return "\n".join(lines)
