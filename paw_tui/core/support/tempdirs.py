"""Where temporary files go, found as ``tempfile`` finds it but without importing it
(``tempfile`` pulls in ``random``, ``shutil`` and more: milliseconds on every shell call the
gate checks)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

VARIABLES = ("TMPDIR", "TEMP", "TMP")
"""Consulted in this order, as ``tempfile.gettempdir`` does."""
FIXED = ("/tmp", "/var/tmp", "/usr/tmp")


def temp_directory(environ: Mapping[str, str] | None = None) -> str:
    """The directory programs put temporary files in: the first variable naming a
    directory, else the first fixed one that exists (``/tmp``)."""
    env = os.environ if environ is None else environ
    for name in VARIABLES:
        value = env.get(name)
        if value and os.path.isdir(value):
            return os.path.abspath(value)
    return next((path for path in FIXED if os.path.isdir(path)), FIXED[0])


def temp_directories(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Every directory a program may treat as its temporary one, normalised."""
    env = os.environ if environ is None else environ
    found = {*FIXED, *(env[name] for name in VARIABLES if env.get(name))}
    return tuple(sorted(os.path.normpath(path) for path in found))
