"""Watch a client's network system calls with strace, to prove it talks to loopback only.

``traced(argv, log)`` wraps a command line in ``strace -f`` logging every ``connect``,
``sendto`` and ``sendmsg`` of the whole process tree; ``destinations(log)`` reads back the
socket addresses used. ``foreign(destinations)`` keeps those that are neither loopback nor a
local (unix / netlink) socket: a non-empty answer means the client tried to leave the machine.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ADDRESS = re.compile(
    r"sa_family=(?P<family>AF_\w+)"
    r"(?:.*?sin6?_port=htons\((?P<port>\d+)\))?"
    r"(?:.*?(?:inet_addr|inet_pton\(AF_INET6, )\(?\"(?P<addr>[^\"]+)\")?"
)
LOCAL_FAMILIES = ("AF_UNIX", "AF_NETLINK", "AF_UNSPEC")


def strace_path() -> str | None:
    return shutil.which("strace")


def traced(argv: list[str], log: Path) -> list[str]:
    strace = strace_path()
    if strace is None:
        raise RuntimeError("strace is not installed")
    return [strace, "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(log), *argv]


def destinations(log: Path) -> set[tuple[str, str, str]]:
    """``{(family, address, port)}`` of every socket address in the strace log."""
    found: set[tuple[str, str, str]] = set()
    if not log.exists():
        return found
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        for match in ADDRESS.finditer(line):
            found.add((match["family"], match["addr"] or "", match["port"] or ""))
    return found


def foreign(found: set[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """The destinations that are not on this machine."""
    return {
        (family, addr, port)
        for family, addr, port in found
        if family not in LOCAL_FAMILIES
        and not addr.startswith("127.")
        and addr not in ("::1", "::ffff:127.0.0.1")
    }
