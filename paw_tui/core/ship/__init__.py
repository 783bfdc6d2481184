"""``paw-tui trace ship``: the ledger sent to an OpenTelemetry backend (DESIGN §12).

Nothing here is on the gate's path. OpenTelemetry (the optional extra ``paw-tui[otel]``) is
imported by :mod:`paw_tui.core.ship.encode` alone, and only when a run ships something.
"""
