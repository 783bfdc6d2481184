"""spec.py: the launcher's line format."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from paw_tui.core.confine.spec import Spec, parse_spec, render_spec, write_spec


def test_round_trip_keeps_any_file_name() -> None:
    odd = "/tmp/with space/é/\udcff tab\t"
    data = render_spec(["/a", odd], ["/f"], "/t", comment="made by a test")
    assert data.startswith(b"paw-tui-confine 1\n# made by a test\n")
    assert parse_spec(data) == Spec(
        [(b"/a", True), (os.fsencode(odd), True), (b"/f", False)], b"/t"
    )
    assert parse_spec(render_spec([], [])) == Spec([], None)


@pytest.mark.parametrize("bad", ["relative", "/new\nline", "/nul\0"])
def test_unwritable_paths(bad: str) -> None:
    with pytest.raises(ValueError):
        render_spec([bad], [])


@pytest.mark.parametrize(
    "data",
    [b"", b"paw-tui-confine 2\n", b"paw-tui-confine 1\ndir relative\n",
     b"paw-tui-confine 1\nexec /bin/sh\n", b"paw-tui-confine 1\ntmpdir /a\ntmpdir /b\n"],
)  # fmt: skip
def test_bad_specs_are_rejected(data: bytes) -> None:
    with pytest.raises(ValueError):
        parse_spec(data)


def test_write_spec_is_atomic_and_private(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    path = tmp_path / "state" / "s.spec"
    write_spec(str(path), b"one")
    write_spec(str(path), render_spec(["/x"], []))
    assert parse_spec(path.read_bytes()).rules == [(b"/x", True)]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(tmp_path / "state") == ["s.spec"]
