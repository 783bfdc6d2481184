"""One module per ``paw-tui`` subcommand: each exposes ``add_parser`` and ``run``.

The CLI imports a command's module only when that command runs, so a fast command never
pays for a slow one's imports.
"""
