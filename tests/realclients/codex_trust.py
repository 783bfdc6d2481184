"""Trust a workspace's Codex hooks the way Codex itself does, through ``codex app-server``.

Codex runs a non-managed hook only when the user config holds
``[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash = "<sha256:…>"`` for it, and
skips untrusted or modified hooks silently. :func:`trust_codex_hooks` starts
``codex app-server`` (JSON-RPC, one JSON object a line on stdio), calls ``initialize``,
``hooks/list`` for the workspace, then ``config/batchWrite`` (upsert of ``hooks.state``) with
each hook's ``currentHash``, and lists again to check that every hook is now ``trusted``.
The project itself must already be trusted (``[projects."<ws>"] trust_level = "trusted"``),
else ``hooks/list`` does not see ``.codex/hooks.json`` at all.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

DEFAULT_CODEX = "codex@0.169.0"


class AppServerError(RuntimeError):
    pass


class AppServer:
    """A minimal JSON-RPC client for ``codex app-server`` over stdio; every read is bounded."""

    def __init__(self, binary: Path, env: dict[str, str], cwd: Path, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.notifications: list[dict[str, Any]] = []
        self._next_id = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._proc = subprocess.Popen(
            [str(binary), "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=str(cwd),
            text=True,
            start_new_session=True,
        )
        self._stderr: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    def _pump(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(message) + "\n")
        self._proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self._next_id += 1
        request_id = self._next_id
        self._send({"id": request_id, "method": method, "params": params or {}})
        while True:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise AppServerError(f"{method}: no answer in {self.timeout}s") from None
            if line is None:
                raise AppServerError(
                    f"{method}: app-server exited: {''.join(self._stderr)[-2000:]}"
                )
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == request_id and ("result" in message or "error" in message):
                if "error" in message:
                    raise AppServerError(f"{method}: {message['error']}")
                return message["result"]
            self.notifications.append(message)

    def close(self) -> None:
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=10)

    def __enter__(self) -> AppServer:
        self.request(
            "initialize", {"clientInfo": {"name": "paw-realclient-harness", "version": "0"}}
        )
        self.notify("initialized")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _env(codex_home: Path, extra: dict[str, str] | None) -> dict[str, str]:
    home = codex_home.parent if codex_home.name == ".codex" else codex_home
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CODEX_HOME": str(codex_home),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
    }
    env.update(extra or {})
    return env


def list_codex_hooks(
    codex_home: Path, workspace: Path, binary: Path | None = None, env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """``hooks/list`` for ``workspace``: each hook's ``key``, ``currentHash``, ``trustStatus``…"""
    binary = binary or _default_binary()
    workspace = Path(workspace).resolve()
    with AppServer(binary, _env(Path(codex_home), env), workspace) as server:
        return _hooks(server, workspace)


def _hooks(server: AppServer, workspace: Path) -> list[dict[str, Any]]:
    result = server.request("hooks/list", {"cwds": [str(workspace)]})
    hooks: list[dict[str, Any]] = []
    for entry in result.get("data", []):
        if entry.get("errors"):
            raise AppServerError(f"hooks/list errors: {entry['errors']}")
        hooks.extend(entry.get("hooks", []))
    return hooks


def trust_codex_hooks(
    codex_home: Path,
    workspace: Path,
    binary: Path | None = None,
    env: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Mark every non-managed hook Codex sees in ``workspace`` as trusted; the hooks after.

    Raises :class:`AppServerError` when a hook is still not trusted afterwards.
    """
    binary = binary or _default_binary()
    workspace = Path(workspace).resolve()
    with AppServer(binary, _env(Path(codex_home), env), workspace) as server:
        hooks = _hooks(server, workspace)
        state = {
            hook["key"]: {"trusted_hash": hook["currentHash"]}
            for hook in hooks
            if not hook.get("isManaged") and hook.get("trustStatus") != "trusted"
        }
        if state:
            server.request(
                "config/batchWrite",
                {"edits": [{"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state}]},
            )
        after = _hooks(server, workspace)
    untrusted = [h["key"] for h in after if h.get("trustStatus") not in ("trusted", "managed")]
    if untrusted:
        raise AppServerError(f"hooks still untrusted after trusting: {untrusted}")
    return after


def _default_binary() -> Path:
    from .install import install

    return install(DEFAULT_CODEX)
