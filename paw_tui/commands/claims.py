"""``paw-tui claims list [--json]`` · ``claims release ID [--force]``: intent claims on the git
remote (DESIGN §12), when ``governance.yaml: claims: {remote: ...}`` turns them on."""

from __future__ import annotations

import argparse

from paw_tui.commands.common import format_time, require_person, state_for, table
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "claims",
        parents,
        description=(
            "Intent claims through the git remote (governance.yaml: claims: {remote: NAME}): "
            "which machine's session holds each intent. Claims are cooperative locks among "
            "people who trust each other: anyone with push rights can delete a ref."
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every claim on the remote", parents=parents)
    listing.add_argument("--json", action="store_true", help="print JSON")
    release = actions.add_parser(
        "release",
        help="delete an intent's claim (a stale one; --force for a live one)",
        parents=parents,
    )
    release.add_argument("intent_id", metavar="ID")
    release.add_argument(
        "--force", action="store_true", help="release a claim that is not stale yet"
    )
    parser.set_defaults(run=run)


def _remote(state) -> str:  # type: ignore[no-untyped-def]
    from paw_tui.commands.common import require_valid_policy
    from paw_tui.core.errors import ValidationError

    require_valid_policy(state)
    remote: str | None = state.policy.governance.claims_remote
    if remote is None:
        raise ValidationError(
            "Claims are off: governance.yaml has no 'claims: {remote: NAME}' (DESIGN §12)."
        )
    return remote


def run(args: argparse.Namespace) -> int:
    state = state_for(args)
    remote = _remote(state)
    if args.action == "release":
        return _release(state, remote, args.intent_id, args.force)
    return _list(state, remote, args.json)


def _list(state, remote: str, as_json: bool) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.claims.remote import ClaimError, list_claims
    from paw_tui.core.errors import ValidationError

    try:
        claims = list_claims(state.root, remote)
    except ClaimError as error:
        raise ValidationError(str(error)) from error
    now, ttl = state.now(), state.policy.governance.session_ttl
    if as_json:
        write_json(
            [
                {
                    "intent_id": claim.intent_id,
                    "ref": claim.ref,
                    "commit": claim.commit,
                    "session_id": claim.info.session_id if claim.info else None,
                    "client": claim.info.client if claim.info else None,
                    "host": claim.info.host if claim.info else None,
                    "claimed_at": claim.info.claimed_at if claim.info else None,
                    "stale": claim.info.is_stale(now, ttl) if claim.info else None,
                }
                for claim in claims
            ]
        )
        return 0
    if not claims:
        write_out(f"No claims on '{remote}'.\n")
        return 0
    rows = []
    for claim in claims:
        info = claim.info
        if info is None:
            rows.append([claim.intent_id, "?", "?", "?", "?", "unreadable " + claim.commit[:12]])
            continue
        rows.append(
            [
                claim.intent_id,
                info.session_id,
                info.client or "-",
                info.host,
                format_time(info.claimed_at),
                "stale" if info.is_stale(now, ttl) else "live",
            ]
        )
    write_out(table(rows, ["INTENT", "SESSION", "CLIENT", "HOST", "SINCE", "STATE"]))
    return 0


def _release(state, remote: str, intent_id: str, force: bool) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.claims.remote import CHANGED, GONE, ClaimError, drop_claim, read_claim
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.ledger import records
    from paw_tui.core.ledger.acts import person_name, recorded

    require_person("releasing an intent's claim")
    try:
        claim = read_claim(state.root, remote, intent_id)
    except ClaimError as error:
        raise ValidationError(str(error)) from error
    if claim is None:
        raise ValidationError(f"No claim on '{remote}' for intent {intent_id}.")
    info = claim.info
    now, ttl = state.now(), state.policy.governance.session_ttl
    holder = f"session {info.session_id} on {info.host} since {info.since()}" if info else "?"
    if info is not None and not info.is_stale(now, ttl) and not force:
        raise ValidationError(
            f"The claim on {intent_id} is live ({holder}): it is not older than the session "
            "TTL. Ask its holder, or pass --force."
        )
    # the act and its record stand or fall together: recorded first, then done
    recorded(
        state,
        f"releasing the claim on {intent_id}",
        records.SESSION_RELEASED,
        session_id=info.session_id if info else None,
        intent_id=intent_id,
        client=info.client if info else None,
        reason=f"claim on '{remote}' released by {person_name()} (paw-tui claims release): {holder}",
    )
    try:
        outcome = drop_claim(state.root, remote, intent_id, claim.commit)
    except ClaimError as error:
        raise ValidationError(str(error)) from error
    if outcome == CHANGED:
        raise ValidationError(
            f"The claim on {intent_id} changed while it was being released (a new holder "
            "claimed it): left alone."
        )
    if outcome == GONE:
        write_out(f"The claim on {intent_id} was already gone.\n")
        return 0
    write_out(f"Released the claim on {intent_id} ({holder}).\n")
    return 0


__all__ = ["add_parser", "run"]
