"""landlock.py against the real kernel, always in a child process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paw_tui.core.confine import landlock

from .confine_kit import ABI, CONFINE_DIR, PYTHON, clean_env, needs_landlock


def child(code: str, cwd: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in ``python -I -S`` with ``landlock`` importable as a plain module."""
    prelude = f"import sys, os\nsys.path.insert(0, {str(CONFINE_DIR)!r})\nimport landlock\n"
    return subprocess.run(
        [PYTHON, "-I", "-S", "-c", prelude + textwrap.dedent(code)],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_abi_version_is_an_int_and_cached() -> None:
    assert isinstance(landlock.abi_version(), int)
    assert landlock.abi_version() == landlock.abi_version() >= 0


def test_handled_rights_follow_the_abi() -> None:
    assert landlock.handled_rights(0) == 0
    one = landlock.handled_rights(1)
    assert not one & (landlock.READ_FILE | landlock.READ_DIR | landlock.EXECUTE)
    assert not one & (landlock.REFER | landlock.TRUNCATE | landlock.IOCTL_DEV)
    assert landlock.handled_rights(2) == one | landlock.REFER
    assert landlock.handled_rights(3) == one | landlock.REFER | landlock.TRUNCATE
    assert landlock.handled_rights(4) == landlock.handled_rights(3)  # ABI 4 is network only
    assert landlock.handled_rights(5) & landlock.IOCTL_DEV
    assert landlock.handled_rights(7) == landlock.handled_rights(5)
    assert set(landlock.RIGHT_NAMES) == {
        1 << bit for bit in range(16) if (1 << bit) & landlock.handled_rights(7)
    }
    assert "truncate(2) by path outside the writable set" in landlock.unenforced(2)
    assert landlock.unenforced(7) == []
    assert landlock.unenforced(0)


def test_unavailable_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert landlock._probe_abi() == 0


@needs_landlock
def test_root_is_restricted_too_and_rules_are_checked(tmp_path: Path) -> None:
    ok, no = tmp_path / "ok", tmp_path / "no"
    ok.mkdir()
    no.mkdir()
    (no / "file").write_text("keep\n")
    result = child(
        f"""
        skipped = landlock.restrict_writes([
            ({str(ok)!r}, True), ({str(no / "file")!r}, True), ("/nonexistent/x", True),
            ({str(tmp_path)!r}, False),
        ])
        print(sorted((p, r) for p, r in skipped))
        print(os.geteuid())
        open({str(ok / "new")!r}, "w").write("fine")
        open({str(no / "file")!r}, "a").write("+")  # a dir entry on a file gets file rights
        for path in ({str(no / "new")!r}, {str(tmp_path / "top")!r}):
            try:
                open(path, "w")
            except PermissionError:
                print("denied", path)
        """,
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "No such file or directory" in lines[0] and "is a directory" in lines[0]
    if os.geteuid() == 0:  # the point: uid 0 holds no capability that passes Landlock
        assert lines[1] == "0"
    assert lines[2:] == [f"denied {no / 'new'}", f"denied {tmp_path / 'top'}"]
    assert (ok / "new").read_text() == "fine"
    assert (no / "file").read_text() == "keep\n+"
    assert not (no / "new").exists()


@needs_landlock
def test_domains_stack_up_to_the_kernel_limit(tmp_path: Path) -> None:
    result = child(
        """
        for layer in range(1, 40):
            try:
                landlock.restrict_writes([("/", True)])
            except landlock.TooManyLayers as exc:
                print(layer, exc.errno, exc)
                break
        """,
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    layer, errno, *_ = result.stdout.split()
    assert layer == "17" and errno == "7"  # 16 layers at most (E2BIG beyond)


@needs_landlock
@pytest.mark.skipif(ABI < 5, reason="IOCTL_DEV needs Landlock ABI 5")
def test_device_ioctls_need_a_grant(tmp_path: Path) -> None:
    result = child(
        """
        import fcntl
        RNDGETENTCNT = 0x80045200
        before = open("/dev/urandom", "rb")
        landlock.restrict_writes([("/dev/null", False)])
        fcntl.ioctl(before, RNDGETENTCNT, b"1234")  # opened before: every right kept
        with open("/dev/null", "rb") as granted:
            try:
                fcntl.ioctl(granted, RNDGETENTCNT, b"1234")
            except OSError as exc:
                print("granted", exc.errno)  # ENOTTY: reached the driver
        with open("/dev/urandom", "rb") as later:
            try:
                fcntl.ioctl(later, RNDGETENTCNT, b"1234")
            except PermissionError:
                print("ungranted denied")
        """,
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["granted 25", "ungranted denied"]
