"""Every path paw-tui reads or writes inside a workspace, named once (DESIGN §2).

Each name is a root-relative POSIX path, as messages and scope rules show it; :func:`at`
joins one to a root for the operating system. Nothing here touches the file system, and the
module imports only ``os``: the gate's hot path reads it.
"""

from __future__ import annotations

import os

ORCHESTRATION = ".orchestration"
PAW = ".paw"

INTENTS = f"{ORCHESTRATION}/active_intents.yaml"
GOVERNANCE = f"{ORCHESTRATION}/governance.yaml"
LEDGER = f"{ORCHESTRATION}/agent_trace.jsonl"
INTENT_MAP = f"{ORCHESTRATION}/intent_map.md"
SESSIONS = f"{ORCHESTRATION}/sessions"
APPROVALS = f"{ORCHESTRATION}/approvals"
SCOPE_REQUESTS = f"{ORCHESTRATION}/scope_requests"
ORCHESTRATION_GITIGNORE = f"{ORCHESTRATION}/.gitignore"

CACHE = f"{ORCHESTRATION}/.cache"
"""Machine-owned and rebuildable: the per-intent index, locks, supervisor instructions (the
compiled policy lives in the state directory: reading writes nothing in the workspace)."""
STATE_LOCK = f"{CACHE}/state.lock"
SUPERVISOR = f"{CACHE}/supervisor"

INSTRUCTIONS = f"{PAW}/instructions"
WORK = f"{PAW}/work"
TOOLS = f"{PAW}/tools"
PAW_README = f"{PAW}/README.md"
WORKFLOW_FILE = "WorkflowContext.md"
INSTRUCTIONS_SUFFIX = "-instructions.md"

SHARED_TOOLS = "tools"
"""The second place execution instructions are looked for (``tools/<name>/...``)."""


def at(root: str, relative: str) -> str:
    """``relative`` (one of the names above, or below one) under ``root``, in native form."""
    return os.path.join(root, *relative.split("/"))


def work_item(work_id: str) -> str:
    """``.paw/work/<work_id>``: the directory of one work item."""
    return f"{WORK}/{work_id}"


def workflow_context(work_id: str) -> str:
    """``.paw/work/<work_id>/WorkflowContext.md``."""
    return f"{WORK}/{work_id}/{WORKFLOW_FILE}"
