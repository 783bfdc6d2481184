"""The protected paths no scope and no governance file can open (DESIGN §2).

paw-tui's own state and the human-owned policy (``.orchestration/**``,
``.paw/instructions/**``, ``.paw/tools/**``), ``.git/**`` (the ``.git`` file or directory
itself too, and ``.git`` at any depth: a nested repository's hooks run code), every supported
client's hook and MCP configuration (an agent that could edit them could switch the gate off),
and the workspace root itself; ``.paw/work/**`` stays writable. Names are compared case-insensitively, ignoring trailing dots and
spaces and an NTFS stream suffix. ``governance.yaml: protected:`` patterns add to them and
cannot remove them. Standard library only.
"""

from __future__ import annotations

BUILTIN_PROTECTED = (".orchestration/**", ".paw/instructions/**", ".git/**")
"""The first three rules (kept by name: messages and ``paw-tui check`` show them)."""
PROTECTED_TREES = (
    ".orchestration", ".paw/instructions", ".paw/tools", ".git", ".codex", ".github/hooks",
    ".clinerules/hooks", ".cline/hooks", ".kiro/hooks", ".opencode",
)  # fmt: skip
"""Directories no agent writes anything under (root-relative)."""
PROTECTED_FILES = (
    ".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".gemini/settings.json",
    ".gemini/.env", ".cursor/hooks.json", ".cursor/mcp.json", ".vscode/mcp.json",
    ".github/mcp.json", ".windsurf/hooks.json", ".kiro/settings/mcp.json", "opencode.json",
    "opencode.jsonc", ".qwen/settings.json", ".qwen/.env",
)  # fmt: skip
"""Files no agent writes: every supported client's hook and MCP configuration (``.gemini/.env``
can set ``BASH_ENV`` for Gemini CLI's shell, ``.qwen/.env`` names the hook script). opencode's
whole ``.opencode/`` is a tree: its plugins are code run inside opencode, its ``package.json``
is installed from, and ``paw-tui.hook`` names what the plugin runs."""
NESTED_GIT_RULE = "**/.git/**"
ROOT_RULE = "the workspace root itself"


def _fold_name(name: str) -> str:
    """A path component as Windows and case-insensitive volumes see it.

    Trailing dots and spaces are dropped and an NTFS stream suffix (``:name``) is cut, so
    ``.GIT``, ``.git.`` and ``.git::$INDEX_ALLOCATION`` all read as ``.git``.
    """
    return name.split(":", 1)[0].rstrip(". ").casefold()


def _folded_parts(path: str) -> tuple[str, ...]:
    return tuple(_fold_name(part) for part in path.split("/"))


_TREES = tuple((_folded_parts(tree), tree + "/**") for tree in PROTECTED_TREES)
_FILES = tuple((_folded_parts(name), name) for name in PROTECTED_FILES)
_UNDOTTED = frozenset(_fold_name(name) for name in PROTECTED_FILES if not name.startswith("."))
"""Protected files at the root whose names start without a dot (``opencode.json``)."""


def may_be_protected(relative: str) -> bool:
    """False for a non-empty root-relative path no built-in rule can cover: no component starts
    with a dot (every protected name does, but the root's ``opencode.json``), so callers skip
    the rules for most paths."""
    return (
        not relative or relative[0] == "." or "/." in relative or _fold_name(relative) in _UNDOTTED
    )


def builtin_protection(relative: str, *, subtree: bool = False) -> str | None:
    """The built-in protected rule covering a root-relative POSIX path, or None.

    A path is protected when it is, or lies under, a protected tree or file; ``.git`` is
    protected at any depth (``**/.git/**``: a nested repository's hooks run code too).
    ``subtree`` is for an operation on a whole directory (``rm -r``, ``mv`` of a directory):
    then a directory *holding* a protected path (``.paw``, ``.claude``, the root itself) is
    protected as well. The root itself is always protected.
    """
    if not relative:
        return ROOT_RULE
    if not may_be_protected(relative):
        return None
    parts = _folded_parts(relative)
    for tree, rule in _TREES:
        if parts[: len(tree)] == tree or (subtree and tree[: len(parts)] == parts):
            return rule
    for name, rule in _FILES:
        if parts[: len(name)] == name or (subtree and name[: len(parts)] == parts):
            return rule
    if ".git" in parts[1:]:
        return NESTED_GIT_RULE
    return None
