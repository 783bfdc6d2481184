"""May this intent write this path? The verdict on one path (DESIGN §5).

A :class:`ScopeChecker` normalises a path (:mod:`paw_tui.core.workspace.paths`), refuses the
protected paths (:mod:`~paw_tui.core.policy.scope.protect` and ``governance.yaml:
protected:``), then matches the intent's compiled ``owned_scope``
(:mod:`~paw_tui.core.policy.scope.match`). Standard library only: the gate's hot path.
"""

from __future__ import annotations

from paw_tui.core.policy.scope.protect import builtin_protection, may_be_protected
from paw_tui.core.workspace.paths import real_root, resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from paw_tui.core.policy.scope.match import CompiledScope

CHILD_PROBE = "\x00"
"""A name no file can have: matched in place of "any entry of this directory"."""

ALLOWED = "allowed"
OUTSIDE_ROOT = "outside_root"
PROTECTED = "protected"
OUT_OF_SCOPE = "out_of_scope"
EXCLUDED = "excluded"


def protected_message(path: str) -> str:
    """The deny reason of a protected path (DESIGN §2), exactly."""
    return f"{path} is protected: agents never write it."


def render_patterns(patterns: Iterable[str]) -> str:
    """How a deny message lists the owned scope: as written, joined by ``, ``."""
    return ", ".join(patterns) or "(none)"


def scope_violation_message(intent_id: str, path: str, patterns: Iterable[str]) -> str:
    """The deny reason of DESIGN §5, exactly."""
    return (
        f"Scope Violation: {intent_id} is not authorized to edit {path}. "
        f"Owned scope: {render_patterns(patterns)}. Request scope expansion."
    )


_Fields = tuple[str, str, "int | None", "str | None", str, "str | None", str]
"""kind, intent_id, index, pattern, scope_text, given, path: the path last, so a checker
builds a decision from a verdict made once per pattern plus the path."""
_decision = tuple.__new__


class ScopeDecision(_Fields):
    """The verdict on one path.

    ``kind`` is one of ``ALLOWED``, ``OUTSIDE_ROOT``, ``PROTECTED``, ``OUT_OF_SCOPE``, ``EXCLUDED``. ``path`` is the root-relative POSIX path (``.`` for
    the root) or the resolved absolute path when outside the root. ``index`` and ``pattern``
    name the deciding rule: the owned_scope pattern (as written) for ``allowed`` and
    ``excluded``; for ``protected``, the built-in rule (``index`` None) or the governance
    pattern and its index. ``message`` is the contract deny sentence (None when allowed) and
    ``detail`` one sentence saying why, for logs and ``paw-tui check``; both are built on
    first use.
    """

    __slots__ = ()

    # A tuple, built in C by the checker (``_decision``): a scope decision is made for every
    # path a drift comparison or ``paw-tui check`` looks at, and an object with seven
    # attributes set in Python cost a third of the whole decision.
    def __new__(
        cls,
        kind: str,
        path: str,
        intent_id: str,
        index: int | None = None,
        pattern: str | None = None,
        scope_text: str = "(none)",
        given: str | None = None,
    ) -> ScopeDecision:
        return _decision(cls, (kind, intent_id, index, pattern, scope_text, given, path))

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def intent_id(self) -> str:
        return self[1]

    @property
    def index(self) -> int | None:  # type: ignore[override]  # the field, not tuple.index
        return self[2]

    @property
    def pattern(self) -> str | None:
        return self[3]

    @property
    def scope_text(self) -> str:
        """The owned scope as the deny message renders it (:func:`render_patterns`)."""
        return self[4]

    @property
    def given(self) -> str | None:
        """The path as the caller gave it, when :meth:`ScopeChecker.check` normalised it."""
        return self[5]

    @property
    def path(self) -> str:
        return self[6]

    def with_given(self, given: str) -> ScopeDecision:
        return _decision(ScopeDecision, (*self[:5], given, self[6]))

    @property
    def allowed(self) -> bool:
        return self.kind == ALLOWED

    @property
    def message(self) -> str | None:
        """The DESIGN §5 deny reason, or None when the path is allowed. A protected path is
        denied as protected: asking for more scope could never help."""
        if self.allowed:
            return None
        if self.kind == PROTECTED:
            return protected_message(self.path)
        return (
            f"Scope Violation: {self.intent_id} is not authorized to edit {self.path}. "
            f"Owned scope: {self.scope_text}. Request scope expansion."
        )

    @property
    def detail(self) -> str:
        """Why, in one sentence naming the deciding rule."""
        kind = self.kind
        path = self.path
        if kind == OUTSIDE_ROOT:
            given = f"{self.given} resolves to " if self.given is not None else ""
            return f"{given}{path}, outside the workspace root."
        if kind == PROTECTED:
            if self.index is None:
                return f"{path} is protected ({self.pattern}); agents never write it."
            return f"{path} is protected by governance pattern {self.index} '{self.pattern}'."
        if kind == OUT_OF_SCOPE:
            return f"{path} matches no owned_scope pattern."
        if kind == EXCLUDED:
            return f"{path} is excluded by owned_scope pattern {self.index} '{self.pattern}'."
        return f"{path} is owned through pattern {self.index} '{self.pattern}'."

    def to_dict(self) -> dict[str, object]:
        return {
            "allowed": self.allowed,
            "kind": self.kind,
            "path": self.path,
            "intent_id": self.intent_id,
            "index": self.index,
            "pattern": self.pattern,
            "message": self.message,
            "detail": self.detail,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScopeDecision):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"ScopeDecision(kind={self.kind!r}, path={self.path!r}, index={self.index!r}, "
            f"pattern={self.pattern!r})"
        )


class ScopeChecker:
    """Checks paths for one intent in one workspace root.

    ``scope`` is the intent's compiled ``owned_scope``; ``protected`` the compiled
    ``governance.yaml: protected:`` patterns (compile them with ``ignore_case=True``).
    Creation, modification and deletion of a path are all checked the same way.
    """

    # No __slots__: an instance without protected patterns shadows check_relative with
    # _plain_check's closure.

    def __init__(
        self,
        root: str,
        intent_id: str,
        scope: CompiledScope,
        *,
        protected: CompiledScope | None = None,
    ) -> None:
        self.root = root
        self.intent_id = intent_id
        self.scope = scope
        self.protected = protected if protected is not None and len(protected) else None
        self._real_root: str | None = None
        self.scope_text = render_patterns(scope.patterns)
        if self.protected is None:
            self.check_relative = _plain_check(self)  # type: ignore[method-assign]

    @property
    def real_root(self) -> str:
        """The root's realpath, computed on the first :meth:`check` (not by
        :meth:`check_relative`, which works on paths already resolved)."""
        if self._real_root is None:
            self._real_root = real_root(self.root)
        return self._real_root

    def outside(self, shown: str, given: str | None = None) -> ScopeDecision:
        """The verdict on a path that resolved to ``shown``, outside the root."""
        return ScopeDecision(
            OUTSIDE_ROOT, shown, self.intent_id, None, None, self.scope_text, given
        )

    def check(
        self,
        path: str,
        *,
        cwd: str | None = None,
        subtree: bool = False,
        directory: bool = False,
    ) -> ScopeDecision:
        """Normalise ``path`` (against ``cwd``, default this process's) and decide.

        ``subtree`` marks an operation on a whole directory (``rm -r``; see
        :func:`builtin_protection`). ``directory`` marks the creation of a directory
        (``mkdir``): the path is matched as ``path/``, the way gitignore matches a directory,
        so ``src/auth/**`` and ``build/`` own ``src/auth`` and ``build`` for that purpose.
        Never use it for a deletion: ``!src/build`` would not protect ``src/build/``.
        Raises :class:`paw_tui.core.workspace.paths.PathError` for an empty path or one holding a NUL
        byte; the gate turns that into a deny.
        """
        resolved = resolve_path(path, self.real_root, cwd=cwd, root_is_real=True)
        relative = resolved.relative
        if relative is None:
            return self.outside(resolved.absolute, path)
        decision = self.check_relative(relative, subtree=subtree, directory=directory)
        return decision.with_given(path)

    def check_relative(
        self,
        relative: str,
        *,
        subtree: bool = False,
        directory: bool = False,
        contents: bool = False,
    ) -> ScopeDecision:
        """Decide for an already normalised root-relative POSIX path (``""`` is the root).

        ``subtree``: everything below the path goes too, so a protected path or an excluding
        pattern below it denies; ``contents``: only what is below it is written (``find DIR
        -delete``), so DIR itself need not be owned.
        """
        return self._check_relative(relative, subtree, directory, contents)

    def _check_relative(
        self, relative: str, subtree: bool, directory: bool, contents: bool
    ) -> ScopeDecision:
        shown = relative or "."
        rule = builtin_protection(relative, subtree=subtree or contents)
        if rule is not None:
            return ScopeDecision(PROTECTED, shown, self.intent_id, None, rule, self.scope_text)
        protected = self.protected
        if protected is not None:
            include, index = protected.match(relative)
            if not (include and index is not None) and (subtree or contents):
                below = protected.reaching_below(relative, True)
                include, index = (True, below.index) if below is not None else (None, None)
            if include and index is not None:
                return ScopeDecision(
                    PROTECTED,
                    shown,
                    self.intent_id,
                    index,
                    protected.patterns[index],
                    self.scope_text,
                )
        if contents:
            probe = (relative + "/" if relative else "") + CHILD_PROBE
            include, index = self.scope.match_relative(probe)
        else:
            include, index = self.scope.match_relative(relative + "/" if directory else relative)
        if index is None:
            return ScopeDecision(OUT_OF_SCOPE, shown, self.intent_id, None, None, self.scope_text)
        if include and (subtree or contents):
            excluded = self.scope.reaching_below(relative, False)
            if excluded is not None:
                include, index = False, excluded.index
        return ScopeDecision(
            ALLOWED if include else EXCLUDED,
            shown,
            self.intent_id,
            index,
            self.scope.patterns[index],
            self.scope_text,
        )


def _plain_check(checker: ScopeChecker) -> Callable[..., ScopeDecision]:
    """``checker.check_relative`` for a checker without protected patterns: a plain path
    (no flag, nothing a built-in rule protects) is decided by the owned scope alone, with
    every fixed part bound here (the decision is made per path of a drift comparison or a
    ``check``; loading them from the checker was a fifth of its cost). Anything else goes
    the general way, which gives the same verdict."""
    match = checker.scope.match_relative
    general = checker._check_relative
    text = checker.scope_text
    intent_id = checker.intent_id
    # each pattern's verdict, but for the path (a decision's last field)
    verdicts = [
        (ALLOWED if entry.include else EXCLUDED, intent_id, entry.index, entry.pattern, text, None)
        for entry in checker.scope.entries
    ]
    unowned = (OUT_OF_SCOPE, intent_id, None, None, text, None)

    def check_relative(
        relative: str, *, subtree: bool = False, directory: bool = False, contents: bool = False
    ) -> ScopeDecision:
        if not (subtree or directory or contents) and not may_be_protected(relative):
            index = match(relative)[1]
            return _decision(
                ScopeDecision, (unowned if index is None else verdicts[index]) + (relative,)
            )
        return general(relative, subtree, directory, contents)

    check_relative.__doc__ = ScopeChecker.check_relative.__doc__
    return check_relative
