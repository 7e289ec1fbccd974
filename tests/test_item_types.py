"""Ordering, matching and case studies in `qlint check` (issue 13): each rule declares the item
types it applies to and the engine runs it only on those; bank rules count the new types."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from kit.authoring import run
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


# --- case study files -------------------------------------------------------------------------


def _case_bank(tmp_path):
    """The sample bank with the fixtures in it: ordering, matching, a case study and its two questions."""
    bank = tmp_path / "bank"
    shutil.copytree(REPO / "bank", bank)
    folder = bank / "mla-c01"
    (folder / "cases").mkdir(exist_ok=True)
    shutil.copy(TYPES / "cases" / "fraud-scoring.yaml", folder / "cases" / "fraud-scoring.yaml")
    for f in FIXTURES:
        shutil.copy(f, folder / ("monitoring-security" if f.name == "matching.yaml" else "deployment-orchestration") / f.name)
    return bank


def test_a_case_file_is_validated_against_the_case_schema(in_repo, tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "bad.yaml").write_text("format: 1\nid: Bad Id\nexam: MLA-C01\ndomain: model-development\n"
                                     "scenaro: A retailer.\nitems: []\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "S", str(folder / "bad.yaml"))
    assert code == 1
    lines = [ln.split(" (")[0] for ln in out.splitlines() if " S001 " in ln]
    assert [ln.split(": S001 ")[0].rsplit(":", 2)[1:] for ln in lines] == [["1", "1"], ["2", "5"], ["5", "1"], ["6", "8"]]
    assert "unknown field 'scenaro'; did you mean 'scenario'?" in out and "missing required field 'scenario'" in out


def test_a_case_file_names_a_known_exam_and_domain(in_repo, tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    text = _fixture("cases/fraud-scoring.yaml").replace("domain: deployment-orchestration", "domain: deploy")
    (folder / "c.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "S", str(folder / "c.yaml"))
    assert code == 1 and ":5:9: S003 'deploy' is not a domain of MLA-C01" in out, out


def test_the_text_rules_read_a_case_file_and_no_other_item_rule_does(in_repo, tmp_path, capsys):
    """The scenario reaches learners: hidden characters and trailing spaces in it are reported
    (rules declared with `cases=True`), while a question rule such as the negative stem is not run."""
    folder = tmp_path / "cases"
    folder.mkdir()
    text = _fixture("cases/fraud-scoring.yaml").replace(
        "model artifact is in Amazon S3.", "model artifact is NOT in Amazon\u200b S3.   ")
    (folder / "c.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "ALL", str(folder / "c.yaml"))
    assert {c for c in _codes(out) if c[0] in "FT"} == {"F001", "F003"}, out
    assert {r.code for _c, r in RULES.items() if r.cases} == {"F001", "F002", "F003", "F004", "S004", "S007"}


def test_an_editor_note_in_a_case_scenario_is_reported(in_repo, tmp_path, capsys):
    """F004 reads case files too: the scenario reaches learners like a stem does."""
    folder = tmp_path / "cases"
    folder.mkdir()
    text = _fixture("cases/fraud-scoring.yaml").replace(
        "model artifact is in Amazon S3.", "model artifact is in Amazon S3. [Note to editor: check the bucket name.]")
    (folder / "c.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--select", "F004", str(folder / "c.yaml"))
    assert code == 1 and _codes(out) == ["F004"], out


def test_cases_and_their_questions_name_each_other(in_repo, tmp_path, capsys):
    """The sample bank stays clean with questions of every type and a case study in it (no B006
    twin, B003 count or B008 coverage moves); a case that drops a question is caught both ways."""
    bank = _case_bank(tmp_path)
    code, out, err = run(capsys, "check", "--no-cache", str(bank))
    assert code == 0, out + err
    case = bank / "mla-c01" / "cases" / "fraud-scoring.yaml"
    case.write_text(case.read_text(encoding="utf-8").replace("  - types-case-fraud-approval-order\n", ""),
                    encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--ignore", "B008", str(bank))
    assert code == 1
    found = sorted((ln.split(": ")[0].rsplit("/", 1)[1], ln.split(" ")[1]) for ln in out.splitlines() if ": B0" in ln)
    assert found == [("case-ordering.yaml:6:7", "B011"), ("fraud-scoring.yaml:19:3", "B009")], out


def test_case_entries_come_from_the_cache(tmp_path, monkeypatch):
    """The bank rules read a case file from the cache when its bytes are unchanged, like a question."""
    from qlint.lint.engine import lint, make_settings
    from qlint.lint.runner import RunOptions
    from qlint.cli.config import load_config

    bank = _case_bank(tmp_path)
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    case = bank / "mla-c01" / "cases" / "fraud-scoring.yaml"
    case.write_text(case.read_text(encoding="utf-8").replace("types-case-fraud-endpoint-type", "no-such-question"),
                    encoding="utf-8")
    single = bank / "mla-c01" / "deployment-orchestration" / "case-single.yaml"
    options = RunOptions(tmp_path / "cache", jobs=1)

    def codes():
        result = lint([str(single)], make_settings(load_config(tmp_path)), options)
        return result, sorted(d.code for d in result.diagnostics)

    first, got = codes()
    assert got == ["B011"]  # the case (context, read for the bank rules) no longer lists it
    single.write_text(single.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    second, got = codes()
    assert got == ["B011"] and str(case) in second.checker.hits


def test_case_entries_round_trip_through_the_cache_codec():
    from qlint.bank.entry import CaseEntry, entry_from_plain, plain_entry
    from qlint.lint import cache_codec

    entry = CaseEntry.of("bank/x/cases/c.yaml", yaml.safe_load(_fixture("cases/fraud-scoring.yaml")))
    back = entry_from_plain(cache_codec.load_entry(cache_codec.dump_entry(plain_entry(entry))))
    assert isinstance(back, CaseEntry) and back == entry and back.items == ("types-case-fraud-endpoint-type",
                                                                            "types-case-fraud-approval-order")
    with pytest.raises(cache_codec.Malformed):
        cache_codec.load_entry(b'{"case": ["p", "i", "e", "d", [1]]}')


def test_format_puts_a_case_file_in_canonical_order_and_keeps_comments(in_repo, tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    path = folder / "c.yaml"
    path.write_text("items: [b-item-one, a-item-two]  # asked in this order\nscenario: |\n  A retailer.\n"
                    "id: abc-case\n# the exam\nexam: MLA-C01\nformat: 1\ndomain: model-development\n", encoding="utf-8")
    code, _, err = run(capsys, "format", str(path))
    assert code == 0, err
    assert path.read_text(encoding="utf-8") == (
        "format: 1\nid: abc-case\n# the exam\nexam: MLA-C01\ndomain: model-development\n\nscenario: |\n  A retailer.\n\n"
        "items:  # asked in this order\n  - b-item-one\n  - a-item-two\n")
    code, out, _ = run(capsys, "format", "--check", str(path))
    assert code == 0, out


def test_export_carries_the_case_studies(in_repo, tmp_path, capsys, monkeypatch):
    from qlint.exporters import ExportResult, Exporter
    from qlint.exporters import pipeline

    seen = {}

    def capture(job):
        seen["cases"], seen["questions"] = job.cases, [q.id for q in job.questions]
        return ExportResult()

    class Only:
        def get(self, name):
            return Exporter(name, "capture", capture)

    monkeypatch.setattr(pipeline, "EXPORTERS", Only())
    code, out, err = run(capsys, "export", "-f", "json", "-o", str(tmp_path / "out.json"), str(TYPES))
    assert code == 0, out + err
    assert list(seen["cases"]) == ["types-case-fraud-scoring"]
    assert seen["cases"]["types-case-fraud-scoring"].items == ["types-case-fraud-endpoint-type",
                                                               "types-case-fraud-approval-order"]
    assert len(seen["questions"]) == 4  # the case file is no question


# --- authoring --------------------------------------------------------------------------------


def test_format_orders_steps_prompts_and_responses_and_keeps_comments(in_repo, tmp_path, capsys):
    text = _fixture("matching.yaml")
    messy = text.replace(
        "  - id: input-drift\n    text: Detect that live input features have drifted from the training baseline\n"
        "    match: model-monitor\n",
        "  # the drift pair\n  - match: model-monitor  # Model Monitor\n    id: input-drift\n"
        "    text: Detect that live input features have drifted from the training baseline\n")
    messy = messy.replace("  - id: clarify\n    text: SageMaker Clarify\n", "  - text: SageMaker Clarify\n    id: clarify\n")
    messy = messy.replace("\n\n  - id: explain-prediction", "\n  - id: explain-prediction")  # no blank between pairs
    assert messy != text
    path = tmp_path / "matching.yaml"
    path.write_text(messy, encoding="utf-8")
    code, _, err = run(capsys, "format", str(path))
    assert code == 0, err
    want = text.replace("  - id: input-drift\n", "  # the drift pair\n  - id: input-drift\n").replace(
        "    match: model-monitor\n", "    match: model-monitor  # Model Monitor\n", 1)
    assert path.read_text(encoding="utf-8") == want


def test_shuffle_leaves_ordering_and_matching_questions_alone(in_repo, tmp_path, capsys, monkeypatch):
    bank = _case_bank(tmp_path)
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = {p: p.read_bytes() for p in bank.rglob("*.yaml")}
    code, _, err = run(capsys, "shuffle", "--seed", "7", "bank")
    assert code == 0, err
    others = [p for p in before if re.search(r"(?m)^type: (?:ordering|matching)$", p.read_text(encoding="utf-8"))]
    assert len(others) >= 3
    assert (f"{len(others)} ordering or matching question(s) not shuffled: an ordering question's steps are listed "
            "in key order") in err
    changed = [p for p, b in before.items() if p.read_bytes() != b]
    assert not set(others) & set(changed) and (bank / "mla-c01" / "cases" / "fraud-scoring.yaml") not in changed
