"""Brace expansion, ported from bash's ``braces.c`` so it agrees with bash case by case.

It works, as bash's does, on a word's source text (quotes still in it): ``{a,b}`` and
``{1..3}``, ``{a..e..2}``, ``{01..10}`` expand; ``{a}``, ``"{a,b}"``, ``\\{a,b}``, ``${x}``,
``{a,$(cmd)}`` inner text and a lone ``{`` do not; nested braces and several expansions in
one word combine the way bash combines them (``{a{b,c}}`` is ``{ab} {ac}``).
"""

from __future__ import annotations

from .limits import TooComplex

LIMIT = 4096
"""Words one brace expansion may make; past it the command is refused (fail closed)."""


MAX_SCANNED = 250_000
"""Characters one brace expansion may scan: bash's algorithm scans a word again for each
``{`` it tries and each level of nesting, so ``{a,{a,{a,...`` unclosed, or thousands of
``{``, cost time growing with the square of the word; past this the command is refused."""


class BraceLimit(TooComplex):
    """The expansion would produce more than :data:`LIMIT` words, or scan more than
    :data:`MAX_SCANNED` characters to find them."""

    def __init__(self, reason: str = f"makes more than {LIMIT:,} words") -> None:
        super().__init__(f"a brace expansion in it {reason}")


class _Scan:
    """Characters scanned so far by one expansion."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def add(self, count: int) -> None:
        self.count += count
        if self.count > MAX_SCANNED:
            raise BraceLimit(
                f"nests or repeats braces too much to expand (over {MAX_SCANNED:,} steps)"
            )


def brace_expand(text: str) -> list[str]:
    """The words bash's brace expansion makes of ``text``; raises :class:`BraceLimit`."""
    if "{" not in text:
        return [text]
    result = _expand(text, _Scan())
    if len(result) > LIMIT:
        raise BraceLimit
    return result


def _expand(text: str, scan: _Scan) -> list[str]:
    i = 0
    found = ""
    while True:  # the first "{" that begins a valid brace expression
        i, found = _gobble(text, i, "{", scan)
        if not found:
            break
        end, closing = _gobble(text, i + 1, "}", scan)
        if closing:
            break
        i += 1
    if found != "{":
        return [text]
    preamble = text[:i]
    start = i + 1
    i, closing = _gobble(text, start, "}", scan)
    if not closing:
        return [text]
    amble = text[start:i]
    postamble = text[i + 1 :]
    j = 0
    has_comma = False
    while j < len(amble):  # bash checks only backslashes here, not quotes
        if amble[j] == "\\":
            j += 2
            continue
        if amble[j] == ",":
            has_comma = True
            break
        j += 1
    tack: list[str] | None
    if has_comma:
        tack = _expand_amble(amble, scan)
    else:
        tack = _sequence(amble)
        if tack is None:
            if not postamble:
                return [text]
            tack = ["{" + amble + "}"]
    result = [preamble + item for item in tack]
    if postamble:
        rest = _expand(postamble, scan)
        if len(result) * len(rest) > LIMIT:
            raise BraceLimit
        result = [head + tail for head in result for tail in rest]
    if len(result) > LIMIT:
        raise BraceLimit
    return result


def _expand_amble(amble: str, scan: _Scan) -> list[str]:
    result: list[str] = []
    start = 0
    while True:
        i, found = _gobble(amble, start, ",", scan)
        result.extend(_expand(amble[start:i], scan))
        if len(result) > LIMIT:
            raise BraceLimit
        if not found:
            return result
        start = i + 1


def _skip_parens(text: str, i: int) -> int:
    """Index of the ``)`` closing a ``$(`` whose text starts at ``i``."""
    depth = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "'" or char == '"' or char == "`":
            end = text.find(char, i + 1)
            if end < 0:
                return n
            i = end + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return n


def _gobble(text: str, i: int, satisfy: str, scan: _Scan) -> tuple[int, str]:
    """bash's ``brace_gobbler``: the index of the first unquoted ``satisfy`` that counts
    (a ``}`` counts only after a top-level comma or ``..``), and it, or ``""``; what it
    scanned counts against ``scan``."""
    end, found = _gobble_from(text, i, satisfy)
    scan.add(end - i + 1)
    return end, found


def _gobble_from(text: str, i: int, satisfy: str) -> tuple[int, str]:
    n = len(text)
    level = 0
    quoted = ""
    pass_next = False
    commas = 0 if satisfy == "}" else 1
    while i < n:
        char = text[i]
        if pass_next:
            pass_next = False
            i += 1
            continue
        if char == "\\" and quoted in ("", '"', "`"):
            pass_next = True
            i += 1
            continue
        if char == "$" and text[i + 1 : i + 2] == "{" and quoted != "'":
            pass_next = True
            i += 1
            if not quoted:
                level += 1
            continue
        if quoted or char in "\"'`" or (char in "$<>" and text[i + 1 : i + 2] == "("):
            i, quoted = _quoted(text, i, quoted)
            continue
        if char == satisfy and level == 0 and commas > 0:
            if (
                char == "{"
                and (i == 0 or text[i - 1] in " \t\n")
                and (i + 1 >= n or text[i + 1] in " \t\n}")
            ):
                i += 1
                continue
            return i, char
        if char == "{":
            level += 1
        elif char == "}" and level:
            level -= 1
        elif (
            satisfy == "}"
            and level == 0
            and (
                char == ","
                or (char == "." and text[i + 1 : i + 2] == "." and text[i + 2 : i + 3] != "}")
            )
        ):
            commas += 1
        i += 1
    return i, ""


def _quoted(text: str, i: int, quoted: str) -> tuple[int, str]:
    """Inside quotes, a quote, or a command substitution at ``i``: where to go on."""
    char = text[i]
    if quoted:
        if char == quoted:
            return i + 1, ""
        if quoted == '"' and char == "$" and text[i + 1 : i + 2] == "(":
            return _skip_parens(text, i + 2) + 1, quoted
        return i + 1, quoted
    if char in "\"'`":
        return i + 1, char
    return _skip_parens(text, i + 2) + 1, quoted  # $( <( >( are passed over whole


def _integer(text: str) -> int | None:
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not body.isascii() or not body.isdigit():
        return None
    return int(text)


def _sequence(amble: str) -> list[str] | None:
    """``x..y[..step]`` of integers or of single letters; None when it is not one."""
    dots = amble.find("..")
    if dots <= 0:
        return None
    lhs = amble[:dots]
    rhs = amble[dots + 2 :]
    if not rhs:
        return None
    step = 1
    rest = rhs.find("..")
    if rest >= 0:
        increment = _integer(rhs[rest + 2 :])
        if increment is None:
            return None
        step = increment
        rhs = rhs[:rest]
    left = _integer(lhs)
    right = _integer(rhs)
    if left is not None and right is not None:
        width = 0
        for side in (lhs, rhs):
            if (len(side) > 1 and side[0] == "0") or (len(side) > 2 and side[:2] == "-0"):
                width = max(width, len(side))
        values = _steps(left, right, step)
        if values is None:
            return None
        if width:
            return [f"{value:0{width}d}" for value in values]
        return [str(value) for value in values]
    if (
        len(lhs) == 1
        and lhs.isascii()
        and lhs.isalpha()
        and len(rhs) == 1
        and rhs.isascii()
        and rhs.isalpha()
    ):
        values = _steps(ord(lhs), ord(rhs), step)
        return None if values is None else [chr(value) for value in values]
    return None


def _steps(start: int, end: int, step: int) -> list[int] | None:
    if step == 0:
        step = 1
    if (start > end and step > 0) or (start < end and step < 0):
        step = -step
    count = (end - start) // step + 1
    if count > LIMIT:
        raise BraceLimit
    return [start + k * step for k in range(count)]
