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
    "preloaded": finder.preloaded if finder else [],
    "events_ok": (
        sys.modules["paw_tui.gate.events"] is paw_tui.gate.events
        and paw_tui.gate.events.__spec__.name == "paw_tui.gate.events"
        and paw_tui.gate.events.__package__ == "paw_tui.gate"
    ),
    "events_file": paw_tui.gate.events.__file__,
    "events_marker": getattr(paw_tui.gate.events, "CACHE_TEST_MARKER", None),
    "decide_file": paw_tui.gate.decide.__file__,
    "marker": getattr(paw_tui.gate.decide, "CACHE_TEST_MARKER", None),
}))
"""


def copy_package(tmp_path: Path) -> Path:
    """A private copy of the package (the cache is built for the package it belongs to)."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "paw_tui", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def probe(site: Path, cache: Path, code: str = PROBE) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(site), str(cache)],
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


def test_a_module_s_eager_imports_run_straight_from_the_cache(tmp_path: Path) -> None:
    """``paw_tui.gate.main`` imports ``paw_tui.gate.events`` at its top: importing main runs
    events from the table without the import system, as a proper module all the same."""
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache)
    result = probe(site, cache)
    preloaded = result["preloaded"]
    assert isinstance(preloaded, list) and "paw_tui.gate.events" in preloaded
    assert "paw_tui.gate.main" not in preloaded  # imported by the statement, as usual
    assert set(preloaded) <= set(result["served"])  # type: ignore[call-overload]
    assert result["events_ok"] is True
    assert result["events_file"] == str(site / "paw_tui" / "gate" / "events.py")


def test_a_changed_eager_import_comes_from_its_source(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache)
    events = site / "paw_tui" / "gate" / "events.py"
    events.write_text(events.read_text() + "\nCACHE_TEST_MARKER = 'edited'\n")
    result = probe(site, cache)
    assert result["events_marker"] == "edited" and result["events_ok"] is True
    assert "paw_tui.gate.events" in result["stale"]  # type: ignore[operator]
    assert "paw_tui.gate.events" not in result["preloaded"]  # type: ignore[operator]


def test_a_module_that_fails_to_run_fails_its_import_as_usual(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache)
    # code that raises where events' code was: main's import must fail with it, and
    # events must not stay behind half-made in sys.modules
    broken = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from paw_tui.core.support import code_cache\n"
        "finder = code_cache.install(sys.argv[2])\n"
        "entry = finder.cache.index['paw_tui.gate.events']\n"
        "real = finder.cache.code\n"
        "finder.cache.code = lambda e: (\n"
        "    compile('raise RuntimeError(\"boom\")', e[1], 'exec') if e is entry else real(e)\n"
        ")\n"
        "try:\n"
        "    import paw_tui.gate.main\n"
        "except RuntimeError as error:\n"
        "    print(error, 'paw_tui.gate.events' in sys.modules, 'paw_tui.gate.main' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", broken, str(site), str(cache)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.split() == ["boom", "False", "False"], done.stderr


def test_preload_orders_follow_the_import_graph() -> None:
    graph = {
        "p": [],
        "p.a": ["p.b", "p.c"],
        "p.b": ["p.c"],
        "p.c": [],
        "p.x": ["p.y"],
        "p.y": ["p.x"],  # a cycle: left to the import system
        "p.z": ["p.x"],
    }
    assert code_cache._preload_order("p.a", graph) == ("p", "p.c", "p.b")
    assert code_cache._preload_order("p.c", graph) == ()
    assert code_cache._preload_order("p.x", graph) == ()
    assert code_cache._preload_order("p.z", graph) == ()


def test_only_a_body_s_own_unconditional_imports_count() -> None:
    import ast

    tree = ast.parse(
        "import os\n"
        "from a.b import c, d\n"
        "from . import sibling\n"
        "from .. import cousin\n"
        "if X:\n    import cond\n"
        "try:\n    import tried\nexcept ImportError:\n    pass\n"
        "def f():\n    import lazy\n"
    )
    named = code_cache._top_level_imports(tree, "pkg.sub.mod", False)
    assert named[:5] == ["os", "a", "a.b", "a.b.c", "a"]
    assert "pkg.sub.sibling" in named and "pkg.cousin" in named
    assert not {"cond", "tried", "lazy"} & set(named)


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


CATALOGUE_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from paw_tui.core.support import code_cache
finder = code_cache.install(sys.argv[2])
from paw_tui.core.policy import catalogue
path = catalogue.CATALOGUE_FILE
cached = finder.parsed_json(path)
with open(path, "rb") as handle:
    parsed = json.loads(handle.read())
loaded = catalogue.load_catalogue()
print(json.dumps({
    "from_cache": cached is not None,
    "same": cached == parsed if cached is not None else None,
    "loaded_same": [e.name for e in loaded.shared_entries()] == list(parsed["shared"]),
    "stale": finder.stale,
}))
"""


def test_the_catalogue_comes_parsed_from_the_cache_while_unchanged(tmp_path: Path) -> None:
    site = copy_package(tmp_path)
    cache = tmp_path / code_cache.CACHE_NAME
    probe(site, cache, CATALOGUE_PROBE)
    first = probe(site, cache, CATALOGUE_PROBE)
    assert first == {"from_cache": True, "same": True, "loaded_same": True, "stale": []}
    path = site / "paw_tui" / "core" / "policy" / "catalogue.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["shared"]["CacheTestTool"] = {"class": "read_only", "clients": ["claude-code"]}
    path.write_text(json.dumps(data), encoding="utf-8")
    edited = probe(site, cache, CATALOGUE_PROBE)
    assert edited["from_cache"] is False and edited["loaded_same"] is True
    assert set(edited["stale"]) == {str(path)}  # type: ignore[call-overload]
