"""``paw-tui scope requests|grant|deny``: a person's decision on an agent's request for more
scope (DESIGN §5)."""

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
        "scope",
        parents,
        description="An agent denied a write it needs asks for a pattern with the MCP tool "
        "request_scope_expansion. Granting adds the pattern to the intent's owned_scope in "
        "active_intents.yaml (comments and order kept); denying leaves the scope as it is.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "requests", help="pending requests (--all: with decided ones)", parents=parents
    )
    listing.add_argument("--all", action="store_true", help="include decided requests")
    listing.add_argument("--json", action="store_true", help="print JSON")
    for name in ("grant", "deny"):
        action = actions.add_parser(name, help=f"{name} a pending request", parents=parents)
        action.add_argument("request_id", metavar="ID")
        action.add_argument("--note", default="", help="a word for the record")
        add_by_option(action)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.handshake.scope_requests import iter_requests, pending_requests

    if args.action != "requests":
        require_person("granting scope" if args.action == "grant" else "denying a scope request")
    state = state_for(args)
    if args.action == "requests":
        requests = list(iter_requests(state.root)) if args.all else pending_requests(state.root)
        if args.json:
            write_json([_listed(request.to_dict()) for request in requests])
            return 0
        if not requests:
            write_out("No pending scope requests.\n" if not args.all else "No scope requests.\n")
            return 0
        rows = [
            [
                r.id,
                r.state,
                r.session_id,
                r.intent_id,
                r.pattern,
                format_time(r.requested_at),
                r.reason or "-",
            ]
            for r in requests
        ]
        write_out(
            table(rows, ["REQUEST", "STATE", "SESSION", "INTENT", "PATTERN", "REQUESTED", "REASON"])
        )
        return 0
    from paw_tui.core.handshake.scope_expansion import decide_scope_request

    who = person_name(args.by)
    decided = decide_scope_request(
        state, args.request_id, args.action == "grant", by=who, note=args.note
    )
    if args.action == "grant":
        write_out(f"Granted {decided.id}: {decided.intent_id} now owns {decided.pattern}.\n")
    else:
        write_out(f"Denied {decided.id}: {decided.pattern} for {decided.intent_id}.\n")
    return 0


def _listed(data: dict[str, object]) -> dict[str, object]:
    """The JSON of DESIGN §5 first (id, session_id, intent_id, pattern, reason, requested_at)."""
    first = ("id", "session_id", "intent_id", "pattern", "reason", "requested_at")
    return {**{key: data.get(key) for key in first}, **data}
