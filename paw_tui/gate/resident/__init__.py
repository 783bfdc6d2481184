"""The resident gate: one long-lived process per installation that has already imported the
gate, so a hook call costs a Python start-up and a socket round trip instead of loading
fifty modules.

The hook (``client``) asks it over a Unix socket in the installation's state directory and,
whenever it cannot, decides in its own process exactly as before: the resident gate only ever
makes a call faster, never different. The server rehearses the gate on a scratch workspace
(``rehearsal``), then forks workers (``server``) that answer calls one at a time, each with
the caller's whole environment, working directory, umask, arguments and stdin, running the
same :func:`paw_tui.gate.main.answer` the hook would (``handler``); it leaves when idle or
when its code changed (``freshness``).

Who may ask: only a process of the same user that can open the directory's proof file for
writing, and proves it by passing the open descriptor (``SCM_RIGHTS``), through which the
worker writes a fresh nonce and reads it back through its own: the kernel, not the caller's
word, says the descriptor may write. The confined shell cannot open anything in the state
directory for writing (the kernel boundary), so a command run by the agent cannot use the
resident gate to write to the ledger, however it connects.
"""
