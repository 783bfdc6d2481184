"""Hook mode: one event from an agent client on stdin, one decision out.

Everything under ``paw_tui.gate`` is on the hot path of every tool call: standard library
only, and nothing heavier than ``json`` at import time (DESIGN §10).
"""

MAX_PAYLOAD = 64 * 1024 * 1024
"""The largest hook payload the gate reads; a larger one is denied. Here, in the package both
the gate and the resident gate's client already load, so neither pays a module for it."""
