"""``paw-tui intents edit ID``: the intent's entry in the person's own editor.

The entry is written to a temporary file outside the workspace and opened in ``$VISUAL``
(else ``$EDITOR``, else ``vi``). On save it goes through
:func:`~paw_tui.core.intents.entry_text.replace_entry`: checked whole, recorded, written.

A refused edit changes nothing (exit 2), and nothing typed is lost: on a terminal the
editor opens again on the person's text with the reason noted at its end, as ``kubectl
edit`` does, until the edit applies or is saved unchanged (giving up); elsewhere (a script,
an editor that is a command) it stops at once, naming the reason and the file that keeps
the edit. Re-offering only on a terminal keeps a non-interactive caller from looping, and
stopping with exit 2 keeps the command line's contract (a refusal the caller must act on).
"""

from __future__ import annotations

import os
import sys

from paw_tui.commands.output import write_err, write_out
from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.entry_text import HEADER_PREFIX, strip_header

MAX_ROUNDS = 20
"""Refused saves after which the editor is not offered again (a stuck editor never loops)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.workspace.state import WorkspaceState


def editor_command(environ: dict[str, str] | os._Environ[str] = os.environ) -> list[str]:
    """``$VISUAL``, else ``$EDITOR``, else ``vi`` (as git chooses), split like a shell word list."""
    import shlex
    import shutil

    for name in ("VISUAL", "EDITOR"):
        value = environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    if shutil.which("vi"):
        return ["vi"]
    raise ValidationError("No editor: set $VISUAL or $EDITOR to the command of your editor.")


def _notes(intent_id: str, error: str | None) -> str:
    notes = [
        f"Editing {intent_id} in .orchestration/active_intents.yaml. Save and close to apply;",
        "empty the file to cancel. Lines starting with '# paw-tui:' are not written.",
    ]
    if error:
        notes += ["", "The last save was refused and nothing was written:", *error.splitlines(),
                  "Fix it and save, or save it unchanged to give up."]  # fmt: skip
    return "".join(f"{HEADER_PREFIX} {note}".rstrip() + "\n" for note in notes)


def edit_intent(
    state: WorkspaceState,
    intent_id: str,
    who: str,
    *,
    interactive: Callable[[], bool] | None = None,
) -> int:
    from paw_tui.core.intents.editing import IntentEditError
    from paw_tui.core.intents.entry_text import entry_text, replace_entry

    original = entry_text(state.root, intent_id)
    command = editor_command()
    asks = interactive() if interactive is not None else sys.stdin.isatty()
    path = _temp_file(intent_id)
    text = original.text + _notes(intent_id, None)
    refused: str | None = None
    for _round in range(MAX_ROUNDS):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        _run_editor(command, path)
        with open(path, encoding="utf-8", errors="replace") as handle:
            edited = handle.read()
        body = strip_header(edited)
        if not body.strip():
            os.unlink(path)
            write_out(f"Cancelled: the entry of {intent_id} was emptied; nothing changed.\n")
            return 0
        if body.rstrip() == original.text.rstrip() and refused is None:
            os.unlink(path)
            write_out(f"No change: {intent_id} is as it was.\n")
            return 0
        if refused is not None and body.rstrip() == refused.rstrip():
            raise ValidationError(f"Gave up: nothing was written; your edit is kept in {path}.")
        try:
            done = replace_entry(state, original, body, by=who)
        except (ValidationError, IntentEditError) as error:
            if not asks:
                raise ValidationError(
                    f"{error} Nothing was written; your edit is kept in {path}."
                ) from None
            refused = body
            text = body.rstrip() + "\n" + _notes(intent_id, str(error))
            write_err(f"{error}\nOpening the editor again (save it unchanged to give up).\n")
            continue
        except Exception:
            write_err(f"Your edit is kept in {path}.\n")
            raise
        os.unlink(path)
        if done.record is None:
            write_out(f"No change: {intent_id} is as it was.\n")
        elif done.changed:
            write_out(f"Edited {intent_id}: {', '.join(done.changed)}.\n")
        else:
            write_out(f"Edited {intent_id}: comments and layout only.\n")
        return 0
    raise ValidationError(f"Gave up after {MAX_ROUNDS} refused saves; your edit is kept in {path}.")


def _temp_file(intent_id: str) -> str:
    """A file outside the workspace, named after the intent (editors pick YAML by suffix)."""
    import tempfile

    safe = "".join(char if char.isalnum() or char in "._-" else "_" for char in intent_id)
    fd, path = tempfile.mkstemp(prefix=f"paw-tui-{safe}-", suffix=".yaml")
    os.close(fd)
    return path


def _run_editor(command: list[str], path: str) -> None:
    import subprocess

    try:
        done = subprocess.run([*command, path], check=False)
    except OSError as error:
        raise ValidationError(
            f"Cannot run the editor '{command[0]}': {error.strerror or error}; nothing changed."
        ) from None
    if done.returncode != 0:
        raise ValidationError(
            f"The editor '{command[0]}' exited with status {done.returncode}; nothing changed "
            f"(your text is in {path})."
        )
