"""What an ``install`` would write, before it writes anything: the files, and what the person
must still do by hand.

Every client's set-up module (``paw_tui.core.clients.<client>``) returns a :class:`SetupPlan`;
``paw-tui install`` prints it (``--dry-run``) or applies it. A file is merged, never clobbered:
the planner reads it, changes only paw-tui's own entries, and keeps everything else; a file that
cannot be read as what it should be stops the whole install before anything is written.
"""

from __future__ import annotations

import json
import os
import shlex

from paw_tui.core.errors import ValidationError
from paw_tui.core.support.regular_file import read_regular_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class PlannedFile:
    """One file: its content now (``before``; None when absent) and after the install.

    JSON files carry objects (``after`` a dict); other files carry text (``after`` a str).
    ``mode`` is the permission the file gets when it is created (an executable hook script).
    ``write``, when given, is how :func:`apply` writes the file instead of replacing it whole
    (a ``.gitignore`` is extended under the shared helper's lock: :func:`ignore_file`).
    """

    __slots__ = ("path", "before", "after", "mode", "write")

    def __init__(
        self,
        path: str,
        before: dict[str, object] | str | None,
        after: dict[str, object] | str,
        mode: int | None = None,
        write: Callable[[], object] | None = None,
    ) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.mode = mode
        self.write = write

    @property
    def exists(self) -> bool:
        return self.before is not None

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def text(self) -> str:
        if isinstance(self.after, str):
            return self.after
        return json.dumps(self.after, indent=2, ensure_ascii=False) + "\n"


class SetupPlan:
    """What ``install <client>`` does: ``files`` to write, ``steps`` the person must take
    (a trust prompt to answer, a command to run), ``notes`` worth knowing."""

    __slots__ = ("client", "files", "steps", "notes")

    def __init__(self, client: str) -> None:
        self.client = client
        self.files: list[PlannedFile] = []
        self.steps: list[str] = []
        self.notes: list[str] = []


def load_json_object(path: str, *, allow_comments: bool = False) -> dict[str, object] | None:
    """The JSON object in ``path``; None when the file does not exist; ValidationError (nothing
    written) when it is not a JSON object. ``allow_comments``: ``//`` line comments, as VS Code
    and Gemini CLI accept in their settings, are skipped."""
    try:
        text = read_regular_text(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValidationError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if not text.strip():
        return {}
    if allow_comments:
        text = _without_line_comments(text)
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")
        raise ValidationError(
            f"{path}:{line}: not valid JSON ({exc}); fix it first, nothing was changed."
        ) from exc
    if not isinstance(data, dict):
        raise ValidationError(f"{path}: expected a JSON object at the top; nothing was changed.")
    return data


def _without_line_comments(text: str) -> str:
    out = []
    for line in text.splitlines():
        stripped = line.lstrip()
        out.append("" if stripped.startswith("//") else line)
    return "\n".join(out)


def read_text(path: str) -> str | None:
    try:
        return read_regular_text(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValidationError(f"Cannot read {path}: {exc.strerror or exc}.") from exc


def json_file(path: str, merge: object) -> PlannedFile:
    """``path`` read as a JSON object (``{}`` when absent) and ``merge(data) -> new data``."""
    before = load_json_object(path)
    after = merge(dict(before or {}))  # type: ignore[operator]
    return PlannedFile(path, before, after)


def apply(plan: SetupPlan) -> list[tuple[str, str]]:
    """Write the plan's changed files atomically; ``(path, "created" | "updated" |
    "unchanged")`` for each."""
    from paw_tui.core.support.fsutil import atomic_write

    done: list[tuple[str, str]] = []
    for item in plan.files:
        if not item.changed and item.exists:
            done.append((item.path, "unchanged"))
            continue
        if item.write is not None:
            item.write()
            done.append((item.path, "updated" if item.exists else "created"))
            continue
        os.makedirs(os.path.dirname(item.path) or ".", exist_ok=True)
        atomic_write(item.path, item.text().encode("utf-8"))
        if item.mode is not None:
            os.chmod(item.path, item.mode)
        done.append((item.path, "updated" if item.exists else "created"))
    return done


def ignore_file(root: str, folder: str, entries: tuple[str, ...], client: str) -> PlannedFile:
    """``<root>/<folder>/.gitignore`` listing ``entries`` (relative to that folder): the
    machine-local files ``client``'s install writes there, kept out of commits through the
    shared helper (:mod:`paw_tui.core.workspace.gitignore`), the person's lines kept."""
    from paw_tui.core.workspace.gitignore import GITIGNORE, ensure_ignored, with_entries

    directory = os.path.join(root, folder)
    path = os.path.join(directory, GITIGNORE)
    header = f"# this machine's files (written by 'paw-tui install {client}'): never commit them\n"
    before = read_text(path)
    return PlannedFile(
        path,
        before,
        with_entries(before, entries, header=header),
        write=lambda: ensure_ignored(directory, entries, header=header),
    )


def shell_join(words: list[str]) -> str:
    return " ".join(shlex.quote(word) for word in words)
