"""What a person writes for an intent before it is saved, and why it cannot be saved.

An :class:`IntentDraft` is the intent as a form or the command line has it. :func:`check_draft`
lists every problem (a :class:`Problem`: its message names the value at fault, its ``field``
the draft's field, which the TUI's form marks) against the policy the draft would join:
an invalid or duplicate id, a missing name, an unknown status, a pattern that is not a usable
glob or that names a protected path, an unknown ``depends_on`` id, control characters. The
authoring functions (:mod:`~paw_tui.core.intents.authoring`) refuse a draft with any problem
before anything is written; the TUI's form can call :func:`check_draft` as the person types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace

from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.model import ID_PATTERN, LIST_FIELDS, STATUSES
from paw_tui.core.support.printable import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.compiled import Policy

ID_RULE = (
    "use letters, digits and . _ : - (starting with a letter or digit, at most 128 characters)"
)
_ALLOWED_IN_TEXT = frozenset("\n\t")


@dataclass(frozen=True)
class IntentDraft:
    """An intent as a person writes it; lists are tuples, in order. ``status`` defaults to
    PENDING (``intents new``)."""

    id: str
    name: str
    status: str = "PENDING"
    description: str = ""
    owned_scope: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    acceptance_criteria: tuple[str, ...] = ()
    related_specs: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = field(default=())

    @classmethod
    def of(cls, intent: Intent) -> IntentDraft:
        """The draft an existing intent would be written from (the form's ``e``)."""
        return cls(
            id=intent.id,
            name=intent.name,
            status=intent.status,
            description=intent.description,
            owned_scope=tuple(intent.owned_scope),
            constraints=tuple(intent.constraints),
            acceptance_criteria=tuple(intent.acceptance_criteria),
            related_specs=tuple(intent.related_specs),
            depends_on=tuple(intent.depends_on),
        )

    def normalised(self) -> IntentDraft:
        """Text trimmed (CRLF as LF), empty list items dropped, repeats kept once."""
        changes: dict[str, object] = {
            "id": self.id.strip(),
            "name": self.name.strip(),
            "status": self.status.strip().upper(),
            "description": self.description.replace("\r\n", "\n").replace("\r", "\n").strip(),
        }
        for name in LIST_FIELDS:
            values = (str(value).strip() for value in getattr(self, name))
            changes[name] = tuple(dict.fromkeys(value for value in values if value))
        return replace(self, **changes)  # type: ignore[arg-type]

    def values(self) -> dict[str, object]:
        """Field name -> value (lists as lists), in the file's order."""
        return {
            item.name: list(value)
            if isinstance(value := getattr(self, item.name), tuple)
            else value
            for item in fields(self)
        }


class Problem(str):
    """Why a draft cannot be saved: the message, naming the value at fault, that also knows
    which field of the draft it is about (``owned_scope``, ``depends_on``, ...)."""

    field: str

    def __new__(cls, field: str, message: str) -> Problem:
        problem = super().__new__(cls, message)
        problem.field = field
        return problem


class DraftError(ValidationError):
    """A draft that cannot be saved: ``problems`` lists every reason, the message is the
    first (exit 2; nothing was written)."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(problems[0] if len(problems) == 1 else _several(problems))
        self.problems = list(problems)


def _several(problems: Sequence[str]) -> str:
    return f"{problems[0]} ({len(problems) - 1} more: {' '.join(problems[1:])})"


def check_draft(policy: Policy, draft: IntentDraft, *, editing: str | None = None) -> list[Problem]:
    """Every problem of ``draft`` (normalised first) joining ``policy``; empty when it can be
    saved. ``editing`` is the id of the intent the draft replaces (None: a new intent)."""
    draft = draft.normalised()
    problems: list[Problem] = []
    intent_id = draft.id
    if editing is not None and intent_id != editing:
        problems.append(
            Problem(
                "id",
                f"The id of an intent cannot change ({editing} -> {printable(intent_id)}): sessions "
                "and the ledger refer to it. Create a new intent instead.",
            )
        )
    elif not re.fullmatch(ID_PATTERN, intent_id):
        problems.append(Problem("id", f"Invalid intent id '{printable(intent_id)}': {ID_RULE}."))
    elif editing is None:
        existing = policy.intent(intent_id)
        if existing is not None:
            where = (
                f" (.orchestration/active_intents.yaml:{existing.line})" if existing.line else ""
            )
            problems.append(Problem("id", f"Intent '{intent_id}' already exists{where}."))
    shown = printable(intent_id) or "the intent"
    if not draft.name:
        problems.append(Problem("name", f"Intent {shown} needs a name."))
    problems += _text_problems("name", shown, [draft.name], allowed=frozenset())
    problems += _text_problems("description", shown, [draft.description])
    if draft.status not in STATUSES:
        problems.append(
            Problem(
                "status",
                f"Unknown status '{printable(draft.status)}' for {shown}. "
                f"Use one of {', '.join(STATUSES)}.",
            )
        )
    problems += pattern_problems(policy, shown, draft.owned_scope)
    for name in ("constraints", "acceptance_criteria", "related_specs"):
        problems += _text_problems(name, shown, getattr(draft, name))
    problems += _dependency_problems(policy, draft, editing)
    return problems


def pattern_problems(policy: Policy, intent_id: str, patterns: Iterable[str]) -> list[Problem]:
    """Why any of ``patterns`` cannot join ``intent_id``'s ``owned_scope``: not a usable
    glob, or naming a protected path (agents never write it, whatever a scope says)."""
    from paw_tui.core.handshake.scope_expansion import protected_by
    from paw_tui.core.intents.parse import glob_problem

    messages = []
    for pattern in patterns:
        shown = printable(pattern)
        if not pattern.strip():
            messages.append(f"An empty pattern in the owned_scope of {intent_id}.")
            continue
        problem = glob_problem(pattern)
        if problem:
            messages.append(f"Bad pattern '{shown}' in the owned_scope of {intent_id}: {problem}.")
            continue
        protected = protected_by(policy, pattern)
        if protected is not None:
            messages.append(
                f"Pattern '{shown}' in the owned_scope of {intent_id} names {protected}, a "
                "protected path: agents never write it, whatever a scope says."
            )
    return [Problem("owned_scope", message) for message in messages]


def _text_problems(
    name: str, intent_id: str, values: Iterable[str], allowed: frozenset[str] = _ALLOWED_IN_TEXT
) -> list[Problem]:
    from paw_tui.core.support.printable import is_control

    return [
        Problem(name, f"The {name} of {intent_id} holds a control character: '{printable(value)}'.")
        for value in values
        if any(is_control(char) and char not in allowed for char in value)
    ]


def _dependency_problems(policy: Policy, draft: IntentDraft, editing: str | None) -> list[Problem]:
    known = [intent.id for intent in policy.intents]
    problems = []
    for dependency in draft.depends_on:
        if dependency == draft.id:
            problems.append(Problem("depends_on", f"{draft.id} cannot depend on itself."))
        elif dependency not in known:
            from paw_tui.core.support.suggest import did_you_mean_sentence

            others = [i for i in known if i != editing]
            listing = ", ".join(others) or "none"
            hint = did_you_mean_sentence(dependency, others)
            problems.append(
                Problem(
                    "depends_on",
                    f"Unknown intent '{printable(dependency)}' in the depends_on of "
                    f"{printable(draft.id)}. Known intents: {listing}.{hint}",
                )
            )
    return problems


def refuse_problems(problems: Sequence[str]) -> None:
    """Raise :class:`DraftError` when there is any problem."""
    if problems:
        raise DraftError(problems)
