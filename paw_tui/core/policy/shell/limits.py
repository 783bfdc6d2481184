"""The analysis's bounds are passed: the error that says which.

Whatever the command, the gate must answer well before a client's hook timeout, since a
client that times its hook out runs the tool. Each blow-up a command can cause (a brace
expansion of millions of words, a glob walking a whole tree, a loop walked forever) has a
bound beside the code it bounds; past one, the analysis stops with :class:`TooComplex`
naming it, and the gate denies the call (fail closed), saying so.
"""

from __future__ import annotations


class TooComplex(Exception):
    """The command goes past one of the analysis's bounds; ``str()`` says which (empty for
    the walk's own bound on the simple commands it follows)."""


class GlobLimit(TooComplex):
    """A glob reads or matches more than its bounds (:mod:`.globbing`)."""
