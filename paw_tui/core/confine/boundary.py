"""The kernel boundary for one workspace: where its files live, and what a session may write.

A client runs its agent's shell commands through ``bash -c``; with ``BASH_ENV`` naming this
workspace's file (:func:`shell_environment`) every such shell re-executes itself under the
Landlock launcher, which applies the *spec* of the session (:func:`prepare`): the literal
directories of the held intent's include patterns (the file itself for a file pattern), the
temp directory, the terminal and ``/dev/null``, the repository's ``.git`` (so ``git add`` and
``git commit`` work; drift detection guards what in it runs programs, ``drift_git``) and the trees
``governance.yaml: confine: writable:`` lists. Protected paths, the state directory and
paw-tui's own installation are never writable there, whatever the scope.

The spec is written by the gate at each allowed shell call, for the session the call belongs
to (``<session>.spec``, found through the client's session variable) and as ``default.spec``
(for a client that gives its shell no session variable, such as Gemini CLI: the last session
that ran a shell command). A session holding no intent gets the minimal set.
"""

from __future__ import annotations

import os
import sys

from paw_tui.core.confine.spec import write_spec
from paw_tui.core.support.regular_file import read_regular_text
from paw_tui.core.workspace import statedir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.confine.writable import Writable
    from paw_tui.core.policy.scope.match import CompiledScope

SESSION_VARS = ("CLAUDE_CODE_SESSION_ID", "CODEX_SESSION_ID", "GEMINI_SESSION_ID")
"""Variables a client sets in its shell tool's environment to the session id."""
CONFINE_DIR = "confine"
BASH_ENV_FILE = "bash_env.sh"
DEFAULT_SPEC = "default.spec"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def available() -> bool:
    """Whether this kernel can confine a process (Linux with Landlock)."""
    from paw_tui.core.confine.landlock import abi_version

    return abi_version() > 0


def confine_dir(root: str, state_base: str | None = None) -> str:
    return os.path.join(statedir.workspace_state_dir(root, base=state_base), CONFINE_DIR)


def bash_env_path(root: str, state_base: str | None = None) -> str:
    return os.path.join(confine_dir(root, state_base), BASH_ENV_FILE)


def spec_name(session_id: str) -> str:
    """The spec file of a session, named as the launcher looks it up (else the default)."""
    if session_id and session_id[0] != "." and set(session_id) <= _SAFE and len(session_id) <= 128:
        return session_id + ".spec"
    return DEFAULT_SPEC


def launcher_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.py")


def shell_environment(
    root: str, *, python: str | None = None, state_base: str | None = None
) -> dict[str, str]:
    """The variables a client gives its shell tool so every ``bash -c`` is confined; writes
    this workspace's BASH_ENV file (again, when it changed)."""
    from paw_tui.core.confine.bash_env import client_environment, render_bash_env

    directory = confine_dir(root, state_base)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    _make_canary(directory)
    text = render_bash_env(
        python or os.path.abspath(sys.executable),
        launcher_path(),
        spec_dir=directory,
        session_vars=SESSION_VARS,
    )
    path = os.path.join(directory, BASH_ENV_FILE)
    try:
        current: str | None = read_regular_text(path)
    except (OSError, UnicodeDecodeError):
        current = None
    if current != text:
        from paw_tui.core.support.fsutil import atomic_write

        atomic_write(path, text.encode("utf-8"))
    return dict(client_environment(path))


def _make_canary(directory: str) -> None:
    """The file the BASH_ENV guard tries to open (made by paw-tui here, not by the shell)."""
    from paw_tui.core.confine.bash_env import default_canary

    path = default_canary(None, directory)
    if not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def grants_of(scope: CompiledScope) -> list[str]:
    """What the kernel may let a shell write for ``scope``: the literal directory of each
    include pattern (the file itself for a literal file pattern); the root for ``**``."""
    grants: list[str] = []
    for entry in scope.entries:
        if not entry.include:
            continue  # an exclusion inside a granted tree is drift detection's to catch
        literal = entry.literal
        if entry.form in ("under", "dir"):
            grants.append(literal.rstrip("/") or ".")
        elif entry.form == "path":
            grants.append(literal or ".")
        else:
            head, _, _tail = literal.rpartition("/")
            grants.append(head or ".")
    return sorted(set(grants))


def prepare(
    root: str,
    session_id: str,
    scope: CompiledScope | None,
    *,
    extra_dirs: tuple[str, ...] = (),
    state_base: str | None = None,
) -> Writable:
    """Compute and write the spec of ``session_id`` (and the default one); ``scope`` None
    (no intent held) gives the minimal set."""
    import paw_tui
    from paw_tui.core.clients.commands import hook_script_path, resident_directory
    from paw_tui.core.confine.writable import DEFAULT_PROTECTED, compute_writable, launch_chain
    from paw_tui.core.support.code_cache import CACHE_NAME
    from paw_tui.core.support.tempdirs import temp_directory

    state = statedir.workspace_state_dir(root, base=state_base)
    directory = os.path.join(state, CONFINE_DIR)
    home = os.path.expanduser("~")
    never = launch_chain(
        os.path.abspath(sys.executable), os.path.join(directory, BASH_ENV_FILE), home
    )
    never.append(os.path.dirname(os.path.abspath(paw_tui.__file__)))  # the gate's own code
    # ... and what runs it: the hook script, the gate's code cache beside it, and the
    # resident gate's directory (a shell that could make its socket could answer for it)
    hook_script = hook_script_path(state_base)
    cache = os.path.join(os.path.dirname(hook_script), CACHE_NAME)
    never += [hook_script, cache, resident_directory(state_base)]
    extras = [temp_directory(), *extra_dirs]
    # beside the state directory, not in it: the state is never writable
    tmpdir = os.path.join(
        statedir.state_base_dir() if state_base is None else state_base,
        "tmp",
        os.path.basename(state),
    )
    os.makedirs(tmpdir, mode=0o700, exist_ok=True)
    snapshots = os.path.join(home, ".claude", "shell-snapshots")  # Claude Code's start-up shell
    if os.path.isdir(snapshots):
        extras.append(snapshots)
    writable = compute_writable(
        root,
        grants_of(scope) if scope is not None else [],
        protected=DEFAULT_PROTECTED,
        never=never,
        state_dir=state,
        extra_dirs=extras,
        tmpdir=tmpdir,
        git_dir=".git" if scope is not None else None,
    )
    data = writable.spec(comment=f"session {session_id}")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    # the file BASH_ENV names must exist, or bash warns and runs the command unconfined
    shell_environment(root, state_base=state_base)
    write_spec(os.path.join(directory, spec_name(session_id)), data)
    write_spec(os.path.join(directory, DEFAULT_SPEC), data)
    return writable
