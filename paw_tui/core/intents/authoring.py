"""Authoring intents (DESIGN §4 "Authoring"): a person creates and edits intents without
hand-writing YAML, from the command line (``intents new|scope|edit``) or the TUI's form.

Every function here is one act of a person and follows the same steps, under the state lock:

1. read ``active_intents.yaml`` and the policy it compiles to (refused while the
   orchestration files are invalid: fix them first);
2. check the draft whole (:func:`~paw_tui.core.intents.drafts.check_draft`): any problem
   raises :class:`~paw_tui.core.intents.drafts.DraftError` naming the value, and nothing is
   written;
3. edit the file in ruamel.yaml's round-trip mode (comments, order, quoting and layout kept),
   compile the result and check it holds exactly the draft; prepare it beside the file;
4. append the ledger record (``intent_created``, or ``intent_edited`` with the fields
   changed, their values before and after) and only then move the new file into place
   (:mod:`~paw_tui.core.ledger.acts`): an act that cannot be recorded changes nothing and
   raises :class:`~paw_tui.core.ledger.acts.UnrecordedAct`.

A file that does not exist yet is created with the header comments ``paw-tui init`` writes.
Nothing changed (a scope that already holds the pattern, a draft equal to the intent) means
nothing written and nothing recorded: :attr:`Authored.record` is None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from paw_tui.core.intents.drafts import IntentDraft, check_draft, refuse_problems
from paw_tui.core.intents.editing import IntentEditError, IntentsFile, open_intents, unknown_intent
from paw_tui.core.intents.model import KNOWN_FIELDS, LIST_FIELDS
from paw_tui.core.ledger import records

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ruamel.yaml.comments import CommentedMap

    from paw_tui.core.intents.editing import PreparedEdit
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.ledger.records import Record
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.workspace.state import WorkspaceState

__all__ = [
    "Authored",
    "IntentDraft",
    "change_scope",
    "commit_edit",
    "create_intent",
    "recorded_changes",
    "update_intent",
]

QUOTED_LISTS = ("owned_scope", "depends_on")
"""Lists written double-quoted in a new entry, as ``init``'s example does (a pattern may
start with ``*`` or ``!``, which a plain YAML scalar may not)."""


@dataclass(frozen=True)
class Authored:
    """What an authoring act did: the intent as the file now holds it, the fields it changed
    (every field written, for a new intent), its ledger record (None when nothing changed)
    and the policy now in force."""

    intent: Intent
    changed: tuple[str, ...]
    record: Record | None
    policy: Policy


def create_intent(state: WorkspaceState, draft: IntentDraft, *, by: str = "human") -> Authored:
    """Add a new intent to the end of the list; recorded as ``intent_created``."""
    from paw_tui.core.handshake.sessions import state_lock

    draft = draft.normalised()
    with state_lock(state.root):
        found = open_intents(state.root, f"the new intent {draft.id}")
        refuse_problems(check_draft(found.policy, draft))
        from paw_tui.core.intents.yaml_rt import Document

        document = Document(found.data or _new_file(), found.path)
        entries = document.entries(create=True)
        entries.append(_new_entry(draft))
        new_bytes = _spaced(document.dump(), len(entries), found.data or b"")
        edit = _prepare(found, new_bytes, draft, f"Adding {draft.id}")
        written = tuple(
            name for name, value in draft.values().items() if value or name == "owned_scope"
        )
        after = {name: draft.values()[name] for name in written if name != "id"}
        return commit_edit(
            state, edit, draft.id, written, f"creating intent {draft.id}",
            records.INTENT_CREATED, reason=f"created by {by}", after=after,
        )  # fmt: skip


def change_scope(
    state: WorkspaceState,
    intent_id: str,
    *,
    add: Sequence[str] = (),
    remove: Sequence[str] = (),
    by: str = "human",
) -> Authored:
    """Remove ``remove`` from ``intent_id``'s ``owned_scope``, then append each of ``add`` not
    already there; recorded as ``intent_edited``. A pattern to remove that the scope does not
    hold is refused, naming it."""
    from paw_tui.core.handshake.sessions import state_lock
    from paw_tui.core.intents.drafts import DraftError, Problem, pattern_problems
    from paw_tui.core.intents.scope_edit import prepare_scope_edit, scope_after
    from paw_tui.core.support.printable import printable

    add = [pattern.strip() for pattern in add]
    remove = [pattern.strip() for pattern in remove]
    with state_lock(state.root):
        found = open_intents(state.root, f"the scope of {intent_id}")
        intent = _intent(found, intent_id)
        problems = pattern_problems(found.policy, intent_id, add)
        listing = ", ".join(intent.owned_scope) or "none"
        problems += [
            Problem(
                "owned_scope",
                f"{intent_id} has no pattern '{printable(pattern)}' in its owned_scope "
                f"(it has: {listing}).",
            )
            for pattern in remove
            if pattern not in intent.owned_scope
        ]
        if problems:
            raise DraftError(problems)
        before = list(intent.owned_scope)
        after = scope_after(before, add, remove)
        from paw_tui.core.intents.editing import IntentFile

        assert found.data is not None
        target = IntentFile(
            found.root, found.path, found.data, found.governance, found.policy, intent
        )
        edit = prepare_scope_edit(target, add, remove)
        if edit is None:
            return Authored(intent, (), None, found.policy)
        added = [p for p in after if p not in before]
        removed = [p for p in before if p not in after]
        summary = " ".join([*(f"+{p}" for p in added), *(f"-{p}" for p in removed)])
        return commit_edit(
            state, edit, intent_id, ("owned_scope",), f"changing the scope of {intent_id}",
            records.INTENT_EDITED, reason=f"owned_scope {summary} by {by}",
            before={"owned_scope": before}, after={"owned_scope": after},
        )  # fmt: skip


def update_intent(
    state: WorkspaceState, intent_id: str, draft: IntentDraft, *, by: str = "human"
) -> Authored:
    """Replace the fields of ``intent_id`` with ``draft``'s (its id cannot change); recorded
    as ``intent_edited`` with the fields changed. Fields left as they were keep their nodes,
    comments and quoting; ``x-`` keys of the team's own stay."""
    from paw_tui.core.handshake.sessions import state_lock

    draft = draft.normalised()
    with state_lock(state.root):
        found = open_intents(state.root, intent_id)
        intent = _intent(found, intent_id)
        refuse_problems(check_draft(found.policy, draft, editing=intent_id))
        changed, before, after = recorded_changes(IntentDraft.of(intent), draft)
        if not changed:
            return Authored(intent, (), None, found.policy)
        from paw_tui.core.intents.yaml_rt import Document

        assert found.data is not None
        document = Document(found.data, found.path)
        entry = document.entry(intent_id)
        for name in changed:
            _set_field(entry, name, after[name])
        edit = _prepare(found, document.dump(), draft, f"Editing {intent_id}")
        return commit_edit(
            state, edit, intent_id, changed, f"editing intent {intent_id}", records.INTENT_EDITED,
            reason=f"{', '.join(changed)} changed by {by}",
            before=before, after=after,
        )  # fmt: skip


def recorded_changes(
    old: IntentDraft, new: IntentDraft
) -> tuple[tuple[str, ...], dict[str, object], dict[str, object]]:
    """The fields that differ, in the file's order, with their values before and after."""
    before, after = old.values(), new.values()
    changed = tuple(name for name in KNOWN_FIELDS if before[name] != after[name])
    return (
        changed,
        {name: before[name] for name in changed},
        {name: after[name] for name in changed},
    )


def _intent(found: IntentsFile, intent_id: str) -> Intent:
    intent = found.policy.intent(intent_id)
    if intent is None or found.data is None:
        raise unknown_intent(intent_id, found.policy)
    return intent


def _prepare(found: IntentsFile, new_bytes: bytes, draft: IntentDraft, what: str) -> PreparedEdit:
    expected = draft.values()

    def holds(policy: Policy) -> bool:
        intent = policy.intent(draft.id)
        return intent is not None and IntentDraft.of(intent).values() == expected

    new_policy = found.compile(new_bytes)
    if not new_policy.valid:
        # Checked whole before: a problem left is one of the file's own (a duplicate key the
        # edit met, say); name it rather than write a file the gate would refuse.
        raise IntentEditError(f"{what} would leave {found.path} invalid: {new_policy.problems[0]}.")
    return found.prepare(new_bytes, holds, what)


def commit_edit(
    state: WorkspaceState,
    edit: PreparedEdit,
    intent_id: str,
    changed: tuple[str, ...],
    act: str,
    event: str,
    **fields: object,
) -> Authored:
    from paw_tui.core.ledger.acts import record_act

    record = record_act(
        state, act, event, [edit], intent_id=intent_id, fields=list(changed), **fields
    )
    state._policy = edit.policy
    intent = edit.policy.intent(intent_id)
    assert intent is not None
    return Authored(intent, changed, record, edit.policy)


def _spaced(new_bytes: bytes, count: int, old: bytes) -> bytes:
    """The new last entry set off by a blank line when the file's entries are."""
    old_lines = old.decode("utf-8-sig").split("\n")
    starts = [i for i, line in enumerate(old_lines) if _entry_start(line)]
    if len(starts) < 2 or not all(old_lines[i - 1].strip() == "" for i in starts[1:]):
        return new_bytes
    lines = new_bytes.split(b"\n")
    found = [i for i, line in enumerate(lines) if _entry_start(line.decode("utf-8", "replace"))]
    if len(found) != count or not found or lines[found[-1] - 1].strip() == b"":
        return new_bytes
    return b"\n".join([*lines[: found[-1]], b"", *lines[found[-1] :]])


def _entry_start(line: str) -> bool:
    """``  - id: X``: the first line of an entry in block style."""
    stripped = line.lstrip()
    return stripped.startswith("- ") and stripped[2:].lstrip().startswith("id:")


def _new_file() -> bytes:
    """What ``init`` writes above its example intent: the comments explaining each field."""
    from importlib import resources

    template = resources.files("paw_tui.templates").joinpath("init", "active_intents.yaml")
    lines = template.read_text(encoding="utf-8").splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")]
    kept = header[
        : next((i for i, line in enumerate(lines) if not line.startswith("#")), len(header))
    ]
    return ("".join(kept) + "active_intents:\n").encode("utf-8")


def _new_entry(draft: IntentDraft) -> CommentedMap:
    from ruamel.yaml.comments import CommentedMap

    entry = CommentedMap()
    for name, value in draft.values().items():
        if name in LIST_FIELDS:
            if value or name == "owned_scope":
                entry[name] = _list(name, value)  # type: ignore[arg-type]
        elif value:
            entry[name] = _text(str(value))
    return entry


def _set_field(entry: CommentedMap, name: str, value: object) -> None:
    """Set one field in place: a list keeps its node (flow or block style, the key's
    comments) and the quoting of its items."""
    if name not in LIST_FIELDS:
        if value or name in ("name", "status"):
            entry[name] = _text(str(value), like=entry.get(name))
        elif name in entry:
            del entry[name]
        return
    assert isinstance(value, list)
    current = entry.get(name)
    if isinstance(current, list):
        from paw_tui.core.intents.yaml_rt import quoted_like

        lead = current[0] if current else (None if name in QUOTED_LISTS else "")
        del current[:]
        current.extend(quoted_like(lead, item) for item in value)
    else:
        entry[name] = _list(name, value)


def _list(name: str, values: list[str]) -> object:
    from paw_tui.core.intents.yaml_rt import string_list

    return string_list(values, quoted=name in QUOTED_LISTS)


def _text(value: str, like: object = None) -> str:
    """A scalar as it reads best: several lines as a literal block, else quoted as the value
    it replaces was (plain for a new one)."""
    from ruamel.yaml.scalarstring import (
        DoubleQuotedScalarString,
        LiteralScalarString,
        SingleQuotedScalarString,
    )

    if "\n" in value:
        return cast("str", LiteralScalarString(value))
    if isinstance(like, (DoubleQuotedScalarString, SingleQuotedScalarString)):
        return cast("str", type(like)(value))
    return value
