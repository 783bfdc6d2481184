"""What a claim is: its ref name for an intent id, and the facts its commit carries.

Intent ids allow ``.`` and ``:`` (``^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$``), which a git ref
name may not hold everywhere (``:`` never, ``..`` never, ``.lock`` not at the end), so every
character but ``[A-Za-z0-9_-]`` is written ``%XX``: ``INT.7`` is ``refs/paw/claims/INT%2E7``.

The commit's message is one JSON object (``paw-tui claim`` on its first line, so ``git log``
says what it is): the intent, the session, its client, the host and the time of the claim.
"""

from __future__ import annotations

import json
import socket
import time
from dataclasses import asdict, dataclass

NAMESPACE = "refs/paw/"
PREFIX = NAMESPACE + "claims/"
TITLE = "paw-tui claim"
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def claim_ref(intent_id: str) -> str:
    return PREFIX + "".join(c if c in _PLAIN else f"%{ord(c):02X}" for c in intent_id)


def intent_of(ref: str) -> str | None:
    """The intent id a claim ref names; None for a ref that is not one."""
    if not ref.startswith(PREFIX):
        return None
    encoded, out, index = ref[len(PREFIX) :], [], 0
    while index < len(encoded):
        char = encoded[index]
        if char == "%":
            try:
                out.append(chr(int(encoded[index + 1 : index + 3], 16)))
            except ValueError:
                return None
            index += 3
        else:
            out.append(char)
            index += 1
    return "".join(out) or None


@dataclass(frozen=True)
class ClaimInfo:
    """The facts a claim commit carries."""

    intent_id: str
    session_id: str
    client: str | None
    host: str
    claimed_at: float  # seconds since the epoch

    @classmethod
    def now(cls, intent_id: str, session_id: str, client: str | None, when: float) -> ClaimInfo:
        return cls(intent_id, session_id, client, socket.gethostname(), when)

    def message(self, nonce: str) -> str:
        """The commit message: a title line, a blank line, the facts as JSON (the nonce keeps
        every claim commit fresh, even two of one session in one second)."""
        body = dict(asdict(self), nonce=nonce)
        return f"{TITLE} {self.intent_id}\n\n{json.dumps(body, sort_keys=True)}\n"

    @classmethod
    def parse(cls, message: str) -> ClaimInfo | None:
        _, _, body = message.partition("\n\n")
        try:
            data = json.loads(body)
            return cls(
                str(data["intent_id"]),
                str(data["session_id"]),
                data["client"] if isinstance(data.get("client"), str) else None,
                str(data["host"]),
                float(data["claimed_at"]),
            )
        except (ValueError, KeyError, TypeError):
            return None

    def since(self) -> str:
        """The claim's time as a person reads it (UTC)."""
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.claimed_at))

    def is_stale(self, now: float, ttl: float) -> bool:
        return now - self.claimed_at > ttl
