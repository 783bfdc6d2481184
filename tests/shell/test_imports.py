"""The parser runs in a hook process that must start in milliseconds: importing it and
analysing typical commands loads nothing but its own modules (no re, shlex, enum, typing,
dataclasses, pathlib, functools, collections, glob, fnmatch), and it imports nothing from
the rest of paw_tui."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import paw_tui
import paw_tui.core.policy.shell as package

FORBIDDEN = {
    "re",
    "shlex",
    "enum",
    "typing",
    "dataclasses",
    "pathlib",
    "functools",
    "collections",
    "glob",
    "fnmatch",
}
PROBE = """
import json, sys
before = set(sys.modules)
from paw_tui.core.policy.shell.analysis import analyse
for command in ["ls -la | grep x > out", "cd sub && rm -rf .{git,x}", "cat <<EOF > f\\n$(touch y)\\nEOF",
                "sed -i.bak 's/a/b/' *.py", "find . -name x -exec rm {} +", "git -C s clean -fd",
                "tar -xzf a.tgz -C out; echo > ~/x; F=1; echo $F"]:
    analyse(command, "/w", home="/h")
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_import_and_analysis_load_no_heavy_module() -> None:
    root = os.path.dirname(os.path.dirname(paw_tui.__file__))
    done = subprocess.run(
        [sys.executable, "-S", "-c", PROBE],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": root, "PATH": os.environ.get("PATH", "")},
        check=True,
    )
    loaded = set(json.loads(done.stdout))
    assert not loaded & FORBIDDEN
    # what a normal interpreter has loaded before any import (python -S skips site)
    startup = {
        "__future__",
        "os",
        "os.path",
        "posixpath",
        "genericpath",
        "stat",
        "_stat",
        "_collections_abc",
        "abc",
        "_abc",
        "io",
        "codecs",
        "encodings",
    }
    others = sorted(name for name in loaded - startup if not name.startswith("paw_tui"))
    assert not others


def test_the_package_is_self_contained() -> None:
    directory = os.path.dirname(package.__file__)
    with open(os.path.join(directory, "__init__.py")) as handle:
        assert handle.read() == ""
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(directory, name)) as handle:
            tree = ast.parse(handle.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("paw_tui"), (name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("paw_tui") for a in node.names), name
