"""Hashing a file for the ledger's indexes and the intent map: the builtin SHA-256 (no
``hashlib`` import) up to a size, OpenSSL's past it, the same digest either way; nothing but a
regular file is ever opened."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paw_tui.core.ledger.touched import file_sha256
from paw_tui.core.support import hashing


def test_a_regular_file_hashes_as_hashlib_does_on_either_side_of_the_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.bin"
    data = os.urandom(3 * hashing.FILE_CHUNK + 17)
    path.write_bytes(data)
    expected = "sha256:" + hashlib.sha256(data).hexdigest()
    found = hashing.hash_regular_file(str(path))
    assert found is not None and found[0] == expected and found[1].st_size == len(data)
    monkeypatch.setattr(hashing, "LARGE_FILE", 1024)  # the OpenSSL side
    assert file_sha256(str(path)) == expected


def test_nothing_but_a_regular_file_is_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it for reading without O_NONBLOCK would hang
    assert hashing.hash_regular_file(str(fifo)) is None
    assert file_sha256(str(tmp_path)) is None  # a directory
    assert file_sha256(str(tmp_path / "missing")) is None
    assert file_sha256(str(tmp_path / "missing" / "below")) is None
    link = tmp_path / "link"
    link.symlink_to(fifo)
    assert file_sha256(str(link)) is None


def test_a_small_file_is_hashed_without_importing_hashlib(tmp_path: Path) -> None:
    path = tmp_path / "small.py"
    path.write_text("x = 1\n")
    code = (
        "import sys\n"
        "from paw_tui.core.ledger.touched import file_sha256\n"
        f"print(file_sha256({str(path)!r}), 'hashlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    digest, imported = done.stdout.split()
    assert digest == "sha256:" + hashlib.sha256(b"x = 1\n").hexdigest()
    assert imported == "False", done.stderr
