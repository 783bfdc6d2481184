"""``paw-tui trace tail|show|verify|export``: the audit ledger."""

from __future__ import annotations

from paw_tui.commands.common import workspace_root
from paw_tui.commands.output import write_json, write_out
from paw_tui.commands.registry import add_command
from paw_tui.core.ledger.export import export_agent_trace
from paw_tui.core.ledger.verify import verify as verify_ledger
from paw_tui.core.support import fastjson as json
from paw_tui.core.support.printable import escape_json_text, printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    parser = add_command(
        subparsers,
        "trace",
        parents,
        description="The hash-chained audit ledger .orchestration/agent_trace.jsonl. Readers never "
        "load the whole file to show its end; 'verify' checks every line's chain link and seq and "
        "compares the end with the head kept outside the workspace (exit 2 when anything is wrong).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    tail = actions.add_parser("tail", help="the newest records", parents=parents)
    tail.add_argument(
        "-n", "--lines", type=int, default=20, metavar="N", help="how many (default 20)"
    )
    tail.add_argument("--intent", metavar="ID", help="only this intent's records")
    tail.add_argument("--session", metavar="S", help="only this session's records")
    tail.add_argument(
        "--decision", choices=["allow", "deny", "pending", "breach"], help="only this decision"
    )
    tail.add_argument(
        "-f", "--follow", action="store_true", help="keep printing new records (Ctrl-C stops)"
    )
    tail.add_argument("--json", action="store_true", help="one JSON record per line, as stored")
    show = actions.add_parser("show", help="one record in full, by seq", parents=parents)
    show.add_argument("seq", type=int, metavar="SEQ")
    verify = actions.add_parser(
        "verify", help="check the hash chain, seq, signatures and head", parents=parents
    )
    verify.add_argument("--json", action="store_true", help="print JSON")
    verify.add_argument(
        "--trust-key",
        action="append",
        default=[],
        metavar="KEY_ID",
        help="accept records another machine signed with this key after this machine's records "
        "(a ledger shared through version control); repeatable",
    )
    export = actions.add_parser(
        "export", help="export records (the same filters as tail)", parents=parents
    )
    export.add_argument(
        "--format",
        required=True,
        choices=["agent-trace", "jsonl"],
        help="agent-trace: mutation records as Agent Trace 0.1.0 JSONL; jsonl: the records as "
        "stored, one per line",
    )
    export.add_argument("--intent", metavar="ID", help="only this intent's records")
    export.add_argument("--session", metavar="S", help="only this session's records")
    export.add_argument(
        "--decision", choices=["allow", "deny", "pending", "breach"], help="only this decision"
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    parser.set_defaults(run=run)


def _ledger(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from paw_tui.core.ledger.store import Ledger

    return Ledger.for_workspace(workspace_root(args))


def format_record(record: dict[str, object]) -> str:
    """One line a person can scan: time, event, decision, intent, session, tool, paths."""
    ts = str(record.get("ts") or "")
    shown_ts = printable(ts.replace("T", " ")[:23])
    paths = record.get("paths")
    path_text = ", ".join(printable(str(p)) for p in paths) if isinstance(paths, list) else ""
    parts = [
        printable(f"#{record.get('seq', '?')}"),
        shown_ts,
        printable(str(record.get("event") or "-")),
        printable(str(record.get("decision") or "-")),
        printable(str(record.get("intent_id") or "-")),
        printable(str(record.get("session_id") or "-")),
        printable(str(record.get("tool") or "-")),
        path_text,
    ]
    line = "  ".join(part for part in parts if part)
    reason = record.get("reason")
    if reason and record.get("decision") != "allow":
        line += f"  — {printable(str(reason))}"
    return line


def fast_tail_args(argv: list[str]) -> argparse.Namespace | None:
    """``trace tail [-n N] [--json] [-w DIR]`` without building the argparse parser (the
    common way to look at the end of a big ledger; see commands/context.py's fast path).
    None for anything else: argparse then parses and reports as usual."""
    lines, as_json, debug = 20, False, False
    workspaces: list[str] = []
    items = list(argv)
    while items:
        arg = items.pop(0)
        if arg == "--json":
            as_json = True
        elif arg == "--debug":
            debug = True
        elif arg in ("-n", "--lines", "-w", "--workspace"):
            if not items or items[0].startswith("-"):
                return None
            value = items.pop(0)
            if arg in ("-n", "--lines"):
                if not value.isdigit():
                    return None
                lines = int(value)
            else:
                workspaces.append(value)
        else:
            return None
    import types

    return types.SimpleNamespace(  # type: ignore[return-value]
        command="trace",
        action="tail",
        lines=lines,
        intent=None,
        session=None,
        decision=None,
        follow=False,
        json=as_json,
        debug=debug,
        workspace=workspaces or None,
        run=run,
    )


def run(args: argparse.Namespace) -> int:
    ledger = _ledger(args)
    if args.action == "tail":
        return _tail(ledger, args)
    if args.action == "show":
        return _show(ledger, args.seq)
    if args.action == "verify":
        return _verify(ledger, args)
    if args.format == "jsonl":
        return _export_jsonl(ledger, args)
    return _export(ledger, args.output)


def _verify(ledger, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    """The chain, the signatures and the head; then whether the ledger can be appended now:
    an intact ledger nothing can be added to is not "ok" (every mutating tool is denied)."""
    from paw_tui.core.ledger.health import ledger_health
    from paw_tui.core.ledger.io import LedgerError

    health = ledger_health(ledger.workspace_root)
    try:
        result = verify_ledger(ledger, trust_keys=frozenset(args.trust_key))
    except LedgerError as error:  # not even readable: a finding, not a crash
        if args.json:
            write_json(
                {"ok": False, "path": ledger.path, "reason": str(error), "append": health.to_dict()}
            )
        else:
            lines = [str(error)] + ([health.message()] if health.denying else [])
            write_out("\n".join(lines) + "\n")
        return 2
    if args.json:
        write_json(dict(result.to_dict(), append=health.to_dict()))
    else:
        lines = [result.message]
        if health.denying:
            lines.append(("But: " if result.ok else "") + health.message())
        write_out("\n".join(lines) + "\n")
    return 0 if result.ok and health.appendable else 2


def _matches(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The options as the trace filter the TUI uses (one matching rule): intent ids compare
    case-insensitively, a session matches by id or id prefix."""
    from paw_tui.core.ledger.query import FIELDS, TraceFilter

    options = {"intent": args.intent, "session": args.session, "decision": args.decision}
    terms = tuple((FIELDS[key], value) for key, value in options.items() if value)
    return TraceFilter(terms).matches


def _check_filters(ledger, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """An intent or session the workspace and the ledger do not know is an error that says
    so (and what was probably meant), not an empty answer."""
    from paw_tui.core.errors import ValidationError
    from paw_tui.core.support.suggest import did_you_mean_sentence

    if args.intent:
        known = _known_intents(args)
        if args.intent.casefold() not in {i.casefold() for i in known}:
            seen = _ledger_values(ledger, "intent_id")
            if args.intent.casefold() not in {i.casefold() for i in seen}:
                hint = did_you_mean_sentence(args.intent, [*known, *seen])
                raise ValidationError(
                    f"Unknown intent '{args.intent}': not in {_intents_file(args)} and in no "
                    f"record of the ledger.{hint}"
                )
    if args.session:
        sessions = _ledger_values(ledger, "session_id")
        wanted = args.session.casefold()
        if not any(s.casefold().startswith(wanted) for s in sessions):
            hint = did_you_mean_sentence(args.session, sessions)
            raise ValidationError(f"No record of session '{args.session}' in {ledger.path}.{hint}")


def _known_intents(args: argparse.Namespace) -> list[str]:
    from paw_tui.core.policy.compiled import load_policy

    policy = load_policy(workspace_root(args))
    return [intent.id for intent in policy.intents] if policy.valid else []


def _intents_file(args: argparse.Namespace) -> str:
    from paw_tui.core.workspace import layout

    return layout.INTENTS


def _ledger_values(ledger, key: str) -> list[str]:  # type: ignore[no-untyped-def]
    values: dict[str, None] = {}
    for _offset, _line, record in ledger.iter_records(0):
        value = record.get(key) if record is not None else None
        if isinstance(value, str):
            values[value] = None
    return list(values)


def _emit(records: list[dict[str, object]], as_json: bool) -> None:
    if as_json:
        write_out(
            "".join(
                escape_json_text(json.dumps(r, ensure_ascii=False, separators=(",", ":"))) + "\n"
                for r in records
            )
        )
    else:
        write_out("".join(format_record(r) + "\n" for r in records))


def _tail(ledger, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.errors import ValidationError

    if args.lines < 0:
        raise ValidationError(f"-n must be 0 or more, not {args.lines}.")
    predicate = _matches(args)
    result = ledger.tail(args.lines, predicate=predicate)
    if not result.records and (args.intent or args.session):
        _check_filters(ledger, args)
    _emit(result.records, args.json)
    if not result.records and not args.json and result.torn_tail is None:
        write_out(_nothing_to_show(ledger, args) + "\n")
    if result.torn_tail is not None:
        from paw_tui.commands.output import write_err

        write_err(
            f"warning: the last line of {ledger.path} is incomplete ({result.torn_tail.length} bytes "
            "at its end); the next write will move it aside and record the repair.\n"
        )
    if args.follow:
        _follow(ledger, args, result.end)
    return 0


def _nothing_to_show(ledger, args: argparse.Namespace) -> str:  # type: ignore[no-untyped-def]
    """One line saying why ``tail`` printed no record."""
    import os

    if args.intent or args.session or args.decision:
        return "No record matches the filter."
    if not os.path.exists(ledger.path):
        return f"No records yet: {ledger.path} does not exist (the gate writes it)."
    if args.lines == 0:
        return "No records asked for (-n 0)."
    return f"No records yet: {ledger.path} is empty."


def _follow(ledger, args: argparse.Namespace, offset: int) -> None:  # type: ignore[no-untyped-def]
    import os
    import time

    predicate = _matches(args)
    try:
        while True:
            time.sleep(0.2)
            try:
                size = os.path.getsize(ledger.path)
            except OSError:
                continue
            if size < offset:  # truncated or replaced: start again from its beginning
                offset = 0
            fresh = []
            for line_offset, line, record in ledger.iter_records(offset):
                offset = line_offset + len(line) + 1
                if record is not None and predicate(record):
                    fresh.append(record)
            if fresh:
                _emit(fresh, args.json)
    except KeyboardInterrupt:
        return


def _show(ledger, seq: int) -> int:  # type: ignore[no-untyped-def]
    from paw_tui.core.errors import ValidationError

    result = ledger.tail(1, predicate=lambda record: record.get("seq") == seq, max_bytes=1 << 62)
    if not result.records:
        raise ValidationError(f"No record with seq {seq} in {ledger.path}.")
    write_json(result.records[0])
    return 0


def _export_jsonl(ledger, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    """The records as stored (their lines, byte for byte), those the filters keep."""
    predicate = _matches(args)
    lines = [
        line.decode("utf-8", "replace") + "\n"
        for _offset, line, record in ledger.iter_records(0)
        if record is not None and predicate(record)
    ]
    if not lines and (args.intent or args.session):
        _check_filters(ledger, args)
    text = "".join(lines)
    if args.output:
        from paw_tui.core.support.fsutil import atomic_write

        atomic_write(args.output, text.encode("utf-8"))
        return 0
    write_out(escape_json_text(text))
    return 0


def _export(ledger, output: str | None) -> int:  # type: ignore[no-untyped-def]
    lines = (
        escape_json_text(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n"
        for record in export_agent_trace(ledger)
    )
    if output:
        from paw_tui.core.support.fsutil import atomic_write

        atomic_write(output, "".join(lines).encode("utf-8"))
        return 0
    for line in lines:
        write_out(line)
    return 0
