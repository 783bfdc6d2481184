"""Claims on the git remote: take one, read one, list them, drop one (DESIGN §12).

Taking a claim pushes a fresh commit to ``refs/paw/claims/<intent>`` with
``--force-with-lease=<ref>:`` (the ref must not exist): of any number of machines racing, git
lets exactly one push through. A plain push would be unsafe (a claim made on top of the
holder's commit fast-forwards over it). A push that fails for any other reason than the lease
(a reset connection, a timeout) leaves the outcome unknown until the ref is read back: it may
have landed. Dropping a claim deletes the ref with a lease on the exact commit the dropper
believes is there, so it never removes somebody else's newer claim.

A clone or fetch brings no ``refs/paw/*``: the remote is always asked (``git ls-remote``), and
a claim's facts are read from its commit, fetched by name when it is not already here.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from paw_tui.core.claims.claim import PREFIX, ClaimInfo, claim_ref, intent_of
from paw_tui.core.claims.gitrun import TIMEOUT, GitUnavailable, run_git

WON = "won"
LOST = "lost"
UNREACHABLE = "unreachable"

DROPPED = "dropped"
GONE = "gone"  # nothing to drop: the ref was not there
CHANGED = "changed"  # the ref holds another commit now: left alone


class ClaimError(Exception):
    """The remote could not be asked or did not say; the message says why."""


@dataclass(frozen=True)
class RemoteClaim:
    """A claim as the remote shows it; ``info`` is None when its commit cannot be read."""

    intent_id: str
    ref: str
    commit: str
    info: ClaimInfo | None


@dataclass(frozen=True)
class ClaimAttempt:
    """The outcome of :func:`take_claim`: WON (``commit`` is ours), LOST (``holder`` has it)
    or UNREACHABLE (``reason`` says why nothing could be known)."""

    outcome: str
    commit: str | None = None  # WON: ours; UNREACHABLE: ours if it may have landed
    holder: RemoteClaim | None = None
    reason: str | None = None


SELECTION_SECONDS = 5.0
"""How long claiming may take in all (a selection's only network wait): under the resident
hook's 8 s and the clients' 10 s hook timeouts, so a slow remote refuses the selection rather
than letting the client time the hook out."""


class Deadline:
    """What is left of a time budget, handed to each git call in turn."""

    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds

    def left(self) -> float:
        return self.until - time.monotonic()


def _git(root: str, *args: str, deadline: Deadline | None = None) -> tuple[int, str, str]:
    timeout = TIMEOUT
    if deadline is not None:
        timeout = min(TIMEOUT, deadline.left())
        if timeout <= 0.05:
            raise ClaimError(f"the remote did not answer within {SELECTION_SECONDS:g} s")
    try:
        done = run_git(root, *args, timeout=timeout)
    except GitUnavailable as error:
        raise ClaimError(str(error)) from error
    return done.code, done.out, done.said()


EMPTY_TREE_SHA1 = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""The empty tree of a SHA-1 repository: git knows it without it being stored, so a claim
commit costs one git process there (a SHA-256 repository asks ``git mktree`` for its own)."""


def _push_leased(
    root: str,
    remote: str,
    ref: str,
    *,
    expect: str,
    commit: str | None,
    deadline: Deadline | None = None,
) -> tuple[int, str]:
    """Push ``commit`` to ``ref`` (None: delete it) only if the remote's ``ref`` is ``expect``
    (empty: does not exist), never running the person's push hooks; git's code and words."""
    source = f"{commit}:{ref}" if commit else f":{ref}"
    code, _, said = _git(
        root,
        "push",
        "--porcelain",
        "--no-verify",
        f"--force-with-lease={ref}:{expect}",
        remote,
        source,
        deadline=deadline,
    )
    return code, said


def new_claim_commit(root: str, info: ClaimInfo, deadline: Deadline | None = None) -> str:
    """A fresh commit (empty tree, paw-tui's identity) carrying ``info``."""
    message = info.message(secrets.token_hex(8))
    tree = EMPTY_TREE_SHA1
    code, commit, said = _git(root, "commit-tree", tree, "-m", message, deadline=deadline)
    if code == 0:
        return commit.strip()
    code, tree, said = _git(root, "mktree", deadline=deadline)
    if code == 0:
        code, commit, said = _git(
            root, "commit-tree", tree.strip(), "-m", message, deadline=deadline
        )
    if code != 0:
        raise ClaimError(f"cannot write a claim commit in {root} ({said})")
    return commit.strip()


def remote_commit(root: str, remote: str, ref: str, deadline: Deadline | None = None) -> str | None:
    """The commit ``ref`` holds on the remote, None when it does not exist there."""
    code, out, said = _git(root, "ls-remote", "--", remote, ref, deadline=deadline)
    if code != 0:
        raise ClaimError(f"the remote '{remote}' cannot be reached ({said})")
    for line in out.splitlines():
        commit, _, name = line.partition("\t")
        if name.strip() == ref:
            return commit.strip()
    return None


def read_info(
    root: str, remote: str, ref: str, commit: str, deadline: Deadline | None = None
) -> ClaimInfo | None:
    """The facts of a claim commit, fetched by its ref when it is not here yet."""
    code, _, _ = _git(root, "cat-file", "-e", f"{commit}^{{commit}}", deadline=deadline)
    if code != 0:
        _git(
            root,
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            remote,
            ref,
            deadline=deadline,
        )
    code, message, _ = _git(root, "log", "-1", "--format=%B", commit, deadline=deadline)
    return ClaimInfo.parse(message) if code == 0 else None


def read_claim(root: str, remote: str, intent_id: str) -> RemoteClaim | None:
    ref = claim_ref(intent_id)
    commit = remote_commit(root, remote, ref)
    if commit is None:
        return None
    return RemoteClaim(intent_id, ref, commit, read_info(root, remote, ref, commit))


def take_claim(root: str, remote: str, info: ClaimInfo) -> ClaimAttempt:
    """Claim ``info.intent_id`` for ``info.session_id``; exactly one racer wins. All of it
    within :data:`SELECTION_SECONDS`: a remote slower than that is unreachable here."""
    ref = claim_ref(info.intent_id)
    deadline = Deadline(SELECTION_SECONDS)
    commit = None
    try:
        commit = new_claim_commit(root, info, deadline)
        code, said = _push_leased(root, remote, ref, expect="", commit=commit, deadline=deadline)
        if code == 0:
            return ClaimAttempt(WON, commit)
        # the lease refused us (someone holds it) or the transport failed: either way only
        # the remote knows now, so ask it
        there = remote_commit(root, remote, ref, deadline)
    except ClaimError as error:
        # ``commit`` may have landed (a push cut off by its deadline): the caller gives it
        # back, with a lease on it, so it never stays as a claim nobody holds
        return ClaimAttempt(UNREACHABLE, commit=commit, reason=str(error))
    if there == commit:
        return ClaimAttempt(WON, commit)  # the push landed although git did not say so
    if there is None:
        return ClaimAttempt(UNREACHABLE, reason=f"the push to '{remote}' failed ({said})")
    try:
        holder_info = read_info(root, remote, ref, there, deadline)
    except ClaimError:
        holder_info = None
    holder = RemoteClaim(info.intent_id, ref, there, holder_info)
    if holder_info is not None and (holder_info.session_id, holder_info.host) == (
        info.session_id,
        info.host,
    ):
        return ClaimAttempt(WON, there)  # this very session claimed it before
    return ClaimAttempt(LOST, holder=holder)


def drop_claim(root: str, remote: str, intent_id: str, commit: str) -> str:
    """Delete the claim if it still holds ``commit``: DROPPED, GONE or CHANGED."""
    ref = claim_ref(intent_id)
    code, said = _push_leased(root, remote, ref, expect=commit, commit=None)
    if code == 0:
        return DROPPED
    there = remote_commit(root, remote, ref)
    if there is None:
        return GONE
    if there != commit:
        return CHANGED
    raise ClaimError(f"the claim on '{remote}' could not be deleted ({said})")


def list_claims(root: str, remote: str) -> list[RemoteClaim]:
    """Every claim on the remote, with its facts where its commit can be read."""
    code, out, said = _git(root, "ls-remote", "--", remote, PREFIX + "*")
    if code != 0:
        raise ClaimError(f"the remote '{remote}' cannot be reached ({said})")
    found: list[tuple[str, str, str]] = []
    for line in out.splitlines():
        commit, _, ref = line.partition("\t")
        intent_id = intent_of(ref.strip())
        if intent_id is not None:
            found.append((intent_id, ref.strip(), commit.strip()))
    missing = [ref for _, ref, commit in found if _git(root, "cat-file", "-e", commit)[0] != 0]
    if missing:  # one fetch for all of them
        _git(root, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote, *missing)
    claims = []
    for intent_id, ref, commit in sorted(found):
        code, message, _ = _git(root, "log", "-1", "--format=%B", commit)
        claims.append(
            RemoteClaim(intent_id, ref, commit, ClaimInfo.parse(message) if code == 0 else None)
        )
    return claims


def probe_namespace(root: str, remote: str, host: str) -> None:
    """Push and delete a probe ref under ``refs/paw/``; ClaimError saying why it failed."""
    ref = f"refs/paw/doctor/{secrets.token_hex(6)}"
    commit = new_claim_commit(root, ClaimInfo("doctor", "doctor", None, host, 0.0))
    code, said = _push_leased(root, remote, ref, expect="", commit=commit)
    if code != 0:
        raise ClaimError(f"the remote '{remote}' refused a ref under refs/paw/ ({said})")
    code, said = _push_leased(root, remote, ref, expect=commit, commit=None)
    if code != 0:
        raise ClaimError(f"the remote '{remote}' kept the probe ref {ref} ({said})")
