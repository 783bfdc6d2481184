"""The text an agent reads from ``paw_get_context`` (DESIGN §3), and its inverse.

Sections are XML-style tags because instruction files are Markdown with headings of their
own. Content may not close its section or open another: every tag with one of our names is
neutralised by a backslash after ``<``, and so is any such tag that already had backslashes,
which makes the escaping reversible (:func:`parse_context_text` restores the content).
"""

from __future__ import annotations

from paw_tui.core.support.textfile import FileStatus

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from paw_tui.core.context.tool import ContextResult

SECTION_NAMES = (
    "context",
    "precedence",
    "workspace_instructions",
    "user_instructions",
    "workflow_context",
    "warning",
)
PRECEDENCE_LINE = (
    "<precedence>workspace_instructions override user_instructions; both override agent "
    "defaults</precedence>"
)
EMPTY_CONTEXT = '<context status="empty" />'

_NAMES = "|".join(SECTION_NAMES)
# "<", any backslashes we or the author put there, an optional "/", then one of our names as
# a whole tag name (followed by space, "/", ">" or the end of the text).
_TAG_AHEAD = rf"(?=\\*\s*/?\s*(?:{_NAMES})(?:[\s/>]|$))"
_TAG_START = "<" + _TAG_AHEAD
_ESCAPED_TAG_START = "<\\\\" + _TAG_AHEAD
# What may stand between "<" and the name in _TAG_AHEAD, besides spacing (str.isspace is
# exactly what \s matches in a str pattern).
_TAG_PREFIX = "\\/"
# The non-ASCII characters re.IGNORECASE matches to a letter of our names; every other
# letter matches only itself in either case (a test checks every code point).
EXTRA_FOLDS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
_NAME_FOLDS = tuple(
    tuple(frozenset(ch + ch.upper() + EXTRA_FOLDS.get(ch, "")) for ch in name)
    for name in SECTION_NAMES
)
_COMPILED: dict[str, re.Pattern[str]] = {}


def _tag_pattern(source: str) -> re.Pattern[str]:
    # Compiled on first use: importing re (enum, functools, collections) and compiling the
    # pattern cost about half a ``python -c pass``, and most content never needs them.
    compiled = _COMPILED.get(source)
    if compiled is None:
        import re

        compiled = _COMPILED[source] = re.compile(source, re.IGNORECASE)
    return compiled


def _name_at(text: str, at: int) -> bool:
    """Whether one of our names starts at ``at`` as a whole tag name, ignoring case as
    re.IGNORECASE does."""
    for folds in _NAME_FOLDS:
        end = at + len(folds)
        if end <= len(text) and all(text[at + i] in fold for i, fold in enumerate(folds)):
            if end == len(text) or text[end] in "/>" or text[end].isspace():
                return True
    return False


def may_hold_tag(text: str) -> bool:
    """False only when no ``<`` in ``text`` can start a tag named like one of our sections:
    a necessary condition of the tag pattern, checked without ``re`` (``<code>``, ``<p>``
    and ``a < b`` do not need it)."""
    end = len(text)
    start = text.find("<")
    while start != -1:
        at = start + 1
        while at < end and (text[at] in _TAG_PREFIX or text[at].isspace()):
            at += 1
        if _name_at(text, at):
            return True
        start = text.find("<", start + 1)
    return False


def neutralise_tags(text: str) -> str:
    """Insert a backslash after ``<`` in every tag named like one of our sections."""
    if not may_hold_tag(text):
        return text
    return _tag_pattern(_TAG_START).sub("<\\\\", text)


def restore_tags(text: str) -> str:
    """Undo :func:`neutralise_tags` exactly."""
    return _tag_pattern(_ESCAPED_TAG_START).sub("<", text)


def fence_for(content: str) -> str:
    """A backtick fence longer than any backtick run inside ``content`` (three at least)."""
    longest = 0
    end = len(content)
    start = content.find("`")
    while start != -1:
        after = start + 1
        while after < end and content[after] == "`":
            after += 1
        longest = max(longest, after - start)
        start = content.find("`", after)
    return "`" * max(3, longest + 1)


def _section(name: str, status: FileStatus, fenced: bool = False) -> str | None:
    if not status.content and not status.error:
        return None
    lines = [f"<{name}>"]
    if status.content:
        body = neutralise_tags(status.content)
        if fenced:
            fence = fence_for(status.content)
            lines += [f"{fence}markdown", body, fence]
        else:
            lines.append(body)
    if status.error:
        lines.append(f"<warning>{neutralise_tags(status.error)}</warning>")
    lines.append(f"</{name}>")
    return "\n".join(lines)


def format_context(result: ContextResult) -> str:
    """The tool's text: sections with content or an error, one blank line apart."""
    sections = [
        _section("workspace_instructions", result.workspace_instructions),
        _section("user_instructions", result.user_instructions),
        _section("workflow_context", result.workflow_context, fenced=True),
    ]
    present = [section for section in sections if section is not None]
    if not present:
        return EMPTY_CONTEXT
    if result.workspace_instructions.content and result.user_instructions.content:
        present.insert(0, PRECEDENCE_LINE)
    return "\n\n".join(present)


_PARSERS: list[re.Pattern[str]] = []  # compiled on first use: only readers of the text need them


def _parsers() -> list[re.Pattern[str]]:
    if not _PARSERS:
        import re

        _PARSERS.extend(
            [
                re.compile(
                    r"^<(workspace_instructions|user_instructions|workflow_context)>\n(.*?)\n</\1>$",
                    re.MULTILINE | re.DOTALL,
                ),
                re.compile(r"(?:^|\n)<warning>(.*)</warning>\Z", re.DOTALL),
                re.compile(r"\A(`{3,})markdown\n(.*)\n\1\Z", re.DOTALL),
            ]
        )
    return _PARSERS


def parse_context_text(text: str) -> dict[str, dict[str, str | None]]:
    """Read formatted context back into ``{section: {"content", "warning"}}``.

    For agent builders who post-process the tool's text, and for the round-trip tests.
    """
    section_block, warning_tail, fenced_block = _parsers()
    parsed: dict[str, dict[str, str | None]] = {}
    for match in section_block.finditer(text):
        name, body = match.group(1), match.group(2)
        warning: str | None = None
        tail = warning_tail.search(body)
        if tail:
            warning = restore_tags(tail.group(1))
            body = body[: tail.start()]
        if name == "workflow_context" and body:
            fenced = fenced_block.match(body)
            if fenced:
                body = fenced.group(2)
        parsed[name] = {"content": restore_tags(body), "warning": warning}
    return parsed
