"""What the tests of the exit-code clients (Windsurf, Kiro) and Cline share: the Scope
Violation of INT-001, and the two answers of a client that reads only exit codes."""

from __future__ import annotations

from docpayloads import assert_exit2_deny
from gatekit import INT001_SCOPE, GateResult


def violation(path: str) -> str:
    """INT-001's deny reason for ``path`` (DESIGN §5)."""
    return (
        f"Scope Violation: INT-001 is not authorized to edit {path}. "
        f"Owned scope: {INT001_SCOPE}. Request scope expansion."
    )


def assert_allowed(result: GateResult) -> None:
    """An allow: exit 0 and nothing on stdout."""
    assert (result.code, result.out) == (0, ""), (result.code, result.out, result.err)


def denial(result: GateResult) -> str:
    """A deny: exit 2, the reason on stderr, stdout empty; returns the reason."""
    reason = assert_exit2_deny(result)
    assert result.out == ""
    return reason
