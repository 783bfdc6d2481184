"""The headless core and the hook-facing commands never pull in the UI or heavy libraries.

Each check runs in a fresh interpreter, because this test process has imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("textual", "rich", "mcp")
# Start-up budgets (DESIGN §10) also rule out these third-party imports on the hot paths.
HOT_PATH_FORBIDDEN = HEAVY + ("yaml", "pathspec", "platformdirs")


def _headless_modules() -> list[str]:
    """Every module of the headless core and the gate, found on disk (so none is forgotten),
    plus the entry points that must stay light."""
    import pkgutil

    import paw_tui.core
    import paw_tui.gate

    found = ["paw_tui", "paw_tui.cli", "paw_tui.commands.context", "paw_tui.commands.init"]
    for package in (paw_tui.core, paw_tui.gate):
        found.append(package.__name__)
        found += [
            info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        ]
    return sorted(set(found))


CORE_MODULES = _headless_modules()


def _loaded_after(code: str, cwd: str, env: dict[str, str] | None = None) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, env=env, check=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_no_ui_or_mcp(module: str, tmp_path: Path) -> None:
    loaded = _top_level(_loaded_after(f"import {module}", str(tmp_path)))
    assert not loaded & set(HEAVY), f"{module} pulled in {sorted(loaded & set(HEAVY))}"


def test_the_module_sweep_finds_every_core_and_gate_file() -> None:
    """The parametrised list above is discovered, not typed: it holds every ``.py`` file
    under ``paw_tui/core`` and ``paw_tui/gate`` (a subpackage added later is covered)."""
    import paw_tui

    base = os.path.dirname(paw_tui.__file__)
    on_disk = set()
    for top in ("core", "gate"):
        for dirpath, _dirs, files in os.walk(os.path.join(base, top)):
            for name in files:
                if name.endswith(".py"):
                    relative = os.path.relpath(
                        os.path.join(dirpath, name[:-3]), os.path.dirname(base)
                    )
                    module = relative.replace(os.sep, ".").removesuffix(".__init__")
                    on_disk.add(module)
    assert on_disk and on_disk <= set(CORE_MODULES), sorted(on_disk - set(CORE_MODULES))


def test_all_core_modules_together_import_no_ui(tmp_path: Path) -> None:
    code = "\n".join(f"import {name}" for name in CORE_MODULES)
    loaded = _top_level(_loaded_after(code, str(tmp_path)))
    assert "paw_tui" in loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_context_command_run_loads_nothing_heavy(tmp_path: Path) -> None:
    """Run the real ``paw-tui context`` in process inside a probe interpreter."""
    root = tmp_path / "ws"
    (root / ".paw" / "work" / "auth-system").mkdir(parents=True)
    (root / ".paw" / "instructions").mkdir()
    (root / ".paw" / "instructions" / "Planner-instructions.md").write_text("Use ADRs.\n")
    (root / ".paw" / "work" / "auth-system" / "WorkflowContext.md").write_text(
        "Work ID: auth-system\n"
    )
    env = dict(os.environ, PAW_USER_HOME=str(tmp_path / "home"))
    env.pop("PAW_WORKSPACE_PATH", None)
    for extra in ([], ["--json"]):
        code = (
            "import sys, io, contextlib\n"
            "from paw_tui.cli import main\n"
            "buf = io.StringIO()\n"
            f"rc = main(['context', 'auth-system', '--agent', 'Planner', *{extra!r}])\n"
            "assert rc == 0, rc\n"
        )
        loaded = _top_level(_loaded_after(code, str(root), env))
        assert "paw_tui" in loaded  # the probe really ran our code
        assert not loaded & set(HOT_PATH_FORBIDDEN), sorted(loaded & set(HOT_PATH_FORBIDDEN))
