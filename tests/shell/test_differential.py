"""Differential property: every file real bash creates, modifies or deletes is covered by a
target the parser reported, for commands generated from the grammar it claims
(:mod:`tests.shell.grammar`); the parser reports a syntax error exactly when bash does; and
nothing that bash treats as data (quoted text, comments, here-document bodies) is reported."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from .grammar import script
from .sandbox import BASH, Sandbox, bash_rejected, uncovered

pytestmark = pytest.mark.skipif(not BASH, reason="needs bash")


@pytest.fixture(scope="module")
def box() -> Sandbox:  # type: ignore[misc]
    sandbox = Sandbox()
    yield sandbox
    sandbox.close()


STATS = {"examples": 0, "writing": 0, "targets": 0}


def check(box: Sandbox, command: str) -> None:
    box.reset()
    analysis = box.analyse(command)
    code, stderr, changed = box.changes(command)
    if bash_rejected(code, stderr):
        assert analysis.error is not None, f"bash refused it: {stderr}"
        return
    assert analysis.error is None, f"bash ran it ({stderr!r}) but: {analysis.error}"
    assert not any("poison" in path for path in changed), f"generator bug: {changed}"
    assert not any("poison" in target.path for target in analysis.targets), analysis.targets
    missing = uncovered(analysis, changed)
    assert not missing, f"{missing}\nreported: {analysis.targets}"
    STATS["examples"] += 1
    STATS["writing"] += bool(changed)
    STATS["targets"] += len(analysis.targets)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(command=script())
def test_bash_writes_are_reported(box: Sandbox, command: str) -> None:
    check(box, command)


def test_the_examples_were_not_trivial() -> None:
    """Most generated commands made bash write something (run after the property test)."""
    if not STATS["examples"]:
        pytest.skip("the property test did not run")
    print(STATS)
    assert STATS["writing"] >= STATS["examples"] * 0.6, STATS
