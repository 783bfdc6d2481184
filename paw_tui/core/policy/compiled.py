"""The compiled policy: intents, governance and compiled scopes, cached by content.

The gate runs once per tool call with a budget of a few ``python -c pass``, so it must not
import PyYAML or pathspec. It reads the two human-owned YAML files as bytes, hashes them, and
loads ``.orchestration/.cache/policy.json`` when the hash matches: plain JSON holding the
validated intents, the governance options and every scope compiled to regular expressions.
The key is the files' *content* (DESIGN §10: a stat key can miss two same-size edits within
the file system's timestamp resolution). On a miss the slow path parses, validates, compiles
and rewrites the cache atomically; the cache can always be deleted.
"""

from __future__ import annotations

import os
import stat

from paw_tui import __version__
from paw_tui.core.intents.model import SELECTABLE, Intent
from paw_tui.core.policy.governance import Governance
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import sha256
from paw_tui.core.support.keyed import document_signed, sign_document
from paw_tui.core.workspace import layout
from paw_tui.core.workspace.secret import load_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.scope.checker import ScopeChecker
    from paw_tui.core.policy.scope.match import CompiledScope
    from paw_tui.core.support.keyed import Mac

CACHE_FORMAT = 1


class Policy:
    """Everything the handshake and the gate need to decide, for one workspace root."""

    __slots__ = (
        "root",
        "key",
        "intents_present",
        "intents",
        "governance",
        "problems",
        "warnings",
        "_scope_data",
        "_scopes",
        "_protected_data",
        "_protected",
    )

    def __init__(
        self,
        root: str,
        key: str,
        intents_present: bool,
        intents: list[Intent],
        governance: Governance,
        problems: list[str],
        warnings: list[str],
        scope_data: dict[str, object],
        protected_data: object | None,
    ) -> None:
        self.root = root
        self.key = key
        self.intents_present = intents_present
        self.intents = intents
        self.governance = governance
        self.problems = problems
        self.warnings = warnings
        self._scope_data = scope_data
        self._scopes: dict[str, CompiledScope] = {}
        self._protected_data = protected_data
        self._protected: CompiledScope | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def unavailable_reason(self) -> str | None:
        """``Orchestration state unavailable: <first problem>``, or None when usable."""
        return f"Orchestration state unavailable: {self.problems[0]}" if self.problems else None

    def intent(self, intent_id: str) -> Intent | None:
        for intent in self.intents:
            if intent.id == intent_id:
                return intent
        return None

    def selectable(self, held_elsewhere: set[str] | frozenset[str] = frozenset()) -> list[Intent]:
        """Intents an agent may select now: PENDING or IN_PROGRESS, not held by another."""
        return [i for i in self.intents if i.status in SELECTABLE and i.id not in held_elsewhere]

    def scope(self, intent_id: str) -> CompiledScope:
        from paw_tui.core.policy.scope.match import CompiledScope

        compiled = self._scopes.get(intent_id)
        if compiled is None:
            compiled = CompiledScope.from_dict(self._scope_data[intent_id])
            self._scopes[intent_id] = compiled
        return compiled

    def protected_scope(self) -> CompiledScope | None:
        if self._protected is None and self._protected_data is not None:
            from paw_tui.core.policy.scope.match import CompiledScope

            self._protected = CompiledScope.from_dict(self._protected_data)
        return self._protected

    def checker(self, intent: Intent) -> ScopeChecker:
        from paw_tui.core.policy.scope.checker import ScopeChecker

        return ScopeChecker(
            self.root, intent.id, self.scope(intent.id), protected=self.protected_scope()
        )

    def to_cache(self) -> dict[str, object]:
        return {
            "format": CACHE_FORMAT,
            "version": __version__,
            "key": self.key,
            "intents_present": self.intents_present,
            "intents": [intent.to_dict() for intent in self.intents],
            "governance": self.governance.to_dict(),
            "problems": list(self.problems),
            "warnings": list(self.warnings),
            "scopes": self._scope_data,
            "protected": self._protected_data,
        }

    @classmethod
    def from_cache(cls, root: str, data: dict[str, object]) -> Policy:
        return cls(
            root,
            str(data["key"]),
            bool(data["intents_present"]),
            [Intent.from_dict(item) for item in data["intents"]],  # type: ignore[attr-defined]
            Governance.from_dict(data["governance"]),  # type: ignore[arg-type]
            list(data["problems"]),  # type: ignore[call-overload]
            list(data["warnings"]),  # type: ignore[call-overload]
            dict(data["scopes"]),  # type: ignore[call-overload]
            data.get("protected"),
        )


MAX_SOURCE_BYTES = 1024 * 1024


def _read_source(path: str, shown: str) -> tuple[bytes | None, str | None]:
    """The file's bytes (None when missing) and a problem when it cannot be read."""
    try:
        # O_NONBLOCK: a FIFO planted in place of the file must not hang the gate (a hook that
        # times out lets the tool run).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError(21, "is a directory", path)
            if not stat.S_ISREG(mode):
                raise OSError(22, "not a regular file", path)
            data = os.read(fd, MAX_SOURCE_BYTES + 1)
        finally:
            os.close(fd)
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as exc:
        from paw_tui.core.support.textfile import describe_os_error

        return b"", f"{shown}: cannot be read: {describe_os_error(exc, path)}"
    if len(data) > MAX_SOURCE_BYTES:
        return b"", f"{shown}: cannot be read: it is larger than the 1 MiB limit"
    return data, None


def policy_key(intents: bytes | None, governance: bytes | None) -> str:
    digest = sha256(f"paw-tui {__version__} policy {CACHE_FORMAT}\0".encode())
    for part in (intents, governance):
        digest.update(b"-" if part is None else b"+%d:" % len(part) + part)
    return str(digest.hexdigest())


def load_policy(root: str, *, use_cache: bool = True, signer: Mac | None = None) -> Policy:
    """The policy of the workspace at ``root``; never raises for bad files (see ``problems``).

    The compiled cache is used only when it carries this workspace's signature (``signer``,
    else the workspace's key): an edited cache is rebuilt from the YAML, never trusted.
    """
    intents_bytes, intents_error = _read_source(layout.at(root, layout.INTENTS), layout.INTENTS)
    gov_bytes, gov_error = _read_source(layout.at(root, layout.GOVERNANCE), layout.GOVERNANCE)
    key = policy_key(intents_bytes, gov_bytes)
    read_problems = [problem for problem in (intents_error, gov_error) if problem]
    if signer is None:
        try:
            signer = load_key(root, create=True)
        except OSError:
            signer = None  # no key to be had: no cache either (the slow path every time)
    if use_cache and not read_problems and signer is not None:
        cached = _load_cache(root, layout.at(root, layout.POLICY_CACHE), key, signer)
        if cached is not None:
            return cached
    policy = compile_policy(root, intents_bytes, gov_bytes, key, read_problems)
    if not read_problems and signer is not None:
        save_policy_cache(policy, signer)
    return policy


def _load_cache(root: str, cache_path: str, key: str, signer: Mac) -> Policy | None:
    from paw_tui.core.errors import PawError

    try:
        with open(cache_path, "rb") as handle:
            data = json.loads(handle.read())
        if (
            not isinstance(data, dict)
            or data.get("format") != CACHE_FORMAT
            or data.get("key") != key
            or not document_signed(signer, data)  # edited, or not made here: rebuild it
        ):
            return None
        policy = Policy.from_cache(root, data)
        # Rebuild every compiled scope now: a cache written by another version of the scope
        # compiler must send us down the slow path, not deny every tool later.
        for intent in policy.intents:
            policy.scope(intent.id)
        policy.protected_scope()
        return policy
    except (OSError, ValueError, KeyError, TypeError, AttributeError, PawError):
        return None  # a missing, stale, torn or foreign cache: rebuild it


def save_policy_cache(policy: Policy, signer: Mac | None = None) -> None:
    """Write the cache, signed; a workspace we cannot write to (or a key that cannot be had)
    just runs the slow path next time."""
    from paw_tui.core.support.fsutil import atomic_write

    try:
        signer = signer or load_key(policy.root, create=True)
        assert signer is not None
        os.makedirs(layout.at(policy.root, layout.CACHE), exist_ok=True)
        document = sign_document(signer, policy.to_cache())
        data = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        atomic_write(layout.at(policy.root, layout.POLICY_CACHE), data.encode("utf-8"))
    except OSError:
        pass


def _decode(data: bytes, shown: str, problems: list[str]) -> str | None:
    """Strict UTF-8 without a BOM, CRLF as LF; never trimmed, so line numbers stay true."""
    offset = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[offset:].decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        position = exc.start + offset
        problems.append(
            f"{shown}: not valid UTF-8 (byte 0x{data[position]:02x} at offset {position})"
        )
        return None


def compile_policy(
    root: str,
    intents_bytes: bytes | None,
    gov_bytes: bytes | None,
    key: str,
    read_problems: list[str] | None = None,
) -> Policy:
    """The slow path: parse and validate both files, compile every scope."""
    from paw_tui.core.intents.parse import parse_intents
    from paw_tui.core.policy.governance_parse import parse_governance
    from paw_tui.core.policy.scope.compile import compile_scope
    from paw_tui.core.policy.scope.patterns import ScopePatternError

    problems = list(read_problems or [])
    warnings: list[str] = []
    intents: list[Intent] = []
    governance = Governance()
    if intents_bytes:
        text = _decode(intents_bytes, layout.INTENTS, problems)
        if text is not None:
            intents, found, noted = parse_intents(text, layout.INTENTS)
            problems += [str(problem) for problem in found]
            warnings += [str(problem) for problem in noted]
    if gov_bytes:
        text = _decode(gov_bytes, layout.GOVERNANCE, problems)
        if text is not None:
            governance, found, noted = parse_governance(text, layout.GOVERNANCE)
            problems += [str(problem) for problem in found]
            warnings += [str(problem) for problem in noted]
    scope_data: dict[str, object] = {}
    protected_data: object | None = None
    if not problems:
        try:
            for intent in intents:
                scope_data[intent.id] = compile_scope(intent.owned_scope).to_dict()
            if governance.protected:
                protected_data = compile_scope(
                    governance.protected, ignore_case=True, label="protected"
                ).to_dict()
        except ScopePatternError as exc:  # validated already; kept as a last line of defence
            problems.append(str(exc))
    if problems:
        intents, scope_data, protected_data = [], {}, None
    return Policy(
        root,
        key,
        intents_bytes is not None,
        intents,
        governance,
        problems,
        warnings,
        scope_data,
        protected_data,
    )
