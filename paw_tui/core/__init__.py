"""The headless core: the domain of paw-tui with no user interface.

Nothing under ``paw_tui.core`` may import textual, rich or mcp (a test proves it in a
subprocess). Modules on the hot paths of the gate and the context command also avoid
``dataclasses``, ``typing`` and ``pathlib`` at import time: together those cost more than the
whole start-up budget of a hook (DESIGN §10), so the model types here are small slotted classes.
"""
