"""Shared fixtures: settings for tests, and an app client."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _test_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACME_LEGACY_AUTH", "true")
    monkeypatch.setenv("ACME_LOG_LEVEL", "DEBUG")
