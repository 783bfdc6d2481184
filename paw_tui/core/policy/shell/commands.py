"""Simple commands: what one command line does, given the shell state it runs in.

:meth:`Commands.simple` runs the commands inside its substitutions (each in a subshell),
applies its redirections (``>``, ``>>``, ``>|``, ``&>``, ``<>``, ``>&file``; descriptor
duplications, ``/dev/null`` and the like write nothing), assigns variables when there is no
command, and otherwise expands the words and hands them to :meth:`Commands.run_argv`:
wrappers are stripped, then the command is a function call, a builtin that changes the
shell (:mod:`.builtins`), a shell running a string (``bash -c``, a here-document fed to
``sh``), or a program whose writes :mod:`.targets` knows; and it is judged read-only or not
(:mod:`.readonly`).
"""

from __future__ import annotations

import os

from .builtins import BUILTINS, QUIET_BUILTINS, SHELLS, assign
from .effects import Carried
from .expansion import Expander, Field, joined
from .lexer import plain
from .limits import TooComplex
from .nodes import (
    ARITH,
    ARRAY,
    CMDSUB,
    LIT,
    PARAMX,
    PROCSUB,
    CommandList,
    Part,
    Redirect,
    Simple,
    Word,
)
from .parser import assignment, dequote, parse
from .readonly import SAFE_WITH_ANY_ARGS, read_only_command, trusted_name
from .record import MAX_DEPTH, MAX_STEPS, Record
from .results import MARK
from .scanner import ShellSyntaxError
from .state import Place
from .targets import command_effects
from .wrappers import Unwrapped, unwrap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .effects import Effects
    from .nodes import Node
    from .record import Flow

_DECLARATIONS = frozenset({"declare", "typeset", "local", "export", "readonly"})
# wrappers that keep a read-only command read-only
_READ_ONLY_WRAPPERS = frozenset(
    {
        "time",
        "command",
        "builtin",
        "timeout",
        "nice",
        "stdbuf",
        "ionice",
        "setsid",
        "chronic",
        "xargs",
        "env",
        "busybox",
        "toybox",
        "taskset",
        "chrt",
        "numactl",
        "unbuffer",
        "catchsegv",
    }
)
_SUBSTITUTIONS = frozenset({CMDSUB, PROCSUB, PARAMX, ARITH, ARRAY})


class Commands(Record):
    """Simple commands, and the strings and shells they run."""

    def walk_parts(self, parts: list[Part], place: Place) -> None:
        """Run the commands inside substitutions (each in a subshell)."""
        for part in parts:
            if part.kind not in _SUBSTITUTIONS:
                continue
            body = part.body
            if isinstance(body, CommandList):
                self.branching += 1
                self.run_list(body, [place])
                self.branching -= 1
            elif isinstance(body, list):
                for item in body:
                    if isinstance(item, Part):
                        self.walk_parts([item], place)
                    elif isinstance(item, Word):
                        self.walk_parts(item.parts, place)

    def compound_redirects(self, node: Node, places: list[Place]) -> None:
        """A compound command's redirections, opened before its body runs."""
        for place in places:
            expand = self.expander(place)
            for redirect in node.redirects:
                self.walk_redirect_words(redirect, place)
                self.redirect(redirect, place, expand)

    def walk_redirect_words(self, redirect: Redirect, place: Place) -> None:
        if redirect.heredoc is not None:
            if redirect.heredoc.broken:
                self.add_opaque("here-document")
                self.read_only = False
            self.walk_parts(redirect.heredoc.parts, place)
        else:
            self.walk_parts(redirect.target.parts, place)

    def redirect(self, redirect: Redirect, place: Place, expand: Expander) -> None:
        op = redirect.op
        if op in ("<", "<<", "<<-", "<<<"):
            return
        fields = expand.expand(redirect.target)
        if op == ">&" or op == "<&":
            for field in fields:
                text = field.text
                if not field.dynamic and (text == "-" or text.rstrip("-").isdigit()):
                    continue  # duplicating or closing a descriptor
                if op == ">&" and redirect.fd is None and redirect.name is None:
                    # >&file is &>file, and bash removes quotes from the expanded word again
                    again = Field(dequote(text), field.dynamic, field.glob, field.pattern)
                    self.add_target(again, "redirect", place)
            return
        for field in fields:
            self.add_target(field, "redirect", place)

    def simple(self, node: Simple, place: Place) -> Flow:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise TooComplex
        expand = self.expander(place)
        for given in node.assigns:
            self.walk_parts(given.word.parts, place)
        for word in node.words:
            self.walk_parts(word.parts, place)
        stdin: tuple[str, bool] | None = None
        for redirect in node.redirects:
            self.walk_redirect_words(redirect, place)
            self.redirect(redirect, place, expand)
            stdin = _stdin(redirect, expand) or stdin
        if node.assigns:
            self.read_only = False
        if not node.words:
            for given in node.assigns:
                place = assign(
                    self, place, given.name, given.value, given.append, given.array is not None
                )
            return [place], [place]
        prefix: dict[str, str | None] | None = None
        if node.assigns:  # VAR=x cmd: the variables the command gets
            given_place = place
            for given in node.assigns:
                given_place = assign(
                    self,
                    given_place,
                    given.name,
                    given.value,
                    given.append,
                    given.array is not None,
                )
            prefix = {given.name: given_place.vars.get(given.name) for given in node.assigns}
        first = plain(node.words[0])
        fields: list[Field] = []
        for index, word in enumerate(node.words):
            if index and first in _DECLARATIONS and "=" in word.raw:
                fields.extend(self.declaration(word, expand))
            else:
                fields.extend(expand.expand(word))
        ok, fail = self.run_argv(fields, place, stdin, env=prefix)
        if node.redirects and fields and fields[0].text in ("true", "false", ":"):
            return [place], [place]  # a redirection can fail: then so does "true"
        return ok, fail

    def declaration(self, word: Word, expand: Expander) -> list[Field]:
        """An argument of export/declare/local...: brace-expanded, then an assignment's value
        is expanded as an assignment's (no splitting, tildes after ``=`` and ``:``)."""
        from .braces import brace_expand

        raws = brace_expand(word.raw)
        words = [word] if raws == [word.raw] else [self.reparse(raw) for raw in raws]
        fields: list[Field] = []
        for each in words:
            found = assignment(each)
            if found is None:
                fields.extend(expand.fields(each, False))
                continue
            values = (
                []
                if found.value is None
                else expand.expand(found.value, braces=False, assignment=True)
            )
            value = values[0] if len(values) == 1 else Field("", dynamic=bool(values))
            fields.append(
                Field(found.name + "=" + value.text, value.dynamic or found.value is None)
            )
        return fields

    def run_argv(
        self,
        fields: list[Field],
        place: Place,
        stdin: tuple[str, bool] | None,
        extra: bool = False,
        roots: list[Field] | None = None,
        shown: list[str] | None = None,
        env: dict[str, str | None] | None = None,
    ) -> Flow:
        """Run a command from its expanded words (``extra``: more arguments nobody can see;
        ``roots``: words standing for paths under find's roots; ``shown``: recorded already;
        ``env``: the variables its command line assigns, ``VAR=x cmd``)."""
        if not fields:
            return [place], [place]
        found = unwrap(fields)
        argv = found.argv
        extra = extra or found.extra_args
        if found.assigns or any(w not in _READ_ONLY_WRAPPERS for w in found.wrappers):
            self.read_only = False
        if found.query:
            self.record([f.text for f in fields], extra)
            return [place], [place]
        where = place if found.chdir is None else self.chdir(place, found.chdir)
        self.wrapped(found, place, where)
        if not argv:
            if found.wrappers:
                self.record([found.wrappers[-1]], extra)
            if found.wrappers[-1:] != ["env"] or found.assigns:
                self.read_only = False
            return [place], [place]
        if shown is None:
            self.record([f.text for f in argv], extra)
        head = argv[0]
        if head.dynamic:
            self.add_opaque(head.text)
            self.read_only = False
            return [place], [place]
        name = head.text.rsplit("/", 1)[-1]
        shell_only = set(found.wrappers) <= {"builtin", "command", "time"}
        if "/" not in head.text and shell_only:
            if name in self.functions and "builtin" not in found.wrappers:
                return self.call(name, place)
            if name in BUILTINS:
                return BUILTINS[name](self, argv, place)
        if name in SHELLS:
            self.read_only = False
            self.shell(argv[1:], where, stdin, name)
            return [place], [place]
        given = _environment(where, env, found.assigns, self.child_vars)
        self.program(name, argv, where, found, extra, roots, given, stdin)
        return [place], [place]

    def wrapped(self, found: Unwrapped, place: Place, where: Place) -> None:
        """What the wrappers do themselves: files they write (``time -o``, ``flock F``,
        ``strace -o``), a command line they run (``flock -c``, ``watch``, ``script -c``)."""
        for field, how in found.writes:
            self.add_target(field, how, place)
        if found.opaque is not None:
            self.add_opaque(found.opaque)
        if found.script is not None:  # run by the wrapper, as its child
            self.hand_over(Carried(found.wrappers[-1] + " -c", script=found.script), where)

    def program(
        self,
        name: str,
        argv: list[Field],
        where: Place,
        found: Unwrapped,
        extra: bool,
        roots: list[Field] | None,
        env: Mapping[str, str | None],
        stdin: tuple[str, bool] | None,
    ) -> None:
        """A program (not a builtin or function): its writes, the commands it hands others,
        and whether it only reads."""
        trusted = trusted_name(argv[0].text)
        if trusted is None:
            self.add_opaque(argv[0].text)  # ./ls could be anything
        cwd = where.cwd if self.fs and not where.lost else None
        effects = command_effects(name, argv[1:], self.probe(where), env, stdin, cwd, self.origin)
        self.apply(effects, where, roots)
        if extra and roots is None and name not in SAFE_WITH_ANY_ARGS:
            self.add_opaque("xargs " + name)
        reads = trusted is not None and read_only_command(name, argv[1:])
        if extra and name not in SAFE_WITH_ANY_ARGS:
            reads = False
        if not reads:
            self.read_only = False
            if not effects.known and trusted is not None and name not in QUIET_BUILTINS:
                self.add_opaque(name)

    def apply(self, effects: Effects, where: Place, roots: list[Field] | None) -> None:
        base = where if effects.chdir is None else self.chdir(where, effects.chdir)
        for hit in effects.hits:
            if hit.outside is None:
                self.add_target(hit.field, hit.how, base, hit.subtree, hit.directory, roots)
                continue
            self.handoffs.append(hit.outside)
            self.handing.append(hit.outside)  # a path known only at run time: unreadable
            try:
                self.add_target(hit.field, hit.how, base, hit.subtree, hit.directory, roots)
            finally:
                self.handing.pop()
        for opaque in effects.opaque:
            self.add_opaque(opaque)
        self.remote_refs += [ref for ref in effects.remote_refs if ref]
        for link, source in effects.links:
            if not (link.dynamic or source.dynamic or base.lost):
                made = base.resolve(link.text).replace(MARK, "")
                named = os.path.join(os.path.dirname(made), source.text.replace(MARK, ""))
                self.links[made] = os.path.normpath(named)
        for words, find_roots in effects.nested:
            self.nested(words, find_roots, base)
        for carried in effects.carried:
            self.hand_over(carried, base)

    def hand_over(self, carried: Carried, place: Place) -> None:
        """Walk a command another program runs for this one, as that program runs it."""
        self.read_only = False
        if carried.outside:
            self.handoffs.append(carried.label)
        if carried.unreadable is not None:
            self.cannot_read(carried.label, carried.unreadable)
            return
        if carried.cwd is not None:
            where = self.chdir(place, carried.cwd)
        elif carried.here:
            where = place
        else:  # a directory nobody can know: relative paths are known only when it runs
            where = Place(os.path.join(place.cwd, "..."), True, None, None, {}, True, False)
        if carried.outside:  # another process's environment: no variable is known
            where = Place(where.cwd, where.lost, None, None, {}, True, False)
            self.handing.append(carried.label)
        if self.depth >= MAX_DEPTH:
            self.add_opaque(carried.label)
        else:
            self.depth += 1
            try:
                if carried.script is not None:
                    self.script(carried.script, where, carried.label, child=not carried.outside)
                elif carried.argv:
                    self.run_argv(carried.argv, where, None)
            finally:
                self.depth -= 1
        if carried.outside:
            self.handing.pop()

    def nested(self, words: list[Field], roots: list[Field] | None, place: Place) -> None:
        """A command find -exec runs: ``{}`` stands for any path under each root."""
        shown = [word.text for word in words]
        self.record(shown, True)
        for root in roots or [Field(".")]:
            stand_in = Field(root.text, root.dynamic, True, None)
            argv = [stand_in if "{}" in word.text else word for word in words]
            self.run_argv(argv, place, None, True, [stand_in], shown)

    def script(self, field: Field, place: Place, name: str, child: bool = True) -> Flow:
        """Run a command line given as a string (bash -c, eval, trap, su -c ...)."""
        if field.dynamic:
            self.add_opaque(name)
        if self.depth >= MAX_DEPTH:
            self.add_opaque(name)
            return [place], [place]
        try:
            tree = parse(field.text, self.extglob)
        except ShellSyntaxError as error:
            if field.dynamic:
                return [place], [place]
            if self.error is None:
                self.error = f"the script given to {name} has a {error.message}"
            return [place], [place]
        start = place.with_vars(dict(self.child_vars)) if child else place
        self.depth += 1
        try:
            ok, fail = self.run_list(tree, [start])
        finally:
            self.depth -= 1
        return (ok, fail) if not child else ([place], [place])

    def shell(
        self, args: list[Field], place: Place, stdin: tuple[str, bool] | None, name: str
    ) -> None:
        index = 0
        command = False
        while index < len(args):
            field = args[index]
            text = field.text
            if field.dynamic:
                break
            if text in ("--", "-"):
                index += 1
                break
            if text.startswith("--"):
                index += 2 if text in ("--rcfile", "--init-file") else 1
                continue
            if len(text) > 1 and text[0] in "-+":
                index += 1
                letters = text[1:]
                command = command or "c" in letters
                index += letters.count("o") + letters.count("O")
                continue
            break
        operands = args[index:]
        if command:
            if operands:
                self.script(operands[0], place, name + " -c")
        elif operands:
            self.add_opaque(name)  # a script file
        elif stdin is not None:
            self.script(Field(stdin[0], stdin[1]), place, name)
        else:
            self.add_opaque(name)


def _environment(
    place: Place,
    assigned: dict[str, str | None] | None,
    wrapped: list[str],
    inherited: dict[str, str | None],
) -> dict[str, str | None]:
    """The variables a program gets that the command line itself set (or may have set:
    whether an assignment was exported is not followed), not those it inherited:
    ``assigned`` before it (``VAR=x cmd``), ``wrapped`` by ``env VAR=x``/``sudo VAR=x``."""
    merged = {
        name: value
        for name, value in place.vars.items()
        if name not in inherited or inherited[name] != value
    }
    if assigned:
        merged.update(assigned)
    for text in wrapped:
        name, _, value = text.partition("=")
        merged[name] = value
    return merged


def _stdin(redirect: Redirect, expand: Expander) -> tuple[str, bool] | None:
    """The text a here-document or here-string gives a command on its standard input, and
    whether it holds expansions (None: this redirection is not one)."""
    if redirect.fd not in (None, 0) or redirect.name is not None:
        return None
    if redirect.heredoc is not None:
        doc = redirect.heredoc
        if doc.quoted:
            return doc.body, False
        text = "".join(part.text if part.kind == LIT else "$_" for part in doc.parts)
        return text, any(part.kind != LIT for part in doc.parts)
    if redirect.op == "<<<":
        line = joined(expand.expand(redirect.target, braces=False, assignment=True))
        return line.text, line.dynamic
    return None
