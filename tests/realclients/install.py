"""Install pinned agent-client releases from npm into a shared cache, once.

Each client version lives in its own folder ``<cache>/<package>@<version>/`` (``<cache>`` is
``$PAW_CLIENTS_CACHE`` or ``~/.cache/paw-tui/clients`` of the *real* user, looked up with
``pwd`` because the test suite points ``HOME`` at a temporary folder). An install is done under
an exclusive file lock (so parallel pytest workers never race) and is complete only when its
marker file ``.paw-installed.json`` exists; a folder without the marker is wiped and redone.

Run ``python -m tests.realclients.install [KEY ...]`` to install (and time) from the shell.
"""

from __future__ import annotations

import fcntl
import json
import os
import pwd
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MARKER = ".paw-installed.json"
INSTALL_TIMEOUT = 900  # seconds for one `npm install`


@dataclass(frozen=True)
class ClientSpec:
    """One pinned client release: its npm package, version and the binary it installs."""

    key: str  # "claude-code@2.1.330": the id used by tests and observed_tools.json
    kind: str  # "claude" | "gemini" | "codex" | "copilot" | "cline" | "opencode" | "qwen"
    package: str
    version: str
    bin_name: str

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


CLIENTS: dict[str, ClientSpec] = {
    spec.key: spec
    for spec in (
        ClientSpec(
            "claude-code@2.1.330", "claude", "@anthropic-ai/claude-code", "2.1.330", "claude"
        ),
        ClientSpec(
            "claude-code@2.1.197", "claude", "@anthropic-ai/claude-code", "2.1.197", "claude"
        ),
        ClientSpec("gemini-cli@0.61.0", "gemini", "@google/gemini-cli", "0.61.0", "gemini"),
        ClientSpec("codex@0.169.0", "codex", "@openai/codex", "0.169.0", "codex"),
        ClientSpec("copilot@1.0.102", "copilot", "@github/copilot", "1.0.102", "copilot"),
        ClientSpec("cline@3.0.65", "cline", "cline", "3.0.65", "cline"),
        ClientSpec("opencode@1.18.33", "opencode", "opencode-ai", "1.18.33", "opencode"),
        ClientSpec("qwen-code@0.24.4", "qwen", "@qwen-code/qwen-code", "0.24.4", "qwen"),
    )
}


class NodeMissing(RuntimeError):
    """node or npm is not on PATH."""


def real_home() -> Path:
    """The invoking user's home from the password database (immune to a test's ``HOME``)."""
    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:  # pragma: no cover - a uid without an entry
        return Path(os.path.expanduser("~"))


def cache_root() -> Path:
    override = os.environ.get("PAW_CLIENTS_CACHE")
    if override:
        return Path(override).expanduser()
    return real_home() / ".cache" / "paw-tui" / "clients"


def install_dir(spec: ClientSpec) -> Path:
    return cache_root() / spec.spec


def binary_path(spec: ClientSpec) -> Path:
    return install_dir(spec) / "node_modules" / ".bin" / spec.bin_name


def check_node() -> tuple[str, str]:
    """Paths of node and npm; raises :class:`NodeMissing` when either is absent."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        missing = " and ".join(name for name, path in (("node", node), ("npm", npm)) if not path)
        raise NodeMissing(f"{missing} not found on PATH: real-client tests need Node.js and npm")
    return node, npm


def require_node() -> tuple[str, str]:
    """:func:`check_node`, turned into a pytest skip."""
    try:
        return check_node()
    except NodeMissing as exc:
        import pytest

        pytest.skip(str(exc))
        raise  # unreachable: pytest.skip raises


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def dir_size(path: Path) -> int:
    """Bytes of the files under ``path``, each inode once (npm hard-links some binaries)."""
    total = 0
    seen: set[tuple[int, int]] = set()
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def read_marker(spec: ClientSpec) -> dict[str, object] | None:
    try:
        data = json.loads((install_dir(spec) / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _npm_env() -> dict[str, str]:
    env = dict(os.environ)
    # npm reads the real user's npmrc and cache even when a test moved HOME.
    env["HOME"] = str(real_home())
    env.update(
        {
            "npm_config_update_notifier": "false",
            "npm_config_fund": "false",
            "npm_config_audit": "false",
            "npm_config_engine_strict": "false",
            "npm_config_loglevel": "error",
            "DISABLE_AUTOUPDATER": "1",
        }
    )
    return env


def install(spec: ClientSpec | str) -> Path:
    """Install ``spec`` (a :class:`ClientSpec` or a key of :data:`CLIENTS`) once; its binary.

    Raises :class:`NodeMissing` without node/npm and ``RuntimeError`` when npm fails.
    """
    if isinstance(spec, str):
        spec = CLIENTS[spec]
    binary = binary_path(spec)
    if read_marker(spec) is not None and binary.exists():
        return binary
    _node, npm = check_node()
    target = install_dir(spec)
    with _locked(cache_root() / f".{spec.package.replace('/', '+')}@{spec.version}.lock"):
        if read_marker(spec) is not None and binary.exists():
            return binary  # another worker finished it while this one waited
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        # A package.json of its own keeps npm from walking up to an enclosing project.
        (target / "package.json").write_text(
            json.dumps({"name": "paw-realclient-cache", "private": True}) + "\n", encoding="utf-8"
        )
        started = time.monotonic()
        proc = subprocess.run(
            [npm, "install", "--no-save", "--prefix", str(target), spec.spec],
            cwd=str(target),
            env=_npm_env(),
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
        seconds = time.monotonic() - started
        if proc.returncode != 0 or not binary.exists():
            raise RuntimeError(
                f"npm install {spec.spec} failed (exit {proc.returncode}):\n"
                f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
            )
        marker = {
            "package": spec.package,
            "version": spec.version,
            "install_seconds": round(seconds, 1),
            "size_bytes": dir_size(target),
            "installed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        (target / MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    return binary


def ensure_client(key: str) -> Path:
    """For tests: the binary of client ``key``; skips the test when node/npm are missing."""
    require_node()
    return install(key)


def main(argv: list[str]) -> int:
    keys = argv or list(CLIENTS)
    for key in keys:
        spec = CLIENTS[key]
        started = time.monotonic()
        binary = install(spec)
        marker = read_marker(spec) or {}
        print(
            f"{key}: {binary} (this call {time.monotonic() - started:.1f}s; "
            f"install {marker.get('install_seconds')}s, "
            f"{int(str(marker.get('size_bytes', 0))) / 1e6:.0f} MB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
