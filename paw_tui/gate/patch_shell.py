"""A patch sent through the shell tool, as Codex 0.169.0 takes it out of the command.

Codex does not run ``apply_patch <<'EOF' … EOF`` through bash: it recognises the command (a
tree-sitter query over the script), applies the heredoc's body itself, and fires PreToolUse
for ``Bash`` only: no PostToolUse follows, so drift detection never compares what it wrote.
Its files must therefore be read here. Observed with the real binary
(``tests/realclients/README.md``, quirks):

- taken over: ``apply_patch`` or ``applypatch`` (an unquoted word, no arguments) with one
  heredoc redirection (``<<``, ``<<-``, any delimiter, quoted or not), as the only statement,
  optionally after ``cd DIR &&`` (DIR a plain word or a quoted string: the patch's paths are
  then relative to it); leading newlines are allowed, the closing delimiter is not required;
  the body is the raw text (no tab stripping for ``<<-``, no expansion for ``<<EOF``);
- run by bash instead: a trailing comment or command, ``;`` or ``&`` after the redirection,
  another redirection, ``cd -P DIR``, ``cd $VAR``, a quoted or path-named ``apply_patch``.

The commands read here are the first kind, matched conservatively. A command that names
``apply_patch`` or ``applypatch`` and holds a patch but is not in that shape is refused: the gate
cannot be sure how Codex would take it.
"""

from __future__ import annotations

import posixpath
import re

from paw_tui.gate.patch import BEGIN, PatchError, patch_paths

NAMES = ("apply_patch", "applypatch")
_HEAD = re.compile(
    r"[ \t\n]*"
    r"(?:cd[ \t]+(?P<dir>[A-Za-z0-9_./@%+,:=-]+|'[^'\n]*'|\"[^\"$`\\\n]*\")[ \t]*&&[ \t]*)?"
    r"(?:apply_patch|applypatch)[ \t]*<<(?P<dash>-?)[ \t]*"
    r"(?P<delim>[A-Za-z0-9_]+|'[A-Za-z0-9_]+'|\"[A-Za-z0-9_]+\")[ \t]*\n"
)
SHAPE = (
    "send the patch with the apply_patch tool, or as the whole command "
    "`apply_patch <<'EOF'` (optionally after `cd DIR &&`) with the patch and `EOF` on lines "
    "of their own"
)


def shell_patch(command: str) -> tuple[str, str] | None:
    """``(body, directory)`` of the patch Codex would apply itself for ``command`` (the
    directory its paths are relative to: "" for the working directory); None when the command
    applies no patch; PatchError when it names apply_patch and holds a patch in any other way."""
    if not any(name in command for name in NAMES) or BEGIN not in command:
        return None
    head = _HEAD.match(command)
    if head is None:
        raise PatchError(f"apply_patch inside a larger command cannot be checked: {SHAPE}")
    delimiter = head.group("delim").strip("'\"")
    rest = command[head.end() :].split("\n")
    body: list[str] = []
    for index, line in enumerate(rest):
        candidate = line.lstrip("\t") if head.group("dash") else line
        if candidate == delimiter:
            if any(part.strip(" \t") for part in rest[index + 1 :]):
                raise PatchError(f"commands after the patch's '{delimiter}' line: {SHAPE}")
            break
        if line.strip() == delimiter:
            raise PatchError(f"a line reading '{delimiter}' with spaces around it: {SHAPE}")
        body.append(line)
    directory = head.group("dir") or ""
    if directory[:1] in ("'", '"'):
        directory = directory[1:-1]
    return "\n".join(body), directory


def shell_patch_paths(command: str) -> list[str] | None:
    """The paths the patch in ``command`` writes, relative to the shell's working directory
    (``cd DIR &&`` applied); None when the command applies no patch; PatchError as
    :func:`shell_patch`, or when the patch itself cannot be read."""
    found = shell_patch(command)
    if found is None:
        return None
    body, directory = found
    return [posixpath.join(directory, path) if directory else path for path in patch_paths(body)]
