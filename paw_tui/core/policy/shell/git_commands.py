"""The command strings git runs on its own, and the files and repositories it reads them from.

Git runs programs named in its configuration (``alias.x=!cmd``, ``core.fsmonitor``,
``core.editor``, ``core.pager``, ``core.sshCommand``, ``diff.external``, filters, merge
drivers, credential helpers, ``gpg.program``...) and in its environment (``GIT_EDITOR``,
``GIT_SSH_COMMAND``, ``GIT_PAGER``...). Configuration given on the command line (``-c``,
``--config-env``, ``GIT_CONFIG_PARAMETERS``, ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``) or
written by ``git config`` is read here key by key: a command string is a
:class:`~.effects.Carried` script (run by git in a shell, with arguments after it), a
non-``!`` alias is more git arguments, and what cannot be read here is ``unreadable``: a
configuration file or another repository git would read (``include.path``,
``GIT_CONFIG_GLOBAL``, ``GIT_DIR``, ``core.hooksPath``, a template directory...), which an
agent may have written. Keys that run nothing (``user.name``, ``color.ui``...) are fine.
"""

from __future__ import annotations

from .effects import Carried, Effects
from .expansion import Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# the last part of a key (lower case) that names a program or a shell command
_COMMAND_NAMES = frozenset(
    {"editor", "pager", "sshcommand", "askpass", "gitproxy", "external", "command", "cmd",
     "textconv", "clean", "smudge", "process", "driver", "program", "packobjectshook",
     "alternaterefscommand", "tunnel", "sendmailcmd", "tocmd", "cccmd", "headercmd",
     "difffilter", "defaultkeycommand", "fsmonitor", "uploadpack", "receivepack", "helper",
     "update", "proxycommand"}
)  # fmt: skip
# sections whose "path" key names a program (difftool.<tool>.path...)
_PROGRAM_PATHS = frozenset({"difftool", "mergetool", "man", "browser"})
# keys naming a file or directory git reads (or copies hooks from)
_READ_FILES = frozenset(
    {"include.path", "core.hookspath", "core.worktree", "init.templatedir", "core.excludesfile",
     "core.attributesfile", "gpg.ssh.allowedsignersfile", "commit.template"}
)  # fmt: skip
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})
_TRUE = frozenset({"true", "yes", "on", "1", ""})
# variables naming a program (git runs "$VALUE" with arguments), and those naming what it reads
COMMAND_VARIABLES = (
    "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF",
    "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL",
)  # fmt: skip
READ_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
    "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_ALLOW_PROTOCOL",
)  # fmt: skip
TRACE_VARIABLES = (
    "GIT_TRACE", "GIT_TRACE_PACKET", "GIT_TRACE_PACK_ACCESS", "GIT_TRACE_PERFORMANCE",
    "GIT_TRACE_SETUP", "GIT_TRACE_SHALLOW", "GIT_TRACE_CURL", "GIT_TRACE_FSMONITOR",
    "GIT_TRACE_REFS", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF",
)  # fmt: skip
"""Variables that, holding an absolute path, make git append its trace to that file."""
NULL_FILES = frozenset({"/dev/null", ""})


def _parts(key: str) -> tuple[str, str, str]:
    """(section, subsection, name): section and name compared in lower case, as git does."""
    section, _, rest = key.partition(".")
    subsection, _, name = rest.rpartition(".")
    return section.lower(), subsection, name.lower()


def config_carries(key: str, value: Field | None, eff: Effects, label: str) -> None:
    """Read one configuration ``key=value`` git is given for what it runs, adding what it
    carries to ``eff`` (an alias invoked is the caller's: :func:`.git._alias`), and for the
    refs a push changes (``remote.<name>.push``, ``.mirror``). ``value`` None is a key given
    without ``=`` (true)."""
    section, subsection, name = _parts(key)
    lowered = f"{section}.{name}" if not subsection else f"{section}.{subsection}.{name}"
    text = value.text if value is not None else ""
    shown = f"{label} {key}"
    if value is not None and value.dynamic and _names_something(section, name, lowered):
        eff.cannot_read(shown, "gives git a command or a file known only when it runs")
    elif section == "alias" and not subsection:
        if text.startswith("!"):
            eff.carry(Carried(shown, script=Field(text[1:])))
    elif section in ("include", "includeif") or lowered in _READ_FILES:
        _read_file(lowered, text, eff, shown)
    elif section == "protocol" or (section == "url" and subsection.startswith("ext::")):
        eff.cannot_read(shown, "lets git run a transport's own command (ext::)")
    elif section == "remote" and name in ("url", "pushurl") and text.startswith("ext::"):
        eff.cannot_read(shown, "names a remote whose transport is a command (ext::)")
    elif section == "remote" and name == "push" and value is not None:
        eff.remote_refs.append(push_destination(value, False))
    elif section == "remote" and name == "mirror" and text.lower() in _TRUE:
        eff.remote_refs.append("*")
    elif section == "pager" and not subsection:
        if text.lower() not in _BOOLEANS:  # pager.<command>: on, off, or the pager to run
            eff.carry(Carried(shown, script=Field(text)))
    elif name == "path" and section in _PROGRAM_PATHS:
        eff.carry(Carried(shown, script=Field(quote_word(text))))
    elif name in _COMMAND_NAMES:
        command = _command_value(section, name, text)
        if command:
            eff.carry(Carried(shown, script=Field(command)))


def _names_something(section: str, name: str, lowered: str) -> bool:
    """Whether a key's value names a command, a file or a transport."""
    return (
        section in ("alias", "include", "includeif", "protocol", "url", "pager")
        or name in _COMMAND_NAMES
        or lowered in _READ_FILES
    )


def _read_file(lowered: str, text: str, eff: Effects, shown: str) -> None:
    """A key naming a file git reads: configuration, hooks, a template or another tree."""
    if lowered in ("core.excludesfile", "core.attributesfile", "commit.template"):
        return  # read as data, never run
    if lowered == "core.hookspath" and text in NULL_FILES:
        return  # no hooks at all
    eff.cannot_read(shown, "makes git read a file or directory an agent may have written")


def _command_value(section: str, name: str, text: str) -> str | None:
    """The shell command a command-naming key's value stands for (None: it runs nothing)."""
    if name in ("fsmonitor", "pager") and text.lower() in _BOOLEANS:
        return None  # git's own daemon, or paging on or off
    if section == "submodule" and name == "update":
        return text[1:] if text.startswith("!") else None
    if section == "credential" and name == "helper":
        if text.startswith("!"):
            return text[1:]
        if text and not text.startswith("/") and " " not in text:
            return "git-credential-" + text
    return text or None


def push_destination(refspec: Field, deleting: bool) -> str:
    """The ref a push refspec changes on the remote, as written: ``+src:dst`` and ``:dst``
    (a deletion) give ``dst``, ``src`` alone is its own, ``--delete`` names the ref itself;
    empty for a negative refspec (``^src``). One known only at run time is its source text
    (``"$(git branch --show-current)"``, what agents push every day)."""
    text = refspec.text
    if deleting:
        return text
    text = text.removeprefix("+")
    if text.startswith("^"):
        return ""
    return text.partition(":")[2] if ":" in text else text


def quote_word(text: str) -> str:
    from .effects import quote

    return quote(text)


def split_cmdline(text: str) -> list[str] | None:
    """An alias's words as git splits them (``split_cmdline``: quotes, backslashes; no
    expansion), or None when the quotes do not close."""
    words: list[str] = []
    current: list[str] = []
    started = False
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        if not quote and char.isspace():
            if started:
                words.append("".join(current))
                current, started = [], False
            continue
        started = True
        if char == "\\" and quote != "'" and index < len(text):
            current.append(text[index])
            index += 1
        elif quote and char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
        else:
            current.append(char)
    if quote:
        return None
    if started:
        words.append("".join(current))
    return words


def config_parameters(text: str) -> list[tuple[str, str | None]] | None:
    """``GIT_CONFIG_PARAMETERS`` (``'key'='value' 'key2'``, or the older ``'key=value'``),
    or None when it cannot be read."""
    words = split_cmdline(text)
    if words is None:
        return None
    pairs: list[tuple[str, str | None]] = []
    for word in words:
        key, eq, value = word.partition("=")
        pairs.append((key, value if eq else None))
    return pairs


def environment_carries(env: Mapping[str, str | None], eff: Effects) -> None:
    """The programs and files git's environment names: ``GIT_EDITOR=cmd git commit``,
    ``GIT_DIR=elsewhere git status``, ``GIT_TRACE=/path``, configuration in variables."""
    if not env:
        return
    for name in READ_VARIABLES:
        if name in env and (env[name] is None or env[name] not in NULL_FILES):
            shown = f"{name}={env[name] or '$' + name} git"
            eff.cannot_read(
                shown, "makes git read a repository or configuration an agent may have written"
            )
    for name in COMMAND_VARIABLES:
        value = env.get(name)
        if name not in env:
            continue
        if value is None:
            eff.cannot_read(f"{name} git", "gives git a program known only when it runs")
        elif value:
            eff.carry(Carried(f"{name}={value} git", script=Field(value + ' "$@"')))
    for name in TRACE_VARIABLES:
        value = env.get(name)
        if name in env and (value is None or value.startswith("/")):
            eff.hit(Field(value or "$" + name, value is None), "git")
    _configuration_variables(env, eff)


def _configuration_variables(env: Mapping[str, str | None], eff: Effects) -> None:
    """``GIT_CONFIG_PARAMETERS`` and ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``."""
    unreadable = "gives git configuration paw-tui cannot read"
    if "GIT_CONFIG_PARAMETERS" in env:
        parameters = env["GIT_CONFIG_PARAMETERS"]
        pairs = None if parameters is None else config_parameters(parameters)
        if pairs is None:
            eff.cannot_read("GIT_CONFIG_PARAMETERS git", unreadable)
        for key, value in pairs or []:
            given = None if value is None else Field(value)
            config_carries(key, given, eff, "GIT_CONFIG_PARAMETERS")
    if "GIT_CONFIG_COUNT" not in env:
        return
    count = env["GIT_CONFIG_COUNT"]
    if count is None or not count.isdigit() or int(count) > 64:
        eff.cannot_read("GIT_CONFIG_COUNT git", unreadable)
        return
    for index in range(int(count)):
        numbered = env.get(f"GIT_CONFIG_KEY_{index}")
        setting = env.get(f"GIT_CONFIG_VALUE_{index}")
        if numbered is None:
            eff.cannot_read("GIT_CONFIG_KEY git", unreadable)
            return
        given = Field("$GIT_CONFIG_VALUE", True) if setting is None else Field(setting)
        config_carries(numbered, given, eff, "GIT_CONFIG_COUNT")
