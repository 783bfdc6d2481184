"""install.py without the registry: a fake npm proves the lock, the marker and the skip."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from . import install as inst

FAKE_NPM = """#!/bin/sh
# fake npm: count the call, take a while, then create the binary the real package would
echo call >> "$FAKE_NPM_COUNT"
sleep 0.5
[ -n "$FAKE_NPM_FAIL" ] && { echo "npm ERR! 404" >&2; exit 1; }
prefix=""
while [ $# -gt 0 ]; do [ "$1" = "--prefix" ] && prefix="$2"; shift; done
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\\necho fake\\n' > "$prefix/node_modules/.bin/claude"
chmod +x "$prefix/node_modules/.bin/claude"
"""


def _executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    _executable(bin_dir / "npm", FAKE_NPM)
    _executable(bin_dir / "node", "#!/bin/sh\necho v20\n")
    count = tmp_path / "npm-calls"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setenv("PAW_CLIENTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_NPM_COUNT", str(count))
    return count


SPEC = inst.ClientSpec("fake@1.0.0", "claude", "@fake/claude-code", "1.0.0", "claude")


def test_parallel_installs_run_npm_once(fake_npm: Path, tmp_path: Path) -> None:
    results: list[Path] = []
    threads = [
        threading.Thread(target=lambda: results.append(inst.install(SPEC))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == 4 and len(set(results)) == 1
    assert fake_npm.read_text().splitlines() == ["call"]
    target = tmp_path / "cache" / "@fake" / "claude-code@1.0.0"
    assert results[0] == target / "node_modules" / ".bin" / "claude"
    marker = inst.read_marker(SPEC)
    assert marker is not None and marker["version"] == "1.0.0"
    assert inst.install(SPEC) == results[0]  # idempotent: no second npm call
    assert fake_npm.read_text().splitlines() == ["call"]


def test_failed_install_leaves_no_marker(fake_npm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_NPM_FAIL", "1")
    with pytest.raises(RuntimeError, match="npm install @fake/claude-code@1.0.0 failed"):
        inst.install(SPEC)
    assert inst.read_marker(SPEC) is None
    monkeypatch.delenv("FAKE_NPM_FAIL")
    assert inst.install(SPEC).exists()  # the half-made folder is wiped and redone


def test_missing_node_skips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(pytest.skip.Exception, match="node and npm not found"):
        inst.ensure_client("codex@0.169.0")


def test_pinned_versions() -> None:
    assert {key: spec.spec for key, spec in inst.CLIENTS.items()} == {
        "claude-code@2.1.330": "@anthropic-ai/claude-code@2.1.330",
        "claude-code@2.1.197": "@anthropic-ai/claude-code@2.1.197",
        "gemini-cli@0.61.0": "@google/gemini-cli@0.61.0",
        "codex@0.169.0": "@openai/codex@0.169.0",
        "copilot@1.0.102": "@github/copilot@1.0.102",
        "cline@3.0.65": "cline@3.0.65",
        "opencode@1.18.33": "opencode-ai@1.18.33",
        "qwen-code@0.24.4": "@qwen-code/qwen-code@0.24.4",
    }
