"""Compiling owned-scope (or protected) patterns with pathspec, once per YAML change.

The slow path only: pathspec is imported here, and the result is stored in the policy cache
so the gate never imports it (:mod:`paw_tui.core.policy.scope.match`).
"""

from __future__ import annotations

from paw_tui.core.policy.scope.match import DIR_GROUP, FORM_REGEX, CompiledScope, Entry
from paw_tui.core.policy.scope.patterns import (
    ScopePatternError,
    anchor_pattern,
    check_written,
    classify_regex,
    required_runs,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def compile_scope(
    patterns: Iterable[str], *, ignore_case: bool = False, label: str = "owned_scope"
) -> CompiledScope:
    """Anchor and compile ``patterns`` with pathspec's ``GitIgnoreSpec``.

    ``ignore_case`` makes the compiled scope match case-insensitively (protected paths).
    Raises :class:`ScopePatternError` for the first unusable pattern, naming its index.
    """
    import warnings

    from pathspec import GitIgnoreSpec, __version__

    entries = []
    for index, pattern in enumerate(patterns):
        written = check_written(index, pattern, label)
        anchored = anchor_pattern(written)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # see _compile_regex
                compiled = GitIgnoreSpec.from_lines([anchored]).patterns[0]
        except ValueError as error:  # pathspec's GitIgnorePatternError
            reason = str(error.__cause__ or error)
            if "Escape character" in reason:
                reason = "a '\\' at the end of the pattern or before a '/' escapes nothing"
            raise ScopePatternError(index, pattern, reason, label) from None
        regex = compiled.regex
        include = compiled.include
        if include is None or regex is None:
            raise ScopePatternError(
                index, pattern, "a '[' is never closed (git discards such a pattern)", label
            )
        source = regex.pattern
        if not isinstance(source, str) or set(regex.groupindex) - {DIR_GROUP}:
            raise ScopePatternError(index, pattern, "pathspec produced an unexpected regex", label)
        needs: tuple[str, ...] = ()
        if ignore_case:
            form, literal = FORM_REGEX, ""
        else:
            form, literal = classify_regex(source)
            needs = required_runs(source) if form == FORM_REGEX else ()
        entries.append(Entry(index, written, anchored, source, include, form, literal, needs))
    return CompiledScope(entries, ignore_case=ignore_case, pathspec_version=__version__)
