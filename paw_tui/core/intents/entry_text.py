"""One intent's entry of ``active_intents.yaml`` as text a person edits (``intents edit``).

:func:`entry_text` cuts the entry out of the file as a stand-alone YAML mapping (the ``- ``
and the list's indentation taken off; the blank and comment lines after it stay in the
file); :func:`replace_entry` puts the person's edited text back in its place, re-indented,
and applies it as one act: the whole file is parsed again and refused whole, naming the line
of the edit at fault, when anything is wrong (a YAML error, an unknown status, a bad or
protected pattern, an unknown ``depends_on`` id, a changed id); otherwise it is recorded
(``intent_edited`` with the fields changed) and written. What the person typed, comments
included, is what lands in the file.

The editor runs without any lock (a person takes minutes); the entry must still read as it
did when they started, or the edit is refused (changes elsewhere in the file are fine).
"""

from __future__ import annotations

from dataclasses import dataclass

from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.editing import IntentEditError, open_intents, unknown_intent

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.authoring import Authored
    from paw_tui.core.workspace.state import WorkspaceState

HEADER_PREFIX = "# paw-tui:"
"""Lines of the edited text starting with this are paw-tui's notes (at its end, so the lines
of the entry keep their numbers), never written to the file."""


@dataclass(frozen=True)
class EntryText:
    """``text``: the entry as a stand-alone mapping; where it sits in the file (``start`` and
    ``end``, 0-based lines, end exclusive), the first line's prefix (``  - ``) and the indent
    of the lines after it."""

    intent_id: str
    text: str
    start: int
    end: int
    first_prefix: str
    indent: str

    def placed(self, edited: str) -> list[str]:
        """``edited`` (a stand-alone mapping) as the lines that take the entry's place."""
        lines = strip_header(edited).rstrip().split("\n")
        return [self.first_prefix + lines[0]] + [
            self.indent + line if line.strip() else "" for line in lines[1:]
        ]


class EntryError(ValidationError):
    """The edited entry cannot be applied: the message names the line of the edit."""


def strip_header(edited: str) -> str:
    """The edited text without paw-tui's own comment lines."""
    lines = edited.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line for line in lines if not line.startswith(HEADER_PREFIX))


def entry_text(root: str, intent_id: str) -> EntryText:
    """The entry of ``intent_id`` as it is in the file now."""
    found = open_intents(root, intent_id)
    if found.policy.intent(intent_id) is None or found.data is None:
        raise unknown_intent(intent_id, found.policy)
    return _cut(found.data.decode("utf-8-sig"), intent_id, found.path)


def _cut(text: str, intent_id: str, path: str) -> EntryText:
    import yaml

    lines = text.split("\n")
    try:
        document = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:  # validated already: only a race gets here
        raise IntentEditError(f"{path} cannot be read ({exc}); edit it by hand.") from exc
    items = _items(document)
    for index, item in enumerate(items):
        if _id_of(item) != intent_id:
            continue
        line, column = item.start_mark.line, item.start_mark.column
        prefix = lines[line][:column]
        if not prefix.strip().startswith("-") or prefix.strip() != "-":
            raise IntentEditError(
                f"The entry of {intent_id} in {path} is not a '- id: ...' item; edit it by hand."
            )
        if index + 1 < len(items):
            end = items[index + 1].start_mark.line
        else:
            end = item.end_mark.line + (1 if item.end_mark.column else 0)
        end = min(end, len(lines))
        while end > line + 1 and (
            not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")
        ):
            end -= 1
        body = [lines[line][column:]] + [_dedent(part, column) for part in lines[line + 1 : end]]
        return EntryText(intent_id, "\n".join(body) + "\n", line, end, prefix, " " * column)
    raise IntentEditError(f"{intent_id} is not a plain entry of {path}; edit it by hand.")


def _items(document: object) -> list:  # type: ignore[type-arg]
    import yaml

    if not isinstance(document, yaml.MappingNode):
        return []
    for key, value in document.value:
        if isinstance(key, yaml.ScalarNode) and key.value in ("active_intents", "intents"):
            return list(value.value) if isinstance(value, yaml.SequenceNode) else []
    return []


def _id_of(node: object) -> str | None:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return None
    for key, value in node.value:
        if (
            isinstance(key, yaml.ScalarNode)
            and key.value == "id"
            and isinstance(value, yaml.ScalarNode)
        ):
            return str(value.value).strip()
    return None


def _dedent(line: str, column: int) -> str:
    head = line[:column]
    return line[column:] if not head.strip() else line.lstrip()


def replace_entry(
    state: WorkspaceState, original: EntryText, edited: str, *, by: str = "human"
) -> Authored:
    """Apply the person's ``edited`` text in place of ``original`` (see the module)."""
    from paw_tui.core.handshake.sessions import state_lock
    from paw_tui.core.intents.authoring import Authored, commit_edit, recorded_changes
    from paw_tui.core.intents.drafts import IntentDraft, check_draft
    from paw_tui.core.intents.editing import IntentFile
    from paw_tui.core.ledger import records

    intent_id = original.intent_id
    if not strip_header(edited).strip():
        raise EntryError(f"The edit of {intent_id} is empty: nothing changed.")
    with state_lock(state.root):
        found = open_intents(state.root, intent_id)
        intent = found.policy.intent(intent_id)
        if intent is None or found.data is None:
            raise unknown_intent(intent_id, found.policy)
        text = found.data.decode("utf-8-sig")
        now = _cut(text, intent_id, found.path)
        if now.text != original.text:
            raise EntryError(
                f"{intent_id} changed in {found.path} while it was being edited; nothing was "
                "written. Edit it again."
            )
        placed = original.placed(edited)
        lines = text.split("\n")
        lines[now.start : now.end] = placed
        new_text = "\n".join(lines)
        if new_text == text:
            return Authored(intent, (), None, found.policy)
        new_bytes = new_text.encode("utf-8")
        if found.data.startswith(b"\xef\xbb\xbf"):
            new_bytes = b"\xef\xbb\xbf" + new_bytes
        policy = found.compile(new_bytes)
        if not policy.valid:
            raise EntryError(_located(policy.problems, now.start, len(placed), intent_id))
        new_intent = policy.intent(intent_id)
        if [i.id for i in policy.intents] != [
            i.id for i in found.policy.intents
        ] or new_intent is None:
            ids = [i.id for i in policy.intents if i.id not in {j.id for j in found.policy.intents}]
            shown = ids[0] if ids else "another id"
            raise EntryError(
                f"The id of an intent cannot change ({intent_id} -> {shown}): sessions and the "
                "ledger refer to it. Create a new intent instead."
            )
        draft = IntentDraft.of(new_intent)
        problems = check_draft(found.policy, draft, editing=intent_id)
        if problems:
            from paw_tui.core.intents.drafts import DraftError

            raise DraftError(problems)
        changed, before, after = recorded_changes(IntentDraft.of(intent), draft)
        target = IntentFile(
            found.root, found.path, found.data, found.governance, found.policy, intent
        )
        edit = target.prepare(
            new_bytes, lambda p: p.intent(intent_id) is not None, f"Editing {intent_id}"
        )
        what = ", ".join(changed) + " changed" if changed else "comments or layout edited"
        return commit_edit(
            state, edit, intent_id, changed, f"editing intent {intent_id}", records.INTENT_EDITED,
            reason=f"{what} by {by} (intents edit)", before=before, after=after,
        )  # fmt: skip


def _located(problems: list[str], start: int, count: int, intent_id: str) -> str:
    """The first problem, its file line turned into the line of the edit when it is there."""
    import re

    first = problems[0]
    found = re.match(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<message>.*)$", first, re.S)
    if found is None:
        return f"The edit of {intent_id} cannot be applied: {first}"
    line = int(found["line"]) - 1
    if start <= line < start + count:
        return f"Line {line - start + 1} of the entry of {intent_id}: {found['message']}."
    return f"The edit of {intent_id} cannot be applied: {first}"
