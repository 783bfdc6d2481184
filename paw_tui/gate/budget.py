"""The analysis budget: the decision of one hook call has a deadline.

A client that times its hook out runs the tool, so a gate that can be made slow is an open
gate: ``rm -rf .git`` placed before a glob that made the matcher backtrack ran in Claude
Code, whose hook timeout (10 s) is the lowest among the clients that matter. Matching is
linear and every blow-up has a count bound (globs, braces, the walk); the budget is what
holds whatever remains: once the analysis of a call has run for :data:`ANALYSIS_SECONDS`, a
real-time timer interrupts it and the call is denied with :data:`TOO_SLOW`.

Why two seconds: an ordinary call is analysed in milliseconds (a thousand times less), so a
busy machine never meets the budget; and after it, the part of a call that may still wait
(the ledger's and the sessions' locks, at most 5 s each, bounded already) and the
interpreter's start still end before the resident hook's own deadline of 8 s
(:data:`~paw_tui.gate.resident.wire.ANSWER_TIMEOUT`), itself under the client's 10 s. A
hostile call is thereby answered (denied) in about two seconds, under the three DESIGN §10
allows.

What counts: the call's own input, from its JSON to the verdict: parsing the payload and the
command, expanding globs and braces against the tree, resolving and matching paths. What
does not: loading the person's policy files (their own budget: a rebuilt cache after an
edit, DESIGN §10) and making the verdict stand (records, sessions, the drift snapshot), which
an interruption would leave half done. The timer is ``SIGALRM`` on the main thread; where a
process cannot have one (a thread, a platform without ``setitimer``) the count bounds alone
apply.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal
    from collections.abc import Callable
    from types import FrameType
else:
    try:  # the C module: "signal" would import enum, a cost on every hook call
        import _signal
    except ImportError:  # pragma: no cover - every CPython has it
        _signal = None

ANALYSIS_SECONDS = 2.0
"""How long the analysis of one hook call may run (see the module's text for why)."""
TOO_SLOW = (
    "paw-tui policy: the command took too long to analyse (more than {seconds:g} s, the gate's "
    "analysis budget; a glob, brace expansion or command built to stall the gate?); denying."
)
"""The reason a call that ran out of its budget is denied with."""


class OutOfTime(BaseException):
    """The analysis ran out of its budget. A ``BaseException``, so no ``except Exception``
    in the code it interrupts can swallow it and carry on."""


class AnalysisBudget:
    """One call's budget: :meth:`start` when its analysis starts, :meth:`end` when it is
    done (or a verdict is reached); :meth:`paused` for work that does not count.
    ``on_end`` is told, once, when the analysis ends (the resident worker tells its server)."""

    def __init__(
        self, seconds: float = ANALYSIS_SECONDS, on_end: Callable[[], None] | None = None
    ) -> None:
        self.seconds = seconds
        self.on_end = on_end
        self._armed = False
        self._pausing = False
        self._previous: object = None

    @property
    def reason(self) -> str:
        return TOO_SLOW.format(seconds=self.seconds)

    def start(self) -> AnalysisBudget:
        if _signal is None or not hasattr(_signal, "setitimer"):
            return self
        try:
            self._previous = _signal.signal(_signal.SIGALRM, self._expired)
        except ValueError:  # not the main thread: the count bounds alone apply
            return self
        self._armed = True
        _signal.setitimer(_signal.ITIMER_REAL, self.seconds)
        return self

    def _expired(self, signum: int, frame: FrameType | None) -> None:
        if self._armed and not self._pausing:
            raise OutOfTime

    def paused(self) -> _Pause:
        """A context in which time does not count (and the timer cannot interrupt)."""
        return _Pause(self)

    def end(self) -> None:
        """Stop counting (idempotent); tells ``on_end`` the first time."""
        if self._armed:
            self._armed = False
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            try:
                _signal.signal(_signal.SIGALRM, self._previous)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                pass
        on_end, self.on_end = self.on_end, None
        if on_end is not None:
            on_end()


class _Pause:
    """Time spent inside does not count; leaving it when the budget was already spent
    raises :class:`OutOfTime`."""

    __slots__ = ("budget", "remaining")

    def __init__(self, budget: AnalysisBudget) -> None:
        self.budget = budget
        self.remaining = 0.0

    def __enter__(self) -> None:
        budget = self.budget
        if budget._armed:
            budget._pausing = True
            self.remaining = _signal.setitimer(_signal.ITIMER_REAL, 0)[0]

    def __exit__(self, *exc: object) -> None:
        budget = self.budget
        if budget._armed and budget._pausing:
            budget._pausing = False
            if self.remaining <= 0:
                raise OutOfTime
            _signal.setitimer(_signal.ITIMER_REAL, self.remaining)
