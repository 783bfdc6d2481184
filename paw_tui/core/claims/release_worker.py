"""``python -m paw_tui.core.claims.release_worker ROOT REMOTE INTENT COMMIT``: drop one claim,
with a lease on its commit, in a process of its own (started detached by the gate, which
never waits on the network for a release). It tries a few times over about a minute; what it
cannot drop goes stale and a person takes it over."""

from __future__ import annotations

import sys
import time

ATTEMPTS = 4


def main(argv: list[str]) -> int:
    from paw_tui.core.claims.remote import ClaimError, drop_claim

    root, remote, intent_id, commit = argv
    for attempt in range(ATTEMPTS):
        try:
            drop_claim(root, remote, intent_id, commit)
            return 0
        except ClaimError:
            if attempt + 1 < ATTEMPTS:
                time.sleep(2.0 * 3**attempt)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
