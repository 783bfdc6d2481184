"""Hook mode: one event from an agent client on stdin, one decision out.

Everything under ``paw_tui.gate`` is on the hot path of every tool call: standard library
only, and nothing heavier than ``json`` at import time (DESIGN §10).
"""
