"""The context the gate injects each turn, assembled from its layers (DESIGN §8):

1. the governance section (mandate and selectable intents, or the active intent's guidance);
2. the active intent's ``<intent_context>`` block, once a selection is active;
3. the tool defaults of ``governance.yaml``;
4. the supervisor instruction (the session's own, else the global one).

:func:`prompt_layers` returns them separately (the TUI shows each with its source and size);
:func:`assemble_prompt` joins them as the gate injects them. Standard library only.
"""

from __future__ import annotations

from paw_tui.core.context.tokens import estimate_tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.workspace.state import WorkspaceState


class PromptLayer:
    """One part of the assembled prompt, where it came from, and its text."""

    __slots__ = ("name", "source", "text")

    def __init__(self, name: str, source: str, text: str) -> None:
        self.name = name
        self.source = source
        self.text = text

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "source": self.source,
            "text": self.text,
            "chars": len(self.text),
            "tokens": estimate_tokens(self.text),
        }


def prompt_layers(
    state: WorkspaceState,
    session: Session | None,
    *,
    held: dict[str, str] | None = None,
    client: str | None = None,
) -> list[PromptLayer]:
    from paw_tui.core.prompt.governance_section import render_governance_section
    from paw_tui.core.prompt.supervisor import (
        effective_supervisor,
        render_supervisor,
        supervisor_path,
    )
    from paw_tui.core.prompt.tool_defaults import render_tool_defaults

    policy = state.policy
    layers: list[PromptLayer] = []
    if not policy.valid:
        layers.append(
            PromptLayer(
                "governance", ".orchestration/*.yaml", render_governance_section(policy, None)
            )
        )
    else:
        live = session
        if (
            live is not None
            and live.holds_intent
            and not live.is_live(state.now(), policy.governance.session_ttl)
        ):
            live = None
        layers.append(
            PromptLayer(
                "governance",
                ".orchestration/active_intents.yaml",
                render_governance_section(
                    policy, live, held_elsewhere=set(held or {}), client=client
                ),
            )
        )
        if live is not None and live.state == "active" and live.intent_id:
            intent = policy.intent(live.intent_id)
            if intent is not None:
                from paw_tui.core.intents.view import intent_context_block

                layers.append(
                    PromptLayer(
                        "intent context",
                        f"{intent.id} + .orchestration/agent_trace.jsonl",
                        intent_context_block(state, intent),
                    )
                )
        defaults = render_tool_defaults(policy.governance.tool_defaults)
        if defaults:
            layers.append(
                PromptLayer(
                    "tool defaults", ".orchestration/governance.yaml: tool_defaults", defaults
                )
            )
    session_id = session.session_id if session is not None else None
    supervisor = effective_supervisor(state.root, session_id)
    if supervisor:
        own = session_id is not None and supervisor_path(state.root, session_id)
        import os

        source = "session" if own and os.path.exists(own) else "global"
        layers.append(
            PromptLayer(
                "supervisor instruction",
                f"{source} (paw-tui prompt --supervisor)",
                render_supervisor(supervisor),
            )
        )
    return layers


def assemble_prompt(layers: list[PromptLayer]) -> str:
    return "\n\n".join(layer.text for layer in layers if layer.text)
