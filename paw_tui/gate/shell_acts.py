"""Shell commands that invoke a person's acts through paw-tui, or forge hook events.

An agent with a shell could run ``paw-tui approvals approve`` for itself, or pipe a made-up
``SessionEnd`` into ``paw-tui gate``. The gate looks at every simple command the shell parser
found (nested ones included: ``bash -c``, ``$(...)``, ``eval``) and denies the call when one
runs paw-tui (its console script, ``python -m paw_tui``, ``-c`` code importing it) for an act
that is a person's, or runs the gate at all.
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
    ("trace", "verify"): None,
}
"""(command, action) -> the act; None: allowed (listed to show it was considered)."""
PYTHONS = ("python", "python3")
ACT_FUNCTIONS = (
    "decide_approval", "set_intent_status", "release_session", "set_supervisor",
    "clear_supervisor", "decide_scope_request", "gate.main", "decide_payload",
    "create_intent", "change_scope", "update_intent", "replace_entry",
)  # fmt: skip
"""What ``python -c`` code would call to perform a person's act through paw-tui's library."""


def _paw_arguments(argv: Sequence[str]) -> list[str] | None:
    """The arguments after ``paw-tui`` (or ``python -m paw_tui``), or None when ``argv`` does
    not run paw-tui's CLI."""
    if not argv:
        return None
    name = os.path.basename(argv[0])
    if name in ("paw-tui", "paw_tui"):
        return list(argv[1:])
    if name.startswith(PYTHONS):
        args = list(argv[1:])
        while args and args[0].startswith("-") and args[0] not in ("-m", "-c"):
            args.pop(0)
        if len(args) >= 2 and args[0] == "-m" and args[1].split(".")[0] == "paw_tui":
            return args[2:]
        if len(args) >= 2 and args[0] == "-c" and "paw_tui" in args[1]:
            if any(name in args[1] for name in ACT_FUNCTIONS):
                return ["(python -c)"]
        if args and args[0] not in ("-m", "-c"):
            # a script of the package itself: the hook launcher, the gate, __main__
            parts = args[0].replace("\\", "/").split("/")
            if "paw_tui" in parts[:-1]:
                below = parts[parts.index("paw_tui") + 1 :]
                return ["gate", *args[1:]] if below[:1] == ["gate"] else args[1:]
    return None


def person_act_in(commands: Sequence[Sequence[str]]) -> str | None:
    """The act, when one of ``commands`` performs a person's act or forges a hook event."""
    for argv in commands:
        args = _paw_arguments(argv)
        if args is None:
            continue
        words = [word for word in args if not word.startswith("-")]
        if words[:1] == ["(python -c)"]:
            return "calling paw-tui's library for it"
        if words[:1] == ["gate"]:
            return "sending events to the gate (hook events come from the client)"
        if words[:1] == ["prompt"] and any(
            flag in args for flag in ("--supervisor", "--clear-supervisor")
        ):
            return "setting the supervisor instruction"
        if words[:1] == ["prompt"] and any(arg.startswith("--supervisor=") for arg in args):
            return "setting the supervisor instruction"
        act = PERSON_ACTS.get((words[0], words[1])) if len(words) >= 2 else None
        if act is not None:
            return act
    return None


def refusal(act: str) -> str:
    return (
        f"paw-tui policy: this command includes {act}, which is a person's act: an agent never "
        "does it. Ask the human to do it in the TUI or their own terminal."
    )
