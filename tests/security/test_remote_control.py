"""Programs that ask a running server to act are work handed to another program.

``kitty @ launch rm -rf .git``, ``emacsclient --eval '(shell-command "rm -rf .git")'``,
``nvim --server S --remote-send ':!rm -rf .git<CR>'``, ``xdotool type 'rm -rf .git'`` into
the person's focused terminal, ``busctl call`` asking systemd for a transient unit, ``pm2
start``, ``watchman trigger``, ``flatpak-spawn --host``: the server does it, outside the
kernel boundary, after PostToolUse, unseen by drift, and what it is sent (keys, Lisp, a bus
message) is not a shell command the gate can read. Under an intent these are denied; the
forms that only list or show are allowed, and ordinary uses that start nothing in a server
(opening a file with emacsclient, a new kitty window as the shell's child) stay allowed.

INT-001 owns ``src/auth/**`` and ``tests/auth/**``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import NO_INTENT, assert_allowed, assert_denied, bash_call, gate, selected

HANDED = "runs under an intent only when paw-tui can read all of it"

DENIED = {
    "kitty @ launch": "kitty @ launch --type=background rm -rf .git",
    "kitty @ send-text": "kitty @ send-text --match recent:1 'rm -rf .git\\r'",
    "kitty @ --to a socket": "kitty @ --to unix:/tmp/k run make",
    "kitten @": "kitten @ launch sh",
    "kitty --single-instance": "kitty -1 sh -c 'rm -rf .git'",
    "wezterm cli spawn": "wezterm cli spawn -- rm -rf .git",
    "wezterm cli send-text": "wezterm cli send-text 'make install'",
    "wezterm start": "wezterm start -- make",
    "zellij action write-chars": "zellij action write-chars 'rm -rf .git'",
    "zellij run": "zellij run -- make",
    "emacsclient --eval": "emacsclient --eval '(shell-command \"rm -rf .git\")'",
    "emacsclient -e": "emacsclient -e '(delete-directory \".git\" t)'",
    "emacsclient -ne (grouped)": "emacsclient -ne '(shell-command \"make\")'",
    "emacsclient --eval=": "emacsclient --eval='(kill-emacs)'",
    "nvim --remote-send": "nvim --server /tmp/nvim.sock --remote-send ':!rm -rf .git<CR>'",
    "vim --remote-expr": "vim --servername X --remote-expr 'system(\"make\")'",
    "xdotool type": "xdotool type 'rm -rf .git'",
    "xdotool key": "xdotool key Return",
    "xdotool from standard input": "xdotool - <<< 'type make'",
    "ydotool": "ydotool type make",
    "wtype": "wtype 'rm -rf .git'",
    "busctl call": (
        "busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1 "
        "org.freedesktop.systemd1.Manager StartUnit ss evil.service replace"
    ),
    "dbus-send": "dbus-send --session --dest=org.freedesktop.systemd1 / x.y",
    "gdbus call": "gdbus call --session --dest org.gnome.Terminal --object-path / --method x",
    "qdbus": "qdbus org.kde.konsole /Sessions/1 runCommand make",
    "pm2 start": "pm2 start 'rm -rf .git' --no-autorestart",
    "pm2 a verb from a variable": "pm2 $VERB app",
    "watchman trigger": "watchman -- trigger . t '*.py' -- make",
    "watchman -j from standard input": "watchman -j <<< '[\"trigger\"]'",
    "osascript": 'osascript -e \'tell application "Terminal" to do script "make"\'',
    "run0": "run0 rm -rf .git",
    "flatpak-spawn --host": "flatpak-spawn --host rm -rf .git",
    "distrobox-host-exec": "distrobox-host-exec make",
    "mosh": "mosh localhost -- make",
    "tmate": "tmate new-window -d make",
    "gnome-terminal": "gnome-terminal -- make",
    "curl to the docker socket": (
        "curl --unix-socket /var/run/docker.sock -X POST http://x/containers/create "
        '-d \'{"HostConfig": {"Binds": ["/:/h"]}}\''
    ),
    "socat to a socket": "echo '{}' | socat - UNIX-CONNECT:/run/user/0/kitty.sock",
    "nc -U": "printf 'x' | nc -U /var/run/docker.sock",
    "ncat --unixsock": "ncat --unixsock /tmp/s",
    "socat to a bare socket path (GOPEN)": "socat - /var/run/docker.sock",
    "socat GOPEN:": "socat -d -d - GOPEN:/var/run/docker.sock",
    "socat ABSTRACT-CONNECT:": "socat - ABSTRACT-CONNECT:kitty",
    "socat a dual address": "socat STDIN!!UNIX-CONNECT:/tmp/s -",
    "socat an address known at run time": 'socat - "$(cat addr)"',
    "nc.openbsd -U": "nc.openbsd -U /var/run/docker.sock",
}


@pytest.mark.parametrize("command", list(DENIED.values()), ids=list(DENIED))
def test_asking_a_running_server_to_act_is_denied(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert HANDED in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "kitty @ ls",
        "kitten @ get-text --extent=screen",
        "kitty --version",
        "wezterm cli list",
        "zellij ls",
        "zellij action query-tab-names",
        "emacsclient -n src/auth/login.py",
        "busctl --user list",
        "busctl status",
        "gdbus introspect --session --dest org.x --object-path /",
        "xdotool getactivewindow",
        "pm2 ls",
        "pm2 logs app",
        "watchman watch-list",
        "watchman watch-project .",
        "flatpak-spawn --sandbox ls",
        "tmate ls",
        "curl -sSf https://example.com -o src/auth/page.html",
        "nc -z localhost 8080",
        "socat TCP-LISTEN:8080,fork TCP:localhost:80",
        "socat -lf /tmp/socat.log STDIN!!STDOUT TCP:localhost:80",
    ],
)
def test_listing_and_showing_forms_are_allowed_under_an_intent(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    assert_allowed(gate(bash_call(wsroot, command)))


@pytest.mark.parametrize("command", ["kitty @ ls", "busctl list", "pm2 ls"])
def test_none_of_them_is_read_only_before_a_selection(wsroot: Path, command: str) -> None:
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert reason.startswith(NO_INTENT), reason


def test_a_server_reached_through_a_wrapper_or_a_shell_is_read_the_same(wsroot: Path) -> None:
    selected(wsroot, "INT-001")
    for command in (
        "sudo -u me kitty @ launch make",
        "bash -c 'xdotool type make'",
        "env DISPLAY=:0 xdotool type make",
        "/usr/bin/emacsclient --eval '(x)'",
        "tmux new-window -d 'pm2 start app.js'",
    ):
        reason = assert_denied(gate(bash_call(wsroot, command)))
        assert HANDED in reason, (command, reason)


def test_a_client_that_asks_no_server_stays_opaque(wsroot: Path) -> None:
    """Used without a server, these run programs of their own (``socat CREATE:``, ``nc -e``,
    a new kitty window, a new zellij session, emacsclient's alternate editor): handed to a
    server, each is still a program that may write what its command line does not name."""
    selected(wsroot, "INT-001")
    for command in (
        "tmux new-window -d 'socat - CREATE:.git/config'",
        "tmux new-window -d 'kitty sh -c \"rm -rf .git\"'",
        "tmux new-window -d 'flatpak-spawn --sandbox make'",
        "tmux new-window -d 'zellij'",
        "tmux new-window -d 'emacsclient -a make -c x'",
        "at now <<< 'nc -l 8080 -e /bin/sh'",
    ):
        reason = assert_denied(gate(bash_call(wsroot, command)))
        assert "may write what its command line does not name" in reason, (command, reason)
