"""Execution instructions (DESIGN §8, seed 003 layer 2): guidance loaded as a tool is called.

The file of a tool is found by ``governance.yaml: tool_instructions: {TOOL: path}``, else
``.paw/tools/<name>/execution_instructions.md``, else ``tools/<name>/execution_instructions.md``;
each place tries the exact name, then ``_`` as ``-``, then ``-`` as ``_``.

From the file, the text before the first ``###`` heading is always kept. A ``###`` section is
kept when a phrase of its ``**Keywords**:`` line occurs in the question as whole words (case
aside), or when it has no Keywords line; when no section matched, the whole file is kept.
Then ``{question}``, ``{tool_name}`` and ``{<arg>}`` are substituted in one pass (``{{`` and
``}}`` are literal braces); an unknown variable stays as written unless ``strict``.

The gate imports this module: standard library only, nothing heavy at import time.
"""

from __future__ import annotations

import os
import re

from paw_tui.core.errors import ValidationError
from paw_tui.core.prompt.names import name_variants
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.policy.governance import Governance

INSTRUCTIONS_FILE = "execution_instructions.md"
SEARCH_DIRS = (layout.TOOLS, layout.SHARED_TOOLS)
GUIDANCE_TEMPLATE = "TOOL EXECUTION GUIDANCE for {tool}:\n\n{text}\n\nUse this guidance when interpreting the tool results."
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_SECTION = re.compile(r"^[ \t]{0,3}###(?!#)(?:[ \t]|$)")
_KEYWORDS = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?\*\*keywords(?:\*\*[ \t]*:|[ \t]*:[ \t]*\*\*)(.*)$", re.IGNORECASE
)
_TEMPLATE = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
_QUOTES = ('"', "'", "`", "\u201c\u201d", "\u2018\u2019")


def _safe_component(name: str) -> bool:
    """Whether ``name`` is one plain path component (a tool name must not climb out)."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        return False
    return os.name != "nt" or ":" not in name


def find_instructions_file(
    root: str, tool: str, tool_instructions: Mapping[str, str] | None = None
) -> str | None:
    """The execution instructions file of ``tool`` under ``root``, or None when there is none.

    A ``tool_instructions`` path is relative to the workspace root (absolute paths are used
    as they are); a mapped path that is not a file falls through to the next place.
    """
    mapping = tool_instructions or {}
    for variant in name_variants(tool):
        mapped = mapping.get(variant)
        if isinstance(mapped, str) and mapped.strip():
            path = os.path.join(root, os.path.expanduser(mapped.strip()))
            if os.path.isfile(path):
                return path
    for directory in SEARCH_DIRS:
        for variant in name_variants(tool):
            if not _safe_component(variant):
                continue
            path = os.path.join(root, directory, variant, INSTRUCTIONS_FILE)
            if os.path.isfile(path):
                return path
    return None


def keyword_phrases(line_rest: str) -> list[str]:
    """The phrases of a Keywords line: quoted phrases and comma-separated words."""
    pieces: list[str] = []
    current: list[str] = []
    quote: str | None = None
    for char in line_rest:
        if quote is not None:
            current.append(char)
            if char == quote:
                quote = None
        elif char == '"' or char == "\u201c":
            quote = '"' if char == '"' else "\u201d"
            current.append(char)
        elif char == ",":
            pieces.append("".join(current))
            current = []
        else:
            current.append(char)
    pieces.append("".join(current))
    phrases: list[str] = []
    for piece in pieces:
        phrase = piece.strip().rstrip(".;").strip()
        for pair in _QUOTES:
            opening, closing = pair[0], pair[-1]
            if len(phrase) >= 2 and phrase[0] == opening and phrase[-1] == closing:
                phrase = phrase[1:-1].strip()
                break
        if phrase:
            phrases.append(phrase)
    return phrases


def phrase_matches(phrase: str, question: str) -> bool:
    """Whether ``phrase`` occurs in ``question`` as whole words, case-insensitively."""
    words = phrase.split()
    if not words:
        return False
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(word) for word in words) + r"(?!\w)"
    return re.search(pattern, question, re.IGNORECASE) is not None


class Section:
    """One part of the file: the preamble (``heading`` None) or a ``###`` section."""

    __slots__ = ("first_line", "lines", "heading", "keywords")

    def __init__(self, first_line: int, heading: str | None) -> None:
        self.first_line = first_line
        self.lines: list[str] = []
        self.heading = heading
        self.keywords: list[str] | None = None  # None: the section has no Keywords line

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def matches(self, question: str) -> bool:
        return self.keywords is not None and any(phrase_matches(p, question) for p in self.keywords)


def split_sections(text: str) -> list[Section]:
    """The preamble and the ``###`` sections; ``###`` lines inside code fences do not count."""
    sections = [Section(1, None)]
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        marker = _FENCE.match(line)
        if marker:
            run = marker.group(1)
            if fence is None:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence) and not line[marker.end() :].strip():
                fence = None
        elif fence is None:
            if _SECTION.match(line):
                sections.append(Section(number, line.strip()))
            else:
                keywords = _KEYWORDS.match(line)
                current = sections[-1]
                if keywords and current.heading is not None and current.keywords is None:
                    current.keywords = keyword_phrases(keywords.group(1))
        sections[-1].lines.append(line)
    return sections


def select_sections(text: str, question: str | None) -> list[Section]:
    """The parts kept for ``question``: preamble, matched sections and those without
    keywords; every part when no section matched."""
    sections = split_sections(text)
    asked = question or ""
    if not asked.strip() or not any(section.matches(asked) for section in sections[1:]):
        return sections
    return [s for s in sections if s.heading is None or s.keywords is None or s.matches(asked)]


def _as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def template_variables(
    tool: str,
    args: Mapping[str, object] | None = None,
    question: str | None = None,
    defaults: Mapping[str, object] | None = None,
) -> dict[str, str]:
    """Every known variable: defaults, overridden by the call's args, then ``tool_name`` and
    (when there is a question) ``question``."""
    variables: dict[str, str] = {}
    for source in (defaults or {}, args or {}):
        for name, value in source.items():
            variables[str(name)] = _as_text(value)
    variables["tool_name"] = tool
    if question is not None:
        variables["question"] = question
    return variables


def substitute(
    text: str,
    variables: Mapping[str, str],
    *,
    strict: bool = False,
    source: str = "the instructions",
    first_line: int = 1,
) -> str:
    """One pass over ``text``: ``{{`` -> ``{``, ``}}`` -> ``}``, ``{name}`` -> its value.

    An unknown ``{name}`` stays as written, or with ``strict`` raises ValidationError naming
    it and its line (counted from ``first_line``).
    """
    unknown: list[tuple[str, int]] = []

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        name = match.group(1)
        if name in variables:
            return variables[name]
        if strict and all(name != seen for seen, _ in unknown):
            unknown.append((name, first_line + text.count("\n", 0, match.start())))
        return token

    result = _TEMPLATE.sub(replace, text)
    if unknown:
        name, line = unknown[0]
        others = [f"{{{other}}}" for other, _ in unknown[1:]]
        more = f" (also unknown: {', '.join(others)})" if others else ""
        known = ", ".join(sorted(variables)) or "none"
        raise ValidationError(
            f"{source}: line {line}: unknown template variable '{{{name}}}'{more}; "
            f"known variables: {known}."
        )
    return result


def render_instructions(
    text: str,
    tool: str,
    *,
    question: str | None = None,
    args: Mapping[str, object] | None = None,
    defaults: Mapping[str, object] | None = None,
    strict: bool = False,
    source: str = "the instructions",
) -> str:
    """The selected, substituted text of one instructions file's content."""
    variables = template_variables(tool, args, question, defaults)
    sections = select_sections(text, question)
    if len(sections) == len(split_sections(text)):  # everything kept: the file as it is
        body = text.strip("\n").rstrip()
        leading = len(text) - len(text.lstrip("\n"))
        return substitute(body, variables, strict=strict, source=source, first_line=1 + leading)
    parts: list[str] = []
    for section in sections:
        chunk = section.text
        stripped = chunk.strip("\n")
        if not stripped.strip():
            continue
        leading = len(chunk) - len(chunk.lstrip("\n"))
        parts.append(
            substitute(
                stripped.rstrip(),
                variables,
                strict=strict,
                source=source,
                first_line=section.first_line + leading,
            )
        )
    return "\n\n".join(parts)


def execution_instructions(
    root: str,
    tool: str,
    *,
    question: str | None = None,
    args: Mapping[str, object] | None = None,
    governance: Governance | None = None,
    strict: bool = False,
) -> str | None:
    """The selected, substituted instructions of ``tool``; None when it has no file.

    Raises ValidationError when the file cannot be read, or (``strict``) for an unknown
    variable.
    """
    mapping = governance.tool_instructions if governance is not None else None
    path = find_instructions_file(root, tool, mapping)
    if path is None:
        return None
    content = read_instructions(path)
    if content is None:
        return None
    if not content.strip():
        return ""
    from paw_tui.core.prompt.tool_defaults import defaults_for

    defaults = defaults_for(governance.tool_defaults if governance is not None else None, tool)
    return render_instructions(
        content,
        tool,
        question=question,
        args=args,
        defaults=defaults,
        strict=strict,
        source=_shown(root, path),
    )


def _shown(root: str, path: str) -> str:
    """``path`` relative to the workspace root when it lies inside it, else as it is."""
    base = os.path.join(os.path.abspath(root), "")
    full = os.path.abspath(path)
    return full[len(base) :].replace(os.sep, "/") if full.startswith(base) else path


def read_instructions(path: str) -> str | None:
    """The file's text (UTF-8, BOM dropped, line endings made ``\\n``, lines kept so that
    line numbers stay true); None when it has gone. ValidationError when unreadable."""
    from paw_tui.core.support.textfile import describe_os_error, read_source_text

    try:
        text = read_source_text(path)
    except OSError as exc:
        raise ValidationError(
            f"Failed to read execution instructions: {describe_os_error(exc, path)}."
        ) from None
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"Failed to read execution instructions: not valid UTF-8 (offset {exc.start}): {path}."
        ) from None
    return None if text is None else text.rstrip()


def guidance_message(tool: str, text: str) -> str:
    """The message the gate injects before the tool runs."""
    return GUIDANCE_TEMPLATE.format(tool=tool, text=text)


def execution_guidance(
    root: str,
    tool: str,
    tool_input: Mapping[str, object] | None,
    question: str | None,
    governance: Governance | None,
) -> str | None:
    """``TOOL EXECUTION GUIDANCE for <tool>: ...`` for the gate, or None when the tool has no
    (readable, non-empty) instructions. Never raises for a bad file: guidance is optional."""
    args = tool_input if isinstance(tool_input, dict) else None
    try:
        text = execution_instructions(
            root, tool, question=question, args=args, governance=governance
        )
    except (ValidationError, OSError, ValueError):
        return None
    if not text:
        return None
    return guidance_message(tool, text)
