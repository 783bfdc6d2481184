"""Tamper: rewriting the evidence or the compiled policy.

The hash chain alone cannot tell a record paw-tui wrote from one an attacker wrote with the
right ``seq`` and ``prev`` (anyone can compute a sha256). Every record carries a keyed MAC
(key outside the workspace); ``paw-tui trace verify`` names the first record paw-tui did not
write, and keeps naming it after more records are appended. The policy cache is not trusted
when its MAC fails: it is rebuilt from the YAML.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path

from paw_tui.core.policy.compiled import policy_cache_path

from .kit import (
    assert_allowed,
    assert_protected,
    assert_scope_violation,
    cli,
    gate,
    records,
    selected,
    write_payload,
)


def ledger(root: Path) -> Path:
    return root / ".orchestration" / "agent_trace.jsonl"


def lines(root: Path) -> list[bytes]:
    return ledger(root).read_bytes().split(b"\n")[:-1]


def chain_hash(line: bytes) -> str:
    return "sha256:" + hashlib.sha256(line).hexdigest()


def history(root: Path) -> None:
    """A little real history: a selection, an allowed write, a denied one."""
    selected(root, "INT-001")
    assert_allowed(gate(write_payload(root, "src/auth/a.py")))
    gate(write_payload(root, "docs/x.md"))


def forge_next(root: Path, mac: str | None) -> int:
    """Append a well-chained ``approval_granted`` (correct seq and prev, as an attacker can
    compute them); returns its 1-based line number."""
    existing = lines(root)
    last = json.loads(existing[-1])
    forged = dict(last)
    forged.pop("mac", None)
    forged.update(
        seq=int(last["seq"]) + 1,
        event="approval_granted",
        intent_id="INT-006",
        decision="allow",
        prev=chain_hash(existing[-1]),
    )
    forged.pop("paths", None)
    forged.pop("reason", None)
    if mac is not None:
        forged["mac"] = mac
    data = json.dumps(forged, ensure_ascii=False, separators=(",", ":")).encode()
    with ledger(root).open("ab") as handle:
        handle.write(data + b"\n")
    return len(existing) + 1


def verify(root: Path) -> tuple[int, dict[str, object]]:
    done = cli("trace", "verify", "--json", cwd=root)
    assert b"Traceback" not in done.stderr, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return done.returncode, result


def assert_names(root: Path, line: int) -> None:
    code, result = verify(root)
    assert code == 2, result
    assert result["first_bad_line"] == line, result
    text = cli("trace", "verify", cwd=root)
    assert text.returncode == 2
    assert str(line).encode() in text.stdout + text.stderr


def test_every_record_carries_a_mac(wsroot: Path) -> None:
    """Allowed, denied and handshake records all carry ``mac``."""
    history(wsroot)
    written = records(wsroot)
    assert len(written) >= 3
    for record in written:
        assert isinstance(record.get("mac"), str) and record["mac"], record


def test_an_untouched_ledger_verifies(wsroot: Path) -> None:
    """Control: paw-tui's own records verify (exit 0)."""
    history(wsroot)
    code, result = verify(wsroot)
    assert (code, result["ok"], result["first_bad_line"]) == (0, True, None)


def test_a_forged_well_chained_record_without_a_mac(wsroot: Path) -> None:
    """A forged line with correct seq and prev but no MAC is named by verify."""
    history(wsroot)
    line = forge_next(wsroot, None)
    assert_names(wsroot, line)


def test_a_forged_record_with_a_made_up_mac(wsroot: Path) -> None:
    """A forged line carrying a MAC of the right shape but the wrong key is named."""
    history(wsroot)
    sample = str(records(wsroot)[-1].get("mac") or "hmac-sha256:")
    prefix = sample.split(":", 1)[0] + ":" if ":" in sample else ""
    line = forge_next(wsroot, prefix + secrets.token_hex(32))
    assert_names(wsroot, line)


def test_a_forged_record_replaying_a_real_mac(wsroot: Path) -> None:
    """A forged line reusing the previous record's genuine MAC is named."""
    history(wsroot)
    line = forge_next(wsroot, str(records(wsroot)[-1].get("mac", "")))
    assert_names(wsroot, line)


def test_the_forgery_stays_named_after_later_appends(wsroot: Path) -> None:
    """The gate appends more records after the forged one: verify still names the forgery."""
    history(wsroot)
    line = forge_next(wsroot, None)
    assert_allowed(gate(write_payload(wsroot, "src/auth/b.py")))
    gate(write_payload(wsroot, "docs/y.md"))
    assert len(lines(wsroot)) == line + 2
    assert_names(wsroot, line)


def rechain_from(all_lines: list[bytes], start: int) -> list[bytes]:
    """Fix every ``prev`` after index ``start`` (0-based) as an attacker would."""
    out = list(all_lines)
    for i in range(start + 1, len(out)):
        old = json.loads(out[i])["prev"]
        out[i] = out[i].replace(old.encode(), chain_hash(out[i - 1]).encode(), 1)
    return out


def test_an_edited_record_rechained(wsroot: Path) -> None:
    """A deny edited into an allow, every later ``prev`` recomputed: the edit is named."""
    history(wsroot)
    assert_allowed(gate(write_payload(wsroot, "src/auth/c.py")))
    all_lines = lines(wsroot)
    index = next(i for i, raw in enumerate(all_lines) if b'"deny"' in raw)
    all_lines[index] = (
        all_lines[index].replace(b'"deny"', b'"allow"').replace(b"tool_denied", b"tool_allowed")
    )
    ledger(wsroot).write_bytes(b"".join(line + b"\n" for line in rechain_from(all_lines, index)))
    assert_names(wsroot, index + 1)


def test_a_deleted_record_renumbered_and_rechained(wsroot: Path) -> None:
    """A deny removed, later seqs renumbered and rechained: verify fails at the gap."""
    history(wsroot)
    assert_allowed(gate(write_payload(wsroot, "src/auth/c.py")))
    all_lines = lines(wsroot)
    index = next(i for i, raw in enumerate(all_lines) if b'"deny"' in raw)
    del all_lines[index]
    for i in range(index, len(all_lines)):
        record = json.loads(all_lines[i])
        all_lines[i] = all_lines[i].replace(
            f'"seq":{record["seq"]}'.encode(), f'"seq":{record["seq"] - 1}'.encode(), 1
        )
    ledger(wsroot).write_bytes(
        b"".join(line + b"\n" for line in rechain_from(all_lines, index - 1))
    )
    code, result = verify(wsroot)
    assert code == 2, result
    assert result["first_bad_line"] == index + 1, result


def test_cut_off_records(wsroot: Path) -> None:
    """The last two records cut off: the head kept outside the workspace says so."""
    history(wsroot)
    all_lines = lines(wsroot)
    ledger(wsroot).write_bytes(b"".join(line + b"\n" for line in all_lines[:-2]))
    code, result = verify(wsroot)
    assert code == 2, result


def widen_cache(root: Path) -> None:
    """Edit the compiled policy: INT-001's record takes INT-006's ``**`` (its pattern and its
    compiled scope), and protection is emptied, in whichever parts the cache keeps them."""
    cache = Path(policy_cache_path(str(root)))
    data = json.loads(cache.read_text(encoding="utf-8"))
    records = data.get("intents", [])
    wide = next((r for r in records if isinstance(r, dict) and r.get("id") == "INT-006"), None)
    for record in records:
        if isinstance(record, dict) and record.get("id") == "INT-001":
            record["owned_scope"] = ["**"]
            if wide is not None:
                for key, value in wide.items():
                    if key not in ("id", "name", "status", "line", "status_span"):
                        record[key] = value
    scopes = data.get("scopes")
    if isinstance(scopes, dict) and "INT-006" in scopes:
        scopes["INT-001"] = scopes["INT-006"]
    for holder in (data, data.get("governance"), data.get("header")):
        if isinstance(holder, dict) and "protected" in holder:
            holder["protected"] = []
    cache.write_text(json.dumps(data), encoding="utf-8")


def test_an_edited_policy_cache_is_not_trusted(wsroot: Path) -> None:
    """policy.json widened to ``**`` (YAML untouched): the next gate call still denies."""
    selected(wsroot, "INT-001")
    widen_cache(wsroot)
    assert_scope_violation(gate(write_payload(wsroot, "docs/x.md")), "INT-001", "docs/x.md")
    widen_cache(wsroot)
    assert_protected(gate(write_payload(wsroot, ".git/config")), ".git/config")


def test_an_edited_policy_cache_through_the_cli(wsroot: Path) -> None:
    """``paw-tui check`` reads the same cache: it reports the YAML's scope, not the edit."""
    selected(wsroot, "INT-001")
    widen_cache(wsroot)
    done = cli("check", "docs/x.md", "--session", "s-alpha", "--json", cwd=wsroot)
    assert b"Traceback" not in done.stderr
    assert done.returncode == 2, done.stdout
