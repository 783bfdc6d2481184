"""A policy typo never weakens the policy (DESIGN §4, issue 17).

``aproval: required`` used to be a warning on stderr: approval was silently off and an
unapproved session wrote. An unknown key, or a bad value, now makes the orchestration state
unavailable: every mutating tool is denied, naming the line and what was meant, until a
person fixes the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import assert_allowed, assert_denied, gate, select_payload, write_payload

G = ".orchestration/governance.yaml"
UNAVAILABLE = "Orchestration state unavailable: "


def _policy(root: Path, text: str) -> None:
    (root / ".orchestration" / "governance.yaml").write_text(text, encoding="utf-8")


def test_a_misspelt_approval_does_not_let_an_unapproved_session_write(wsroot: Path) -> None:
    _policy(wsroot, "# a human approves every selection\naproval: required\n")
    selection = assert_denied(gate(select_payload(wsroot, "INT-007")))
    assert selection.startswith(f"{UNAVAILABLE}{G}:2: unknown key 'aproval'")
    assert "(did you mean 'approval'?)" in selection
    write = assert_denied(gate(write_payload(wsroot, "src/a.py")))
    assert write == selection
    assert (wsroot / "src" / "a.py").read_text() == "print('a')\n"


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("protect:\n  - 'secrets/**'\n", "protected"),
        ("Approval: required\n", "approval"),
        ("approval: Required\n", "required"),
        ("claim:\n  remote: origin\n", "claims"),
    ],
)
def test_a_misspelt_protection_denies_instead_of_dropping_it(
    wsroot: Path, text: str, meant: str
) -> None:
    """A protected path misspelt, or approval in the wrong case: the policy is unavailable,
    never the weaker default."""
    _policy(wsroot, "intent_sharing: deny\n")
    assert_allowed(gate(select_payload(wsroot, "INT-006")))
    _policy(wsroot, text)
    reason = assert_denied(gate(write_payload(wsroot, "secrets/key.pem")))
    assert reason.startswith(f"{UNAVAILABLE}{G}:1: ") and f"'{meant}'" in reason


def test_the_fixed_policy_is_the_one_enforced(wsroot: Path) -> None:
    _policy(wsroot, "protect: ['secrets/**']\n")
    assert_denied(gate(select_payload(wsroot, "INT-006")))
    _policy(wsroot, "protected: ['secrets/**']\n")
    assert_allowed(gate(select_payload(wsroot, "INT-006")))
    reason = assert_denied(gate(write_payload(wsroot, "secrets/key.pem")))
    assert reason == "secrets/key.pem is protected: agents never write it."
