"""“Did you mean …?” for a name that is almost one of the known ones."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def closest(word: str, known: Iterable[str], *, cutoff: float = 0.75) -> str | None:
    """The known name nearest to ``word`` (case aside), or None when none is near."""
    import difflib

    names = list(known)
    folded = {name.casefold(): name for name in names}
    found = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = 0.75) -> str:
    """`` (did you mean 'x'?)`` or the empty string: ready to append to a message."""
    near = closest(word, known, cutoff=cutoff)
    return f" (did you mean '{near}'?)" if near is not None and near != word else ""
