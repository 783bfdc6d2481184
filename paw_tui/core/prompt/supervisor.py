"""Supervisor instructions (DESIGN §8, seed 003 layer 4): runtime guidance from a person.

One instruction per session, or one for every session (global), kept in
``.orchestration/.cache/supervisor/`` (machine-owned, written atomically, safe to delete).
Setting or clearing one is a person's act, recorded in the ledger before it takes effect.
A session's own instruction takes the place of the global one. It reaches the agent inside
``<supervisor_instruction>...</supervisor_instruction>``; a tag of that name inside the text
is neutralised so the text cannot close the element early. The gate imports this module:
standard library only.
"""

from __future__ import annotations

import os
import re

from paw_tui.core.errors import ValidationError
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.workspace.state import WorkspaceState

GLOBAL_FILE = "global.json"
SESSION_PREFIX = "session-"
OPEN_TAG = "<supervisor_instruction>"
CLOSE_TAG = "</supervisor_instruction>"
MAX_CHARS = 16 * 1024
_TAG = re.compile(r"<(?=\s*/?\s*supervisor_instruction)", re.IGNORECASE)


def supervisor_path(root: str, session_id: str | None = None) -> str:
    """The file of the session's instruction, or of the global one when ``session_id`` is None."""
    if session_id is None:
        return os.path.join(layout.at(root, layout.SUPERVISOR), GLOBAL_FILE)
    from paw_tui.core.handshake.sessions import session_file_name

    return os.path.join(
        layout.at(root, layout.SUPERVISOR), SESSION_PREFIX + session_file_name(session_id)
    )


def normalise_text(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def set_supervisor(
    root: str,
    text: str,
    session_id: str | None = None,
    *,
    now: float | None = None,
    by: str = "human",
    state: WorkspaceState | None = None,
) -> str:
    """Store ``text`` for the session (or globally), recorded as ``supervisor_set``; returns
    the text as stored. A person's act: when it cannot be recorded nothing is stored
    (:class:`~paw_tui.core.ledger.acts.UnrecordedAct`).

    Raises ValidationError for an empty or over-long instruction or a blank session id.
    """
    import json

    from paw_tui.core.handshake.sessions import state_lock
    from paw_tui.core.ledger import records
    from paw_tui.core.ledger.acts import record_act
    from paw_tui.core.support.fsutil import PreparedFile
    from paw_tui.core.workspace.machine_state import machine_dir

    if session_id is not None and not session_id.strip():
        raise ValidationError("The session id of a supervisor instruction must not be empty.")
    stored = normalise_text(text)
    if not stored:
        raise ValidationError("A supervisor instruction cannot be empty; clear it instead.")
    if len(stored) > MAX_CHARS:
        raise ValidationError(
            f"The supervisor instruction is {len(stored)} characters long; the limit is {MAX_CHARS}."
        )
    state = state or _state(root)
    record = {
        "scope": "global" if session_id is None else "session",
        "session_id": session_id,
        "text": stored,
        "updated": state.now() if now is None else now,
    }
    path = supervisor_path(root, session_id)
    with state_lock(root):
        machine_dir(root, layout.SUPERVISOR)
        change = PreparedFile(
            path, json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
        )
        record_act(
            state,
            "setting the supervisor instruction",
            records.SUPERVISOR_SET,
            [change],
            session_id=session_id,
            reason=f"for {_target(session_id)}, by {by}",
            instruction=stored,
        )
    return stored


def _state(root: str) -> WorkspaceState:
    from paw_tui.core.workspace.state import WorkspaceState

    return WorkspaceState(root)


def _target(session_id: str | None) -> str:
    return "every session" if session_id is None else f"session {session_id}"


def get_supervisor(root: str, session_id: str | None = None) -> str | None:
    """The instruction stored for exactly this session (or the global one); None when unset
    or unreadable (a broken file is treated as no instruction)."""
    import json

    try:
        from paw_tui.core.support.regular_file import read_regular

        record = json.loads(read_regular(supervisor_path(root, session_id)))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("session_id") != session_id:
        return None
    text = record.get("text")
    return text if isinstance(text, str) and text.strip() else None


def effective_supervisor(root: str, session_id: str | None = None) -> str | None:
    """What a session sees: its own instruction, else the global one."""
    if session_id is not None:
        own = get_supervisor(root, session_id)
        if own is not None:
            return own
    return get_supervisor(root, None)


def clear_supervisor(
    root: str,
    session_id: str | None = None,
    *,
    by: str = "human",
    state: WorkspaceState | None = None,
) -> bool:
    """Remove the session's (or the global) instruction, recorded as ``supervisor_cleared``;
    True when there was one (none: nothing to record). Not removed when it cannot be
    recorded (:class:`~paw_tui.core.ledger.acts.UnrecordedAct`)."""
    from paw_tui.core.handshake.sessions import state_lock
    from paw_tui.core.ledger import records
    from paw_tui.core.ledger.acts import recorded

    path = supervisor_path(root, session_id)
    if not os.path.lexists(path):
        return False
    state = state or _state(root)
    with state_lock(root):
        if not os.path.lexists(path):
            return False
        recorded(
            state,
            "clearing the supervisor instruction",
            records.SUPERVISOR_CLEARED,
            session_id=session_id,
            reason=f"for {_target(session_id)}, by {by}",
        )
        try:
            os.unlink(path)
        except FileNotFoundError:
            return False
    return True


def neutralise_tags(text: str) -> str:
    """``<`` of any ``<supervisor_instruction>`` or ``</supervisor_instruction>`` tag (any case,
    any spacing) becomes ``&lt;``, so the text can neither close nor reopen the element."""
    return _TAG.sub("&lt;", text)


def render_supervisor(text: str | None) -> str:
    """``<supervisor_instruction>\\n<text>\\n</supervisor_instruction>``; empty for no text."""
    body = normalise_text(text or "")
    if not body:
        return ""
    return f"{OPEN_TAG}\n{neutralise_tags(body)}\n{CLOSE_TAG}"


def supervisor_section(root: str, session_id: str | None = None) -> str:
    """The rendered effective instruction of the session; empty when none is set."""
    return render_supervisor(effective_supervisor(root, session_id))
