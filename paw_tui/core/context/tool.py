"""``paw_get_context``: validate the request, find the work item, load the three files.

Validation order and messages are a contract (DESIGN §3); they raise
:class:`~paw_tui.core.errors.ValidationError` (exit 2). Read problems are values inside the
result: the tool always returns whatever it could load.
"""

from __future__ import annotations

import os

from paw_tui.core.context.instructions import load_instructions, workspace_instructions_dir
from paw_tui.core.errors import CancelledError, ValidationError
from paw_tui.core.support.textfile import FileStatus, load_text_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from paw_tui.core.support.textfile import ReadBytes

# What a Work ID may hold (ASCII only); a set, not a regex: ``re`` would cost this command
# about half of its start-up budget (DESIGN §10).
WORK_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
WORKFLOW_FILE = "WorkflowContext.md"
CANCELLED_MESSAGE = "Context retrieval was cancelled."


class WorkflowStatus(FileStatus):
    """WorkflowContext.md's status plus its parsed ``Field: Value`` lines."""

    __slots__ = ("_fields",)

    def __init__(self, status: FileStatus) -> None:
        super().__init__(status.path, status.exists, status.content, status.error)
        self._fields: dict[str, str] | None = None

    @property
    def fields(self) -> dict[str, str]:
        """Parsed on first use: the text output never needs them."""
        if self._fields is None:
            from paw_tui.core.context.workflow import parse_fields

            self._fields = parse_fields(self.content) if self.content else {}
        return self._fields

    @property
    def work_id(self) -> str | None:
        from paw_tui.core.context.workflow import work_id_of

        return work_id_of(self.fields)

    def to_dict(self) -> dict[str, object]:
        data = super().to_dict()
        data["fields"] = dict(self.fields)
        data["work_id"] = self.work_id
        return data


class ContextResult:
    """Everything ``paw_get_context`` found for one work item and agent."""

    __slots__ = (
        "work_id",
        "agent_name",
        "root",
        "workspace_instructions",
        "user_instructions",
        "workflow_context",
    )

    def __init__(
        self,
        work_id: str,
        agent_name: str,
        root: str,
        workspace_instructions: FileStatus,
        user_instructions: FileStatus,
        workflow_context: WorkflowStatus,
    ) -> None:
        self.work_id = work_id
        self.agent_name = agent_name
        self.root = root
        self.workspace_instructions = workspace_instructions
        self.user_instructions = user_instructions
        self.workflow_context = workflow_context

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` shape of DESIGN §3."""
        return {
            "workspace_instructions": self.workspace_instructions.to_dict(),
            "user_instructions": self.user_instructions.to_dict(),
            "workflow_context": self.workflow_context.to_dict(),
            "root": self.root,
        }


def _has_control_character(text: str) -> bool:
    return any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in text)


def validate_request(feature_slug: object, agent_name: object) -> tuple[str, str]:
    """The trimmed work id and agent name, or ValidationError with the contract message."""
    slug = feature_slug.strip() if isinstance(feature_slug, str) else ""
    if not slug:
        raise ValidationError("Invalid feature_slug: value must be a non-empty string.")
    if not WORK_ID_CHARACTERS.issuperset(slug):
        raise ValidationError(
            f"Invalid Work ID format: '{slug}'. Work IDs must contain only lowercase letters, "
            "numbers, and hyphens."
        )
    agent = agent_name.strip() if isinstance(agent_name, str) else ""
    if not agent:
        raise ValidationError("Invalid agent_name: value must be a non-empty string.")
    if "/" in agent or "\\" in agent or agent in (".", "..") or _has_control_character(agent):
        raise ValidationError(
            f"Invalid agent_name: '{agent}' must not contain path separators or control characters."
        )
    return slug, agent


def work_dir(root: str, work_id: str) -> str:
    return os.path.join(root, ".paw", "work", work_id)


def find_work_root(roots: Sequence[str], work_id: str) -> str:
    """The first root holding the directory ``.paw/work/<work_id>/``."""
    if not roots:
        raise ValidationError(
            "Unable to determine workspace path: no workspace folder is currently open."
        )
    for root in roots:
        if os.path.isdir(work_dir(root, work_id)):
            return root
    raise ValidationError(
        f"Work ID '{work_id}' not found in any workspace. Expected directory "
        f".paw/work/{work_id}/ to exist in one of: {', '.join(roots)}. "
        "Please verify the Work ID is correct."
    )


def instruction_layers(
    agent_name: object, *, root: str, user_instructions_dir: str | None
) -> ContextResult:
    """Both instruction layers of an agent, without a work item (an empty workflow section):
    what the TUI shows before a work item is picked and ``prompt --agent`` appends. Raises
    ValidationError for a bad agent name, with the messages of :func:`validate_request`."""
    _, agent = validate_request("x", agent_name)
    return ContextResult(
        "",
        agent,
        root,
        load_instructions(workspace_instructions_dir(root), agent),
        load_instructions(user_instructions_dir, agent),
        WorkflowStatus(FileStatus("")),
    )


def get_context(
    feature_slug: object,
    agent_name: object,
    *,
    roots: Sequence[str],
    user_instructions_dir: str | None,
    read_bytes: ReadBytes | None = None,
    is_cancelled: Callable[[], bool] | None = None,
) -> ContextResult:
    """Resolve ``paw_get_context`` for a work item and an agent.

    ``roots`` are the workspace roots in search order (see
    :func:`paw_tui.core.workspace.discovery.discover_roots`); ``user_instructions_dir`` is the user
    layer (see :func:`paw_tui.core.workspace.platform.user_instructions_dir`). ``is_cancelled`` is
    polled between files; when it answers true, :class:`CancelledError` is raised.
    """
    work_id, agent = validate_request(feature_slug, agent_name)
    root = find_work_root(roots, work_id)

    def check_cancelled() -> None:
        if is_cancelled is not None and is_cancelled():
            raise CancelledError(CANCELLED_MESSAGE)

    check_cancelled()
    workspace = load_instructions(workspace_instructions_dir(root), agent, read_bytes)
    check_cancelled()
    user = load_instructions(user_instructions_dir, agent, read_bytes)
    check_cancelled()
    workflow_path = os.path.join(work_dir(root, work_id), WORKFLOW_FILE)
    workflow = WorkflowStatus(load_text_file(workflow_path, WORKFLOW_FILE, read_bytes))
    return ContextResult(work_id, agent, root, workspace, user, workflow)
