"""Run one non-interactive session of a real client against its scripted mock.

    result = run_session("claude-code@2.1.330", workspace, "do it",
                         [tool("Write", file_path=str(workspace / "a.txt"), content="x\\n"),
                          Text("done")])
    assert result.ok, result.describe()
    result.first_request().tool_names()     # what the model was offered
    result.scripted[1].tool_results()       # what the Write returned

The session gets a fresh ``home`` (given, or a temporary folder) with the client's user config
written for offline use (see :mod:`tests.realclients.clients`), the mock's URL in its
environment, and nothing of the caller's environment beyond PATH/LANG. For Codex, hooks found in
the workspace are trusted through ``codex app-server`` first (``trust_hooks``). The process runs
in its own process group and is killed with it after ``timeout`` seconds.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .clients import DRIVERS, CodexDriver, Driver
from .codex_trust import trust_codex_hooks
from .egress import destinations, traced
from .install import CLIENTS, ClientSpec, ensure_client
from .mockbase import MockServer
from .procs import run_process
from .script import ModelRequest, ScriptSpec

DEFAULT_TIMEOUT = 90.0


@dataclass
class SessionResult:
    client: str
    argv: list[str]
    exit_code: int | None
    timed_out: bool
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    requests: list[ModelRequest]
    duration: float
    workspace: Path
    home: Path
    env: dict[str, str] = field(repr=False, default_factory=dict)
    mock_url: str = ""
    mock_errors: list[str] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)  # e.g. the Codex hooks trusted
    network: set[tuple[str, str, str]] | None = None  # with trace_network: (family, addr, port)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.mock_errors

    @property
    def scripted(self) -> list[ModelRequest]:
        """Agent-loop requests in order: ``scripted[n]`` was answered with script step ``n``."""
        return [r for r in self.requests if r.scripted]

    def first_request(self) -> ModelRequest:
        if not self.scripted:
            raise AssertionError(f"no agent-loop request was recorded\n{self.describe()}")
        return self.scripted[0]

    def request_for_step(self, step: int) -> ModelRequest:
        """The request answered with script step ``step`` (it carries step ``step-1``'s results)."""
        for request in self.requests:
            if request.scripted and request.turn_index == step:
                return request
        raise AssertionError(f"no request was answered with step {step}\n{self.describe()}")

    def session_id(self) -> str | None:
        """The client's session id, from its JSON output."""
        for event in self.events:
            for key in ("session_id", "thread_id", "sessionID", "sessionId", "taskId"):
                if isinstance(event.get(key), str):
                    return str(event[key])
        return None

    def events_of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == kind]

    def describe(self) -> str:
        """A summary for assertion messages."""
        lines = [
            f"{self.client}: exit={self.exit_code} timed_out={self.timed_out} "
            f"duration={self.duration:.1f}s",
            f"argv: {self.argv}",
        ]
        for request in self.requests:
            lines.append(
                f"  #{request.index} {request.method} {request.path} -> {request.status}"
                f" scripted={request.scripted} step={request.turn_index} reply={request.reply!r}"[
                    :300
                ]
            )
        if self.mock_errors:
            lines.append(f"mock errors: {self.mock_errors}")
        lines.append("stderr (tail):\n" + self.stderr[-2500:])
        lines.append("stdout (tail):\n" + self.stdout[-2500:])
        return "\n".join(lines)


def parse_jsonl(text: str) -> list[dict[str, Any]]:
    events = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            events.append(value)
    return events


def driver_for(client: str | ClientSpec, driver: Driver | None = None) -> tuple[ClientSpec, Driver]:
    spec = CLIENTS[client] if isinstance(client, str) else client
    chosen = driver if driver is not None else DRIVERS[spec.kind]()
    if chosen.kind != spec.kind:
        raise ValueError(f"driver {chosen.kind!r} cannot run {spec.key}")
    return spec, chosen


def run_session(
    client: str | ClientSpec,
    workspace: Path,
    prompt: str,
    script: ScriptSpec,
    *,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
    driver: Driver | None = None,
    trust: bool = True,
    trust_hooks: bool = True,
    mock: MockServer | None = None,
    trace_network: bool = False,
) -> SessionResult:
    """Run ``client`` once in ``workspace`` with ``prompt``; the model answers from ``script``.

    ``home`` defaults to a new temporary folder; ``env`` is added last (it can override the
    mock's variables); ``args`` are appended to the command line; ``driver`` replaces the
    default settings of the client kind (e.g. ``ClaudeDriver(permission_mode="default")``);
    ``trust`` marks the workspace trusted in the user config; ``trust_hooks`` (Codex) trusts
    the workspace's hooks by hash; ``mock`` lets a test pass its own (unstarted) mock;
    ``trace_network`` runs the client under strace and fills ``result.network``.
    """
    spec, chosen = driver_for(client, driver)
    binary = ensure_client(spec.key)
    workspace = Path(workspace).resolve()
    workspace.mkdir(parents=True, exist_ok=True)
    home = Path(home).resolve() if home is not None else Path(tempfile.mkdtemp(prefix="paw-home-"))
    home.mkdir(parents=True, exist_ok=True)
    # The mock gives up following the script a little before the process is killed, so a
    # looping client still ends by itself and its output is complete.
    deadline = max(5.0, timeout - 10.0)
    server = mock if mock is not None else chosen.mock_class(script, deadline=deadline)
    setup: dict[str, Any] = {}
    with server:
        url = server.url
        chosen.setup(home, workspace, url, trust)
        run_env = chosen.env(home, workspace, url)
        run_env.update(env or {})
        if isinstance(chosen, CodexDriver) and trust_hooks and _has_codex_hooks(workspace):
            setup["codex_hooks"] = trust_codex_hooks(
                chosen.codex_home(home), workspace, binary=binary, env=run_env
            )
        argv = chosen.argv(binary, prompt, list(args))
        strace_log = home / "strace.log"
        command = traced(argv, strace_log) if trace_network else argv
        code, timed_out, out, err, seconds = run_process(command, workspace, run_env, timeout)
    return SessionResult(
        client=spec.key,
        argv=argv,
        exit_code=code,
        timed_out=timed_out,
        stdout=out,
        stderr=err,
        events=parse_jsonl(out),
        requests=list(server.requests),
        duration=seconds,
        workspace=workspace,
        home=home,
        env=run_env,
        mock_url=url,
        mock_errors=list(server.errors),
        setup=setup,
        network=destinations(strace_log) if trace_network else None,
    )


def _has_codex_hooks(workspace: Path) -> bool:
    codex = workspace / ".codex"
    if (codex / "hooks.json").exists():
        return True
    config = codex / "config.toml"
    return config.exists() and "[hooks" in config.read_text(encoding="utf-8")
