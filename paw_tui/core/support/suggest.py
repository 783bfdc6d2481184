"""“Did you mean …?” for a name that is almost one of the known ones: one rule for every
message (CLI errors, filters, the intents file's problems)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def typo_distance(first: str, second: str) -> int:
    """Edits between two words, a swap of neighbours counting as one (optimal string
    alignment): ``intnet`` is one edit from ``intent``."""
    before: list[int] | None = None
    previous = list(range(len(second) + 1))
    for i, a in enumerate(first, 1):
        current = [i] + [0] * len(second)
        for j, b in enumerate(second, 1):
            cost = 0 if a == b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a == second[j - 2] and first[i - 2] == b:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[-1]


def near_misses(wanted: str, known: Iterable[str], *, limit: int = 3) -> list[str]:
    """The known names nearest ``wanted``, nearest first. A near miss differs by case only, or
    by one typo in a word of four letters or more (two from ten): ids that merely share a
    prefix (``INT-404`` and ``INT-007``) are not near."""
    folded = wanted.casefold()
    allowed = 2 if len(wanted) >= 10 else 1 if len(wanted) >= 4 else 0
    scored = sorted(
        (distance, index, option)
        for index, option in enumerate(dict.fromkeys(known))
        if option != wanted and (distance := typo_distance(folded, option.casefold())) <= allowed
    )
    return [option for _, _, option in scored[:limit]]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` or the empty string: ready to append inside a message."""
    near = near_misses(word, known, limit=1)
    return f" (did you mean '{near[0]}'?)" if near else ""


def did_you_mean_sentence(wanted: str, known: Iterable[str], *, limit: int = 3) -> str:
    """`` Did you mean INT-001?`` for a near miss, else ``""``: ends a sentence."""
    names = near_misses(wanted, known, limit=limit)
    if not names:
        return ""
    shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" Did you mean {shown}?"
