"""``paw-tui intents list|show|select|set-status|new|scope|edit``: the intent registry, the
handshake, and authoring (:mod:`paw_tui.commands.intents_authoring`)."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import (
    add_by_option,
    require_person,
    require_valid_policy,
    state_for,
    table,
)
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.ledger.acts import person_name
from paw_tui.core.ledger.touched import touched_files

DESCRIPTION = """\
The intents of .orchestration/active_intents.yaml. 'select' performs the handshake for a
session exactly as the gate does and prints the intent context block; 'set-status' changes
a status in place (comments and layout kept) and records it in the ledger; 'new', 'scope'
and 'edit' author intents, each checked whole before anything is written and recorded."""
PERSON_ACTS = {
    "set-status": "changing an intent's status",
    "select": "selecting an intent for a session from the command line",
    "new": "creating an intent",
    "scope": "changing an intent's scope",
    "edit": "editing an intent",
}


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(subparsers, "intents", parents, description=DESCRIPTION)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="every intent with its status and holder", parents=parents
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    show = actions.add_parser("show", help="one intent in full", parents=parents)
    show.add_argument("intent_id", metavar="ID")
    show.add_argument("--json", action="store_true", help="print JSON")
    select = actions.add_parser(
        "select", help="select an intent for a session (the handshake)", parents=parents
    )
    select.add_argument("intent_id", metavar="ID")
    select.add_argument("--session", required=True, metavar="S", help="the session id")
    select.add_argument("--client", default="cli", help="recorded as the client (default: cli)")
    status = actions.add_parser("set-status", help="change an intent's status", parents=parents)
    status.add_argument("intent_id", metavar="ID")
    status.add_argument(
        "status", metavar="STATUS", help="PENDING, IN_PROGRESS, BLOCKED, COMPLETED or ABANDONED"
    )
    add_by_option(status)
    from paw_tui.commands.intents_authoring import add_parsers

    add_parsers(actions, parents)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    act = PERSON_ACTS.get(args.action)
    if act is not None:
        require_person(act)
    state = state_for(args)
    if args.action in ("new", "scope", "edit"):
        from paw_tui.commands.intents_authoring import run as author

        return author(args, state)
    if args.action == "list":
        return _list(state, args.json)
    if args.action == "show":
        return _show(state, args.intent_id, args.json)
    if args.action == "select":
        return _select(state, args.intent_id, args.session, args.client)
    return _set_status(state, args.intent_id, args.status, args.by)


def _holders(state) -> dict[str, str]:  # type: ignore[no-untyped-def]
    from paw_tui.core.handshake.sessions import held_intents

    return held_intents(state.root, state.now(), state.policy.governance.session_ttl)


def _list(state, as_json: bool) -> int:  # type: ignore[no-untyped-def]
    require_valid_policy(state)
    policy = state.policy
    held = _holders(state)
    if as_json:
        write_json(
            {
                "root": state.root,
                "intents": [dict(i.to_dict(), held_by=held.get(i.id)) for i in policy.intents],
                "warnings": policy.warnings,
            }
        )
        return 0
    if not policy.intents:
        where = "is empty" if policy.intents_present else "does not exist (run 'paw-tui init')"
        write_out(f"No intents: .orchestration/active_intents.yaml {where}.\n")
        return 0
    rows = [[i.id, i.status, held.get(i.id, "-"), i.name] for i in policy.intents]
    write_out(table(rows, ["ID", "STATUS", "HELD BY", "NAME"]))
    for warning in policy.warnings:
        write_out(f"warning: {warning}\n")
    return 0


def _find(state, intent_id: str):  # type: ignore[no-untyped-def]
    from paw_tui.core.errors import ValidationError

    require_valid_policy(state)
    intent = state.policy.intent(intent_id)
    if intent is None:
        from paw_tui.core.support.suggest import did_you_mean_sentence

        ids = [i.id for i in state.policy.intents]
        known = ", ".join(ids) or "none"
        hint = did_you_mean_sentence(intent_id, ids)
        raise ValidationError(f"Unknown intent '{intent_id}'. Known intents: {known}.{hint}")
    return intent


def _show(state, intent_id: str, as_json: bool) -> int:  # type: ignore[no-untyped-def]
    intent = _find(state, intent_id)
    held = _holders(state)
    touched = []
    try:
        touched = [entry.to_dict() for entry in touched_files(state.ledger, intent.id)]
    except Exception:
        touched = []
    if as_json:
        write_json(dict(intent.to_dict(), held_by=held.get(intent.id), touched_files=touched))
        return 0
    lines = [
        f"{intent.id}: {intent.name}",
        f"status:      {intent.status}",
        f"held by:     {held.get(intent.id, '-')}",
        f"defined at:  .orchestration/active_intents.yaml:{intent.line}",
    ]
    if intent.description:
        lines += ["", intent.description]
    for title, values in (
        ("owned_scope", intent.owned_scope),
        ("constraints", intent.constraints),
        ("acceptance_criteria", intent.acceptance_criteria),
        ("related_specs", intent.related_specs),
        ("depends_on", intent.depends_on),
    ):
        lines.append(f"\n{title}:")
        lines += [f"  - {value}" for value in values] or ["  (none)"]
    if touched:
        lines.append("\ntouched files:")
        for entry in touched:
            note = {
                "changed": " (changed since)",
                "deleted": " (deleted since)",
                "unknown": " (no hash recorded)",
            }.get(str(entry.get("status")), "")
            lines.append(f"  - {entry.get('path')}  {entry.get('content_hash') or ''}{note}")
    write_out("\n".join(lines) + "\n")
    return 0


def _select(state, intent_id: str, session_id: str, client: str) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.handshake.selection import SELECTED, select_active_intent
    from paw_tui.core.intents.view import intent_context_block

    selection = select_active_intent(state, session_id, intent_id, client=client)
    if not selection.accepted:
        raise ValidationError(selection.message)
    if selection.outcome != SELECTED or selection.intent is None:
        write_out(selection.message + "\n")
        return 0
    write_out(intent_context_block(state, selection.intent) + "\n")
    return 0


def _set_status(state, intent_id: str, status: str, by: str | None) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.handshake.selection import set_intent_status

    _find(state, intent_id)
    new = status.strip().upper()
    old = set_intent_status(state, intent_id, new, by=person_name(by))
    if old == new:
        write_out(f"{intent_id} is already {new}.\n")
    else:
        write_out(f"{intent_id}: {old} -> {new}\n")
    return 0
