"""``paw-tui intents new|scope|edit``: a person authors intents without hand-writing YAML.

Each is one act of the core's authoring API (:mod:`paw_tui.core.intents.authoring`):
validated whole, refused whole (exit 2, naming the value, the file untouched), recorded in
the ledger before it takes effect. A person's act: refused inside an agent's tool process.
"""

from __future__ import annotations

import argparse

from paw_tui.commands.common import add_by_option
from paw_tui.commands.output import write_err, write_out
from paw_tui.core.ledger.acts import person_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.authoring import Authored
    from paw_tui.core.workspace.state import WorkspaceState

NEW_STATUSES = ("PENDING", "IN_PROGRESS")


def add_parsers(
    actions: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    new = actions.add_parser(
        "new",
        help="create an intent (PENDING unless told otherwise)",
        parents=parents,
        description="Add an intent to .orchestration/active_intents.yaml (created, with its "
        "explaining comments, when missing). Every value is checked before anything is "
        "written; the act is recorded in the ledger as intent_created.",
    )
    new.add_argument("intent_id", metavar="ID", help="letters, digits and . _ : -")
    new.add_argument("--name", required=True, help="a short title")
    new.add_argument(
        "--scope",
        required=True,
        nargs="+",
        action="extend",
        metavar="PATTERN",
        help="owned_scope patterns (gitignore syntax, anchored at the workspace root)",
    )
    new.add_argument("--description", default="", metavar="D", help="what the work is")
    new.add_argument("--constraint", action="append", default=[], metavar="C", help="repeatable")
    new.add_argument(
        "--criterion",
        action="append",
        default=[],
        metavar="A",
        help="an acceptance criterion; repeatable",
    )
    new.add_argument("--depends-on", action="append", default=[], metavar="ID", help="repeatable")
    new.add_argument("--status", default="PENDING", metavar="STATUS", help="PENDING or IN_PROGRESS")
    add_by_option(new)
    scope = actions.add_parser(
        "scope",
        help="add or remove owned_scope patterns",
        parents=parents,
        description="Remove the --remove patterns from the intent's owned_scope, then append "
        "each --add pattern it lacks; comments and layout are kept. Recorded as intent_edited.",
    )
    scope.add_argument("intent_id", metavar="ID")
    scope.add_argument("--add", action="append", default=[], metavar="P", help="repeatable")
    scope.add_argument("--remove", action="append", default=[], metavar="P", help="repeatable")
    add_by_option(scope)
    edit = actions.add_parser(
        "edit",
        help="edit an intent's entry in $VISUAL or $EDITOR",
        parents=parents,
        description="Open the intent's entry in $VISUAL (else $EDITOR, else vi). On save it is "
        "checked whole: a problem is named with its line and nothing is written (on a terminal "
        "the editor opens again with the problem noted at the end; save it unchanged to give "
        "up). Recorded as intent_edited.",
    )
    edit.add_argument("intent_id", metavar="ID")
    add_by_option(edit)


def run(args: argparse.Namespace, state: WorkspaceState) -> int:
    who = person_name(args.by)
    if args.action == "new":
        return _new(state, args, who)
    if args.action == "scope":
        return _scope(state, args, who)
    from paw_tui.commands.intents_editor import edit_intent

    return edit_intent(state, args.intent_id, who)


def _new(state: WorkspaceState, args: argparse.Namespace, who: str) -> int:
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.intents.authoring import IntentDraft, create_intent

    status = args.status.strip().upper()
    if status not in NEW_STATUSES:
        raise ValidationError(
            f"Unknown status '{args.status}' for a new intent. Use PENDING or IN_PROGRESS."
        )
    draft = IntentDraft(
        id=args.intent_id,
        name=args.name,
        status=status,
        description=args.description,
        owned_scope=tuple(args.scope),
        constraints=tuple(args.constraint),
        acceptance_criteria=tuple(args.criterion),
        depends_on=tuple(args.depends_on),
    )
    done = create_intent(state, draft, by=who)
    intent = done.intent
    write_out(f"Created {intent.id} ({intent.status}): {intent.name}\n")
    _preview(state, intent.owned_scope)
    return 0


def _scope(state: WorkspaceState, args: argparse.Namespace, who: str) -> int:
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.intents.authoring import change_scope

    if not args.add and not args.remove:
        raise ValidationError("Give --add PATTERN or --remove PATTERN (each repeatable).")
    done = change_scope(state, args.intent_id, add=args.add, remove=args.remove, by=who)
    _report(done, args.intent_id)
    if done.record is not None:
        _preview(state, done.intent.owned_scope)
    return 0


def _report(done: Authored, intent_id: str) -> None:
    scope = ", ".join(done.intent.owned_scope) or "(none)"
    if done.record is None:
        write_out(f"No change: the owned_scope of {intent_id} is already {scope}.\n")
    else:
        write_out(f"{intent_id} owned_scope: {scope}\n")


def _preview(state: WorkspaceState, patterns: list[str]) -> None:
    """What the scope covers now, and the patterns worth a second look (on stderr)."""
    from paw_tui.core.intents.scope_preview import preview_scope

    preview = preview_scope(state.root, patterns, policy=state.policy)
    write_out(f"  covers {preview.summary()}\n")
    for flag in preview.flags:
        write_err(f"warning: {flag}\n")
