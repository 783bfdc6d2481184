"""How to run each client offline: its user config, environment and command line.

A :class:`Driver` knows one client kind. ``setup`` writes the user-level config into the fresh
``home`` (never the workspace: project files are the test's business), ``env`` returns the
variables that point the client at the mock and switch off its network extras, and ``argv``
builds the non-interactive command. :data:`DRIVERS` maps a kind to its driver.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from .mock_claude import ClaudeMock
from .mock_codex import CodexMock
from .mock_gemini import GeminiMock
from .mock_openai import MODEL as OPENAI_MODEL
from .mock_openai import OpenAIMock
from .mockbase import MockServer

BASE_ENV_KEYS = ("PATH", "LANG", "LC_ALL", "TZ")


def base_env(home: Path) -> dict[str, str]:
    """A minimal environment: nothing of the caller's agent, proxy or credential variables."""
    env = {key: os.environ[key] for key in BASE_ENV_KEYS if key in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("LANG", "C.UTF-8")
    env.update(
        {
            "HOME": str(home),
            "USER": os.environ.get("USER", "root"),
            "SHELL": "/bin/bash",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "TMPDIR": str(home / "tmp"),
        }
    )
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    return env


@dataclass
class Driver:
    kind: ClassVar[str] = ""
    mock_class: ClassVar[type[MockServer]] = MockServer

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        raise NotImplementedError

    def env(self, home: Path, workspace: Path, mock_url: str) -> dict[str, str]:
        """:func:`base_env` with the client's own variables."""
        return {**base_env(home), **self.client_env(home, mock_url)}

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        raise NotImplementedError

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        raise NotImplementedError


def write_json(path: Path, data: object) -> None:
    """A user config file the client reads, its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


@dataclass
class ClaudeDriver(Driver):
    """``claude -p`` with stream-json output, ``acceptEdits`` and an allow list for the rest."""

    kind: ClassVar[str] = "claude"
    mock_class: ClassVar[type[MockServer]] = ClaudeMock
    permission_mode: str = "acceptEdits"
    allowed_tools: tuple[str, ...] = ("Bash", "mcp__probe")

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        state: dict[str, object] = {
            "hasCompletedOnboarding": True,
            "numStartups": 1,
            "autoUpdates": False,
            "bypassPermissionsModeAccepted": True,
            # the key the "custom API key" question records (last 20 characters of the key)
            "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
        }
        if trust:
            state["projects"] = {
                str(workspace): {
                    "hasTrustDialogAccepted": True,
                    "hasCompletedProjectOnboarding": True,
                }
            }
        write_json(home / ".claude.json", state)
        (home / ".claude").mkdir(exist_ok=True)

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "ANTHROPIC_BASE_URL": mock_url,
            "ANTHROPIC_API_KEY": "dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
            "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        argv = [
            str(binary),
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--permission-mode",
            self.permission_mode,
        ]
        if self.allowed_tools:
            argv += ["--allowedTools", ",".join(self.allowed_tools)]
        return argv + extra_args


@dataclass
class GeminiDriver(Driver):
    """``gemini -p`` with stream-json output and ``--approval-mode yolo``."""

    kind: ClassVar[str] = "gemini"
    mock_class: ClassVar[type[MockServer]] = GeminiMock
    approval_mode: str = "yolo"

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            # current names: the old disableAutoUpdate / disableUpdateNag get migrated (rewritten)
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False, "logPrompts": False},
            "ui": {"hideTips": True, "hideBanner": True},
        }
        write_json(home / ".gemini" / "settings.json", settings)
        if trust:
            write_json(home / ".gemini" / "trustedFolders.json", {str(workspace): "TRUST_FOLDER"})

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "GOOGLE_GEMINI_BASE_URL": mock_url,
            "GEMINI_API_KEY": "dummy",
            "GEMINI_CLI_NO_RELAUNCH": "true",
            "GEMINI_TELEMETRY_ENABLED": "false",
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [
            str(binary),
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--approval-mode",
            self.approval_mode,
            *extra_args,
        ]


@dataclass
class CodexDriver(Driver):
    """``codex exec --json`` against ``[model_providers.mock]``; ``workspace-write`` sandbox."""

    kind: ClassVar[str] = "codex"
    mock_class: ClassVar[type[MockServer]] = CodexMock
    sandbox_mode: str = "workspace-write"
    approval_policy: str = "never"
    model: str = "gpt-5.5"
    extra_toml: str = ""
    features: dict[str, bool] = field(default_factory=lambda: {"plugins": False})

    def codex_home(self, home: Path) -> Path:
        return home / ".codex"

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        codex_home = self.codex_home(home)
        codex_home.mkdir(parents=True, exist_ok=True)
        features = "\n".join(f"{k} = {str(v).lower()}" for k, v in self.features.items())
        lines = [
            f"model = {json.dumps(self.model)}",
            'model_provider = "mock"',
            f"approval_policy = {json.dumps(self.approval_policy)}",
            f"sandbox_mode = {json.dumps(self.sandbox_mode)}",
            "check_for_update_on_startup = false",
            "",
            "[model_providers.mock]",
            'name = "mock"',
            f"base_url = {json.dumps(mock_url + '/v1')}",
            'wire_api = "responses"',
            'env_key = "MOCK_API_KEY"',
            "request_max_retries = 0",
            "stream_max_retries = 0",
            "stream_idle_timeout_ms = 30000",
            "",
            "[features]",
            features,
            "",
            "[analytics]",
            "enabled = false",
            "",
        ]
        if trust:
            lines += [f"[projects.{json.dumps(str(workspace))}]", 'trust_level = "trusted"', ""]
        if self.extra_toml:
            lines.append(self.extra_toml)
        (codex_home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {"CODEX_HOME": str(self.codex_home(home)), "MOCK_API_KEY": "dummy"}

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [str(binary), "exec", "--json", "--skip-git-repo-check", *extra_args, prompt]


REFUSING_PROXY = "http://127.0.0.1:9"
"""A proxy on a closed loopback port: whatever a client tries to fetch from the internet
(update checks, telemetry, npm packages) fails at once, on this machine."""


def refusing_proxy_env() -> dict[str, str]:
    return {
        name: REFUSING_PROXY
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY")
    } | {"npm_config_registry": REFUSING_PROXY + "/", "npm_config_offline": "true"}


def shared_cache(name: str) -> Path:
    """A cache folder shared by every session of one client (Copilot extracts ~235 MB of its
    package there on first start)."""
    from .install import cache_root

    path = cache_root() / f".{name}-cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class CopilotDriver(Driver):
    """``copilot -p`` in BYOK mode (``COPILOT_OFFLINE=true``): no GitHub sign-in, no telemetry."""

    kind: ClassVar[str] = "copilot"
    mock_class: ClassVar[type[MockServer]] = OpenAIMock
    model: str = "gpt-4.1"

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        (home / ".copilot").mkdir(parents=True, exist_ok=True)
        if trust:
            write_json(home / ".copilot" / "config.json", {"trustedFolders": [str(workspace)]})
        # untrusted: whatever is there stays (a test's 'paw-tui install copilot' wrote it)

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "COPILOT_PROVIDER_BASE_URL": mock_url + "/v1",
            "COPILOT_PROVIDER_API_KEY": "dummy",
            "COPILOT_MODEL": self.model,
            "COPILOT_OFFLINE": "true",
            "XDG_CACHE_HOME": str(shared_cache("copilot")),
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [
            str(binary),
            "-p",
            prompt,
            "--allow-all-tools",
            "--output-format",
            "json",
            "--no-auto-update",
            *extra_args,
        ]


@dataclass
class ClineDriver(Driver):
    """``cline --json`` against an ``openai-compatible`` provider (the ``providers.json`` that
    ``cline auth`` would write), with the local session backend (no hub daemon outliving the
    run)."""

    kind: ClassVar[str] = "cline"
    mock_class: ClassVar[type[MockServer]] = OpenAIMock
    model: str = OPENAI_MODEL

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        """What ``cline auth -p openai-compatible -k dummy -m MODEL -b URL`` writes (11 s of
        start-up spared per session)."""
        provider = {
            "provider": "openai-compatible",
            "apiKey": "dummy",
            "model": self.model,
            "baseUrl": mock_url + "/v1",
        }
        data = {
            "version": 1,
            "lastUsedProvider": "openai-compatible",
            "modes": {},
            "providers": {
                "openai-compatible": {
                    "settings": provider,
                    "updatedAt": "2026-11-27T00:00:00.000Z",
                    "tokenSource": "manual",
                }
            },
        }
        write_json(home / ".cline" / "data" / "settings" / "providers.json", data)

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "CLINE_SESSION_BACKEND_MODE": "local",
            "CLINE_NO_AUTO_UPDATE": "1",
            **refusing_proxy_env(),
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [str(binary), "--json", *extra_args, prompt]


@dataclass
class OpencodeDriver(Driver):
    """``opencode run --format json`` with a ``mock`` provider in the user's opencode.json."""

    kind: ClassVar[str] = "opencode"
    mock_class: ClassVar[type[MockServer]] = OpenAIMock
    model: str = OPENAI_MODEL

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        data = {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "provider": {
                "mock": {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "mock",
                    "options": {"baseURL": mock_url + "/v1", "apiKey": "dummy"},
                    "models": {self.model: {"name": self.model, "tool_call": True}},
                }
            },
            "model": f"mock/{self.model}",
        }
        write_json(home / ".config" / "opencode" / "opencode.json", data)

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_SHARE": "1",
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            **refusing_proxy_env(),
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [str(binary), "run", "--format", "json", *extra_args, prompt]


@dataclass
class QwenDriver(Driver):
    """``qwen --output-format stream-json --approval-mode yolo`` with the OpenAI variables;
    usage statistics, telemetry, auto-update and the background memory agent off."""

    kind: ClassVar[str] = "qwen"
    mock_class: ClassVar[type[MockServer]] = OpenAIMock
    approval_mode: str = "yolo"
    model: str = OPENAI_MODEL

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        settings = {
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False},
            "memory": {"enableManagedAutoMemory": False},
        }
        write_json(home / ".qwen" / "settings.json", settings)

    def client_env(self, home: Path, mock_url: str) -> dict[str, str]:
        return {
            "OPENAI_BASE_URL": mock_url + "/v1",
            "OPENAI_API_KEY": "dummy",
            "OPENAI_MODEL": self.model,
        }

    def argv(self, binary: Path, prompt: str, extra_args: list[str]) -> list[str]:
        return [
            str(binary),
            "--output-format",
            "stream-json",
            "--approval-mode",
            self.approval_mode,
            *extra_args,
            prompt,
        ]


DRIVERS: dict[str, type[Driver]] = {
    "claude": ClaudeDriver,
    "gemini": GeminiDriver,
    "codex": CodexDriver,
    "copilot": CopilotDriver,
    "cline": ClineDriver,
    "opencode": OpencodeDriver,
    "qwen": QwenDriver,
}
