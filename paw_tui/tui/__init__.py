"""The Textual TUI. Imported only by ``paw-tui``/``paw-tui ui``/``paw-tui demo``; the core
never imports it."""
