"""Container engines write through mounts, outside the kernel boundary.

``docker run -v "$PWD":/w alpine rm -rf /w/.git`` asks Docker's daemon to do it: the confined
shell only talks to a socket, and the daemon, which no boundary holds, deletes the workspace's
history after PostToolUse, unseen by drift. The gate reads the engines' command lines
(docker, podman, nerdctl, compose) for the host paths they let a container write: a writable
bind mount is a write of its whole tree, checked against the scope like any other; what
reaches files no command line names (``exec`` into a running container, ``--volumes-from``,
``--privileged``, a compose file) is denied under an intent.

INT-001 owns ``src/auth/**`` and ``tests/auth/**``; the workspace holds a fake ``.git``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import (
    NO_INTENT,
    assert_allowed,
    assert_blocked,
    assert_denied,
    assert_shell_denied_naming,
    bash_call,
    gate,
    selected,
)

UNSEEN = "with mounts paw-tui cannot see"
HOST = "gives a container files no mount names"

# command (ROOT is the workspace's absolute path) -> a phrase the deny reason holds
DENIED: dict[str, tuple[str, str]] = {
    "the whole workspace bound": ("docker run --rm -v ROOT:/w alpine rm -rf /w/.git", "protected"),
    "bound as .": ("docker run --rm -v .:/w alpine true", "protected"),
    "bound as $PWD": ('docker run -v "$PWD":/w alpine true', "protected"),
    "bound through a substitution": ('docker run -v "$(cat d)":/w alpine true', "known only"),
    "bound with --volume=": ("docker run --volume=ROOT/.git:/g alpine true", ".git"),
    "bound in a group of short options": ("docker run -itv ROOT:/w alpine sh", "protected"),
    "bound with the value attached": ("docker run -vROOT/.git:/g alpine true", ".git"),
    "a mount after an option whose value looks like one": (
        "docker run -e -v ROOT/.git:/g alpine true",
        ".git",
    ),
    "bound with -v=": ("docker run -v=ROOT/.git:/g alpine true", ".git"),
    "bound with -itv=": ("docker run -itv=ROOT/.git:/g alpine true", ".git"),
    "bound after the image (read as a mount too)": (
        "docker run alpine -v ROOT/.git:/g",
        ".git",
    ),
    "--mount type=bind": ("docker run --mount type=bind,source=ROOT,target=/w alpine", "protected"),
    "--mount with src=": ("docker run --mount type=bind,src=ROOT/.git,dst=/g alpine", ".git"),
    "--mount with a quoted field": (
        'docker run --mount \'"type=bind","source=ROOT/.git",target=/g\' alpine',
        ".git",
    ),
    "--mount rw of a read-only-looking name": (
        "docker run --mount type=bind,source=ROOT/.git,target=/g,readonly=false alpine",
        ".git",
    ),
    "a volume that is a host directory": (
        "docker run --mount type=volume,dst=/g,volume-opt=type=none,volume-opt=o=bind,"
        "volume-opt=device=ROOT/.git alpine",
        ".git",
    ),
    "volume create bound to a host directory": (
        "docker volume create --opt type=none --opt o=bind --opt device=ROOT/.git g",
        ".git",
    ),
    "docker container run": ("docker container run -v ROOT/.git:/g alpine", ".git"),
    "docker create": ("docker create -v ROOT/.git:/g alpine", ".git"),
    "podman": ("podman run -v ROOT/.orchestration:/o alpine", ".orchestration"),
    "nerdctl": ("nerdctl run -v ROOT/.git:/g alpine", ".git"),
    "podman-remote": ("podman-remote run -v ROOT/.git:/g alpine", ".git"),
    "podman machine ssh": ("podman machine ssh 'rm -rf ROOT/.git'", "virtual machine"),
    "an engine option before the verb": ("docker -H unix:///x.sock run -v ROOT:/w a", "protected"),
    "a bound path out of scope": ("docker run -v ROOT/docs:/d alpine", "docs"),
    "cp out of a container into the workspace": (
        "docker cp c:/etc/passwd ROOT/.git/config",
        ".git",
    ),
    "cp into a container": ("docker cp hook.sh c:/w/.git/hooks/pre-commit", UNSEEN),
    "exec into a running container": ("docker exec c rm -rf /w/.git", UNSEEN),
    "exec -it": ("docker exec -it c sh", UNSEEN),
    "container exec": ("docker container exec c sh", UNSEEN),
    "start runs a container's command again": ("docker start c", UNSEEN),
    "restart": ("podman restart c", UNSEEN),
    "--volumes-from": ("docker run --volumes-from c alpine rm -rf /w/.git", HOST),
    "--privileged": ("docker run --privileged alpine mount /dev/sda1 /mnt", HOST),
    "--device": ("docker run --device /dev/sda alpine true", HOST),
    "--cap-add SYS_ADMIN": ("docker run --cap-add SYS_ADMIN alpine true", HOST),
    "compose up": ("docker compose up -d", "compose file"),
    "compose -f run": ("docker compose -f x.yml run app sh", "compose file"),
    "docker-compose exec": ("docker-compose exec app sh", "compose file"),
    "podman-compose up": ("podman-compose up", "compose file"),
    "buildx bake": ("docker buildx bake", UNSEEN),
    "build output into a protected directory": ("docker build -o ROOT/.git .", ".git"),
    "build --output dest=": ("docker build --output type=local,dest=ROOT/.paw .", ".paw"),
    "build --iidfile": ("docker build --iidfile ROOT/.git/x .", ".git"),
    "save -o": ("docker save -o ROOT/.git/img.tar alpine", ".git"),
    "a verb from a variable": ("docker $VERB -v ROOT:/w alpine", "known only when"),
    "an unknown verb": ("docker frobnicate", "does not follow"),
    "an unknown engine option": ("docker --frob run alpine", "does not follow"),
    "a podman storage root in the workspace": ("podman --root ROOT/.git/s ps", ".git"),
    "a mount relative to a directory known at run time": (
        'cd "$(cat d)" && docker run -v .:/w alpine true',
        "known only",
    ),
    "cp to a place known at run time": ('docker cp c:/x "$DEST"', "known only when"),
    "a bind mount the intent owns but for an exception": (
        "docker run -v ROOT/src/auth:/s a",
        "src/auth",
    ),
}


@pytest.mark.parametrize("case", list(DENIED.values()), ids=list(DENIED))
def test_what_an_engine_may_write_outside_the_scope_is_denied(
    wsroot: Path, case: tuple[str, str]
) -> None:
    assert_shell_denied_naming(wsroot, *case)


def test_a_bind_mount_out_of_scope_is_a_scope_violation(wsroot: Path) -> None:
    selected(wsroot, "INT-001")
    command = f"docker run --rm -v {wsroot}/docs:/docs alpine touch /docs/x"
    assert_blocked(gate(bash_call(wsroot, command)), "docs", "INT-001")


@pytest.mark.parametrize(
    "command",
    [
        # a writable mount the intent owns whole, read-only mounts, volumes, no mounts
        "docker run --rm -v ROOT/tests/auth:/t alpine touch /t/x.py",
        "docker run --rm -v ./tests/auth:/t -w /t python:3 pytest -q",
        "docker run --rm -v ROOT:/w:ro alpine ls /w",
        "docker run --rm -v ROOT:/w:ro,z alpine ls /w",
        "docker run --rm --mount type=bind,source=ROOT,target=/w,readonly alpine ls",
        "docker run --rm -v cache:/root/.cache -v /w alpine true",
        "docker run --rm --mount type=tmpfs,target=/t alpine true",
        "docker run --rm -e KEY=v -p 8080:80 -it alpine sh -c 'echo hi'",
        "docker run --rm alpine grep -v x:y /etc/hosts",
        "docker cp c:/app/out.txt ROOT/src/auth/out.txt",
        "docker cp ROOT/src/auth/x.py c:/x.py -",
        "docker build -t app .",
        "docker build -o type=registry .",
        "docker buildx build --platform linux/amd64 -t app .",
        "docker ps -a",
        "docker logs -f c",
        "docker stop c",
        "docker rm -f c",
        "docker pull alpine",
        "docker image ls",
        "docker network create n",
        "docker compose ps",
        "docker compose logs app",
        "docker-compose config",
        "docker compose -f ci.yml down",
        "podman images",
        "docker --version",
    ],
)
def test_ordinary_container_work_is_allowed(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    assert_allowed(gate(bash_call(wsroot, command.replace("ROOT", str(wsroot)))))


@pytest.mark.parametrize(
    "command", ["docker ps", "docker run --rm alpine true", "docker compose ps", "podman images"]
)
def test_an_engine_is_not_read_only_before_a_selection(wsroot: Path, command: str) -> None:
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert reason.startswith(NO_INTENT), reason


def test_an_engine_reached_through_a_wrapper_or_a_shell_is_read_the_same(wsroot: Path) -> None:
    selected(wsroot, "INT-001")
    for command in (
        f"sudo docker run -v {wsroot}/.git:/g alpine true",
        f"env DOCKER_HOST=unix:///x docker run -v {wsroot}/.git:/g alpine true",
        f"bash -c 'docker run -v {wsroot}/.git:/g alpine true'",
        f"/usr/bin/docker run -v {wsroot}/.git:/g alpine true",
        f"tmux new-window -d 'docker run -v {wsroot}/.git:/g alpine true'",
    ):
        reason = assert_denied(gate(bash_call(wsroot, command)))
        assert ".git" in reason, (command, reason)
