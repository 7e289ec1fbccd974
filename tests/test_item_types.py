"""Ordering, matching and case studies in `qlint check` (issue 13): each rule declares the item
types it applies to and the engine runs it only on those; bank rules count the new types."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from authoring_helpers import run
from conftest import REPO
from qlint.bank.entry import BankEntry
from qlint.bank.similarity import near_duplicates
from qlint.model import CHOICE_TYPES, ITEM_TYPES
from qlint.rules import RULES, rule

TYPES = REPO / "tests" / "fixtures" / "types"
FIXTURES = sorted(TYPES.glob("*.yaml"))


def _fixture(name: str) -> str:
    return (TYPES / name).read_text(encoding="utf-8")


def _codes(out: str) -> list[str]:
    return re.findall(r": ([A-Z]\d{3}) ", out)


def test_every_rule_declares_item_types_among_the_known_ones():
    for code, r in RULES.items():
        assert r.types and set(r.types) <= set(ITEM_TYPES), code
    # option rules stay with the choice types; rules every question has a field for run on all
    assert RULES.get("K001").types == CHOICE_TYPES and RULES.get("O008").types == CHOICE_TYPES
    assert RULES.get("K003").types == ITEM_TYPES and RULES.get("T001").types == ITEM_TYPES
    assert RULES.get("B003").types == CHOICE_TYPES and RULES.get("B006").types == ITEM_TYPES


def test_a_rule_with_unknown_types_is_refused():
    with pytest.raises(ValueError, match="types must be among"):
        rule("Z999", "no-such-rule", "error", types=("essay",))(lambda q, ctx: iter(()))


@pytest.mark.parametrize("code, shown", [("K001", "Item types: single, multiple"),
                                         ("K003", "Item types: every type (single, multiple, ordering, matching)")])
def test_rule_docs_say_which_types_a_rule_applies_to(capsys, code, shown):
    code_, out, _ = run(capsys, "rule", code)
    assert code_ == 0 and shown in out.splitlines()


def test_the_fixtures_of_every_type_are_clean(in_repo, capsys):
    """Before the gating, option rules (K002, O008, K003's option test) fired on every
    ordering and matching question."""
    code, out, err = run(capsys, "check", "--no-cache", *map(str, FIXTURES))
    assert code == 0, out + err


def test_rules_for_every_type_still_fire_on_the_new_types(in_repo, tmp_path, capsys):
    text = _fixture("ordering.yaml").replace("Select and order THREE steps", "Which steps are not used? Order THREE steps")
    text = re.sub(r"(?ms)^trap: \|\n.*?\n\n", "", text)  # no trap
    path = tmp_path / "ordering.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "K,T,O", str(path))
    assert code == 1
    assert {"K003", "T001"} <= set(_codes(out)) and "O008" not in _codes(out) and "K002" not in _codes(out), out


def test_distractor_steps_say_when_they_would_be_right(in_repo, tmp_path, capsys):
    text = re.sub(r"(?m)^    right_when: \|\n(?:      .*\n)+", "", _fixture("ordering.yaml"))
    path = tmp_path / "ordering.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "K005", str(path))
    assert code == 1 and "distractor step 'batch-transform' does not say when" in out, out


def _entry(name: str, **changes) -> BankEntry:
    data = yaml.safe_load(_fixture(name))
    data.update(changes)
    return BankEntry.of(name, data)


def test_near_duplicates_compare_steps_prompts_and_responses_too():
    """Two ordering questions with one stem but other steps are not duplicates (the stem alone
    was compared before: Jaccard 1.0, an error at 0.8)."""
    a = _entry("ordering.yaml")
    steps = [{"id": f"s{i}", "text": t} for i, t in enumerate(
        ["Enable data capture on the endpoint", "Create a monitoring schedule with a baseline",
         "Review the violations report in Amazon S3", "Retrain the model on fresh labelled data"])]
    b = _entry("ordering.yaml", steps=steps)
    same = _entry("ordering.yaml", id="types-ordering-copy")
    assert near_duplicates([a, same], 0.5, [0]) == {0: [(1, 1.0)]}
    assert near_duplicates([a, b], 0.8, [0]) == {}  # the stem alone: 1.0


def test_key_position_figures_count_only_choice_questions():
    entries = [_entry("ordering.yaml"), _entry("matching.yaml")]
    assert all(e.single_key is None and e.option_count == 0 for e in entries)


def test_the_whole_sample_bank_stays_clean_with_the_fixtures_beside_it(in_repo, tmp_path, capsys):
    bank = tmp_path / "bank"
    shutil.copytree(REPO / "bank", bank)
    for f in FIXTURES:
        shutil.copy(f, bank / "mla-c01" / "deployment-orchestration" / f.name)
    code, out, err = run(capsys, "check", "--no-cache", "--ignore", "S003,B008", str(bank))
    assert code == 0, out + err
