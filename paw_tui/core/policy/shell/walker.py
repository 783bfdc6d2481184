"""Runs the syntax tree the way bash would run it, without running anything.

The :class:`Walker` goes through lists, pipelines and compound commands in order, keeping
the possible shell states (:mod:`.state`): ``cd``/``pushd``/``popd`` move the working
directory (in a subshell, a pipeline element, ``$(...)`` or a background job they do not
last), assignments feed later expansions, ``&&``/``||``/``if``/loops/``case`` join branches,
functions run their bodies where they are called (every body a name may have). Simple
commands are :mod:`.commands`' job.
"""

from __future__ import annotations

import os

from .commands import Commands
from .nodes import (
    AndOr,
    Arith,
    ArithFor,
    Case,
    CommandList,
    Cond,
    Coproc,
    For,
    FuncDef,
    Group,
    If,
    Loop,
    Pipeline,
    Simple,
    Word,
)
from .record import MAX_DEPTH
from .state import Place, assigns_in_arithmetic, identifiers, settle

MAX_UNROLLED = 64
"""Values of a ``for`` loop walked one by one at most; more make the variable unknown."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .nodes import Node
    from .record import Flow


class Walker(Commands):
    """The whole walk: lists, pipelines and compound commands."""

    # lists and pipelines

    def run_list(self, body: CommandList, places: list[Place]) -> Flow:
        ok, fail = places, places
        for index, (item, separator) in enumerate(body.items):
            if index:
                places = settle(self.merge(ok + fail))
            if separator == "&":
                self.branching += 1
                self.run_and_or(item, places)  # a background job: its cd does not last
                self.branching -= 1
                ok, fail = places, places
            else:
                ok, fail = self.run_and_or(item, places)
        return ok, fail

    def run_and_or(self, node: AndOr, places: list[Place]) -> Flow:
        ok, fail = self.run_pipeline(node.first, places)
        for operator, pipeline in node.rest:
            self.branching += 1
            if operator == "&&":
                ok2, fail2 = self.run_pipeline(pipeline, ok or [p.marked(True) for p in places])
                ok, fail = ok2, self.merge(fail + fail2)
            else:
                ok2, fail2 = self.run_pipeline(pipeline, fail or [p.marked(True) for p in places])
                ok, fail = self.merge(ok + ok2), fail2
            self.branching -= 1
        return ok, fail

    def run_pipeline(self, node: Pipeline, places: list[Place]) -> Flow:
        if not node.commands:
            return places, places
        if len(node.commands) == 1:
            ok, fail = self.run_command(node.commands[0], places)
        else:
            self.branching += 1
            for command in node.commands:  # each runs in a subshell
                self.run_command(command, places)
            self.branching -= 1
            ok, fail = places, places
        return (fail, ok) if node.negated else (ok, fail)

    # commands

    def run_command(self, node: Node, places: list[Place]) -> Flow:
        if isinstance(node, Simple):
            oks: list[Place] = []
            fails: list[Place] = []
            for place in places:
                ok, fail = self.simple(node, place)
                oks.extend(ok)
                fails.extend(fail)
            return self.merge(oks), self.merge(fails)
        if node.redirects:
            self.compound_redirects(node, places)
        if isinstance(node, Group):
            self.branching += node.subshell
            flow = self.run_list(node.body, places)
            self.branching -= node.subshell
            return (places, places) if node.subshell else flow
        if isinstance(node, If):
            return self.run_if(node, places)
        if isinstance(node, (Loop, For, ArithFor)):
            return self.run_loop(node, places)
        if isinstance(node, Case):
            return self.run_case(node, places)
        if isinstance(node, Arith):
            return self.arith(node.expression, places)
        if isinstance(node, Cond):
            for place in places:
                for word in node.words:
                    self.walk_parts(word.parts, place)
            return places, places
        if isinstance(node, Coproc):
            self.read_only = False
            self.run_command(node.command, places)
            return places, places
        return self.define(node, places)

    def run_case(self, node: Case, places: list[Place]) -> Flow:
        joined = list(places)
        for place in places:
            self.walk_parts(node.word.parts, place)
            for patterns, _ in node.items:
                for pattern in patterns:
                    self.walk_parts(pattern.parts, place)
        self.branching += 1
        for _, body in node.items:
            ok, fail = self.run_list(body, places)
            joined.extend(ok + fail)
        self.branching -= 1
        joined = self.merge(joined)
        return joined, joined

    def define(self, node: FuncDef, places: list[Place]) -> Flow:
        bodies = self.functions.setdefault(node.name, [])
        if not any(body is node.body for body in bodies):
            bodies.append(node.body)  # a conditional redefinition: a call may run either
        if not self.branching:
            self.surely_defined.add(node.name)
        self.read_only = False
        self.calls.append(node.body)  # the body may be called later: count what it does
        self.branching += 1
        try:
            self.run_command(node.body, places)
        finally:
            self.calls.pop()
            self.branching -= 1
        return places, places

    def call(self, name: str, place: Place) -> Flow:
        oks: list[Place] = []
        fails: list[Place] = []
        if name not in self.surely_defined:  # perhaps not defined: "command not found"
            oks.append(place)
            fails.append(place)
        for body in list(self.functions[name]):
            if (
                sum(1 for active in self.calls if active is body) >= 2
                or len(self.calls) > MAX_DEPTH
            ):
                oks.append(place)
                fails.append(place)
                continue
            self.calls.append(body)
            try:
                ok, fail = self.run_command(body, [place])
            finally:
                self.calls.pop()
            oks.extend(ok)
            fails.extend(fail)
        return self.merge(oks), self.merge(fails)

    def arith(self, expression: Word, places: list[Place]) -> Flow:
        out = []
        for place in places:
            self.walk_parts(expression.parts, place)
            if assigns_in_arithmetic(expression.raw):
                self.read_only = False
                place = place.forget(identifiers(expression.raw))
            out.append(place)
        return out, out

    def run_if(self, node: If, places: list[Place]) -> Flow:
        joined: list[Place] = []
        current = places
        self.branching += 1
        for condition, body in node.clauses:
            ok, fail = self.run_list(condition, current)
            body_ok, body_fail = self.run_list(body, ok or [p.marked(True) for p in current])
            joined.extend(body_ok + body_fail)
            current = fail or [p.marked(True) for p in current]
        if node.otherwise is not None:
            ok, fail = self.run_list(node.otherwise, current)
            joined.extend(ok + fail)
        else:
            joined.extend(current)
        self.branching -= 1
        joined = self.merge(joined)
        return joined, joined

    def unroll(self, node: For, places: list[Place]) -> Flow | None:
        """``for f in a b src/*.py`` with words known now: the body once per value, in order,
        the variable bound to it (as bash runs it). None when a value is only known when the
        command runs, or there are more than :data:`MAX_UNROLLED`."""
        if node.words is None or node.select or not places:
            return None
        values = self.loop_values(node.words, places[0])
        if values is None or any(
            self.loop_values(node.words, place) != values for place in places[1:]
        ):
            return None
        exits = list(places)
        current = places
        self.branching += 1
        for value in values:
            current = [p.with_vars({**p.vars, node.name: value}) for p in current]
            ok, fail = self.run_list(node.body, current)
            current = self.merge(ok + fail)
            exits.extend(current)
        self.branching -= 1
        joined = self.merge(exits)
        return joined, joined

    def loop_values(self, words: list[Word], place: Place) -> list[str] | None:
        from .globbing import expand_glob

        expand = self.expander(place)
        values: list[str] = []
        for word in words:
            for field in expand.expand(word):
                if field.dynamic:
                    return None
                if field.glob and field.pattern is not None:
                    values.extend(expand_glob(field.pattern, place.cwd))
                else:
                    values.append(field.text)
                if len(values) > MAX_UNROLLED:
                    return None
        return values

    def run_loop(self, node: Loop | For | ArithFor, places: list[Place]) -> Flow:
        exits = list(places)
        if isinstance(node, For):
            for place in places:
                for word in node.words or []:
                    self.walk_parts(word.parts, place)
            unrolled = self.unroll(node, places)
            if unrolled is not None:
                return unrolled
            places = [place.forget([node.name]) for place in places]
        elif isinstance(node, ArithFor):
            places, _ = self.arith(node.expression, places)
        seen = {place.key() for place in places}
        current = places
        self.branching += 1
        for _ in range(3):
            if isinstance(node, Loop):
                ok, fail = self.run_list(node.condition, current)
                if node.until:
                    ok, fail = fail, ok
                exits.extend(fail)
                current = ok or [p.marked(True) for p in current]
            ok, fail = self.run_list(node.body, current)
            after = self.merge(ok + fail)
            exits.extend(after)
            fresh = [place for place in after if place.key() not in seen]
            if not fresh:
                break
            seen.update(place.key() for place in fresh)
            current = fresh
        else:  # still moving after three rounds (cd .. in a loop): where it ends is unknown
            exits.extend(
                Place(os.path.join(p.cwd, "..."), True, p.oldpwd, None, p.vars, p.blind, p.unlikely)
                for p in current
            )
        self.branching -= 1
        joined = self.merge(exits)
        return joined, joined
