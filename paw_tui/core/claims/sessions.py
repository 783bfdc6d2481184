"""Claims as the handshake uses them: taken with a selection, dropped with the session.

A selection waits on the remote (the one network wait the gate ever makes); every other
decision stays local. Dropping a claim when a session ends (SessionEnd, ``sessions release``,
the TTL, a rejected request) never makes the gate wait: it runs in a detached process
(:mod:`paw_tui.core.claims.release_worker`), and a drop that fails leaves a claim that goes
stale and that a person can take over (``paw-tui claims release``).
"""

from __future__ import annotations

import os
import subprocess
import sys

from paw_tui.core.claims.claim import ClaimInfo
from paw_tui.core.claims.remote import take_claim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.claims.remote import ClaimAttempt
    from paw_tui.core.handshake.sessions import Session


def claim_for(
    root: str, remote: str, intent_id: str, session_id: str, client: str | None, now: float
) -> ClaimAttempt:
    return take_claim(root, remote, ClaimInfo.now(intent_id, session_id, client, now))


def session_claim(remote: str, intent_id: str, commit: str) -> dict[str, str]:
    """What a session record keeps of its claim."""
    return {"remote": remote, "intent_id": intent_id, "commit": commit}


def drop_in_background(root: str, session: Session) -> None:
    """Drop the session's claim (if it has one) in a detached process."""
    claim = session.claim
    if not claim:
        return
    argv = [
        sys.executable,
        "-m",
        "paw_tui.core.claims.release_worker",
        root,
        claim["remote"],
        claim["intent_id"],
        claim["commit"],
    ]
    try:
        subprocess.Popen(
            argv,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            env=dict(os.environ),
        )
    except OSError as error:
        sys.stderr.write(
            f"paw-tui: the claim on {claim['intent_id']} stays on '{claim['remote']}' until it "
            f"goes stale: could not start its release ({error})\n"
        )
