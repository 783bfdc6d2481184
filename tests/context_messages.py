"""The exact validation messages of DESIGN §3, shared by the library and CLI tests."""

from __future__ import annotations

AGENT = "PAW-02B Impl Planner"  # the same default as conftest.Workspace.context
MSG_EMPTY_SLUG = "Invalid feature_slug: value must be a non-empty string."
MSG_EMPTY_AGENT = "Invalid agent_name: value must be a non-empty string."
MSG_NO_WORKSPACE = "Unable to determine workspace path: no workspace folder is currently open."


def msg_bad_slug(slug: str) -> str:
    return (
        f"Invalid Work ID format: '{slug}'. Work IDs must contain only lowercase letters, "
        "numbers, and hyphens."
    )


def msg_bad_agent(name: str) -> str:
    return f"Invalid agent_name: '{name}' must not contain path separators or control characters."
