"""Context Protocol v1 (DESIGN §9, seed 004): the ``<context>`` block a primary agent hands on.

:func:`build_handoff` gathers the block from the workspace (``docs/project.json``,
``docs/CONVENTIONS.md``, the session's intent, the work item, git); :func:`render_handoff`
prints it as ``<context>\\n<YAML>\\n</context>``; :func:`parse_handoff` reads one from the
start of a prompt as **ok**, **fallback** or **invalid**. Both directions check the block
against the JSON Schema shipped in ``paw_tui/schemas/`` with a small built-in checker (the
keywords that schema uses), so jsonschema is not needed at run time.
"""

from __future__ import annotations

import json
import os
import re

from paw_tui.core.errors import ValidationError
from paw_tui.core.handoff.sources import (
    CONVENTIONS_MD,
    MAX_SENTENCES,
    MAX_SUMMARY_TOKENS,
    MIN_SENTENCES,
    PROJECT_JSON,
    active_story,
    count_tokens,
    fit_summary,
    git_branch,
    prose_sentences,
    read_optional_text,
    read_project_json,
    summarise_conventions,
    work_title,
)
from paw_tui.core.support.json_types import json_type_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SCHEMA_FILE = "context_protocol_v1.schema.json"
VERSION = 1
OPEN_TAG = "<context>"
CLOSE_TAG = "</context>"
OK = "ok"
FALLBACK = "fallback"
INVALID = "invalid"
_schema_cache: dict[str, object] = {}

__all__ = [
    "FALLBACK",
    "INVALID",
    "OK",
    "VERSION",
    "HandoffResult",
    "active_story",
    "build_handoff",
    "check_schema",
    "count_tokens",
    "fit_summary",
    "format_result",
    "git_branch",
    "handoff_for_workspace",
    "load_schema",
    "parse_handoff",
    "read_project_json",
    "render_handoff",
    "summarise_conventions",
    "work_title",
]


# --- the schema and its checker ---------------------------------------------------------


def load_schema() -> dict[str, object]:
    """The Context Protocol v1 JSON Schema shipped in the package."""
    cached = _schema_cache.get(SCHEMA_FILE)
    if cached is None:
        import paw_tui.schemas

        path = os.path.join(os.path.dirname(paw_tui.schemas.__file__), SCHEMA_FILE)
        with open(path, "rb") as handle:
            cached = json.loads(handle.read())
        _schema_cache[SCHEMA_FILE] = cached
    return cached  # type: ignore[return-value]


def _is_type(value: object, kind: str) -> bool:
    actual = json_type_name(value)
    return actual == kind or (kind == "number" and actual == "integer")


def _required_leaves(schema: Mapping[str, object], path: str) -> list[str]:
    """The dotted names a missing ``path`` stands for: its required children, recursively."""
    required = schema.get("required")
    properties = schema.get("properties")
    if not isinstance(required, list) or not required or not isinstance(properties, dict):
        return [path]
    leaves: list[str] = []
    for name in required:
        sub = properties.get(name)
        leaves += _required_leaves(sub if isinstance(sub, dict) else {}, f"{path}.{name}")
    return leaves


def check_schema(
    value: object, schema: Mapping[str, object], path: str = ""
) -> tuple[list[str], list[str]]:
    """``(missing, problems)`` of ``value`` against the keywords the shipped schema uses
    (type, const, minLength, required, properties, additionalProperties). A null counts as
    absent; a missing object with required members is reported as its missing members."""
    missing: list[str] = []
    problems: list[str] = []
    shown = path or "the block"
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
    if kinds and not any(_is_type(value, k) for k in kinds):
        problems.append(
            f"{shown} must be of type {' or '.join(kinds)}, not {json_type_name(value)}"
        )
        return missing, problems
    if "const" in schema and (
        value != schema["const"] or json_type_name(value) != json_type_name(schema["const"])
    ):
        problems.append(f"{shown} must be {json.dumps(schema['const'])}")
    min_length = schema.get("minLength")
    if isinstance(value, str) and isinstance(min_length, int) and len(value.strip()) < min_length:
        problems.append(f"{shown} must not be empty")
    if not isinstance(value, dict):
        return missing, problems
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    required = required if isinstance(required, list) else []
    extra = schema.get("additionalProperties", True)
    # Declared members first, in schema order (so the missing ones are named in that order).
    names = [name for name in properties if name in required or name in value]
    names += [name for name in required if name not in properties]
    names += [name for name in value if name not in properties and name not in required]
    for name in names:
        child = f"{path}.{name}".lstrip(".")
        sub = properties.get(name)
        item = value.get(name)
        if item is None:
            if name in required:
                missing += _required_leaves(sub if isinstance(sub, dict) else {}, child)
            continue
        if sub is None:
            if extra is False:
                problems.append(f"{child} is not allowed")
            elif isinstance(extra, dict):
                sub = extra
        if isinstance(sub, dict):
            sub_missing, sub_problems = check_schema(item, sub, child)
            missing += sub_missing
            problems += sub_problems
    return missing, problems


# --- building ---------------------------------------------------------------------------


def build_handoff(
    root: str,
    *,
    story: str | None = None,
    prd: str | None = None,
    summary: str | None = None,
    session_id: str | None = None,
    work_id: str | None = None,
    warnings: list[str] | None = None,
) -> dict[str, object]:
    """The block's data in the documented key order. ``warnings`` (when given) collects what
    was trimmed or left out; ValidationError names a missing or malformed input."""
    notes = warnings if warnings is not None else []
    path = os.path.abspath(root)
    stack, commands = read_project_json(path)
    conventions_path = os.path.join(path, "docs", "CONVENTIONS.md")
    original = (
        summary if summary is not None else _conventions_summary(path, conventions_path, notes)
    )
    if not original.strip():
        raise ValidationError("The conventions summary (--summary) must not be empty.")
    text, trimmed = fit_summary(original)
    if trimmed:
        notes.append(
            f"warning: the conventions summary was {count_tokens(' '.join(original.split()))} tokens; "
            f"trimmed to {count_tokens(text)} (the limit is {MAX_SUMMARY_TOKENS})."
        )
    project: dict[str, object] = {"path": path, "stack": stack}
    if commands:
        project["commands"] = commands
    conventions: dict[str, object] = {"summary": text}
    if os.path.isfile(conventions_path):
        conventions["fullPath"] = conventions_path
    work = _current_work(path, story, prd, session_id, work_id, notes)
    block: dict[str, object] = {"version": VERSION, "project": project, "conventions": conventions}
    if work:
        block["currentWork"] = work
    missing, problems = check_schema(block, load_schema())
    if missing or problems:  # pragma: no cover - every input was checked above
        raise ValidationError(
            f"The built context block is invalid: {'; '.join(problems + missing)}."
        )
    return block


def _conventions_summary(path: str, conventions_path: str, notes: list[str]) -> str:
    """The first prose sentences of ``docs/CONVENTIONS.md`` (ValidationError when none)."""
    markdown = read_optional_text(conventions_path, CONVENTIONS_MD)
    if markdown is None:
        raise ValidationError(
            f"No conventions summary: {CONVENTIONS_MD} does not exist under {path}; pass --summary TEXT."
        )
    sentences = prose_sentences(markdown)[:MAX_SENTENCES]
    if not sentences:
        raise ValidationError(
            f"No conventions summary: {CONVENTIONS_MD} has no prose (headings and code are "
            "skipped); pass --summary TEXT."
        )
    if len(sentences) < MIN_SENTENCES:
        notes.append(
            f"warning: {CONVENTIONS_MD} has a single prose sentence; the protocol asks for "
            f"{MIN_SENTENCES} to {MAX_SENTENCES} (pass --summary TEXT for a fuller one)."
        )
    return " ".join(sentences)


def _current_work(
    path: str,
    story: str | None,
    prd: str | None,
    session_id: str | None,
    work_id: str | None,
    notes: list[str],
) -> dict[str, object]:
    """``currentWork``: the flags, else the work item's title and the session's intent."""
    if prd is None and work_id is not None:
        prd = work_title(path, work_id)
        if prd is None:
            notes.append(
                f"warning: .paw/work/{work_id}/WorkflowContext.md has no Work Title; currentWork.prd left out."
            )
    if story is None and session_id is not None:
        story = active_story(path, session_id)
        if story is None:
            notes.append(
                f"warning: session '{session_id}' holds no active intent; currentWork.story left out."
            )
    work: dict[str, object] = {}
    for key, value in (("prd", prd), ("story", story), ("branch", git_branch(path))):
        if value is not None and value.strip():
            work[key] = " ".join(value.split())
    return work


def render_handoff(block: Mapping[str, object]) -> str:
    """``<context>\\n<YAML>\\n</context>`` (no trailing newline)."""
    import yaml

    body = yaml.safe_dump(dict(block), sort_keys=False, allow_unicode=True, width=float("inf"))
    return f"{OPEN_TAG}\n{body}{CLOSE_TAG}"


def handoff_for_workspace(root: str, session_id: str | None = None) -> str:
    """What ``handoff build [--session S]`` prints for the workspace (for the MCP server)."""
    return render_handoff(build_handoff(root, session_id=session_id))


# --- parsing ----------------------------------------------------------------------------


class HandoffResult:
    """What a receiving agent should do: ``ok``, ``fallback`` or ``invalid``."""

    __slots__ = ("status", "version", "context", "reason", "missing", "plan")

    def __init__(
        self,
        status: str,
        version: object = None,
        context: dict[str, object] | None = None,
        reason: str | None = None,
        missing: list[str] | None = None,
        plan: list[str] | None = None,
    ) -> None:
        self.status = status
        self.version = version
        self.context = context
        self.reason = reason
        self.missing = list(missing or [])
        self.plan = list(plan or [])

    @property
    def exit_code(self) -> int:
        return 2 if self.status == INVALID else 0

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` form; absent keys are left out."""
        data: dict[str, object] = {"status": self.status}
        for name in ("version", "context", "reason"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.missing:
            data["missing"] = self.missing
        if self.plan:
            data["plan"] = self.plan
        return data

    def __repr__(self) -> str:
        return f"HandoffResult({self.status!r}, reason={self.reason!r}, missing={self.missing!r})"


def fallback_plan(root: str | None) -> list[str]:
    base = os.path.abspath(root) if root else None
    return [
        f"read {os.path.join(base, *name.split('/')) if base else name}"
        for name in (PROJECT_JSON, CONVENTIONS_MD)
    ]


def _version_of(raw: object) -> int | None:
    """1 for the versions read as 1 (a number equal to 1, or the string ``"1"``)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)) and raw == 1:
        return 1
    if isinstance(raw, str) and raw.strip() == "1":
        return 1
    return None


def _plain(value: object) -> object:
    """YAML values JSON can carry (dates and other scalars as strings)."""
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


_VERSION_LINE = re.compile(r"^version[ \t]*:[ \t]*(['\"]?)([^'\"#]*?)\1[ \t]*(?:#.*)?$")


def parse_handoff(text: str, root: str | None = None) -> HandoffResult:
    """The ``<context>`` block at the start of ``text`` (blank lines and a BOM before it are
    allowed). ``root`` makes the fallback plan's paths absolute."""
    import yaml

    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    plan = fallback_plan(root)
    if start >= len(lines) or lines[start].strip() != OPEN_TAG:
        later = next((n for n in range(start, len(lines)) if lines[n].strip() == OPEN_TAG), None)
        reason = "no <context> block at the start of the prompt"
        if later is not None:
            reason += f" (one appears at line {later + 1}, but only a block at the start counts)"
        return HandoffResult(FALLBACK, reason=reason, plan=plan)
    end = next((n for n in range(start + 1, len(lines)) if lines[n].strip() == CLOSE_TAG), None)
    if end is None:
        return HandoffResult(
            INVALID,
            VERSION,
            reason=f"the <context> block opened at line {start + 1} has no closing </context> line",
        )
    body = "\n".join(lines[start + 1 : end])
    first_line = start + 2
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        for raw in body.split("\n"):
            declared = _VERSION_LINE.match(raw)
            if declared and declared.group(2) and _version_of(declared.group(2)) is None:
                return HandoffResult(
                    FALLBACK,
                    declared.group(2),
                    reason=f"version {declared.group(2)} "
                    "is not supported (this reader understands version 1)",
                    plan=plan,
                )
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = first_line + mark.line if mark is not None else start + 1
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        return HandoffResult(
            INVALID,
            VERSION,
            reason=f"the <context> block is not valid YAML: line {line}: {problem}",
        )
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return HandoffResult(
            INVALID,
            VERSION,
            reason=f"the <context> block must be a YAML mapping, "
            f"not {json_type_name(data)} (line {first_line})",
        )
    data = _plain(data)
    assert isinstance(data, dict)  # _plain keeps a mapping a mapping
    raw_version = data.get("version")
    if raw_version is not None and _version_of(raw_version) is None:
        return HandoffResult(
            FALLBACK,
            raw_version,
            reason=f"version {json.dumps(raw_version)} is not "
            "supported (this reader understands version 1)",
            plan=plan,
        )
    context: dict[str, object] = {"version": VERSION}
    context.update((key, value) for key, value in data.items() if key != "version")
    missing, problems = check_schema(context, load_schema())
    if missing or problems:
        parts = []
        if missing:
            parts.append(
                f"it lacks the required field{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
            )
        parts += problems
        return HandoffResult(INVALID, VERSION, reason="; ".join(parts), missing=missing)
    return HandoffResult(OK, VERSION, context)


def _flatten(value: object, prefix: str) -> list[str]:
    if isinstance(value, dict) and value:
        lines: list[str] = []
        for key, item in value.items():
            lines += _flatten(item, f"{prefix}.{key}" if prefix else str(key))
        return lines
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return [f"{prefix}: {shown}"]


def format_result(result: HandoffResult) -> str:
    """The text form of a parse result (no trailing newline)."""
    if result.status == OK:
        lines = [f"ok: a Context Protocol v{VERSION} block starts the prompt."]
        lines += _flatten({k: v for k, v in (result.context or {}).items() if k != "version"}, "")
        return "\n".join(lines)
    if result.status == FALLBACK:
        lines = [f"fallback: {result.reason}.", "Plan: read the files directly instead:"]
        return "\n".join(lines + [f"- {step}" for step in result.plan])
    return f"invalid: Context Protocol v{VERSION} block: {result.reason}."
