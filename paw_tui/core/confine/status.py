"""Which protection holds a workspace's shell commands: the kernel boundary, or the gate and
drift detection alone (said by ``doctor``, the TUI header and the ledger's shell records)."""

from __future__ import annotations

import os

from paw_tui.core.confine import boundary
from paw_tui.core.support import fastjson as json  # json without re: this runs in the hook
from paw_tui.core.support.regular_file import read_regular, read_regular_text

KERNEL = "kernel boundary"
HEURISTIC = "gate + drift detection"
CLAUDE_SETTINGS = (".claude/settings.local.json", ".claude/settings.json")


class Protection:
    """``kind`` is :data:`KERNEL` or :data:`HEURISTIC`; ``detail`` says why, in one line."""

    __slots__ = ("kind", "detail")

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail

    @property
    def kernel(self) -> bool:
        return self.kind == KERNEL

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "kernel": self.kernel, "detail": self.detail}


def configured_bash_env(root: str) -> str | None:
    """The ``BASH_ENV`` a client's workspace settings give its shell tool, if any: Claude
    Code's settings ``env``, or Gemini CLI's ``.gemini/.env``."""
    for relative in CLAUDE_SETTINGS:
        try:
            data = json.loads(read_regular(os.path.join(root, relative)))
        except (OSError, ValueError):
            continue
        env = data.get("env") if isinstance(data, dict) else None
        value = env.get("BASH_ENV") if isinstance(env, dict) else None
        if isinstance(value, str) and value:
            return value
    return _dotenv_value(os.path.join(root, ".gemini", ".env"), "BASH_ENV")


def _dotenv_value(path: str, name: str) -> str | None:
    """``name``'s value in a dotenv file (``NAME=value``, optionally ``export``ed, quoted)."""
    try:
        for line in read_regular_text(path).splitlines():
            key, equals, value = line.strip().removeprefix("export ").partition("=")
            value = value.strip().strip("'\"")
            if equals and key.strip() == name and value:
                return value
    except (OSError, UnicodeDecodeError):
        pass
    return None


def protection(root: str) -> Protection:
    """What holds a shell call here: Landlock available and the client's shell wired to this
    workspace's BASH_ENV file (``paw-tui install``), or the heuristic layers alone."""
    from paw_tui.core.confine.landlock import abi_version

    abi = abi_version()
    if abi <= 0:
        return Protection(HEURISTIC, "this kernel offers no Landlock: shell writes are checked "
                          "by the gate and drift detection only")  # fmt: skip
    wanted = boundary.bash_env_path(root)
    configured = configured_bash_env(root)
    if configured is None:
        return Protection(
            HEURISTIC,
            f"Landlock ABI {abi} is available but the client's shell is not wired to it: "
            "run 'paw-tui install <client>'",
        )
    if os.path.abspath(configured) != os.path.abspath(wanted):
        return Protection(
            HEURISTIC,
            f"BASH_ENV is {configured}, not this workspace's {wanted}: run 'paw-tui install'",
        )
    if not os.path.isfile(wanted):
        return Protection(HEURISTIC, f"{wanted} is missing: run 'paw-tui install <client>'")
    return Protection(KERNEL, f"Landlock ABI {abi}: every shell call runs confined to its intent")
