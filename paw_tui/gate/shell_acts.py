"""Shell commands that invoke a person's acts through paw-tui, or forge hook events.

An agent with a shell could run ``paw-tui approvals approve`` for itself, or pipe a made-up
``SessionEnd`` into ``paw-tui gate``. The gate looks at every simple command the shell parser
found (nested ones included: ``bash -c``, ``$(...)``, ``eval``) and denies the call when one
runs paw-tui (its console script, ``python -m paw_tui``, the package's own scripts, ``-c``
code importing it) for an act that is a person's, or runs the gate at all.

The command line is read the way the programs read it: Python's options as CPython takes
them (``-W ignore``, ``-X importtime``, ``-Im paw_tui``, ``-mpaw_tui``), and paw-tui's as
argparse takes them, so the options the CLI accepts before a command and before its action
(``-w DIR``, ``--workspace=DIR``, a prefix such as ``--work DIR``, ``--debug``) never hide
which act runs.

A ``git push`` that changes a ref under ``refs/paw/`` on a remote (the intent claims, DESIGN
§12) is ``claims release`` by hand, so it is refused the same way: the parser reports each
push's destinations (``:refs/paw/claims/INT-1``, ``--delete``, ``+HEAD:paw/claims/INT-1``,
which git completes against the remote's refs, ``refs/*``, ``--mirror``, a
``remote.NAME.push`` given to git).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

PERSON_ACTS = {
    ("approvals", "approve"): "approving an intent selection",
    ("approvals", "reject"): "rejecting an intent selection",
    ("intents", "set-status"): "changing an intent's status",
    ("intents", "select"): "selecting an intent for a session from the command line",
    ("intents", "new"): "creating an intent",
    ("intents", "scope"): "changing an intent's scope",
    ("intents", "edit"): "editing an intent",
    ("sessions", "release"): "releasing a session's intent",
    ("scope", "grant"): "granting scope",
    ("scope", "deny"): "denying a scope request",
    ("claims", "release"): "releasing an intent's claim",
    ("trace", "verify"): None,
}
"""(command, action) -> the act; None: allowed (listed to show it was considered)."""
PYTHONS = ("python", "python3")
ACT_FUNCTIONS = (
    "decide_approval", "set_intent_status", "release_session", "set_supervisor",
    "clear_supervisor", "decide_scope_request", "gate.main", "decide_payload",
    "create_intent", "change_scope", "update_intent", "replace_entry", "drop_claim",
    "release_worker",
)  # fmt: skip
"""What ``python -c`` code would call to perform a person's act through paw-tui's library."""
WORKSPACE_OPTIONS = ("--workspace", "-w")
"""The options of paw-tui's command line that take a value before a command and before its
action (``paw_tui/cli.py``); argparse also takes a unique prefix of the long one."""
_SUPERVISOR_OPTIONS = ("supervisor", "clear-supervisor")
_LIBRARY = "(python -c)"
_PYTHON_VALUED = "WX"
"""CPython's options whose value follows (``-W ignore``, ``-X importtime``); ``-c`` and
``-m`` end the options."""


def _python_entry(args: list[str]) -> tuple[str, str, list[str]] | None:
    """What ``python ARGS`` runs, its options read as CPython reads them (grouped, values
    attached or next): ``("-m", module, rest)``, ``("-c", code, rest)`` or ``("", script,
    rest)``; None when it runs what it reads from standard input."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "-" or not arg.startswith("-"):
            break
        index += 1
        if arg == "--":
            break
        if arg.startswith("--"):
            index += arg == "--check-hash-based-pycs"
            continue
        for position in range(1, len(arg)):
            letter = arg[position]
            if letter in "cm" or letter in _PYTHON_VALUED:
                value = arg[position + 1 :]
                if not value and index < len(args):
                    value = args[index]
                    index += 1
                if letter in "cm":
                    return "-" + letter, value, args[index:]
                break
    if index < len(args) and args[index] != "-":
        return "", args[index], args[index + 1 :]
    return None


def _paw_arguments(argv: Sequence[str]) -> list[str] | None:
    """The arguments ``argv`` gives paw-tui's command line (``paw-tui ARGS``, ``python -m
    paw_tui ARGS``), or None when it does not run paw-tui; the package's other entry points
    are given as the command line they stand for."""
    if not argv:
        return None
    name = os.path.basename(argv[0])
    if name in ("paw-tui", "paw_tui"):
        return list(argv[1:])
    if not name.startswith(PYTHONS):
        return None
    entry = _python_entry(list(argv[1:]))
    if entry is None:
        return None
    how, what, rest = entry
    if how == "-c":
        found = "paw_tui" in what and any(name in what for name in ACT_FUNCTIONS)
        return [_LIBRARY] if found else None
    if how == "-m":
        parts = what.split(".")
    else:  # a script of the package, or the package's directory (its __main__)
        parts = [part for part in what.replace("\\", "/").split("/") if part]
        if parts:
            parts[-1] = parts[-1].removesuffix(".py")
    if "paw_tui" not in parts:
        return None
    return _entry_point(parts[parts.index("paw_tui") + 1 :], rest)


def _entry_point(module: list[str], rest: list[str]) -> list[str] | None:
    """The command line a module of the package stands for when run with ``rest``."""
    if module[:1] == ["gate"]:  # the hook launcher
        return ["gate", *rest]
    if module == ["core", "claims", "release_worker"]:
        return ["claims", "release", *rest]
    if module == ["core", "confine", "launcher"]:  # a wrapper: its program follows "--"
        return _paw_arguments(rest[rest.index("--") + 1 :]) if "--" in rest else None
    return rest  # the CLI itself (__main__), or anything else: read as the CLI


def _operands(args: list[str], count: int) -> list[str]:
    """The first ``count`` operands of paw-tui's command line, its options skipped with
    their values (:data:`WORKSPACE_OPTIONS`)."""
    found: list[str] = []
    index = 0
    while index < len(args) and len(found) < count:
        arg = args[index]
        index += 1
        if len(arg) < 2 or not arg.startswith("-"):
            found.append(arg)
        elif arg in WORKSPACE_OPTIONS or (
            len(arg) > 2 and "=" not in arg and WORKSPACE_OPTIONS[0].startswith(arg)
        ):
            index += 1  # its value comes next
    return found


def _sets_supervisor(arg: str) -> bool:
    """``--supervisor``, ``--clear-supervisor``, or a prefix argparse takes for one."""
    name = arg[2:].partition("=")[0] if arg.startswith("--") else ""
    return bool(name) and any(option.startswith(name) for option in _SUPERVISOR_OPTIONS)


CLAIMS_ACT = (
    "changing intent claims (refs/paw/) on the git remote (a branch named paw/... is pushed "
    "by its full name, refs/heads/paw/...)"
)


def changes_claims(ref: str) -> bool:
    """Whether a push to ``ref`` (as written: a full name, a short one git completes against
    the remote's refs with ``refs/%s``, a glob; ``*`` any ref) may change a claim ref.
    Compared in lower case and with repeated slashes folded, as a remote's file system may."""
    from paw_tui.core.claims.claim import NAMESPACE

    name = "/".join(part for part in ref.lower().split("/") if part)
    names = (NAMESPACE.strip("/"), NAMESPACE.strip("/").removeprefix("refs/"))
    if "*" in name:
        prefix = name.split("*", 1)[0]
        return any(full.startswith(prefix) or prefix.startswith(full + "/") for full in names)
    return any(name == full or name.startswith(full + "/") for full in names)


def person_act_in(commands: Sequence[Sequence[str]], remote_refs: Sequence[str] = ()) -> str | None:
    """The act, when one of ``commands`` performs a person's act or forges a hook event, or
    a push changes one of ``remote_refs`` that is a claim."""
    if any(changes_claims(ref) for ref in remote_refs):
        return CLAIMS_ACT
    for argv in commands:
        args = _paw_arguments(argv)
        if args is None:
            continue
        if args[:1] == [_LIBRARY]:
            return "calling paw-tui's library for it"
        words = _operands(args, 2)
        if words[:1] == ["gate"]:
            return "sending events to the gate (hook events come from the client)"
        if words[:1] == ["prompt"] and any(_sets_supervisor(arg) for arg in args):
            return "setting the supervisor instruction"
        act = PERSON_ACTS.get((words[0], words[1])) if len(words) == 2 else None
        if act is not None:
            return act
    return None


def refusal(act: str) -> str:
    return (
        f"paw-tui policy: this command includes {act}, which is a person's act: an agent never "
        "does it. Ask the human to do it in the TUI or their own terminal."
    )
