"""Every agent client paw-tui sets up: its name, its set-up module, how it is tested.

The gate's adapters (``paw_tui.gate.clients``) and the set-up modules
(``paw_tui.core.clients.<module>``) are found from here; the README's client table says the
same.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.clients.plan import SetupPlan

REAL_BINARY = "real binary"
DOCUMENTED = "documented payloads"


class ClientInfo:
    """``name`` as the CLI spells it; ``title`` as people do; ``module`` the set-up module under
    ``paw_tui.core.clients``; ``tested`` against the real binary or documented payloads;
    ``doctor_module`` the module whose ``doctor(root)`` gives the client's ``doctor`` rows (the
    set-up module unless the checks have a module of their own)."""

    __slots__ = ("name", "title", "module", "tested", "doctor_module")

    def __init__(
        self, name: str, title: str, module: str, tested: str, doctor_module: str | None = None
    ) -> None:
        self.name = name
        self.title = title
        self.module = module
        self.tested = tested
        self.doctor_module = doctor_module or module

    def plan(self, root: str) -> SetupPlan:
        """What ``paw-tui install <name>`` would do in ``root``."""
        module = __import__(f"paw_tui.core.clients.{self.module}", fromlist=["plan"])
        plan: SetupPlan = module.plan(root)
        return plan

    def doctor(self, root: str) -> list[tuple[str, str, str]]:
        """The client's ``doctor`` rows for ``root`` (none when it has no checks)."""
        module = __import__(f"paw_tui.core.clients.{self.doctor_module}", fromlist=["doctor"])
        check = getattr(module, "doctor", None)
        return list(check(root)) if check is not None else []


CLIENTS: dict[str, ClientInfo] = {
    info.name: info
    for info in (
        ClientInfo("claude-code", "Claude Code", "claude_code", REAL_BINARY, "claude_doctor"),
        ClientInfo("gemini-cli", "Gemini CLI", "gemini_cli", REAL_BINARY, "gemini_doctor"),
        ClientInfo("codex", "Codex CLI", "codex", REAL_BINARY),
        ClientInfo("cursor", "Cursor", "cursor", DOCUMENTED),
        ClientInfo("copilot", "GitHub Copilot (CLI and cloud agent)", "copilot", REAL_BINARY),
        ClientInfo("vscode", "VS Code agent mode", "vscode", DOCUMENTED),
        ClientInfo("cline", "Cline", "cline", REAL_BINARY),
        ClientInfo("opencode", "opencode", "opencode", REAL_BINARY),
        ClientInfo("qwen-code", "Qwen Code", "qwen_code", REAL_BINARY),
        ClientInfo("windsurf", "Windsurf", "windsurf", DOCUMENTED),
        ClientInfo("kiro", "Kiro", "kiro", DOCUMENTED),
    )
}


def client(name: str) -> ClientInfo:
    """The client called ``name``; ValidationError naming the known ones."""
    from paw_tui.core.errors import ValidationError

    found = CLIENTS.get(name)
    if found is None:
        raise ValidationError(f"Unknown client '{name}'. Known clients: {', '.join(CLIENTS)}.")
    return found
