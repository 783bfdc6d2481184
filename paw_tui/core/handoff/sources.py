"""The inputs of a Context Protocol v1 block (DESIGN §9), read from the workspace.

``docs/project.json`` (stack and commands), the prose of ``docs/CONVENTIONS.md`` as a short
summary, the git branch (``.git/HEAD`` read directly, worktrees followed), the session's
active intent and the work item's title. Each reader names the file at fault when it must
stop (ValidationError).
"""

from __future__ import annotations

import json
import os
import re

from paw_tui.core.context.tokens import estimate_tokens
from paw_tui.core.errors import ValidationError
from paw_tui.core.support.json_types import json_type_name

PROJECT_JSON = "docs/project.json"
CONVENTIONS_MD = "docs/CONVENTIONS.md"
MAX_SUMMARY_TOKENS = 200
MIN_SENTENCES = 2
MAX_SENTENCES = 5
_WORK_ID = re.compile(r"[a-z0-9-]+")


def count_tokens(text: str) -> int:
    """Tokens as the protocol counts them: ceil(characters / 4)."""
    return estimate_tokens(text)


def read_optional_text(path: str, shown: str) -> str | None:
    """The file's text (None when absent); ValidationError when it cannot be read."""
    from paw_tui.core.support.textfile import describe_os_error, read_source_text

    try:
        return read_source_text(path)
    except OSError as exc:
        raise ValidationError(f"Cannot read {shown}: {describe_os_error(exc, path)}.") from None
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{shown}: not valid UTF-8 (byte offset {exc.start}).") from None


def read_project_json(root: str) -> tuple[str, dict[str, str]]:
    """``(stack, commands)`` from ``docs/project.json``; ValidationError naming what is wrong."""
    text = read_optional_text(os.path.join(root, "docs", "project.json"), PROJECT_JSON)
    if text is None:
        raise ValidationError(
            f"{PROJECT_JSON} does not exist under {root}; create it as "
            '{"stack": "<stack>", "commands": {"<name>": "<command>"}}.'
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"{PROJECT_JSON}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}."
        ) from None
    if not isinstance(data, dict):
        raise ValidationError(
            f"{PROJECT_JSON} must hold a JSON object, not {json_type_name(data)}."
        )
    stack = data.get("stack")
    if not isinstance(stack, str) or not stack.strip():
        found = "" if stack is None else f" (found {json_type_name(stack)} {json.dumps(stack)})"
        raise ValidationError(
            f"{PROJECT_JSON} has no 'stack'{found}: it must be a non-empty string naming the stack."
        )
    raw = data.get("commands")
    commands: dict[str, str] = {}
    if raw is not None:
        if not isinstance(raw, dict):
            raise ValidationError(
                f"{PROJECT_JSON}: 'commands' must be an object of name: command, not {json_type_name(raw)}."
            )
        for name, command in raw.items():
            if not isinstance(command, str):
                raise ValidationError(
                    f"{PROJECT_JSON}: command '{name}' must be a string, not {json_type_name(command)}."
                )
            commands[name] = command
    return stack.strip(), commands


_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_SETEXT = re.compile(r"^[ \t]{0,3}(?:=+|-+)[ \t]*$")
_RULE = re.compile(r"^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9`\"'(\[])")


def _front_matter_end(lines: list[str]) -> int:
    if not lines or lines[0].strip() != "---":
        return 0
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return index + 1
    return 0


def _clean_block(lines: list[str]) -> str:
    text = " ".join(lines)
    text = _LINK.sub(r"\1", _IMAGE.sub("", text)).replace("**", "").replace("__", "")
    text = " ".join(text.split())
    if not text:
        return ""
    if text[-1] in ":;,":
        text = text[:-1].rstrip()
    if text and text.rstrip("\"')]")[-1:] not in (".", "!", "?"):
        text += "."
    return text


def prose_blocks(markdown: str) -> list[str]:
    """The prose of a Markdown file as blocks (paragraphs, list items, quotes); headings,
    code (fenced or indented), tables, rules, HTML and front matter are skipped."""
    lines = _COMMENT.sub("", markdown.replace("\r\n", "\n")).split("\n")
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        cleaned = _clean_block(current)
        if cleaned:
            blocks.append(cleaned)
        current.clear()

    fence: str | None = None
    in_quote = False
    for line in lines[_front_matter_end(lines) :]:
        marker = _FENCE.match(line)
        if fence is not None:
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
                fence = None
            continue
        if marker:
            flush()
            fence = marker.group(1)
            continue
        if not line.strip():
            flush()
            continue
        if _SETEXT.match(line) and current:  # the paragraph so far was a heading
            current.clear()
            continue
        if _ATX.match(line) or _RULE.match(line) or _SETEXT.match(line):
            flush()
            continue
        indented = line.startswith("\t") or line.startswith("    ")
        item = _ITEM.match(line)
        if indented and not current and not item:
            continue  # indented code
        stripped = line.strip()
        quoted = stripped.startswith(">")
        if quoted != in_quote:  # a quote starts (or ends) a block of its own
            flush()
            in_quote = quoted
        while stripped.startswith(">"):
            stripped = stripped[1:].strip()
        if (
            not stripped
            or stripped.startswith("|")
            or (stripped.startswith("<") and stripped.endswith(">"))
        ):
            flush()
            continue
        if item:
            flush()
            stripped = item.group(1).strip()
        current.append(stripped)
    flush()
    return blocks


def prose_sentences(markdown: str) -> list[str]:
    """Every prose sentence of a Markdown file, in order."""
    sentences: list[str] = []
    for block in prose_blocks(markdown):
        sentences += [part.strip() for part in _SENTENCE_END.split(block) if part.strip()]
    return sentences


def fit_summary(text: str, max_tokens: int = MAX_SUMMARY_TOKENS) -> tuple[str, bool]:
    """``(summary, trimmed)``: whitespace collapsed, then cut to whole sentences within
    ``max_tokens`` (or, when even the first sentence is longer, at a word with ``…``)."""
    summary = " ".join(text.split())
    if count_tokens(summary) <= max_tokens:
        return summary, False
    limit = max_tokens * 4
    kept = ""
    for sentence in (part for part in _SENTENCE_END.split(summary) if part.strip()):
        candidate = f"{kept} {sentence.strip()}".strip()
        if len(candidate) > limit:
            break
        kept = candidate
    if not kept:
        cut = summary[: limit - 1]
        if " " in cut:
            cut = cut[: cut.rindex(" ")]
        kept = cut.rstrip(" ,;:") + "\u2026"
    return kept, True


def summarise_conventions(markdown: str) -> tuple[str, bool]:
    """The first prose sentences (up to five) as the summary, fitted to 200 tokens."""
    return fit_summary(" ".join(prose_sentences(markdown)[:MAX_SENTENCES]))


def find_git_dir(start: str) -> str | None:
    """The git directory of the repository holding ``start`` (a ``.git`` file's ``gitdir:``
    followed, as in a worktree or submodule); None outside a repository."""
    current = os.path.abspath(start)
    while True:
        dotgit = os.path.join(current, ".git")
        if os.path.isdir(dotgit):
            return dotgit
        if os.path.isfile(dotgit):
            try:
                with open(dotgit, encoding="utf-8", errors="replace") as handle:
                    first = handle.readline().strip()
            except OSError:
                return None
            if not first.startswith("gitdir:"):
                return None
            target = os.path.normpath(os.path.join(current, first[len("gitdir:") :].strip()))
            return target if os.path.isdir(target) else None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def git_branch(start: str) -> str | None:
    """The checked-out branch of the repository holding ``start``; None outside a repository
    or on a detached HEAD."""
    git_dir = find_git_dir(start)
    if git_dir is None:
        return None
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8", errors="replace") as handle:
            head = handle.readline().strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return None  # detached: HEAD holds a commit id
    ref = head[len("ref:") :].strip()
    prefix = "refs/heads/"
    if not ref.startswith(prefix) or len(ref) == len(prefix):
        return None
    return ref[len(prefix) :]


def active_story(root: str, session_id: str) -> str | None:
    """The name of the intent the session actively holds (live, approved); else None."""
    import time

    from paw_tui.core.handshake.sessions import ACTIVE, load_session
    from paw_tui.core.policy.compiled import load_policy

    session = load_session(root, session_id)
    if session is None or session.state != ACTIVE or not session.intent_id:
        return None
    policy = load_policy(root)
    if not policy.valid or not session.is_live(time.time(), policy.governance.session_ttl):
        return None
    intent = policy.intent(session.intent_id)
    return intent.name if intent is not None and intent.name else None


def work_title(root: str, work_id: str) -> str | None:
    """The ``Work Title`` of ``.paw/work/<work_id>/WorkflowContext.md`` (None when it has
    none); ValidationError for a bad work id or a missing file."""
    from paw_tui.core.context.workflow import parse_fields

    if not _WORK_ID.fullmatch(work_id):
        raise ValidationError(
            f"Invalid Work ID format: '{work_id}'. Work IDs must contain only lowercase letters, "
            "numbers, and hyphens."
        )
    shown = f".paw/work/{work_id}/WorkflowContext.md"
    text = read_optional_text(
        os.path.join(root, ".paw", "work", work_id, "WorkflowContext.md"), shown
    )
    if text is None:
        raise ValidationError(f"{shown} does not exist under {root}.")
    for name, value in parse_fields(text).items():
        if name.casefold() == "work title" and value.strip():
            return value.strip()
    return None
