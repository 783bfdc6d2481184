"""Shared fixtures: workspaces in ``tmp_path``, and the CLI run in-process or in a subprocess.

Every test runs with ``PAW_USER_HOME`` (and ``HOME``) pointing into ``tmp_path``, with
``PAW_WORKSPACE_PATH`` and ``CLAUDE_PROJECT_DIR`` unset, and with the current directory inside
``tmp_path``: the real home directory and the repository this suite lives in are never read.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypedDict, Unpack

import pytest

from paw_tui.cli import main
from paw_tui.core.workspace.discovery import find_ancestor_root

if TYPE_CHECKING:
    from paw_tui.core.context.tool import ContextResult
    from paw_tui.core.support.textfile import ReadBytes

ENV_TO_CLEAR = ("PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR", "PAW_USER_HOME")
AGENT = "PAW-02B Impl Planner"


def _write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        # newline="" keeps "\r\n" and "\r" exactly as the test wrote them
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)
    return path


class ContextOptions(TypedDict, total=False):
    """The keyword arguments of ``get_context`` that :meth:`Workspace.context` passes on."""

    roots: Sequence[str]
    user_instructions_dir: str | None
    read_bytes: ReadBytes | None
    is_cancelled: Callable[[], bool] | None


@dataclass
class Workspace:
    """One workspace root plus the user home of the test (its ``.paw`` is the user layer)."""

    root: Path
    home: Path

    @property
    def instructions_dir(self) -> Path:
        return self.root / ".paw" / "instructions"

    @property
    def user_dir(self) -> Path:
        return self.home / ".paw" / "instructions"

    def work(self, slug: str, context: str | bytes | None = None) -> Path:
        """Create ``.paw/work/<slug>/``; with ``context``, also its WorkflowContext.md."""
        directory = self.root / ".paw" / "work" / slug
        directory.mkdir(parents=True, exist_ok=True)
        if context is not None:
            _write(directory / "WorkflowContext.md", context)
        return directory

    def workflow_path(self, slug: str) -> Path:
        return self.root / ".paw" / "work" / slug / "WorkflowContext.md"

    def workspace_instructions(
        self, agent: str, content: str | bytes, name: str | None = None
    ) -> Path:
        return _write(self.instructions_dir / (name or f"{agent}-instructions.md"), content)

    def user_instructions(self, agent: str, content: str | bytes, name: str | None = None) -> Path:
        return _write(self.user_dir / (name or f"{agent}-instructions.md"), content)

    def context(
        self, slug: str, agent: str = AGENT, **kwargs: Unpack[ContextOptions]
    ) -> ContextResult:
        """``get_context`` on this workspace with its user layer."""
        from paw_tui.core.context.tool import get_context

        kwargs.setdefault("roots", [str(self.root)])
        kwargs.setdefault("user_instructions_dir", str(self.user_dir))
        return get_context(slug, agent, **kwargs)


@pytest.fixture(autouse=True)
def _not_inside_an_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite runs as a person would: without the variables agent clients set in their
    tools' environment (a suite run from inside an agent's shell would otherwise be refused)."""
    from paw_tui.core.clients.markers import MARKERS

    for name in (*MARKERS, "AI_AGENT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A directory with no workspace marker in it or in any ancestor."""
    base = tmp_path / "sandbox"
    base.mkdir()
    if find_ancestor_root(str(base)) is not None:
        pytest.skip(f"an ancestor of {base} is a workspace; cannot test 'no workspace'")
    return base


@pytest.fixture
def user_home(sandbox: Path) -> Path:
    home = sandbox / "home"
    home.mkdir()
    return home


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No test sees the real home, the real workspace variables or the repository's cwd."""
    fallback_home = tmp_path / "isolated-home"
    fallback_home.mkdir(exist_ok=True)
    for name in ENV_TO_CLEAR:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PAW_USER_HOME", str(fallback_home))
    monkeypatch.setenv("HOME", str(fallback_home))
    # An installed hook would start a resident gate that outlives the test: only the tests
    # of the resident gate (tests/residentkit.py) let it run, and stop it after.
    monkeypatch.setenv("PAW_RESIDENT_GATE", "off")
    monkeypatch.chdir(tmp_path)
    return fallback_home


class MakeWorkspace(Protocol):
    """The ``make_workspace`` fixture."""

    def __call__(self, name: str = "ws", marker: str = ".paw") -> Workspace: ...


@pytest.fixture
def make_workspace(sandbox: Path, user_home: Path) -> MakeWorkspace:
    """``make_workspace(name="ws", marker=".paw")`` -> a :class:`Workspace` under the sandbox.

    ``marker`` is ``.paw`` (always created anyway), ``.git`` (a directory), ``.git-file``
    (``.git`` as a file) or ``.orchestration``.
    """

    def factory(name: str = "ws", marker: str = ".paw") -> Workspace:
        root = sandbox / name
        root.mkdir(parents=True, exist_ok=True)
        if marker == ".git-file":
            (root / ".git").write_text("gitdir: ../elsewhere\n", encoding="utf-8")
        elif marker:
            (root / marker).mkdir(exist_ok=True)
        return Workspace(root=root, home=user_home)

    return factory


@pytest.fixture
def ws(make_workspace: MakeWorkspace) -> Workspace:
    return make_workspace()


@dataclass
class CliResult:
    code: int
    out: str
    err: str
    argv: list[str] = field(default_factory=list)


class RunCli(Protocol):
    """The ``run_cli`` fixture."""

    def __call__(
        self, *argv: str, env: dict[str, str] | None = None, cwd: Path | str | None = None
    ) -> CliResult: ...


class RunSubprocess(Protocol):
    """The ``run_subprocess`` fixture."""

    def __call__(
        self,
        *argv: str,
        env: dict[str, str] | None = None,
        cwd: Path | str | None = None,
        script: bool = False,
    ) -> CliResult: ...


@pytest.fixture
def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], user_home: Path
) -> RunCli:
    """Run ``paw_tui.cli.main(argv)`` in-process; ``env`` adds variables, ``cwd`` moves there.

    ``PAW_USER_HOME`` is the test's user home unless ``env`` names another value.
    """

    def runner(
        *argv: str, env: dict[str, str] | None = None, cwd: Path | str | None = None
    ) -> CliResult:
        monkeypatch.setenv("PAW_USER_HOME", str(user_home))
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        if cwd is not None:
            monkeypatch.chdir(cwd)
        capsys.readouterr()  # drop anything printed before
        code = main(list(argv))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err, list(argv))

    return runner


@pytest.fixture
def run_subprocess(user_home: Path, sandbox: Path) -> RunSubprocess:
    """Run ``python -m paw_tui ARGS`` (or the installed ``paw-tui`` script) in a clean env."""

    def runner(
        *argv: str,
        env: dict[str, str] | None = None,
        cwd: Path | str | None = None,
        script: bool = False,
    ) -> CliResult:
        clean = {
            key: value
            for key, value in os.environ.items()
            if key not in ENV_TO_CLEAR and not key.startswith(("PYTHON", "PAW_"))
        }
        clean["PAW_USER_HOME"] = str(user_home)
        clean["HOME"] = str(user_home)
        clean["PYTHONIOENCODING"] = "utf-8"
        clean.update(env or {})
        if script:
            command = [str(Path(sys.executable).parent / "paw-tui"), *argv]
        else:
            command = [sys.executable, "-m", "paw_tui", *argv]
        proc = subprocess.run(
            command,
            cwd=str(cwd or sandbox),
            env=clean,
            capture_output=True,
            timeout=60,
        )
        return CliResult(
            proc.returncode,
            proc.stdout.decode("utf-8"),
            proc.stderr.decode("utf-8"),
            list(argv),
        )

    return runner
