"""WorkflowContext.md: the work item's metadata as ``Field: Value`` lines.

The file is returned raw to agents (the seed's choice: its format may grow); the parsed
fields are a convenience for the JSON output and the TUI. Parsing never fails: a line that
is not ``Field: Value`` is simply not a field.
"""

from __future__ import annotations

import re

# A field name starts with a letter and is a short phrase; list bullets and bold markers
# around it are tolerated because people write WorkflowContext.md by hand. A colon followed
# by "//" is a URL's scheme ("https://..."), not the end of a field name.
_FIELD_LINE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?([A-Za-z][A-Za-z0-9 _./()&-]{0,63}?)[ \t]*(?:\*\*|__)?"
    r"[ \t]*:(?!//)(?:\*\*|__)?[ \t]*(.*?)[ \t]*$"
)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
WORK_ID_FIELDS = ("work id", "feature slug")


def parse_fields(text: str) -> dict[str, str]:
    """The ``Field: Value`` lines outside code fences; the first of a repeated name wins."""
    fields: dict[str, str] = {}
    fence: str | None = None
    for line in text.split("\n"):
        marker = _FENCE.match(line)
        if marker:
            run = marker.group(1)
            if fence is None:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence):
                fence = None
            continue
        if fence is not None or line.lstrip().startswith("#"):
            continue
        match = _FIELD_LINE.match(line)
        if match:
            name = match.group(1).strip()
            if name not in fields:
                fields[name] = match.group(2)
    return fields


def work_id_of(fields: dict[str, str]) -> str | None:
    """The work id the file declares: ``Work ID``, else the older ``Feature Slug``."""
    folded = {name.casefold(): value for name, value in fields.items()}
    for key in WORK_ID_FIELDS:
        value = folded.get(key, "").strip()
        if value:
            return value
    return None
