"""A real Arize Phoenix server for the tests of ``trace ship`` (DESIGN §12, issue 20).

Phoenix is installed once from PyPI into its own virtual environment in the cache
(``~/.cache/paw-tui/phoenix/arize-phoenix@<version>/``, or ``$PAW_BACKENDS_CACHE``), under a
file lock and with a marker file, as the npm clients are (``tests/realclients/install.py``):
853 MB and about a minute cold, nothing after. Each server runs on 127.0.0.1 with a working
directory (its SQLite database) of the test's own, and is stopped with its process group.
Its spans are read back through Phoenix's own client, run in Phoenix's environment.

Phoenix's gRPC port binds every interface whatever its host setting says (measured): the tests
never use it, and send only to the HTTP port on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from realclients.install import _locked, real_home

VERSION = "20.26.1"
MARKER = ".paw-installed.json"
INSTALL_TIMEOUT = 1200
START_TIMEOUT = 240.0
READ_SPANS = """
import json, sys
from phoenix.client import Client
client = Client(base_url=sys.argv[1])
spans = client.spans.get_spans(project_identifier=sys.argv[2], limit=int(sys.argv[3]))
print(json.dumps(spans, default=str))
"""


def cache_root() -> Path:
    override = os.environ.get("PAW_BACKENDS_CACHE")
    if override:
        return Path(override).expanduser()
    return real_home() / ".cache" / "paw-tui" / "phoenix"


def install_dir() -> Path:
    return cache_root() / f"arize-phoenix@{VERSION}"


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_phoenix() -> Path:
    """The Phoenix venv's python, installing it first when needed."""
    target = install_dir()
    python = python_of(target / "venv")
    if (target / MARKER).exists() and python.exists():
        return python
    with _locked(cache_root() / f".arize-phoenix@{VERSION}.lock"):
        if (target / MARKER).exists() and python.exists():
            return python
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        started = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "venv", str(target / "venv")], check=True, capture_output=True
        )
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"arize-phoenix=={VERSION}"],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"pip install arize-phoenix=={VERSION} failed:\n{done.stderr[-3000:]}"
            )
        marker = {"version": VERSION, "install_seconds": round(time.monotonic() - started, 1)}
        (target / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")
    return python


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Phoenix:
    python: Path
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def traces_endpoint(self) -> str:
        return f"{self.url}/v1/traces"

    def spans(self, project: str, limit: int = 100_000) -> list[dict[str, object]]:
        """Every span of ``project`` as Phoenix's own client returns them."""
        done = subprocess.run(
            [str(self.python), "-c", READ_SPANS, self.url, project, str(limit)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            if "Not Found" in done.stderr or "not found" in done.stderr:
                return []  # no span of the project stored yet
            raise RuntimeError(f"reading spans failed:\n{done.stderr[-3000:]}")
        spans: list[dict[str, object]] = json.loads(done.stdout)
        return spans

    def count(self, project: str) -> int:
        """How many spans the project holds, from Phoenix's REST API (cheap enough to poll;
        the spans themselves are read through Phoenix's own client, :meth:`spans`)."""
        total, cursor = 0, None
        while True:
            query = {"limit": "1000"}
            if cursor:
                query["cursor"] = cursor
            url = (
                f"{self.url}/v1/projects/{urllib.parse.quote(project)}/spans?"
                + urllib.parse.urlencode(query)
            )
            try:
                with urllib.request.urlopen(url, timeout=30) as answer:
                    page = json.loads(answer.read())
            except urllib.error.HTTPError as error:
                if error.code == 404:
                    return 0  # no span of the project stored yet
                raise
            total += len(page["data"])
            cursor = page.get("next_cursor")
            if not cursor or not page["data"]:
                return total

    def settle(self, project: str, count: int, limit: float = 300.0, quiet: float = 2.0) -> int:
        """How many spans the project holds once ``count`` are stored and nothing more has
        arrived for ``quiet`` seconds (Phoenix answers 200 before it stores: its queue drains
        at tens of spans a second here). A deadline, not a timing claim."""
        deadline = time.monotonic() + limit
        while self.count(project) < count and time.monotonic() < deadline:
            time.sleep(0.25)
        time.sleep(quiet)
        return self.count(project)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@contextmanager
def phoenix_server(workdir: Path) -> Iterator[Phoenix]:
    python = ensure_phoenix()
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(workdir),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_WORKING_DIR": str(workdir / "phoenix"),
        "PHOENIX_TELEMETRY_ENABLED": "false",
        "DO_NOT_TRACK": "1",
    }
    log = workdir / "phoenix.log"
    with open(log, "wb") as handle:
        process = subprocess.Popen(
            [str(python.parent / "phoenix"), "serve"],
            env=env,
            cwd=workdir,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    server = Phoenix(python, url, process, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Phoenix did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield server
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
