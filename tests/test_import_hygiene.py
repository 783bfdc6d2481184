"""The headless core and the hook-facing commands never pull in the UI or heavy libraries.

Each check runs in a fresh interpreter, because this test process has imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("textual", "rich", "mcp")
# Start-up budgets (DESIGN §10) also rule out these third-party imports on the hot paths.
HOT_PATH_FORBIDDEN = HEAVY + ("yaml", "pathspec", "platformdirs")

CORE_MODULES = [
    "paw_tui",
    "paw_tui.core.errors",
    "paw_tui.core.textfile",
    "paw_tui.core.platform",
    "paw_tui.core.workspace",
    "paw_tui.core.workflow",
    "paw_tui.core.instructions",
    "paw_tui.core.context_tool",
    "paw_tui.core.context_format",
    "paw_tui.core.fsutil",
    "paw_tui.core.scaffold",
    "paw_tui.cli",
    "paw_tui.commands.context",
    "paw_tui.commands.init",
]


def _loaded_after(code: str, cwd: str, env: dict[str, str] | None = None) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, env=env, check=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_no_ui_or_mcp(module: str, tmp_path) -> None:
    loaded = _top_level(_loaded_after(f"import {module}", str(tmp_path)))
    assert not loaded & set(HEAVY), f"{module} pulled in {sorted(loaded & set(HEAVY))}"


def test_every_core_module_is_listed() -> None:
    import paw_tui.core as core

    core_dir = os.path.dirname(core.__file__)
    on_disk = {
        f"paw_tui.core.{name[:-3]}"
        for name in os.listdir(core_dir)
        if name.endswith(".py") and name != "__init__.py"
    }
    listed = {name for name in CORE_MODULES if name.startswith("paw_tui.core.")}
    # Modules added later are checked by the generic sweep below; this keeps the list honest.
    assert listed <= on_disk


def test_all_core_modules_together_import_no_ui(tmp_path) -> None:
    import paw_tui.core as core

    core_dir = os.path.dirname(core.__file__)
    names = sorted(
        f"paw_tui.core.{name[:-3]}"
        for name in os.listdir(core_dir)
        if name.endswith(".py") and name != "__init__.py"
    )
    code = "\n".join(f"import {name}" for name in names)
    loaded = _top_level(_loaded_after(code, str(tmp_path)))
    assert not loaded & set(HEAVY)


def test_context_command_run_loads_nothing_heavy(tmp_path) -> None:
    """Run the real ``paw-tui context`` in process inside a probe interpreter."""
    root = tmp_path / "ws"
    (root / ".paw" / "work" / "auth-system").mkdir(parents=True)
    (root / ".paw" / "instructions").mkdir()
    (root / ".paw" / "instructions" / "Planner-instructions.md").write_text("Use ADRs.\n")
    (root / ".paw" / "work" / "auth-system" / "WorkflowContext.md").write_text("Work ID: auth-system\n")
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
