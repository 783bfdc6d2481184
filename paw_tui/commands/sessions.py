"""``paw-tui sessions list|release S``: the session locks."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import add_by_option, format_time, require_person, state_for, table
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "sessions",
        parents,
        description="Agent sessions the gate has seen (.orchestration/sessions/) and the intents they hold.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every recorded session", parents=parents)
    listing.add_argument("--json", action="store_true", help="print JSON")
    release = actions.add_parser(
        "release", help="end a session's lock (it must select again)", parents=parents
    )
    release.add_argument("session_id", metavar="S")
    add_by_option(release)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.handshake.sessions import iter_sessions

    state = state_for(args)
    if args.action == "release":
        require_person("releasing a session's intent")
        from paw_tui.core.errors import ValidationError
        from paw_tui.core.handshake.selection import release_session
        from paw_tui.core.ledger.acts import person_name

        who = person_name(args.by)
        released = release_session(
            state, args.session_id, reason=f"released by {who} (paw-tui sessions release)"
        )
        if released is None:
            raise ValidationError(f"No session '{args.session_id}'.")
        held = f" (it held {released.intent_id})" if released.intent_id else ""
        write_out(f"Released session {args.session_id}{held}.\n")
        return 0
    now = state.now()
    ttl = state.policy.governance.session_ttl
    sessions = list(iter_sessions(state.root))
    if args.json:
        write_json([dict(s.to_dict(), live=s.is_live(now, ttl)) for s in sessions])
        return 0
    if not sessions:
        write_out("No sessions.\n")
        return 0
    rows = [
        [
            s.session_id,
            s.intent_id or "-",
            s.state,
            "yes" if s.is_live(now, ttl) else "expired",
            s.client or "-",
            format_time(s.last_seen),
        ]
        for s in sessions
    ]
    write_out(table(rows, ["SESSION", "INTENT", "STATE", "LIVE", "CLIENT", "LAST SEEN"]))
    return 0
