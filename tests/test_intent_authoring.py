"""Authoring intents through the core API the CLI and the TUI's form call (DESIGN §4
"Authoring"): each act validated whole, comment-preserving, recorded, and refused whole
(file untouched, nothing recorded) when any value is wrong."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from gatekit import INTENTS_YAML, events, paw_state_dir, records, root, state

from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.authoring import change_scope, create_intent, update_intent
from paw_tui.core.intents.drafts import DraftError, IntentDraft, check_draft
from paw_tui.core.intents.scope_preview import preview_scope
from paw_tui.core.ledger.acts import UnrecordedAct

__all__ = ["paw_state_dir", "root"]


def intents_bytes(root: Path) -> bytes:
    return (root / ".orchestration" / "active_intents.yaml").read_bytes()


def cart(**changes: object) -> IntentDraft:
    draft = IntentDraft(
        id="CART-1",
        name="Shopping cart",
        description="Keep the cart.\nAcross sessions.",
        owned_scope=("src/cart/**", "tests/cart/**", "!src/cart/generated/**"),
        constraints=("No new dependencies",),
        acceptance_criteria=("tests/cart passes",),
        depends_on=("INT-001",),
    )
    return dataclasses.replace(draft, **changes)  # type: ignore[arg-type]


def test_a_new_intent_is_appended_with_the_file_s_comments_kept_and_recorded(root: Path) -> None:
    done = create_intent(state(root), cart(), by="alice")
    text = intents_bytes(root).decode()
    assert text.startswith(INTENTS_YAML)  # every byte before it, comments included, is kept
    assert "status: IN_PROGRESS   # being worked on" in text
    assert done.intent.id == "CART-1" and done.intent.status == "PENDING"
    assert done.intent.owned_scope == ["src/cart/**", "tests/cart/**", "!src/cart/generated/**"]
    assert done.intent.description == "Keep the cart.\nAcross sessions."
    record = records(root)[-1]
    assert record["event"] == "intent_created" and record["intent_id"] == "CART-1"
    assert record["reason"] == "created by alice"
    assert record["after"]["depends_on"] == ["INT-001"]  # type: ignore[index]
    assert state(root).policy.intent("CART-1") is not None


def test_a_new_intent_in_a_workspace_without_the_file_gets_init_s_header(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    create_intent(state(root), IntentDraft("A-1", "First", owned_scope=("src/**",)))
    create_intent(state(root), IntentDraft("A-2", "Second", status="IN_PROGRESS"))
    text = intents_bytes(root).decode()
    assert text.startswith("# Active intents: the pieces of work an agent may select")
    assert "#   depends_on           ids of intents this one waits for\nactive_intents:\n" in text
    policy = state(root).policy
    assert [(i.id, i.status) for i in policy.intents] == [
        ("A-1", "PENDING"),
        ("A-2", "IN_PROGRESS"),
    ]
    assert events(root) == ["intent_created", "intent_created"]


@pytest.mark.parametrize(
    ("draft", "named"),
    [
        (
            cart(id="INT-001"),
            "Intent 'INT-001' already exists (.orchestration/active_intents.yaml:3).",
        ),
        (cart(id="no spaces"), "Invalid intent id 'no spaces'"),
        (cart(owned_scope=("src/[cart",)), "Bad pattern 'src/[cart' in the owned_scope of CART-1"),
        (cart(owned_scope=(".orchestration/**",)), "names .orchestration, a protected path"),
        (cart(owned_scope=(".git/hooks/*",)), "names .git/hooks, a protected path"),
        (cart(depends_on=("INT-404",)), "Unknown intent 'INT-404' in the depends_on of CART-1"),
        (cart(depends_on=("CART-1",)), "CART-1 cannot depend on itself."),
        (cart(status="DONE"), "Unknown status 'DONE' for CART-1"),
        (cart(name="  "), "Intent CART-1 needs a name."),
        (cart(name="two\x1b[31m"), "The name of CART-1 holds a control character"),
    ],
)
def test_a_bad_value_refuses_the_whole_intent_naming_it(
    root: Path, draft: IntentDraft, named: str
) -> None:
    before = intents_bytes(root)
    with pytest.raises(ValidationError) as refused:
        create_intent(state(root), draft)
    assert named in str(refused.value)
    assert refused.value.exit_code == 2
    assert intents_bytes(root) == before
    assert records(root) == []


def test_every_problem_is_listed_for_the_form(root: Path) -> None:
    draft = cart(id="INT-001", status="DONE", owned_scope=("[",))
    problems = check_draft(state(root).policy, draft)
    assert [problem.split(" ")[0] for problem in problems] == [
        "Intent",
        "Unknown",
        "Bad",
        "INT-001",
    ]
    assert problems[-1] == "INT-001 cannot depend on itself."
    with pytest.raises(DraftError) as refused:
        create_intent(state(root), draft)
    assert refused.value.problems == problems
    assert str(refused.value).startswith(f"{problems[0]} (3 more: ")


def test_each_problem_names_the_field_it_is_about(root: Path) -> None:
    """The form marks the field a problem names (its ``field``), not a word found in it."""
    draft = cart(id="INT-001", status="DONE", owned_scope=("[",), name="owned_scope\x07")
    problems = check_draft(state(root).policy, draft)
    assert [problem.field for problem in problems] == [
        "id",
        "name",
        "status",
        "owned_scope",
        "depends_on",
    ]


def test_negated_and_whole_tree_patterns_are_not_flagged_as_protected(root: Path) -> None:
    done = create_intent(state(root), cart(owned_scope=("**", "!.orchestration/**", "*.md")))
    assert done.intent.owned_scope == ["**", "!.orchestration/**", "*.md"]


def test_scope_patterns_are_added_and_removed_in_place(root: Path) -> None:
    done = change_scope(
        state(root), "INT-001", add=["docs/auth/**"], remove=["tests/auth/**"], by="bob"
    )
    assert done.changed == ("owned_scope",)
    text = intents_bytes(root).decode()
    assert 'owned_scope: ["src/auth/**", "!src/auth/legacy/**", "docs/auth/**"]' in text
    record = records(root)[-1]
    assert record["event"] == "intent_edited" and record["fields"] == ["owned_scope"]
    assert record["before"] == {
        "owned_scope": ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]
    }
    assert record["reason"] == "owned_scope +docs/auth/** -tests/auth/** by bob"


def test_a_scope_change_that_changes_nothing_writes_and_records_nothing(root: Path) -> None:
    before = intents_bytes(root)
    done = change_scope(state(root), "INT-001", add=["src/auth/**"])
    assert done.record is None and done.changed == ()
    assert intents_bytes(root) == before and records(root) == []


def test_removing_a_pattern_the_scope_lacks_is_refused_naming_it(root: Path) -> None:
    before = intents_bytes(root)
    with pytest.raises(DraftError, match=r"INT-001 has no pattern 'docs/\*\*' in its owned_scope"):
        change_scope(state(root), "INT-001", add=["src/x/**"], remove=["docs/**"])
    assert intents_bytes(root) == before


def test_an_unknown_intent_is_named_with_the_known_ones(root: Path) -> None:
    with pytest.raises(ValidationError, match=r"Unknown intent 'INT-00'\. Known intents: INT-001"):
        change_scope(state(root), "INT-00", add=["x/**"])


def test_updating_records_the_fields_changed_and_keeps_the_rest(root: Path) -> None:
    current = state(root).policy.intent("INT-002")
    assert current is not None
    draft = dataclasses.replace(
        IntentDraft.of(current),
        name="Docs refresh",
        status="IN_PROGRESS",
        constraints=("Be brief",),
    )
    done = update_intent(state(root), "INT-002", draft, by="carol")
    assert done.changed == ("name", "status", "constraints")
    text = intents_bytes(root).decode()
    assert "    name: Docs refresh\n    status: IN_PROGRESS   # nobody started it\n" in text
    record = records(root)[-1]
    assert record["event"] == "intent_edited"
    assert record["before"] == {
        "name": "Documentation Refresh",
        "status": "PENDING",
        "constraints": [],
    }
    assert record["after"] == {
        "name": "Docs refresh",
        "status": "IN_PROGRESS",
        "constraints": ["Be brief"],
    }


def test_an_intent_s_id_cannot_change(root: Path) -> None:
    current = state(root).policy.intent("INT-002")
    assert current is not None
    with pytest.raises(
        DraftError, match=r"The id of an intent cannot change \(INT-002 -> INT-XYZ\)"
    ):
        update_intent(
            state(root), "INT-002", dataclasses.replace(IntentDraft.of(current), id="INT-XYZ")
        )


def test_an_update_equal_to_the_intent_writes_nothing(root: Path) -> None:
    current = state(root).policy.intent("INT-001")
    assert current is not None
    before = intents_bytes(root)
    assert update_intent(state(root), "INT-001", IntentDraft.of(current)).record is None
    assert intents_bytes(root) == before and records(root) == []


def test_an_invalid_file_is_never_edited(root: Path) -> None:
    path = root / ".orchestration" / "active_intents.yaml"
    path.write_text(INTENTS_YAML.replace("status: BLOCKED", "status: DONE"), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(
        ValidationError, match="Orchestration state unavailable: .*unknown status 'DONE'"
    ):
        create_intent(state(root), cart())
    assert path.read_bytes() == before


# -- the act and its record stand or fall together ---------------------------------------------


def break_ledger(root: Path) -> None:
    """The ledger replaced by a directory: nothing can be appended (no chmod: CI is root)."""
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    if ledger.exists():
        ledger.unlink()
    ledger.mkdir()


@pytest.mark.parametrize(
    "act",
    [
        lambda root: create_intent(state(root), cart()),
        lambda root: change_scope(state(root), "INT-001", add=["docs/**"]),
        lambda root: update_intent(
            state(root), "INT-002", IntentDraft("INT-002", "Renamed", owned_scope=("*.md",))
        ),
    ],
    ids=["create", "scope", "update"],
)
def test_an_authoring_act_that_cannot_be_recorded_changes_nothing(root: Path, act) -> None:  # type: ignore[no-untyped-def]
    break_ledger(root)
    before = intents_bytes(root)
    with pytest.raises(UnrecordedAct) as refused:
        act(root)
    assert refused.value.exit_code == 2
    assert "was not done: it could not be recorded." in str(refused.value)
    assert "it is a directory" in str(refused.value)
    assert intents_bytes(root) == before
    leftovers = [p.name for p in (root / ".orchestration").iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


# -- the form's preview ------------------------------------------------------------------------


def test_the_preview_counts_files_names_a_few_and_flags_patterns(root: Path) -> None:
    for name in ("src/cart/a.py", "src/cart/b.py", "src/cart/generated/g.py", "README.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n")
    preview = preview_scope(
        str(root),
        ["src/cart/**", "!src/cart/generated/**", "*.md", "docs/new/**", ".orchestration/**", "[x"],
        policy=state(root).policy,
    )
    assert preview.count == 3 and preview.complete
    assert preview.sample == ("README.md", "src/cart/a.py", "src/cart/b.py")
    assert preview.flags == (
        "'docs/new/**' covers no file yet",
        "'.orchestration/**' names .orchestration, which agents never write",
        "'[x': a '[' is never closed (git discards such a pattern)",
    )
    assert preview.summary() == "3 files: README.md, src/cart/a.py, src/cart/b.py"


def test_the_preview_never_counts_protected_files_and_bounds_its_walk(root: Path) -> None:
    (root / "many").mkdir()
    for index in range(50):
        (root / "many" / f"f{index:02}.txt").write_text("x")
    everything = preview_scope(str(root), ["**"])
    assert everything.complete
    assert not any(path.startswith((".orchestration", ".paw")) for path in everything.sample)
    assert everything.count == 50  # only many/: .orchestration/ and .paw/ hold nothing writable
    bounded = preview_scope(str(root), ["**"], max_entries=10)
    assert not bounded.complete and bounded.scanned == 10
    assert bounded.summary().startswith("at least ")
