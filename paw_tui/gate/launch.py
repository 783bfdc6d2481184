"""The hook's entry point, run as a script: ``python -I -S .../paw_tui/gate/launch.py ARGS``.

``-S`` skips the ``site`` module (about a quarter of ``python -c pass``): this file puts the
directory that holds ``paw_tui`` on ``sys.path`` itself, computed from its own location, so
no machine-specific path is needed beside it. ``-I`` keeps the environment
(``PYTHONPATH``, the user site) from changing which code runs. If ``paw_tui`` still cannot be
imported from there (an install that needs ``.pth`` files, such as an editable one), the
``site`` module is run after all and the import tried again. If even that fails, the tool is
denied (exit 2) with the reason: a hook that crashes (exit 1) lets every client run the tool.
A dependency imported later (PyYAML when the policy cache must be rebuilt) that is not beside
``paw_tui`` is found the same way: the first import nothing else can satisfy runs ``site``.

Standard library only, and nothing but ``sys`` and ``os`` before the gate is imported; not
even ``os`` (which ``-I -S`` leaves unloaded) before the resident gate is asked.
"""

import sys

DENIED = (
    "paw-tui policy: the paw-tui gate cannot start ({why}); denying (fail closed). "
    "Run 'paw-tui doctor' to check the installation."
)


def _deny(why: str) -> None:
    reason = DENIED.format(why=why)
    # The JSON every client that reads stdout on exit 2 accepts as a deny (Claude Code, Codex);
    # Gemini CLI honours exit 2 with the reason on stderr only.
    if "gemini" not in " ".join(sys.argv[1:]):
        text = reason.replace("\\", "\\\\").replace('"', '\\"')
        sys.stdout.write(
            '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
            f'"permissionDecisionReason":"{text}"}}}}\n'
        )
    sys.stderr.write(reason + "\n")
    raise SystemExit(2)


DEPENDENCIES = ("yaml", "pathspec", "platformdirs", "ruamel")
"""Packages the gate may import lazily that an editable install does not put beside it."""


class _SiteOnDemand:
    """Last on ``sys.meta_path``: consulted only for an import every other finder missed,
    and acting only for a dependency (the standard library's optional accelerators miss
    too, and running ``site`` for them would cost every hook call)."""

    tried = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if cls.tried or name.partition(".")[0] not in DEPENDENCIES:
            return None
        cls.tried = True
        import site
        from importlib.machinery import PathFinder

        site.main()
        return PathFinder.find_spec(name, path, target)


def _use_code_cache() -> None:
    """``--code-cache PATH``: the gate's code from one file (:mod:`paw_tui.core.support.code_cache`)."""
    if len(sys.argv) > 2 and sys.argv[1] == "--code-cache":
        path = sys.argv[2]
        del sys.argv[1:3]
        try:
            from paw_tui.core.support import code_cache

            code_cache.install(path)
        except Exception:  # a broken cache only costs speed: import as usual
            pass


RESIDENT_OPTION = "--resident"
"""``--resident DIR`` after ``--code-cache PATH``: the resident gate's directory (the hook
script passes it; ``paw_tui.core.clients.commands.RESIDENT_OPTION`` writes it)."""


def _resident_directory() -> tuple[str | None, bool]:
    """Take ``--resident DIR`` off the command line (it follows ``--code-cache PATH``): the
    directory, and whether this process is to be the server (``--resident-serve`` follows)."""
    if len(sys.argv) > 4 and sys.argv[1] == "--code-cache" and sys.argv[3] == RESIDENT_OPTION:
        directory = sys.argv[4]
        del sys.argv[3:5]
        try:
            from paw_tui.gate.resident.wire import SERVE_OPTION
        except ImportError:  # the resident gate only ever saves time
            return None, False
        return directory, sys.argv[3:4] == [SERVE_OPTION]
    return None, False


def _ask_resident(directory: str) -> bytes | None:
    """Have the installation's resident gate answer (:mod:`paw_tui.gate.resident`), exiting
    with its answer; the payload read from stdin when this process must decide itself (None:
    not read)."""
    try:
        import posix

        from paw_tui.gate.resident import wire

        if not wire.enabled(posix.environ):
            return None
        from paw_tui.gate.resident.client import ask

        outcome = ask(sys.argv[2], directory, sys.argv[3:])
    except Exception:  # the resident gate only ever saves time
        return None
    if outcome.code is not None:
        posix._exit(outcome.code)
    if outcome.deny is not None:
        _deny(outcome.deny)
    return outcome.payload


def _serve_resident(directory: str) -> None:
    """``--code-cache PATH --resident DIR --resident-serve``: run the installation's resident
    server (a hook started it) instead of deciding a call."""
    from paw_tui.gate.resident.server import serve

    raise SystemExit(serve(directory, DEPENDENCIES))


def _site() -> str:
    """The directory holding ``paw_tui`` (computed without ``os`` when this file's path is
    absolute, as it is when the hook script imports it)."""
    if __file__.startswith("/") and "/./" not in __file__ and "/../" not in __file__:
        return __file__.rsplit("/", 3)[0]
    import os

    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    # A hook lives for milliseconds and makes little cyclic garbage: collecting it while the
    # modules load costs more than the memory it would give back.
    import gc

    gc.disable()
    sys.meta_path.append(_SiteOnDemand)
    sys.path.append(_site())
    resident, serving = _resident_directory()
    payload = None if resident is None or serving else _ask_resident(resident)
    _use_code_cache()
    if resident is not None and serving:
        _serve_resident(resident)
    try:
        from paw_tui.gate.main import run
    except ImportError:
        try:
            import site

            if not _SiteOnDemand.tried:
                site.main()
            from paw_tui.gate.main import run
        except Exception as error:  # any failure here must still deny
            _deny(f"{type(error).__name__}: {error}")
            return
    if payload is not None:
        import io

        sys.stdin = io.TextIOWrapper(io.BytesIO(payload), encoding="utf-8")
    run()


if __name__ == "__main__":
    main()
