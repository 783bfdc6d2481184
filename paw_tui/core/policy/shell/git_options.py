"""Git's global options: where it runs (``-C``), the configuration it is given (``-c``,
``--config-env``), and the options that point it elsewhere (``--git-dir``, ``--work-tree``,
``--exec-path=DIR``) or make it run configured programs (``-p``)."""

from __future__ import annotations

from .expansion import Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

_GLOBAL_VALUED = frozenset(
    {
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--super-prefix",
        "--config-env",
        "--list-cmds",
        "--attr-source",
    }
)
GLOBAL_UNSAFE = frozenset(
    {"-c", "--git-dir", "--work-tree", "--config-env", "--exec-path", "-p", "--paginate"}
)
_ELSEWHERE = ("--git-dir", "--work-tree")


class Globals:
    __slots__ = ("index", "chdirs", "unsafe", "configs", "elsewhere")

    def __init__(self) -> None:
        self.index = 0
        self.chdirs: list[Field] = []
        self.unsafe: list[str] = []
        self.configs: list[tuple[str, Field | None]] = []  # -c key[=value], --config-env
        self.elsewhere: list[str] = []  # --git-dir, --work-tree, --exec-path=DIR


def parse_globals(args: list[Field], env: Mapping[str, str | None] | None = None) -> Globals:
    result = Globals()
    index = 0
    while index < len(args):
        field = args[index]
        text = field.text
        if field.dynamic or not text.startswith("-"):
            break
        index += 1
        name = text.split("=", 1)[0] if text.startswith("--") else text
        if name in GLOBAL_UNSAFE or (text.startswith("-c") and len(text) > 2):
            result.unsafe.append(name[:2] if name.startswith("-c") else name)
        if name in _ELSEWHERE or text.startswith("--exec-path="):
            result.elsewhere.append(name)
        if text == "-C":
            if index < len(args):
                result.chdirs.append(args[index])
        elif text.startswith("-C") and not text.startswith("--"):
            result.chdirs.append(Field(text[2:], field.dynamic))
            continue
        if text.startswith("-c") or name == "--config-env":
            index = _config_option(args, index, result, env or {})
            continue
        if text in _GLOBAL_VALUED:
            index += 1
    result.index = index
    return result


def _config_option(
    args: list[Field], index: int, result: Globals, env: Mapping[str, str | None]
) -> int:
    """``-c key[=value]`` or ``--config-env=key=VARIABLE`` (the option at ``index - 1``):
    the pair in ``result.configs``; returns the index after it."""
    field = args[index - 1]
    text = field.text
    attached = text[2:] if text.startswith("-c") else text.partition("=")[2]
    given = Field(attached, field.dynamic) if attached else None
    if given is None and index < len(args):
        given = args[index]
        index += 1
    if given is None:
        return index
    key, eq, value = given.text.partition("=")
    if text.startswith("-c"):
        result.configs.append((key, Field(value, given.dynamic) if eq else None))
        return index
    known = env.get(value) if value in env and not given.dynamic else None
    result.configs.append((key, Field(known) if known is not None else Field("$" + value, True)))
    return index
