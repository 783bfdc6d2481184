"""What the tests of the exit-code clients (Windsurf, Kiro) and Cline share: the Scope
Violation of INT-001, and the two answers of a client that reads only exit codes."""

from __future__ import annotations

from docpayloads import assert_exit2_deny
from gatekit import INT001_SCOPE, GateResult, scope_violation


def violation(path: str, client: str) -> str:
    """INT-001's deny reason for ``path`` (DESIGN §5) as ``client`` is told it."""
    return scope_violation("INT-001", path, INT001_SCOPE, client)


def assert_allowed(result: GateResult) -> None:
    """An allow: exit 0 and nothing on stdout."""
    assert (result.code, result.out) == (0, ""), (result.code, result.out, result.err)


def denial(result: GateResult) -> str:
    """A deny: exit 2, the reason on stderr, stdout empty; returns the reason."""
    reason = assert_exit2_deny(result)
    assert result.out == ""
    return reason
