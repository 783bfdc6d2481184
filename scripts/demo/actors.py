"""The actors of the demo's day: a fake clock, agents talking to the real gate, and humans
using the real handshake API. Every tool call goes through ``paw_tui.gate.main.decide_payload``
as the client would send it; an allowed call is then carried out on disk before its
PostToolUse, so each ``mutation`` record holds the hash of a file that really exists.
"""

from __future__ import annotations

import calendar
import contextlib
import json
import random
import re
import time
import uuid
from pathlib import Path

from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.handshake import selection as handshake
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.workspace.state import WorkspaceState
from paw_tui.gate.main import decide_payload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from paw_tui.gate.events import Answer

DAY = (2026, 11, 20)
STORY_TEXTS = Path(__file__).resolve().parents[2] / "paw_tui" / "demo_workspace" / "story"


def text(path: str) -> str:
    """What an agent writes to ``path`` during the day (``demo_workspace/story/<path>``)."""
    return (STORY_TEXTS / path).read_text(encoding="utf-8")


class Clock:
    """Milliseconds since the epoch, moved forward only by the story."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ms = self._at(9, 0) * 1000

    @staticmethod
    def _at(hour: int, minute: int) -> int:
        return calendar.timegm((*DAY, hour, minute, 0, 0, 0, 0))

    def __call__(self) -> float:
        return self.ms / 1000

    def advance(self, low: float, high: float) -> None:
        self.ms += int(self.rng.uniform(low, high) * 1000)

    def at(self, hhmm: str) -> None:
        """Jump to a wall-clock time of the day (plus a few seconds, as people are)."""
        hour, minute = (int(part) for part in hhmm.split(":"))
        target = self._at(hour, minute) * 1000 + self.rng.randint(0, 20_000)
        if target < self.ms:
            raise RuntimeError(f"the story went back in time to {hhmm}")
        self.ms = target

    def hhmm(self) -> str:
        return time.strftime("%H:%M:%S", time.gmtime(self.ms // 1000))


@contextlib.contextmanager
def patched_product(clock: Clock, rng: random.Random) -> Iterator[None]:
    """Point every clock and random id the product uses at ours, for the duration.

    ``WorkspaceState`` and ``Ledger`` bind ``time.time`` as a default argument, so patching
    ``time.time`` alone would not reach them: their keyword defaults are patched too. The
    ledger is not fsync-ed: this is a scratch workspace, and it keeps the run fast.
    """
    state_defaults = WorkspaceState.__init__.__kwdefaults__
    ledger_defaults = Ledger.__init__.__kwdefaults__
    if state_defaults is None or ledger_defaults is None:
        raise StoryError("WorkspaceState or Ledger no longer takes a keyword clock")
    saved_time = time.time
    saved_request_id = approvals_store.new_request_id
    saved_state = dict(state_defaults)
    saved_ledger = dict(ledger_defaults)

    def request_id(now: float) -> str:
        return f"apr-{int(now * 1000):013d}-{rng.getrandbits(24):06x}"

    time.time = clock
    approvals_store.new_request_id = request_id
    state_defaults["clock"] = clock
    ledger_defaults.update(clock=clock, durable=False)
    try:
        yield
    finally:
        time.time = saved_time
        approvals_store.new_request_id = saved_request_id
        state_defaults.clear()
        state_defaults.update(saved_state)
        ledger_defaults.clear()
        ledger_defaults.update(saved_ledger)


# ---------------------------------------------------------------------------------------------
# The actors: agents talking to the gate, humans using the handshake API.
# ---------------------------------------------------------------------------------------------


# Where an agent adds the next piece of a file: top-level blocks (two blank lines) and
# methods (one blank line, then an indented def or decorator).
BLOCK_BOUNDARY = re.compile(r"(\n\n\n|\n\n(?=    (?:async def |def |@)))")


def unique_tail(text: str) -> str:
    """The shortest run of whole last lines (at least two) that occurs once in ``text``."""
    lines = text.splitlines(keepends=True)
    for count in range(2, len(lines) + 1):
        tail = "".join(lines[-count:])
        if text.count(tail) == 1 and tail.strip():
            return tail
    return text


class StoryError(RuntimeError):
    """The product answered differently from what the story expects: fix one of them."""


class Sim:
    """The scratch workspace, the clock and the ledger's growth."""

    def __init__(self, root: Path, home: Path, rng: random.Random) -> None:
        self.root = root
        self.home = home
        self.rng = rng
        self.clock = Clock(rng)
        self.environ = {"PAW_USER_HOME": str(home), "HOME": str(home)}

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def state(self) -> WorkspaceState:
        return WorkspaceState(str(self.root), clock=self.clock)

    def last_event(self) -> str | None:
        records = self.state().ledger.tail(1).records
        return str(records[-1]["event"]) if records else None

    # -- the files the tools change --

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")

    def write(self, rel: str, content: str) -> None:
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))

    def remove(self, *rels: str) -> None:
        for rel in rels:
            self.path(rel).unlink()


class Agent:
    """One Claude Code session: every call goes through the gate as a hook payload."""

    client = "claude-code"

    def __init__(self, sim: Sim, name: str) -> None:
        self.sim = sim
        self.name = name
        self.session_id = sim.uuid()
        self.transcript = (
            f"/home/dev/.claude/projects/-home-dev-acme-billing/{self.session_id}.jsonl"
        )

    # -- the hook protocol --

    def _base(self, event: str) -> dict[str, object]:
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript,
            "cwd": str(self.sim.root),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
        }

    def send(self, payload: dict[str, object]) -> Answer:
        raw = json.dumps(payload).encode("utf-8")
        return decide_payload(
            raw, client=self.client, workspaces=[str(self.sim.root)], environ=self.sim.environ
        )

    def start(self, source: str = "startup") -> None:
        self.sim.clock.advance(1, 4)
        self.send(dict(self._base("SessionStart"), source=source))

    def prompt(self, text: str) -> None:
        self.sim.clock.advance(20, 90)
        self.send(dict(self._base("UserPromptSubmit"), prompt=text))

    def end(self, reason: str = "prompt_input_exit") -> None:
        self.sim.clock.advance(10, 60)
        self.send(dict(self._base("SessionEnd"), reason=reason))

    def _tool_use_id(self) -> str:
        return "toolu_01" + "".join(
            self.sim.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789")
            for _ in range(22)
        )

    def tool(
        self,
        name: str,
        tool_input: dict[str, object],
        *,
        expect: str,
        effect: Callable[[], dict[str, object]] | None = None,
        post: bool = True,
        think: tuple[float, float] = (6, 50),
    ) -> Answer:
        """PreToolUse; when allowed, carry the tool out and send PostToolUse."""
        self.sim.clock.advance(*think)
        tool_use_id = self._tool_use_id()
        pre = dict(
            self._base("PreToolUse"), tool_name=name, tool_input=tool_input, tool_use_id=tool_use_id
        )
        answer = self.send(pre)
        verdict = "allow" if answer.exit_code == 0 else "deny"
        if verdict != expect:
            raise StoryError(
                f"{self.sim.clock.hhmm()} {self.name}: {name} {tool_input.get('file_path') or tool_input.get('command') or ''}"
                f" was {verdict}ed, the story expects {expect}: {answer.stderr.strip()}"
            )
        if verdict == "allow" and post:
            self.sim.clock.advance(0.4, 6)
            response = effect() if effect is not None else {}
            self.send(
                dict(
                    self._base("PostToolUse"),
                    tool_name=name,
                    tool_input=tool_input,
                    tool_response=response,
                    tool_use_id=tool_use_id,
                )
            )
        return answer

    # -- the tools --

    def read(self, rel: str) -> None:
        # Read-only: the gate allows it without a record (log_reads is off).
        self.tool(
            "Read",
            {"file_path": str(self.sim.path(rel))},
            expect="allow",
            post=False,
            think=(3, 15),
        )

    def write(self, rel: str, content: str, *, expect: str = "allow") -> None:
        def effect() -> dict[str, object]:
            self.sim.write(rel, content)
            return {"type": "create", "filePath": str(self.sim.path(rel)), "content": content}

        self.tool(
            "Write",
            {"file_path": str(self.sim.path(rel)), "content": content},
            expect=expect,
            effect=effect,
            think=(30, 150),
        )

    def edit(
        self, rel: str, old: str, new: str, *, expect: str = "allow", replace_all: bool = False
    ) -> None:
        if expect == "allow":
            found = self.sim.read(rel).count(old)
            if found != 1 and not (replace_all and found):
                raise StoryError(f"Edit of {rel}: old_string found {found} times")

        def effect() -> dict[str, object]:
            text = self.sim.read(rel)
            updated = text.replace(old, new) if replace_all else text.replace(old, new, 1)
            self.sim.write(rel, updated)
            return {"filePath": str(self.sim.path(rel)), "oldString": old, "newString": new}

        tool_input: dict[str, object] = {
            "file_path": str(self.sim.path(rel)),
            "old_string": old,
            "new_string": new,
        }
        if replace_all:
            tool_input["replace_all"] = True
        self.tool("Edit", tool_input, expect=expect, effect=effect, think=(15, 120))

    def multi_edit(self, rel: str, edits: list[tuple[str, str]]) -> None:
        def effect() -> dict[str, object]:
            text = self.sim.read(rel)
            for old, new in edits:
                if text.count(old) != 1:
                    raise StoryError(f"MultiEdit of {rel}: {old!r} is not unique")
                text = text.replace(old, new, 1)
            self.sim.write(rel, text)
            return {"filePath": str(self.sim.path(rel))}

        self.tool(
            "MultiEdit",
            {
                "file_path": str(self.sim.path(rel)),
                "edits": [{"old_string": o, "new_string": n} for o, n in edits],
            },
            expect="allow",
            effect=effect,
            think=(30, 120),
        )

    def bash(
        self,
        command: str,
        description: str,
        *,
        expect: str = "allow",
        effect: Callable[[], None] | None = None,
        stdout: str = "",
    ) -> None:
        def run() -> dict[str, object]:
            if effect is not None:
                effect()
            return {"stdout": stdout, "stderr": "", "interrupted": False}

        self.tool(
            "Bash",
            {"command": command, "description": description},
            expect=expect,
            effect=run,
            think=(5, 40),
        )

    def mcp(self, tool: str, arguments: dict[str, object]) -> None:
        self.tool(f"mcp__paw__{tool}", arguments, expect="allow", post=False, think=(2, 10))

    def select(self, intent_id: str, *, outcome: str) -> None:
        """``select_active_intent`` through the gate; ``outcome`` is the expected record."""
        expect = "deny" if outcome == "selection_refused" else "allow"
        self.tool(
            "mcp__paw__select_active_intent",
            {"intent_id": intent_id},
            expect=expect,
            post=False,
            think=(4, 20),
        )
        if self.sim.last_event() != outcome:
            raise StoryError(
                f"selecting {intent_id} recorded {self.sim.last_event()}, not {outcome}"
            )

    # -- writing a file the way an agent does: a skeleton, then one block at a time --

    def develop(self, rel: str, final: str, *, drafts: dict[str, str] | None = None) -> None:
        """Write the first block of ``final``, then add each next top-level block or method
        with an Edit anchored on the file's last lines. ``drafts`` maps final text to a
        first, buggy version the agent fixes later with :meth:`fix`."""
        for good, bad in (drafts or {}).items():
            if final.count(good) != 1:
                raise StoryError(f"draft text for {rel} is not unique: {good!r}")
            final = final.replace(good, bad)
        pieces = BLOCK_BOUNDARY.split(final.rstrip("\n"))
        self.write(rel, pieces[0] + "\n")
        for separator, piece in zip(pieces[1::2], pieces[2::2], strict=False):
            anchor = unique_tail(self.sim.read(rel))
            self.edit(rel, anchor, anchor.rstrip("\n") + separator + piece + "\n")

    def fix(self, rel: str, drafts: dict[str, str]) -> None:
        for good, bad in drafts.items():
            self.edit(rel, bad, good)


class GenericAgent(Agent):
    """A custom agent loop (here Codex behind a wrapper) on the gate's generic protocol."""

    client = "generic"

    def _event(self, event: str, **fields: object) -> dict[str, object]:
        return dict(
            {"event": event, "session_id": self.session_id, "cwd": str(self.sim.root)}, **fields
        )

    def start(self, source: str = "startup") -> None:
        self.sim.clock.advance(1, 4)
        self.send(self._event("session_start"))

    def prompt(self, text: str) -> None:
        self.sim.clock.advance(20, 90)
        self.send(self._event("prompt", prompt=text))

    def end(self, reason: str = "exit") -> None:
        self.sim.clock.advance(10, 60)
        self.send(self._event("session_end"))

    def call(
        self,
        tool: str,
        *,
        expect: str,
        paths: list[str] | None = None,
        command: str | None = None,
        effect: Callable[[], None] | None = None,
        tool_input: dict[str, object] | None = None,
    ) -> None:
        self.sim.clock.advance(8, 60)
        fields: dict[str, object] = {"tool": tool}
        if paths:
            fields["paths"] = paths
        if command:
            fields["command"] = command
        if tool_input:
            fields["tool_input"] = tool_input
        answer = self.send(self._event("pre_tool", **fields))
        verdict = "allow" if answer.exit_code == 0 else "deny"
        if verdict != expect:
            raise StoryError(
                f"{self.name}: {tool} {paths or command} was {verdict}ed: {answer.stdout}"
            )
        if verdict == "allow" and tool != "select_active_intent":
            self.sim.clock.advance(0.5, 5)
            if effect is not None:
                effect()
            self.send(self._event("post_tool", **fields))

    def select(self, intent_id: str, *, outcome: str) -> None:
        expect = "deny" if outcome == "selection_refused" else "allow"
        self.call("select_active_intent", expect=expect, tool_input={"intent_id": intent_id})
        if self.sim.last_event() != outcome:
            raise StoryError(
                f"selecting {intent_id} recorded {self.sim.last_event()}, not {outcome}"
            )


class Human:
    """A developer in the TUI or at the CLI: approvals, status changes, releases."""

    def __init__(self, sim: Sim, name: str) -> None:
        self.sim = sim
        self.name = name

    def _pending_request(self, agent: Agent) -> str:
        request = handshake.request_for_session(str(self.sim.root), agent.session_id)
        if request is None:
            raise StoryError(f"no pending approval for session {agent.session_id}")
        return request.id

    def approve(self, agent: Agent, *, after: tuple[float, float] = (40, 240)) -> None:
        self.sim.clock.advance(*after)
        handshake.decide_approval(
            self.sim.state(), self._pending_request(agent), True, by=self.name
        )

    def reject(self, agent: Agent, *, after: tuple[float, float] = (60, 300)) -> None:
        self.sim.clock.advance(*after)
        handshake.decide_approval(
            self.sim.state(), self._pending_request(agent), False, by=self.name
        )

    def set_status(self, intent_id: str, status: str) -> None:
        self.sim.clock.advance(5, 30)
        handshake.set_intent_status(self.sim.state(), intent_id, status, by=self.name)

    def release(self, agent: Agent) -> None:
        self.sim.clock.advance(20, 90)
        handshake.release_session(
            self.sim.state(),
            agent.session_id,
            reason=f"released by {self.name} (paw-tui sessions release)",
        )
