"""Command-line options the way the programs read them.

:func:`getopt` follows GNU ``getopt_long``: grouped short options (``-rf``), values
attached or in the next word (``-tDIR``, ``-t DIR``), optional values only attached
(``-i.bak``, ``--in-place=.bak``), unambiguous long-option prefixes (``--target=D``),
options after operands (GNU permutation) and ``--``; ``permute=False`` stops at the first
operand, as tmux's and the wrappers' (:mod:`.wrappers`) own parsers do.
"""

from __future__ import annotations

from .expansion import Field

_EMPTY: frozenset[str] = frozenset()


class Options:
    """What :func:`getopt` found: ``(name, value)`` pairs (long names without dashes, short
    ones as one letter) and the operands."""

    __slots__ = ("found", "operands")

    def __init__(self) -> None:
        self.found: list[tuple[str, Field | None]] = []
        self.operands: list[Field] = []

    def has(self, *names: str) -> bool:
        return any(name == found for found, _ in self.found for name in names)

    def values(self, *names: str) -> list[Field]:
        return [value for found, value in self.found if found in names and value is not None]

    def value(self, *names: str) -> Field | None:
        found = self.values(*names)
        return found[-1] if found else None


def getopt(
    args: list[Field],
    flags: str = "",
    valued: str = "",
    *,
    long_flags: frozenset[str] = _EMPTY,
    long_valued: frozenset[str] = _EMPTY,
    optional: str = "",
    long_optional: frozenset[str] = _EMPTY,
    permute: bool = True,
) -> Options:
    """Parse ``args``; unknown options count as flags. ``flags`` is informational: any letter
    not in ``valued``/``optional`` is a flag."""
    result = Options()
    known_long = long_flags | long_valued | long_optional
    index = 0
    count = len(args)
    while index < count:
        field = args[index]
        text = field.text
        index += 1
        if field.dynamic or len(text) < 2 or text[0] != "-":
            result.operands.append(field)
            if not permute:
                result.operands.extend(args[index:])
                break
            continue
        if text == "--":
            result.operands.extend(args[index:])
            break
        if text.startswith("--"):
            name, eq, value = text[2:].partition("=")
            if name not in known_long:
                matches = [known for known in known_long if known.startswith(name)]
                if len(matches) == 1:
                    name = matches[0]
            if eq:
                result.found.append((name, Field(value, field.dynamic, field.glob)))
            elif name in long_valued and index < count:
                result.found.append((name, args[index]))
                index += 1
            else:
                result.found.append((name, None))
            continue
        position = 1
        while position < len(text):
            letter = text[position]
            position += 1
            if letter in valued:
                if position < len(text):
                    result.found.append((letter, Field(text[position:], field.dynamic)))
                elif index < count:
                    result.found.append((letter, args[index]))
                    index += 1
                else:
                    result.found.append((letter, None))
                break
            if letter in optional:
                result.found.append(
                    (letter, Field(text[position:]) if position < len(text) else None)
                )
                break
            result.found.append((letter, None))
    return result
