"""``paw-tui check PATH... --session S``: would a write be allowed now, and why."""

from __future__ import annotations

import argparse
import os

from paw_tui.commands.common import require_valid_policy, state_for
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "check",
        parents,
        description="Decide each PATH as the gate would for the session's active intent (or for "
        "--intent ID), naming the deciding pattern (index and text). Exit 0 when every path is "
        "allowed, 2 when any is denied.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--session", metavar="S", help="check against this session's active intent")
    who.add_argument("--intent", metavar="ID", help="check against this intent's scope")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from paw_tui.core.errors import ValidationError

    state = state_for(args)
    require_valid_policy(state)
    policy = state.policy
    if args.intent:
        intent = policy.intent(args.intent)
        if intent is None:
            raise ValidationError(_unknown_intent(args.intent, policy.intents))
    else:
        from paw_tui.core.handshake.standing import session_standing

        intent, refusal = session_standing(state, args.session)
        if intent is None:
            if args.json:
                write_json({"allowed": False, "reason": refusal, "results": []})
            else:
                write_out(f"deny  (every path)  {refusal}\n")
            return 2
    checker = policy.checker(intent)
    results = []
    for path in args.paths:
        try:
            results.append(checker.check(path, cwd=os.getcwd()).to_dict())
        except ValueError as exc:
            results.append(
                {
                    "allowed": False,
                    "kind": "invalid",
                    "path": path,
                    "intent_id": intent.id,
                    "index": None,
                    "pattern": None,
                    "message": str(exc),
                    "detail": str(exc),
                }
            )
    allowed = all(result["allowed"] for result in results)
    if args.json:
        write_json({"allowed": allowed, "intent_id": intent.id, "results": results})
    else:
        lines = []
        for result in results:
            verdict = "allow" if result["allowed"] else "deny "
            if result["pattern"] is not None:
                index = "" if result["index"] is None else f"#{result['index']} "
                rule = f"{index}'{result['pattern']}'"
            else:
                rule = "(no pattern)"
            lines.append(f"{verdict}  {result['path']}  {result['kind']}  {rule}")
        write_out("\n".join(lines) + "\n")
    return 0 if allowed else 2


def _unknown_intent(wanted: str, intents: list) -> str:  # type: ignore[type-arg]
    """``Unknown intent 'X'. Known intents: INT-001 (Name), ...`` (any status: checking a
    path against an intent does not select it)."""
    from paw_tui.core.handshake.messages import MAX_AVAILABLE, describe
    from paw_tui.core.support.suggest import did_you_mean_sentence

    listed = ", ".join(describe(intent) for intent in intents[:MAX_AVAILABLE]) or "none"
    hidden = len(intents) - MAX_AVAILABLE
    more = f" and {hidden} more ('paw-tui intents list' lists them all)" if hidden > 0 else ""
    hint = did_you_mean_sentence(wanted, [intent.id for intent in intents])
    return f"Unknown intent '{wanted}'. Known intents: {listed}{more}.{hint}"
