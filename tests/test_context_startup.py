"""``paw-tui context`` starts without ``re``, ``argparse`` and their dependencies (DESIGN §10).

Counts, never timings: which modules the fast path loads, and proofs that the ``re``-free
checks standing in for regular expressions accept and refuse exactly what the patterns did.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paw_tui.core.context import format as fmt
from paw_tui.core.context.tool import validate_request
from paw_tui.core.errors import ValidationError

REPO = str(Path(__file__).resolve().parents[1])
# Each costs start-up time the command's budget cannot afford; ``re`` alone (with enum,
# functools, collections) is about half a ``python -c pass``.
NOT_ON_THE_FAST_PATH = (
    "re",
    "enum",
    "argparse",
    "gettext",
    "shutil",
    "types",
    "json",
    "typing",
    "dataclasses",
    "pathlib",
)
TAG_PATTERN = re.compile(fmt._TAG_START, re.IGNORECASE)
OLD_WORK_ID = re.compile(r"[a-z0-9-]+")


def _modules_loaded_by_context(root: Path, home: Path, *extra: str) -> set[str]:
    # -S: no site-packages, so no editable-install finder (which imports re) runs first;
    # the package comes from the checkout through PYTHONPATH.
    probe = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from paw_tui.cli import main\n"
        f"rc = main(['context', 'auth-system', '--agent', 'Planner', *{list(extra)!r}])\n"
        "sys.stdout.flush()\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)), file=sys.stderr)\n"
        "sys.exit(rc)\n"
    )
    env = dict(os.environ, PYTHONPATH=REPO, PAW_USER_HOME=str(home))
    env.pop("PAW_WORKSPACE_PATH", None)
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "<workspace_instructions>" in done.stdout  # the probe really ran the command
    return set(done.stderr.split())


def test_context_fast_path_imports_no_re_argparse_or_typing(tmp_path: Path) -> None:
    root, home = tmp_path / "ws", tmp_path / "home"
    (root / ".paw" / "work" / "auth-system").mkdir(parents=True)
    (root / ".paw" / "instructions").mkdir()
    (root / ".paw" / "instructions" / "Planner-instructions.md").write_text(
        "# Rules\n- compare `a < b`; <code>x</code>, <p>, <contexts> and <div> are not ours\n"
    )
    (root / ".paw" / "work" / "auth-system" / "WorkflowContext.md").write_text(
        "Work ID: auth-system\n```\ncode\n```\n"
    )
    loaded = _modules_loaded_by_context(root, home)
    assert "paw_tui.commands.context" in loaded
    assert not loaded & set(NOT_ON_THE_FAST_PATH), sorted(loaded & set(NOT_ON_THE_FAST_PATH))


def test_the_fold_table_is_what_ignorecase_matches() -> None:
    """Every code point: the characters re.IGNORECASE matches to a letter of one of our names
    are exactly that letter in both cases plus EXTRA_FOLDS (the Kelvin sign, the long s, the
    dotted and dotless i), and ``\\s`` is exactly ``str.isspace``. ``may_hold_tag`` relies
    on both."""
    letters = sorted(set("".join(fmt.SECTION_NAMES)))
    any_letter = re.compile("(?i)(?:" + "|".join(letters) + ")")
    space = re.compile(r"\s")
    candidates = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if any_letter.match(char):
            candidates.append(char)
        assert bool(space.match(char)) == char.isspace(), hex(code)
    for letter in letters:
        matched = {char for char in candidates if re.fullmatch("(?i)" + letter, char)}
        expected = {letter, letter.upper(), *fmt.EXTRA_FOLDS.get(letter, "")}
        assert matched == expected, letter


# Pieces, not characters, so tags (and near misses) turn up often.
TAGGY = st.lists(
    st.sampled_from(
        list("<>/\\ \t\n\x0b\x1c\u00a0\u2028 `xX")
        + list("contexprdwkaiuslg_CONTEXPRDWKAIUSLG")
        + ["\u212a", "\u017f", "\u0130", "\u0131", "é"]
        + list(fmt.SECTION_NAMES)
        + ["<warning", "</ User_Instructions", "<\\\\context>", "< /\\\\precedence"]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(TAGGY)
def test_may_hold_tag_is_a_necessary_condition_of_the_pattern(text: str) -> None:
    assert fmt.may_hold_tag(text) or TAG_PATTERN.search(text) is None
    assert fmt.neutralise_tags(text) == TAG_PATTERN.sub("<\\\\", text)
    assert fmt.restore_tags(fmt.neutralise_tags(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("`ab\n")), max_size=40))
def test_fence_for_matches_the_longest_backtick_run(text: str) -> None:
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    assert fmt.fence_for(text) == "`" * max(3, longest + 1)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("az09-_A.é\u0131 /\u212a")), min_size=1, max_size=12))
def test_work_id_check_accepts_exactly_what_the_pattern_did(slug: str) -> None:
    expected = bool(slug.strip()) and OLD_WORK_ID.fullmatch(slug.strip()) is not None
    try:
        validate_request(slug, "Agent")
    except ValidationError:
        accepted = False
    else:
        accepted = True
    assert accepted == expected
