"""paw-tui: govern what AI coding agents are told and what they may do in a repository.

The package root imports nothing heavy: the gate and the context command start in a few
milliseconds, so every sub-package is imported only where it is used.
"""

__version__ = "0.1.0"
