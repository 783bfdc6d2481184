"""``python -m paw_tui`` runs the same command line as the ``paw-tui`` script."""

import sys

from paw_tui.cli import main

if __name__ == "__main__":
    sys.exit(main())
