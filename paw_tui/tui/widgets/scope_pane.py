"""The scope pane: the highlighted intent's owned scope, constraints and criteria, a path
tester naming the deciding pattern, and the files the intent touched (from the ledger)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from paw_tui.core.ledger.touched import touched_files
from paw_tui.core.policy.compiled import Policy
from paw_tui.tui.display import safe
from paw_tui.tui.intent_text import intent_details, intent_heading
from paw_tui.tui.widgets.pane import Pane


class ScopePane(Pane):
    TITLE = "Scope"
    STOPS = ("#scope-body", "#scope-test")

    @dataclass
    class Touched(Message):
        intent_id: str
        entries: list[dict[str, object]]

    def __init__(self, root: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.root = root
        self.policy: Policy | None = None
        self.intent_id: str | None = None
        self.touched: list[dict[str, object]] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scope-body"):
            yield Static("No intent highlighted.", id="scope-details")
            yield Static("", id="scope-touched")
        yield Input(placeholder="test a path, e.g. src/app.py", id="scope-test", compact=True)
        yield Static("", id="scope-result")

    def show(self, policy: Policy | None, intent_id: str | None) -> None:
        self.policy = policy
        changed = intent_id != self.intent_id
        self.intent_id = intent_id
        self.render_details()
        if changed:
            self.touched = []
            self.render_touched()
        if intent_id:
            self.load_touched(intent_id)
        self.test_path(self.query_one("#scope-test", Input).value)

    def render_details(self) -> None:
        details = self.query_one("#scope-details", Static)
        intent = self.policy.intent(self.intent_id) if self.policy and self.intent_id else None
        if intent is None:
            details.update(
                "No intent highlighted."
                if self.policy is None or self.policy.valid
                else safe(self.policy.unavailable_reason or "")
            )
            return
        lines = [intent_heading(intent)]
        lines += intent_details(intent, scope_title="owned_scope", numbered=True)
        details.update("\n".join(lines))

    def render_touched(self) -> None:
        widget = self.query_one("#scope-touched", Static)
        if not self.touched:
            widget.update("[b]Touched files[/b]\n  (none recorded)")
            return
        lines = ["[b]Touched files[/b]"]
        for entry in self.touched[:50]:
            digest = str(entry.get("content_hash") or "").split(":")[-1][:10]
            changed = entry.get("changed")
            flag = " [$warning](changed since)[/]" if changed else ""
            lines.append(f"  {safe(entry.get('path'))}  [$text-muted]{digest}[/]{flag}")
        widget.update("\n".join(lines))

    @work(thread=True, exclusive=True, group="scope-touched", exit_on_error=False)
    def load_touched(self, intent_id: str) -> None:
        from paw_tui.core.ledger.store import Ledger

        try:
            entries = [
                e.to_dict() for e in touched_files(Ledger.for_workspace(self.root), intent_id)
            ]
        except Exception:
            entries = []
        self.post_message(self.Touched(intent_id, entries))

    @on(Touched)
    def _touched(self, message: Touched) -> None:
        if message.intent_id == self.intent_id:
            self.touched = message.entries
            self.render_touched()

    @on(Input.Changed, "#scope-test")
    def _test_changed(self, event: Input.Changed) -> None:
        self.test_path(event.value)

    def test_path(self, path: str) -> None:
        result = self.query_one("#scope-result", Static)
        path = path.strip()
        intent = self.policy.intent(self.intent_id) if self.policy and self.intent_id else None
        if not path or intent is None:
            result.update("")
            return
        try:
            verdict = self.policy.checker(intent).check(path, cwd=self.root)  # type: ignore[union-attr]
        except ValueError as exc:
            result.update(f"[$error]{safe(exc)}[/]")
            return
        rule = (
            f"#{verdict.index} '{verdict.pattern}'"
            if verdict.index is not None
            else (f"'{verdict.pattern}'" if verdict.pattern else "no pattern")
        )
        if verdict.allowed:
            result.update(f"[b $success]allow[/] {safe(verdict.path)} — {safe(rule)}")
        else:
            result.update(f"[b $error]deny[/] {safe(verdict.path)} — {verdict.kind}, {safe(rule)}")
