"""``paw-tui trace ship [--endpoint URL] [--project NAME] [--follow] [--timeout S]``: the
ledger sent to an OpenTelemetry backend (DESIGN §12). Registered as an action of ``trace``."""

from __future__ import annotations

import argparse
import os
import sys

from paw_tui.commands.output import write_err, write_out


def add_ship_parser(
    actions: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: list[argparse.ArgumentParser],
) -> None:
    ship = actions.add_parser(
        "ship",
        help="send the ledger to an OpenTelemetry backend (OTLP/HTTP; the 'otel' extra)",
        parents=parents,
        description=(
            "Send every record not yet accepted to an OTLP/HTTP endpoint: one trace per agent "
            "session, one span per record (GenAI conventions). A batch is resent until the "
            "backend accepts it; the cursor (in the state directory) moves only then."
        ),
    )
    ship.add_argument(
        "--endpoint",
        metavar="URL",
        help="the OTLP/HTTP endpoint (a base URL gets /v1/traces); default: "
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT, then "
        "governance.yaml trace.ship.endpoint",
    )
    ship.add_argument(
        "--project",
        metavar="NAME",
        help="the project the spans belong to (openinference.project.name; default: the "
        "workspace folder's name)",
    )
    ship.add_argument(
        "--follow", action="store_true", help="keep shipping as records are appended (Ctrl-C stops)"
    )
    ship.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help="give up on a batch the backend has not accepted within S seconds (exit 2)",
    )


def run_ship(args: argparse.Namespace, root: str) -> int:
    import threading

    from paw_tui.core.errors import ValidationError
    from paw_tui.core.policy.compiled import load_policy
    from paw_tui.core.ship.cursor import cursor_path, load_cursor
    from paw_tui.core.ship.encode import Encoder, ExtraMissing
    from paw_tui.core.ship.endpoint import resolve_endpoint
    from paw_tui.core.ship.shipper import Shipper, ShipReport
    from paw_tui.core.support.locking import FileLock, LockTimeout
    from paw_tui.core.workspace import layout
    from paw_tui.core.workspace.statedir import workspace_state_dir

    if args.timeout is not None and args.timeout <= 0:
        raise ValidationError(
            f"--timeout must be a positive number of seconds, not {args.timeout:g}."
        )
    policy = load_policy(root)
    configured = policy.governance.trace_endpoint if policy.valid else None
    endpoint = resolve_endpoint(args.endpoint, configured, os.environ)
    project = (
        args.project or os.path.basename(os.path.abspath(root).rstrip(os.sep)) or "paw-tui"
    ).strip()
    try:
        encoder = Encoder(root, project)
    except ExtraMissing as error:
        raise ValidationError(str(error)) from error
    state = workspace_state_dir(root)
    path = cursor_path(state, endpoint.url, project)
    lock = FileLock(path + ".lock", timeout=0)
    try:
        lock.acquire()
    except LockTimeout as error:
        raise ValidationError(
            f"Another 'paw-tui trace ship' is shipping this workspace to {endpoint.url} "
            f"(project {project}): its lock {lock.path} is held."
        ) from error
    try:
        shipper = Shipper(
            root,
            layout.at(root, layout.LEDGER),
            endpoint,
            encoder.encode,
            load_cursor(path, endpoint.url, project),
            path,
            timeout=args.timeout,
        )
        if not args.follow:
            return _report(shipper.ship_available(), endpoint.url, project, shipper.cursor.seq)
        stop = threading.Event()
        from paw_tui.core.ship.follow import follow

        write_err(f"Shipping to {endpoint.url} (project {project}); Ctrl-C stops.\n")
        try:

            def said(report: ShipReport) -> None:
                _report(report, endpoint.url, project, shipper.cursor.seq)

            follow(shipper, stop, said)
        except KeyboardInterrupt:
            stop.set()
        return 0
    finally:
        lock.release()


def _report(report, url: str, project: str, seq: int) -> int:  # type: ignore[no-untyped-def]
    for note in ([report.restarted] if report.restarted else []) + report.notes:
        write_err(f"warning: {note}\n")
    if report.shipped:
        resent = f", {report.resends} resend(s)" if report.resends else ""
        write_out(
            f"Shipped {report.shipped} record(s) (seq {report.first_seq}..{report.last_seq}) to "
            f"{url} (project {project}) in {report.requests} request(s){resent}.\n"
        )
    else:
        write_out(f"Nothing new to ship to {url} (project {project}): up to seq {seq} is there.\n")
    sys.stdout.flush()
    return 0
