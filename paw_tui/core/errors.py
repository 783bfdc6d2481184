"""Exceptions for conditions where the caller must stop.

Expected conditions (a missing instruction file, an unreadable one) are values, not
exceptions: see :class:`paw_tui.core.support.textfile.FileStatus`.
"""

from __future__ import annotations


class PawError(Exception):
    """Base class: a failure the user can act on. ``exit_code`` is what the CLI returns."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ValidationError(PawError):
    """Bad input from the caller (a work id, an agent name, a flag): exit code 2."""

    exit_code = 2


class WorkspaceError(PawError):
    """No workspace could be found, or the named one is unusable: exit code 2."""

    exit_code = 2


class CancelledError(PawError):
    """The caller asked to stop while work was under way."""

    exit_code = 1
