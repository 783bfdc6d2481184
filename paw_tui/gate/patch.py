"""The files an ``apply_patch`` body writes (Codex's patch format).

::

    *** Begin Patch
    *** Add File: path          (created)
    *** Update File: path       (changed; followed by ``*** Move to: other`` when renamed)
    *** Delete File: path       (removed)
    *** End Patch

Paths are relative to the working directory. A body that does not have this shape is refused
(the call is denied): a patch the gate cannot read cannot be checked.
"""

from __future__ import annotations

BEGIN = "*** Begin Patch"
END = "*** End Patch"
HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


class PatchError(ValueError):
    """The body is not an apply_patch patch."""


def patch_paths(body: str) -> list[str]:
    """Every path the patch creates, changes, deletes or moves to, in order, once each."""
    lines = body.replace("\r\n", "\n").split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip() == BEGIN), None)
    if start is None:
        raise PatchError(f"the patch does not start with '{BEGIN}'")
    if not any(line.strip() == END for line in lines[start + 1 :]):
        raise PatchError(f"the patch has no '{END}' line")
    found: list[str] = []
    for line in lines[start + 1 :]:
        if line.strip() == END:
            break
        for header in HEADERS:
            if line.startswith(header):
                path = line[len(header) :].strip()
                if not path:
                    raise PatchError(f"'{line.strip()}' names no file")
                if path not in found:
                    found.append(path)
    if not found:
        raise PatchError("the patch names no file")
    return found


def patch_in_heredoc(command: str) -> str | None:
    """The body of ``apply_patch <<'EOF' ... EOF`` sent through a shell, or None."""
    stripped = command.lstrip()
    if not stripped.startswith("apply_patch"):
        return None
    if BEGIN not in command:
        return None
    return command[command.index(BEGIN) :]
