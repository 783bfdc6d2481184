"""Pushing intent claims by hand: an agent changing another machine's claim on the remote.

With ``claims: {remote: origin}`` each selection is a ref ``refs/paw/claims/<id>`` on the
git remote (DESIGN §12). Deleting or overwriting one is ``paw-tui claims release`` done by
hand, a person's act: a shell call whose ``git push`` may change a ref under ``refs/paw/``
is denied at PreToolUse, under any intent, however the refspec is spelled. Pushing branches
and tags stays allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import HUMAN_ACT, assert_allowed, assert_denied, bash_call, gate, selected

PUSHES_TO_CLAIMS: dict[str, str] = {
    "a deletion": "git push origin :refs/paw/claims/INT-1",
    "--delete": "git push --delete origin refs/paw/claims/INT-1",
    "-d after the remote": "git push origin -d refs/paw/claims/INT-1",
    "a forced overwrite": "git push origin +HEAD:refs/paw/claims/INT-1",
    "--force-with-lease": "git push --force-with-lease origin HEAD:refs/paw/claims/INT-1",
    "a short name git completes on the remote": "git push origin :paw/claims/INT-1",
    "a local claim ref pushed as itself": (
        "git update-ref refs/paw/claims/INT-1 HEAD && git push -f origin refs/paw/claims/INT-1"
    ),
    "a glob over every ref": "git push --prune origin 'refs/*:refs/*'",
    "a glob over the namespace": "git push origin 'refs/paw/*:refs/paw/*'",
    "--mirror": "git push --mirror origin",
    "a case and slashes a remote may fold": "git push origin :refs//PAW/claims/INT-1",
    "send-pack": "git send-pack origin :refs/paw/claims/INT-1",
    "after git's own options": "git -C src push origin :refs/paw/claims/INT-1",
    "a non-! alias": "git -c alias.p=push p origin :refs/paw/claims/INT-1",
    "a ! alias": "git -c 'alias.p=!git push origin :refs/paw/claims/INT-1' p",
    "remote.NAME.push given with -c": "git -c remote.origin.push=:refs/paw/claims/INT-1 push",
    "remote.NAME.mirror in git's environment": (
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true "
        "git push origin"
    ),
    "through bash -c": "bash -c 'git push origin :refs/paw/claims/INT-1'",
    "through a wrapper": "timeout 10 git push origin :refs/paw/claims/INT-1",
}


@pytest.mark.parametrize("command", list(PUSHES_TO_CLAIMS.values()), ids=list(PUSHES_TO_CLAIMS))
def test_a_push_that_may_change_a_claim_is_denied(wsroot: Path, command: str) -> None:
    """Under ``**``, a push to ``refs/paw/`` is refused as a person's act."""
    selected(wsroot, "INT-006")
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert HUMAN_ACT in reason and "refs/paw/" in reason, reason


BRANCH_PUSHES = [
    "git push",
    "git push origin main",
    "git push -u origin HEAD",
    "git push origin feature/x:refs/heads/feature/x",
    'git push -u origin "$(git branch --show-current)"',
    "git push --tags origin",
    "git push --all origin",
    "git push --force-with-lease origin main",
    "git push origin refs/heads/paw/x",
    "git push origin --delete old-branch",
    "git push origin 'refs/heads/*:refs/heads/*' '^refs/heads/wip'",
]


@pytest.mark.parametrize("command", BRANCH_PUSHES)
def test_pushing_branches_and_tags_stays_allowed(wsroot: Path, command: str) -> None:
    """False positive guard: everyday pushes under ``**``."""
    selected(wsroot, "INT-006")
    assert_allowed(gate(bash_call(wsroot, command)))
