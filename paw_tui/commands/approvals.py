"""``paw-tui approvals list|approve|reject``: human approval of intent selections."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import (
    add_by_option,
    format_time,
    require_person,
    state_for,
    table,
)
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.ledger.acts import person_name


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "approvals",
        parents,
        description="With governance.yaml 'approval: required', an agent's selection waits here "
        "until a human approves it (the intent becomes active) or rejects it (the intent is freed).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="pending requests (--all: with decided ones)", parents=parents
    )
    listing.add_argument(
        "--all", action="store_true", help="include decided and withdrawn requests"
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    for name, verb in (("approve", "approve"), ("reject", "reject")):
        action = actions.add_parser(
            name, help=f"{verb} a request, by id or by --session", parents=parents
        )
        action.add_argument("request_id", nargs="?", metavar="ID")
        action.add_argument("--session", metavar="S", help="the pending request of this session")
        add_by_option(action)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.handshake.approvals import iter_requests, pending_requests

    if args.action != "list":
        require_person("approving or rejecting an intent selection")
    state = state_for(args)
    if args.action == "list":
        requests = list(iter_requests(state.root)) if args.all else pending_requests(state.root)
        if args.json:
            write_json([request.to_dict() for request in requests])
            return 0
        if not requests:
            write_out(
                "No pending approval requests.\n" if not args.all else "No approval requests.\n"
            )
            return 0
        names = {i.id: i.name for i in state.policy.intents} if state.policy.valid else {}
        rows = [
            [
                r.id,
                r.state,
                r.session_id,
                r.intent_id,
                names.get(r.intent_id, ""),
                format_time(r.requested_at),
            ]
            for r in requests
        ]
        write_out(table(rows, ["REQUEST", "STATE", "SESSION", "INTENT", "NAME", "REQUESTED"]))
        return 0
    from paw_tui.core.handshake.selection import decide_approval, request_for_session

    if bool(args.request_id) == bool(args.session):
        raise ValidationError(f"Give either a request id or --session S to {args.action}.")
    request_id = args.request_id
    if args.session:
        request = request_for_session(state.root, args.session)
        if request is None:
            raise ValidationError(f"Session {args.session} has no pending approval request.")
        request_id = request.id
    who = person_name(args.by)
    decided = decide_approval(state, request_id, args.action == "approve", by=who)
    verb = "Approved" if args.action == "approve" else "Rejected"
    write_out(f"{verb} {decided.id}: session {decided.session_id}, intent {decided.intent_id}.\n")
    return 0
