"""The compiled policy: intents, governance and compiled scopes, cached by content.

The gate runs once per tool call with a budget of a few ``python -c pass``, so it must not
import PyYAML or pathspec, nor read more of the policy than its decision needs. It reads the
two human-owned YAML files as bytes, hashes them, and opens the signed cache (``policy.json``
in the workspace's state directory, outside the workspace: a command that only reads writes
nothing inside it, DESIGN §2) when the hash matches (:mod:`paw_tui.core.policy.cache_file`): the governance
options and the compiled protected patterns at once, the index of intents when a message must
list them, and one intent's record (its fields and compiled scope) when a decision asks for
that intent. So a call costs the same with 5 intents as with 2,000. The key is the files'
*content* (DESIGN §10: a stat key can miss two same-size edits within the file system's
timestamp resolution). On a miss the slow path parses, validates, compiles and rewrites the
cache atomically; the cache can always be deleted, and any part of it failing its check sends
the policy down the slow path from the same bytes.

:data:`COUNTS` counts the work done in this process (YAML compiled, records read, scopes
built), so tests can prove a call's cost does not grow with the intent count.
"""

from __future__ import annotations

import os

from paw_tui import __version__
from paw_tui.core.intents.model import SELECTABLE, Intent
from paw_tui.core.policy.cache_file import CacheError, CacheReader, IndexLine, headline
from paw_tui.core.policy.governance import Governance
from paw_tui.core.policy.sources import current_stamps, read_source, too_large_for_pure_yaml
from paw_tui.core.support.hashing import sha256
from paw_tui.core.workspace import layout
from paw_tui.core.workspace.secret import load_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.scope.checker import ScopeChecker
    from paw_tui.core.policy.scope.match import CompiledScope
    from paw_tui.core.policy.sources import Stamp
    from paw_tui.core.support.keyed import Mac

CACHE_FORMAT = 3
CACHE_NAME = "policy.json"


def policy_cache_path(root: str) -> str:
    """``<state dir>/workspaces/<key>/policy.json``: the workspace's compiled policy cache."""
    from paw_tui.core.workspace.statedir import workspace_state_dir

    return os.path.join(workspace_state_dir(root), CACHE_NAME)


READS = "reads"
COMPILES = "compiles"
PARSES = "parses"
RECORDS = "records"
SCOPES = "scopes"
LOADS = "loads"
COUNTS = {READS: 0, COMPILES: 0, PARSES: 0, RECORDS: 0, SCOPES: 0, LOADS: 0}
"""In this process: loads that read (and hashed) the YAML files, policies compiled, intents
files parsed, intent records read from the cache, compiled scopes rebuilt from their data
(an intent's or the protected set), and calls of :func:`load_policy`."""


class Policy:
    """Everything the handshake and the gate need to decide, for one workspace root.

    Built by :func:`compile_policy` (every intent in memory) or from the cache (intents read
    when asked for). ``intents`` reads them all; the gate asks for one with :meth:`intent` and
    for the selectable ones' ids and names with :meth:`selectable`.
    """

    __slots__ = (
        "root",
        "key",
        "intents_present",
        "governance",
        "problems",
        "warnings",
        "_intents",
        "_by_id",
        "_scope_data",
        "_scopes",
        "_protected_data",
        "_protected",
        "_reader",
        "_sources",
        "_signer",
        "stamps",
    )

    def __init__(
        self,
        root: str,
        key: str,
        intents_present: bool,
        governance: Governance,
        problems: list[str],
        warnings: list[str],
        *,
        intents: list[Intent] | None = None,
        scope_data: dict[str, object] | None = None,
        protected_data: object | None = None,
        reader: CacheReader | None = None,
        sources: tuple[bytes | None, bytes | None] | None = None,
        signer: Mac | None = None,
    ) -> None:
        self.root = root
        self.key = key
        self.intents_present = intents_present
        self.governance = governance
        self.problems = problems
        self.warnings = warnings
        self._intents = intents
        self._by_id: dict[str, Intent] = {i.id: i for i in intents or ()}
        self._scope_data: dict[str, object] = dict(scope_data or {})
        self._scopes: dict[str, CompiledScope] = {}
        self._protected_data = protected_data
        self._protected: CompiledScope | None = None
        self._reader = reader
        self._sources = sources
        """The YAML bytes the key was computed from (None when the stamps vouched for them):
        what the policy is compiled from when a part of the cache fails its check."""
        self._signer = signer
        self.stamps: list[Stamp] | None = None
        """Both files' stamps when they vouch for the files this policy came from (quiet
        when read: :mod:`~paw_tui.core.policy.sources`); None otherwise."""

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def unavailable_reason(self) -> str | None:
        """``Orchestration state unavailable: <first problem>``, or None when usable."""
        return f"Orchestration state unavailable: {self.problems[0]}" if self.problems else None

    @property
    def intents(self) -> list[Intent]:
        """Every intent, in file order (reads every record of a cached policy)."""
        if self._intents is None:
            reader = self._reader
            try:
                assert reader is not None
                self._intents = [
                    self._by_id.get(line.id) or self._read(reader, line) for line in reader.lines()
                ]
            except (CacheError, OSError, ValueError, KeyError, TypeError, AttributeError):
                self._rebuild()
        assert self._intents is not None
        return self._intents

    def intent(self, intent_id: str) -> Intent | None:
        found = self._by_id.get(intent_id)
        reader = self._reader
        if found is not None or self._intents is not None or reader is None:
            return found
        try:
            line = reader.find(intent_id)
            return None if line is None else self._read(reader, line)
        except (CacheError, OSError, ValueError, KeyError, TypeError, AttributeError):
            self._rebuild()
            return self._by_id.get(intent_id)

    def _read(self, reader: CacheReader, line: IndexLine) -> Intent:
        record = reader.record(line)
        COUNTS[RECORDS] += 1
        intent = Intent.from_dict(record)
        if intent.status != line.status:
            raise CacheError(f"the record of {line.id} disagrees with the index")
        self._scope_data[intent.id] = record["scope"]
        self._by_id[intent.id] = intent
        return intent

    def selectable(self, held_elsewhere: set[str] | frozenset[str] = frozenset()) -> list[Intent]:
        """Intents an agent may select now: PENDING or IN_PROGRESS, not held by another.

        From a cached policy, read from the index alone: each is an intent whose other
        fields are read when first used (:class:`_Listed`).
        """
        reader = self._reader
        if self._intents is None and reader is not None:
            try:
                lines = reader.listed_lines()
            except (CacheError, ValueError):
                self._rebuild()
            else:
                if held_elsewhere:
                    held = {intent_id.encode() for intent_id in held_elsewhere}
                    lines = [line for line in lines if line[: line.find(b" ")] not in held]
                return [_Listed(self, line) for line in lines]
        return [i for i in self.intents if i.status in SELECTABLE and i.id not in held_elsewhere]

    def scope(self, intent_id: str) -> CompiledScope:
        """The intent's compiled ``owned_scope``; KeyError for an unknown intent."""
        compiled = self._scopes.get(intent_id)
        if compiled is None:
            from paw_tui.core.policy.scope.match import ScopeCacheError

            if intent_id not in self._scope_data and self.intent(intent_id) is None:
                raise KeyError(intent_id)
            try:
                compiled = _build_scope(self._scope_data[intent_id])
            except ScopeCacheError:
                if self._reader is None:
                    raise
                self._rebuild()  # a record from another compiler: compile from the YAML
                compiled = _build_scope(self._scope_data[intent_id])
            self._scopes[intent_id] = compiled
        return compiled

    def protected_scope(self) -> CompiledScope | None:
        if self._protected is None and self._protected_data is not None:
            from paw_tui.core.policy.scope.match import ScopeCacheError

            try:
                self._protected = _build_scope(self._protected_data)
            except ScopeCacheError:
                if self._reader is None:
                    raise
                self._rebuild()
                return self.protected_scope()
        return self._protected

    def checker(self, intent: Intent) -> ScopeChecker:
        from paw_tui.core.policy.scope.checker import ScopeChecker

        return ScopeChecker(
            self.root, intent.id, self.scope(intent.id), protected=self.protected_scope()
        )

    def _rebuild(self) -> None:
        """A part of the cache failed its check: compile from the bytes the key came from
        (the same policy, never a wider one) and rewrite the cache."""
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()
        problems: list[str] = []
        if self._sources is None:  # trusted by stamps: read the files now
            intents = read_source(layout.at(self.root, layout.INTENTS), layout.INTENTS)
            governance = read_source(layout.at(self.root, layout.GOVERNANCE), layout.GOVERNANCE)
            self._sources = (intents.data, governance.data)
            self.key = policy_key(*self._sources)
            problems = [p for p in (intents.problem, governance.problem) if p]
        intents_bytes, gov_bytes = self._sources
        fresh = compile_policy(self.root, intents_bytes, gov_bytes, self.key, problems)
        self.intents_present = fresh.intents_present
        self.governance = fresh.governance
        self.problems = fresh.problems
        self.warnings = fresh.warnings
        self._intents = fresh._intents
        self._by_id = fresh._by_id
        self._scope_data = fresh._scope_data
        self._scopes = {}
        self._protected_data = fresh._protected_data
        self._protected = None
        if self._signer is not None and not problems:
            save_policy_cache(fresh, self._signer)

    def cache_header(self) -> dict[str, object]:
        return {
            "format": CACHE_FORMAT,
            "version": __version__,
            "key": self.key,
            "intents_present": self.intents_present,
            "governance": self.governance.to_dict(),
            "problems": list(self.problems),
            "warnings": list(self.warnings),
            "protected": self._protected_data,
        }

    def cache_records(self) -> list[tuple[str, str, str, dict[str, object]]]:
        records = []
        for intent in self.intents:
            record = intent.to_dict()
            record["scope"] = self._scope_data[intent.id]
            records.append((intent.id, intent.status, intent.name, record))
        return records


class _Listed(Intent):
    """An intent as the index lists it: its id, name and status are read from its index
    line when first used, its other fields from its record, so listing 2,000 intents (a
    message names 20 of them) decodes 20 lines and reads no record."""

    __slots__ = ("_policy", "_line")

    def __init__(self, policy: Policy, line: bytes) -> None:
        # no super().__init__: every field stays unset until first read
        self._policy = policy
        self._line = line

    def __getattr__(self, name: str) -> object:
        # Only reached for a slot not set yet.
        if name.startswith("__") or name in ("_policy", "_line"):
            raise AttributeError(name)
        if name in ("id", "name", "status"):
            self.id, self.status, self.name = headline(self._line)
            return getattr(self, name)
        full = self._policy.intent(self.id)
        if full is None:
            raise AttributeError(name)
        for slot in Intent.__slots__:
            setattr(self, slot, getattr(full, slot))
        return getattr(self, name)


def _build_scope(data: object) -> CompiledScope:
    from paw_tui.core.policy.scope.match import CompiledScope

    COUNTS[SCOPES] += 1
    return CompiledScope.from_dict(data)


def policy_key(intents: bytes | None, governance: bytes | None) -> str:
    digest = sha256(f"paw-tui {__version__} policy {CACHE_FORMAT}\0".encode())
    for part in (intents, governance):
        digest.update(b"-" if part is None else b"+%d:" % len(part) + part)
    return str(digest.hexdigest())


def load_policy(root: str, *, use_cache: bool = True, signer: Mac | None = None) -> Policy:
    """The policy of the workspace at ``root``; never raises for bad files (see ``problems``).

    The compiled cache is used only when it carries this workspace's signature (``signer``,
    else the workspace's key): an edited cache is rebuilt from the YAML, never trusted. When
    both files still carry the stamps the cache recorded, they are not read at all
    (:mod:`paw_tui.core.policy.sources`).
    """
    COUNTS[LOADS] += 1
    if signer is None:
        try:
            signer = load_key(root, create=True)
        except OSError:
            signer = None  # no key to be had: no cache either (the slow path every time)
    reader = None
    if use_cache and signer is not None:
        reader = CacheReader.open(policy_cache_path(root), signer)
        stamps = reader.header.get("stamps") if reader is not None else None
        if reader is not None and stamps is not None and stamps == current_stamps(root):
            cached = _from_cache(root, reader, str(reader.header.get("key")), None, signer)
            if cached is not None:
                cached.stamps = stamps
                return cached
            reader = None  # closed
    intents = read_source(layout.at(root, layout.INTENTS), layout.INTENTS)
    governance = read_source(layout.at(root, layout.GOVERNANCE), layout.GOVERNANCE)
    COUNTS[READS] += 1
    sources = (intents.data, governance.data)
    key = policy_key(*sources)
    read_problems = [problem for problem in (intents.problem, governance.problem) if problem]
    if reader is not None and signer is not None and not read_problems:
        if reader.header.get("key") != key:
            _reuse_translations(reader)  # a file changed, most of its patterns did not
        cached = _from_cache(root, reader, key, sources, signer)
        if cached is not None:
            _restamp(reader, [intents.stamp, governance.stamp], signer, root)
            cached.stamps = _vouching(intents.stamp, governance.stamp)
            return cached
    elif reader is not None:
        reader.close()
    policy = compile_policy(root, intents.data, governance.data, key, read_problems)
    if not read_problems and signer is not None:
        save_policy_cache(policy, signer, [intents.stamp, governance.stamp])
        policy._signer = signer
    policy.stamps = _vouching(intents.stamp, governance.stamp)
    return policy


def _vouching(*stamps: Stamp | None) -> list[Stamp] | None:
    return None if None in stamps else list(stamps)  # type: ignore[arg-type]


def still_current(policy: Policy) -> bool:
    """Whether ``policy`` is what :func:`load_policy` would give now, told by two ``stat``
    calls: both files still carry stamps that vouched for them (a long-lived process, such as
    a Governor deciding many calls, keeps its policy while this holds)."""
    return policy.stamps is not None and policy.stamps == current_stamps(policy.root)


def _from_cache(
    root: str,
    reader: CacheReader,
    key: str,
    sources: tuple[bytes | None, bytes | None] | None,
    signer: Mac,
) -> Policy | None:
    """The policy the cache holds, when it was compiled from files with this ``key``."""
    header = reader.header
    try:
        if (
            header.get("format") != CACHE_FORMAT
            or header.get("version") != __version__
            or header.get("key") != key
        ):
            raise CacheError("stale")
        return Policy(
            root,
            key,
            bool(header["intents_present"]),
            Governance.from_dict(header["governance"]),  # type: ignore[arg-type]
            list(header["problems"]),  # type: ignore[call-overload]
            list(header["warnings"]),  # type: ignore[call-overload]
            protected_data=header.get("protected"),
            reader=reader,
            sources=sources,
            signer=signer,
        )
    except (CacheError, ValueError, KeyError, TypeError, AttributeError):
        reader.close()
        return None  # a stale or foreign cache: rebuild it


def _reuse_translations(reader: CacheReader) -> None:
    """Let compiling the edited files reuse the pattern translations the signed cache of the
    previous files holds (the same version of paw-tui made them)."""
    header = reader.header
    if header.get("format") != CACHE_FORMAT or header.get("version") != __version__:
        return
    from paw_tui.core.policy.scope.compile import remember

    try:
        for record in reader.records():
            remember(record.get("scope"))
        remember(header.get("protected"))
    except (CacheError, ValueError, OSError):
        pass  # what was taken before the fault was checked; the rest is translated afresh


def _restamp(reader: CacheReader, stamps: list[Stamp | None], signer: Mac, root: str) -> None:
    """Record the files' stamps in a cache that matched by content, once they are quiet, so
    the next calls skip reading them."""
    if None in stamps or reader.header.get("stamps") == stamps:
        return
    from paw_tui.core.support.fsutil import replace_unsynced

    try:
        data = reader.with_header(dict(reader.header, stamps=stamps), signer)
        replace_unsynced(policy_cache_path(root), data)
    except OSError:
        pass


def save_policy_cache(
    policy: Policy, signer: Mac | None = None, stamps: list[Stamp | None] | None = None
) -> None:
    """Write the cache, signed; a workspace we cannot write to (or a key that cannot be had)
    just runs the slow path next time. ``stamps`` are the files' as read for ``policy``.

    Not synced: a cache lost or torn in a crash fails its checks and is compiled again."""
    from paw_tui.core.policy.cache_file import encode
    from paw_tui.core.support.fsutil import replace_unsynced

    try:
        signer = signer or load_key(policy.root, create=True)
        assert signer is not None
        path = policy_cache_path(policy.root)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        header = policy.cache_header()
        header["stamps"] = stamps if stamps is not None and None not in stamps else None
        data = encode(header, policy.cache_records(), signer, listed=SELECTABLE)
        replace_unsynced(path, data)
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
    COUNTS[COMPILES] += 1
    problems = list(read_problems or [])
    too_large = None if problems else too_large_for_pure_yaml(intents_bytes, gov_bytes)
    if too_large:
        problems.append(too_large)
    warnings: list[str] = []
    intents: list[Intent] = []
    governance = Governance()
    if intents_bytes and not too_large and not read_problems:
        from paw_tui.core.intents.parse import parse_intents

        text = _decode(intents_bytes, layout.INTENTS, problems)
        if text is not None:
            COUNTS[PARSES] += 1
            intents, found, noted = parse_intents(text, layout.INTENTS)
            problems += [str(problem) for problem in found]
            warnings += [str(problem) for problem in noted]
    if gov_bytes and not too_large and not read_problems:
        from paw_tui.core.policy.governance_parse import parse_governance

        text = _decode(gov_bytes, layout.GOVERNANCE, problems)
        if text is not None:
            governance, found, noted = parse_governance(text, layout.GOVERNANCE)
            problems += [str(problem) for problem in found]
            warnings += [str(problem) for problem in noted]
    scope_data: dict[str, object] = {}
    protected_data: object | None = None
    if not problems:
        from paw_tui.core.policy.scope.compile import compile_scope
        from paw_tui.core.policy.scope.patterns import ScopePatternError

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
        governance,
        problems,
        warnings,
        intents=intents,
        scope_data=scope_data,
        protected_data=protected_data,
        sources=(intents_bytes, gov_bytes),
    )
