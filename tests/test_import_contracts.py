"""The import direction, checked statically by import-linter (contracts in pyproject.toml):
the faces sit on the gate, which sits on the core; the core and the gate never import a UI or
the MCP SDK. tests/test_import_hygiene.py checks the same at run time, in fresh interpreters."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_import_contract_is_kept() -> None:
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run(
        [lint, "--config", os.path.join(REPO, "pyproject.toml"), "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout
    assert "faces above the gate above the core KEPT" in done.stdout


def test_a_broken_contract_is_caught(tmp_path: Path) -> None:
    """The checker really looks: a core module that imports the TUI breaks the layers."""
    package = tmp_path / "paw_tui"
    for sub in ("core", "gate", "commands", "tui", "mcp"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "cli.py").write_text("")
    (package / "core" / "bad.py").write_text("import paw_tui.tui\n")
    config = tmp_path / "pyproject.toml"
    with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as handle:
        text = handle.read()
    config.write_text(
        text[text.index("[tool.importlinter]") :]
        .replace("include_external_packages = true", "include_external_packages = false")
        .split('[[tool.importlinter.contracts]]\nname = "the core and the gate never')[0]
    )
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run(
        [lint, "--config", str(config), "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode != 0
    assert "BROKEN" in done.stdout and "paw_tui.core.bad -> paw_tui.tui" in done.stdout
