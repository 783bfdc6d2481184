"""The gate's code cache (issue 12): the hook takes the gate's modules from one file, never
different code than the sources: a changed module is imported from its source, a broken or
foreign cache is rebuilt or ignored, and the decision is the same either way."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gatekit import paw_state_dir, root, write_payload

import paw_tui
from paw_tui.core.support import code_cache

__all__ = ["paw_state_dir", "root"]

PACKAGE = Path(paw_tui.__file__).resolve().parent
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from paw_tui.core.support import code_cache
finder = code_cache.install(sys.argv[2])
import paw_tui.gate.main, paw_tui.gate.decide
print(json.dumps({
    "installed": finder is not None,
    "served": finder.served if finder else [],
    "stale": finder.stale if finder else [],
    "decide_file": paw_tui.gate.decide.__file__,
    "marker": getattr(paw_tui.gate.decide, "CACHE_TEST_MARKER", None),
}))
"""


def copy_package(tmp_path: Path) -> Path:
    """A private copy of the package (the cache is built for the package it belongs to)."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "paw_tui", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def probe(site: Path, cache: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(site), str(cache)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_gate_loads_from_the_cache(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / "state" / code_cache.CACHE_NAME
    first = probe(site, cache)  # builds it
    assert cache.exists() and first["installed"]
    again = probe(site, cache)
    served = again["served"]
    assert isinstance(served, list) and "paw_tui.gate.main" in served
    assert "paw_tui.gate.decide" in served and again["stale"] == []
    assert again["decide_file"] == str(site / "paw_tui" / "gate" / "decide.py")


def test_a_changed_module_comes_from_its_source(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache)
    decide = site / "paw_tui" / "gate" / "decide.py"
    decide.write_text(decide.read_text() + "\nCACHE_TEST_MARKER = 'edited'\n")
    result = probe(site, cache)
    assert result["marker"] == "edited"
    assert result["stale"] == ["paw_tui.gate.decide"]
    assert "paw_tui.gate.decide" not in result["served"]  # type: ignore[operator]
    assert "paw_tui.gate.main" in result["served"]  # type: ignore[operator]


def test_a_reinstalled_package_rebuilds_the_cache(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache)
    before = cache.stat().st_mtime_ns
    init = site / "paw_tui" / "__init__.py"
    os.utime(init, ns=(init.stat().st_atime_ns, init.stat().st_mtime_ns + 10**9))
    result = probe(site, cache)
    assert cache.stat().st_mtime_ns != before
    assert "paw_tui.gate.main" in result["served"]  # type: ignore[operator]


def test_a_broken_cache_is_rebuilt(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    for garbage in (b"", b"\x00" * 8, b"\xff" * 64, b"not a cache at all"):
        cache.write_bytes(garbage)
        result = probe(site, cache)
        assert result["installed"] and "paw_tui.gate.main" in result["served"]  # type: ignore[operator]


def test_an_unwritable_cache_only_costs_speed(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = probe(site, blocker / code_cache.CACHE_NAME)  # its directory cannot exist
    assert result["installed"] is False and result["served"] == []


def test_the_hook_decides_the_same_with_and_without_the_cache(root: Path, tmp_path: Path) -> None:
    launcher = PACKAGE / "gate" / "launch.py"
    cache = tmp_path / code_cache.CACHE_NAME
    payload = json.dumps(write_payload(root, "src/auth/a.py", session="s-cache")).encode()
    answers = []
    for extra in ([], [code_cache.OPTION, str(cache)], [code_cache.OPTION, str(cache)]):
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(launcher), *extra, "--client", "claude-code"],
            input=payload,
            capture_output=True,
            cwd=root,
            env={**os.environ, "PAW_WORKSPACE_PATH": str(root)},
            timeout=120,
        )
        answers.append((done.returncode, done.stdout))
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0] == 2 and b"You must cite" in answers[0][1]
    assert cache.exists()


def test_the_launcher_option_is_the_cache_option() -> None:
    launcher = (PACKAGE / "gate" / "launch.py").read_text(encoding="utf-8")
    assert f'sys.argv[1] == "{code_cache.OPTION}"' in launcher


def test_the_hook_script_runs_the_gate_with_its_cache(root: Path, tmp_path: Path) -> None:
    from paw_tui.core.clients import commands

    state = tmp_path / "hook-state"
    state.mkdir()
    script = Path(commands.hook_script_path(str(state)))
    script.write_text(commands.hook_script_text(str(state)), encoding="utf-8")
    script.chmod(0o755)
    assert script.read_text(encoding="utf-8").startswith(f"#!{os.path.abspath(sys.executable)}")
    payload = json.dumps(write_payload(root, "src/auth/a.py", session="s-hook")).encode()
    done = subprocess.run(
        ["/bin/sh", "-c", commands.portable_hook_command("claude-code")],
        input=payload,
        capture_output=True,
        cwd=root,
        env={**os.environ, "PAW_TUI_HOOK": str(script), "PAW_WORKSPACE_PATH": str(root)},
        timeout=120,
    )
    assert done.returncode == 2 and b"You must cite" in done.stdout
    assert (state / code_cache.CACHE_NAME).exists()
    version = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and paw_tui.__version__ in version.stdout + version.stderr


def test_an_interpreter_path_unfit_for_a_shebang_gets_a_shell_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paw_tui.core.clients import commands

    for python in ("/opt/my tools/bin/python3", "/" + "x" * 130 + "/python3"):
        monkeypatch.setattr(sys, "executable", python)
        text = commands.hook_script_text(str(tmp_path))
        assert text.startswith("#!/bin/sh\n") and code_cache.OPTION in text
