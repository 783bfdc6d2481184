"""``screenshots/phoenix.png``: a governed session shipped to a real Arize Phoenix, as the
README shows it. Needs the tests' cached Phoenix (installed on first use) and Chromium
(``apt-get install chromium``); run it from the checkout with paw-tui and its ``otel`` extra
installed:

    python scripts/phoenix_screenshot.py [--out screenshots/phoenix.png]

The session is the demo workspace's (the bundled acme-billing service): a Claude Code session
that is told to select an intent, selects INT-006 (a person approves it), writes in scope,
is refused an edit outside its scope and a write into ``.git``, runs its tests and ends. It is
piped through the real ``paw-tui gate`` as Claude Code would send it, shipped with ``paw-tui
trace ship`` and photographed with the refused edit selected.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
from backends.phoenix import phoenix_server

from paw_tui.core.workspace.demo import copy_demo_workspace

PAW = str(Path(sys.executable).with_name("paw-tui"))


def governed_session(root: str, env: dict[str, str]) -> str:
    session = str(uuid.uuid4())
    hook_env = dict(env, CLAUDE_PROJECT_DIR=root, PAW_RESIDENT_GATE="off")

    def hook(event: str, **fields: object) -> None:
        payload = {"session_id": session, "cwd": root, "hook_event_name": event, **fields}
        subprocess.run(
            [PAW, "gate", "--client", "claude-code"],
            input=json.dumps(payload),
            text=True,
            capture_output=True,
            env=hook_env,
        )

    target = os.path.join(root, "src/acme_billing/webhooks/retry.py")
    code = "def backoff(attempt: int) -> float:\n    return min(2 ** attempt, 3600)\n"
    hook("SessionStart", source="startup")
    hook("UserPromptSubmit", prompt="Add retries with exponential backoff to partner webhooks.")
    hook("PreToolUse", tool_name="Write", tool_input={"file_path": target, "content": code})
    hook(
        "PreToolUse",
        tool_name="mcp__paw__select_active_intent",
        tool_input={"intent_id": "INT-006"},
    )
    subprocess.run(
        [PAW, "approvals", "approve", "--session", session],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    hook("PreToolUse", tool_name="Write", tool_input={"file_path": target, "content": code})
    os.makedirs(os.path.dirname(target), exist_ok=True)
    Path(target).write_text(code, encoding="utf-8")
    written = {"file_path": target, "content": code}
    hook("PostToolUse", tool_name="Write", tool_input=written, tool_response={"success": True})
    other = os.path.join(root, "src/acme_billing/api/rate_limit.py")
    edit = {"file_path": other, "old_string": "a", "new_string": "b"}
    hook("PreToolUse", tool_name="Edit", tool_input=edit)
    hook(
        "PreToolUse", tool_name="Bash", tool_input={"command": "python -m pytest tests/webhooks -q"}
    )
    hook("PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf .git/hooks"})
    hook("SessionEnd", reason="exit")
    return session


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "screenshots" / "phoenix.png"))
    options = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Chromium is needed: apt-get install chromium")
    with tempfile.TemporaryDirectory() as base:
        demo = copy_demo_workspace(base)
        env = dict(os.environ, PAW_STATE_DIR=demo.state_dir, PAW_USER_HOME=demo.user_home)
        session = governed_session(demo.root, env)
        with phoenix_server(Path(base) / "phoenix") as phoenix:
            subprocess.run(
                [PAW, "trace", "ship", "--endpoint", phoenix.url, "--project", "acme-billing"],
                cwd=demo.root,
                env=env,
                check=True,
            )
            spans: list[dict[str, Any]] = []
            mine: list[dict[str, Any]] = []
            for _ in range(240):
                url = f"{phoenix.url}/v1/projects/acme-billing/spans?limit=1000"
                try:
                    with urllib.request.urlopen(url) as answer:
                        spans = json.loads(answer.read())["data"]
                except urllib.error.HTTPError:  # the project is not stored yet
                    spans = []
                mine = [
                    s for s in spans if s["attributes"].get("gen_ai.conversation.id") == session
                ]
                if any(s["name"] == "execute_tool Edit" for s in mine):
                    break
                time.sleep(0.5)
            edit = next(s for s in mine if s["name"] == "execute_tool Edit")
            trace = edit["context"]["trace_id"]
            with urllib.request.urlopen(f"{phoenix.url}/v1/projects") as answer:
                projects = json.loads(answer.read())["data"]
            project = next(p["id"] for p in projects if p["name"] == "acme-billing")
            page = (
                f"{phoenix.url}/projects/{project}/traces/{trace}?selectedSpanNodeId={edit['id']}"
            )
            subprocess.run(
                [
                    chromium,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    f"--user-data-dir={base}/chromium",
                    "--window-size=1600,1000",
                    "--virtual-time-budget=15000",
                    f"--screenshot={options.out}",
                    page,
                ],
                check=True,
                capture_output=True,
            )
    print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
