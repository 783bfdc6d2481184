"""The BASH_ENV file that puts every ``bash -c`` of an agent's shell tool under the launcher.

A non-interactive bash sources ``$BASH_ENV`` before running its command string, with ``$0``
and the positional parameters already set, so the file can re-execute that string, unchanged,
through the launcher: the client's permission rules still see the model's command, and the
output, exit status and signals are the command's own (everything is ``exec``, nothing waits).

What the rendered file does, in order (each point is a pitfall of
``reference/clients-observed.md``):

1. Nothing unless ``${BASH_EXECUTION_STRING+x}`` is set: a ``#!/bin/bash`` script (a hook)
   also sources BASH_ENV, with the variable unset, and must run untouched (pitfall 3).
2. Nothing when this shell is already confined, which takes two proofs (pitfall 6):
   the kernel refuses to open the *canary* for writing (an empty file in the state directory,
   created by the launcher before it confines, never in a writable set: ``{ : >>canary; }``
   fails inside the domain and succeeds outside it, whatever the environment says), and
   ``PAW_CONFINED``, exported by the launcher as ``<pid>:<start time>`` of the process it
   turned into the shell, names this shell or one of its ancestors, read from
   ``/proc/<pid>/stat`` in pure bash (no fork) with the start time matching (a recycled pid
   does not pass). So neither an inherited marker (an environment captured and replayed) nor a
   marker an unconfined shell exports for itself skips anything, and another sandbox that
   happens to deny the state directory is not mistaken for this one. Anything the guard gets
   wrong confines once more, never less: a domain cannot be left, layers stack (pitfall 7).
3. Otherwise ``exec python -I -S launcher.py ... -- "$BASH" --norc --noprofile [options]
   -c "$BASH_EXECUTION_STRING" "$0" "$@"``: ``--norc`` stops the ssh/socket-stdin rule that
   makes bash read ``~/.bashrc`` (pitfall 2), and the re-executed shell is not a login shell:
   a login shell's profile already ran, unconfined, before BASH_ENV (pitfall 4), and its
   exported variables are inherited; its aliases and unexported functions are not (Claude
   Code re-sources its own snapshot inside the command string, so nothing is lost there).
   ``set -o`` options given on the command line (``bash -e -o pipefail -c``) are passed on
   from ``$SHELLOPTS``, ``shopt`` options from ``$BASHOPTS``; an ``xtrace`` shell does not
   trace this file's own lines; ``SHLVL`` keeps its usual value (``exec`` lowers it by one).

Bash itself skips BASH_ENV in one case: a non-login ``bash -c`` whose stdin is a socket and
whose ``SHLVL`` is unset believes sshd started it and reads ``~/.bashrc`` instead (pitfall 2;
measured here: such a shell ran unconfined). ``client_environment`` therefore pairs
``BASH_ENV`` with ``SHLVL=1``, which the client must pass to its shell tool as well.

There is deliberately no kill switch: the agent controls the environment of everything it
starts, so any variable that turned the re-exec off would be an escape hatch. The file is
written by paw-tui into the state directory and must stay unwritable by agents (it is in
``writable.launch_chain``). A failing ``exec`` (the interpreter removed) makes bash exit 126 or
127 without running the command: closed, and loud.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_DEFAULT_SHELLOPTS = ("braceexpand", "hashall", "interactive-comments")

_TEMPLATE = r"""# paw-tui: confine this bash -c to the writable set (generated; do not edit).
{ __paw_f=$-; __paw_so=$SHELLOPTS; set +x; } 2>/dev/null
if [ -n "${BASH_EXECUTION_STRING+x}" ]; then
  __paw_go=1
  if [ -n "${@MARKER@-}" ] && [ -e @CANARY@ ] && ! { : >>@CANARY@; } 2>/dev/null; then
    __paw_p=$$
    __paw_n=0
    while [ "$__paw_n" -lt 64 ]; do
      __paw_s=
      { read -r __paw_s <"/proc/$__paw_p/stat"; } 2>/dev/null || :
      [ -n "$__paw_s" ] || break
      __paw_a=(${__paw_s##*) })
      if [ "$__paw_p" = "${@MARKER@%%:*}" ]; then
        [ "${__paw_a[19]-}" != "${@MARKER@#*:}" ] || __paw_go=
        break
      fi
      __paw_p=${__paw_a[1]-0}
      [ "$__paw_p" != 0 ] || break
      __paw_n=$((__paw_n + 1))
    done
  fi
  if [ -n "$__paw_go" ]; then
    __paw_a=()
    for __paw_o in ${__paw_so//:/ }; do
      case $__paw_o in @DEFAULTS@) ;; *) __paw_a+=(-o "$__paw_o") ;; esac
    done
    for __paw_o in @DEFAULTS_WORDS@; do
      case :$__paw_so: in *":$__paw_o:"*) ;; *) __paw_a+=(+o "$__paw_o") ;; esac
    done
    for __paw_o in ${BASHOPTS//:/ }; do
      case $__paw_o in login_shell) ;; *) __paw_a+=(-O "$__paw_o") ;; esac
    done
    exec @LAUNCH@ -- "$BASH" --norc --noprofile "${__paw_a[@]}" \
      -c "$BASH_EXECUTION_STRING" "$0" "$@"
  fi
fi
unset __paw_so __paw_go __paw_p __paw_n __paw_s __paw_a __paw_o
case $__paw_f in *x*) unset __paw_f; set -x ;; *) unset __paw_f ;; esac
"""


def quote(word: str) -> str:
    """``word`` as one single-quoted bash word."""
    if "\0" in word:
        raise ValueError("a shell word cannot hold a NUL byte")
    return "'" + word.replace("'", "'\\''") + "'"


def _is_name(name: str) -> bool:
    return (
        bool(name)
        and name.isascii()
        and (name[0].isalpha() or name[0] == "_")
        and all(c.isalnum() or c == "_" for c in name)
    )


def client_environment(bash_env_file: str) -> dict[str, str]:
    """The variables a client's environment needs (settings ``env``, ``.gemini/.env`` or the
    launch environment) so that every ``bash -c`` of its shell tool reads the file."""
    return {"BASH_ENV": bash_env_file, "SHLVL": "1"}


def default_canary(spec: str | None, spec_dir: str | None) -> str:
    """The canary's default place: beside the spec file, or in the spec directory."""
    directory = spec_dir if spec_dir is not None else os.path.dirname(str(spec))
    return os.path.join(directory, ".confined-canary")


def launcher_command(
    python: str,
    launcher: str,
    *,
    spec: str | None = None,
    spec_dir: str | None = None,
    session_vars: Iterable[str] = (),
    canary: str | None = None,
    marker: str = "PAW_CONFINED",
    warn: bool = True,
) -> list[str]:
    """The launcher's argv up to (not including) ``--``."""
    if (spec is None) == (spec_dir is None):
        raise ValueError("give exactly one of spec and spec_dir")
    argv = [python, "-I", "-S", launcher]
    argv += ["--spec", spec] if spec is not None else ["--spec-dir", str(spec_dir)]
    for name in session_vars:
        if not _is_name(name):
            raise ValueError(f"not an environment variable name: {name!r}")
        argv += ["--session-var", name]
    if not _is_name(marker):
        raise ValueError(f"not an environment variable name: {marker!r}")
    if marker != "PAW_CONFINED":
        argv += ["--marker", marker]
    argv += ["--canary", canary or default_canary(spec, spec_dir)]
    if warn:
        argv.append("--warn")
    return argv


def render_bash_env(
    python: str,
    launcher: str,
    *,
    spec: str | None = None,
    spec_dir: str | None = None,
    session_vars: Iterable[str] = (),
    canary: str | None = None,
    marker: str = "PAW_CONFINED",
    warn: bool = True,
) -> str:
    """The BASH_ENV file's text.

    ``python`` is the interpreter to run the launcher with (an absolute path: the shell's
    ``PATH`` is the agent's to change), ``launcher`` the absolute path of ``launcher.py``.
    The spec is either one file (``spec``) or chosen per session (``spec_dir`` with
    ``session_vars``, such as ``CLAUDE_CODE_SESSION_ID`` or ``CODEX_SESSION_ID``: the file
    ``<spec_dir>/<session id>.spec``, else ``<spec_dir>/default.spec``). ``warn`` makes the
    launcher say on stderr when a command runs unconfined or with the minimal set.
    ``canary`` (default: ``.confined-canary`` beside the spec, or in ``spec_dir``) must lie
    where no writable set reaches, like the specs themselves: the state directory.
    """
    argv = launcher_command(
        python,
        launcher,
        spec=spec,
        spec_dir=spec_dir,
        session_vars=session_vars,
        canary=canary,
        marker=marker,
        warn=warn,
    )
    return (
        _TEMPLATE.replace("@MARKER@", marker)
        .replace("@CANARY@", quote(argv[argv.index("--canary") + 1]))
        .replace("@DEFAULTS@", "|".join(_DEFAULT_SHELLOPTS))
        .replace("@DEFAULTS_WORDS@", " ".join(_DEFAULT_SHELLOPTS))
        .replace("@LAUNCH@", " ".join(quote(word) for word in argv))
    )
