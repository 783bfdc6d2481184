"""The intent context block for a workspace: the intent plus its ledger history.

Reads are bounded (DESIGN §4): the last 20 actions come from a read of at most 1 MiB from
the end of the ledger, and touched files from the per-intent index the ledger writer keeps.
Both are optional information: if the ledger cannot be read, the block still renders.
"""

from __future__ import annotations

from paw_tui.core.intents.context_block import MAX_HISTORY, render_intent_context
from paw_tui.core.ledger.touched import touched_files

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.workspace.state import WorkspaceState


def intent_context_block(state: WorkspaceState, intent: Intent) -> str:
    history: list[dict[str, object]] = []
    touched: list[dict[str, object]] = []
    try:
        history = list(state.ledger.recent_for_intent(intent.id, MAX_HISTORY).records)
    except Exception:
        history = []
    try:
        touched = [entry.to_dict() for entry in touched_files(state.ledger, intent.id)]
    except Exception:
        touched = []
    return render_intent_context(intent, history, touched)
