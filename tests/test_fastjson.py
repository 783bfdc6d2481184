"""fastjson must be json, byte for byte, for the options the hot path uses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paw_tui.core.support import fastjson

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


class DumpOptions(TypedDict, total=False):
    """The keyword options the hot path passes to ``dumps``."""

    ensure_ascii: bool
    separators: tuple[str, str]
    sort_keys: bool


OPTIONS: list[DumpOptions] = [
    {},
    {"ensure_ascii": False},
    {"separators": (",", ":")},
    {"ensure_ascii": False, "separators": (",", ":")},
    {"ensure_ascii": True, "separators": (",", ":"), "sort_keys": True},
]


@settings(max_examples=150, deadline=None)
@given(values)
def test_dumps_and_loads_match_json(value: object) -> None:
    for options in OPTIONS:
        text = fastjson.dumps(value, **options)
        assert text == json.dumps(value, **options)
        assert fastjson.loads(text) == json.loads(text)
        assert fastjson.loads(text.encode("utf-8")) == json.loads(text)


@pytest.mark.parametrize(
    "bad", ["", "{", '{"a":', "[1,]", "nul", '{"a" 1}', "{} x", '"\\x"', "\ufeff{}"]
)
def test_invalid_documents_raise_what_json_raises(bad: str) -> None:
    with pytest.raises(ValueError) as ours:
        fastjson.loads(bad)
    with pytest.raises(ValueError) as theirs:
        json.loads(bad)
    assert str(ours.value) == str(theirs.value)


def test_unserialisable_values_and_nan_are_refused() -> None:
    with pytest.raises(TypeError):
        fastjson.dumps({"a": object()})
    with pytest.raises(ValueError):
        fastjson.dumps({"a": float("nan")}, allow_nan=False)
    assert fastjson.dumps([1], indent=2) == json.dumps([1], indent=2)


def test_it_does_not_import_re_or_json(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from paw_tui.core.support import fastjson\n"
        "assert fastjson.loads(fastjson.dumps({'a': [1, 2.5, None]})) == {'a': [1, 2.5, None]}\n"
        "print(sorted({'re', 'json'} & (set(sys.modules) - before)))\n"
    )
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=repo),
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
