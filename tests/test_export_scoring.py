"""Multiple-response credit is one choice (`--scoring all-or-nothing|partial`, or `[export] scoring`
in the configuration) that every exporter which scores honours, read back with each target's
reader: QTI (pyslet, tests/test_export_qti_readers.py; the real player, tests/test_qti_player.py),
Canvas (its QTI 1.2 response conditions run below as the QTI 1.2 spec reads them), Moodle XML
(moodle-xml-parser), GIFT (gift_reference, which follows Moodle's import), the HTML site
(tests/test_html_browser.py) and JSON (the export schema).

Partial is Moodle's grading: each key 1/k, each distractor -1/m (k keys, m distractors), the
total kept in 0..1. All-or-nothing: the point only for every key and no distractor.
"""

from __future__ import annotations

import json
import shutil
from itertools import combinations, permutations, product

import pytest
import yaml
from jsonschema import Draft202012Validator
from lxml import etree
from moodle_xml_parser.parser import parse_file

from kit import gift_reference
from conftest import REPO
from kit.export import shown, export, load_questions, read_package, xml
from qlint.cli import main
from qlint.model import Question

Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"


@pytest.fixture(scope="module")
def sample():
    return load_questions(REPO)


def _multiple(questions):
    return [q for q in questions if q.type == "multiple"]


def _expected(q, chosen: set[str], scoring: str) -> float:
    keys = {o.id for o in q.keys}
    if chosen == keys:
        return 1.0
    if scoring == "all-or-nothing":
        return 0.0
    k, m = len(keys), len(q.options) - len(keys)
    return max(0.0, min(1.0, sum(1 / k if c in keys else -1 / m for c in chosen)))


def _answers(q):
    """Every non-empty set of chosen options (at most 10 options: at most 1,023 sets)."""
    ids = [o.id for o in q.options]
    return [set(c) for n in range(1, len(ids) + 1) for c in combinations(ids, n)]


# -- Canvas: QTI 1.2 response processing as the spec runs it ----------------------------------

def _holds(cond: etree._Element, chosen: set[str]) -> bool:
    name = etree.QName(cond).localname
    if name == "other":
        return True
    if name == "varequal":
        return cond.text in chosen
    if name == "not":
        return not _holds(cond[0], chosen)
    if name == "and":
        return all(_holds(c, chosen) for c in cond)
    if name == "or":
        return any(_holds(c, chosen) for c in cond)
    raise AssertionError(f"unexpected condition {name}")


def _canvas_score(item: etree._Element, chosen: set[str]) -> float:
    decvar = item.find(f".//{Q}decvar")
    score = 0.0
    for rc in item.iter(f"{Q}respcondition"):
        if all(_holds(c, chosen) for c in rc.find(f"{Q}conditionvar")):
            for sv in rc.iter(f"{Q}setvar"):
                score = float(sv.text) if sv.get("action") == "Set" else score + float(sv.text)
            if rc.get("continue") == "No":
                break
    score = max(float(decvar.get("minvalue")), min(float(decvar.get("maxvalue")), score))
    return score / float(decvar.get("maxvalue"))


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_canvas_scores_every_answer_as_chosen(sample, tmp_path, scoring):
    questions, exams, bank = sample
    export("canvas", questions, exams, bank, tmp_path / "c.zip", scoring=scoring)
    files = read_package(tmp_path / "c.zip")
    quiz = next(n for n in files if n.endswith(".xml") and n.split("/")[0] == n.split("/")[-1][:-4])
    items = {i.get("ident"): i for i in xml(files[quiz]).iter(f"{Q}item")}
    for q in questions:
        for chosen in _answers(q) if q.type == "multiple" else [{o.id} for o in q.options]:
            got = _canvas_score(items[q.id], {f"{q.id}_{c}" for c in chosen})
            assert got == pytest.approx(_expected(q, chosen, scoring), abs=1e-4), (q.id, chosen)


# -- Moodle XML and GIFT -------------------------------------------------------------------------

def test_moodle_partial_gives_moodle_fractions(sample, tmp_path):
    questions, exams, bank = sample
    export("moodle", questions, exams, bank, tmp_path / "m.xml", scoring="partial")
    read = {r.name: r for r in parse_file(str(tmp_path / "m.xml"))["multichoice"]}
    for q in _multiple(questions):
        fractions = [o.score_fraction / 100 for o in read[q.id].options]
        for chosen in _answers(q):  # Moodle adds the chosen fractions and keeps the total in 0..1
            got = max(0.0, min(1.0, sum(f for f, o in zip(fractions, q.options) if o.id in chosen)))
            assert got == pytest.approx(_expected(q, chosen, "partial"), abs=1e-4), (q.id, chosen)


def test_moodle_all_or_nothing_uses_the_all_or_nothing_question_type(sample, tmp_path, in_repo):
    questions, exams, bank = sample
    result = export("moodle", questions, exams, bank, tmp_path / "m.xml", scoring="all-or-nothing")
    root = etree.parse(str(tmp_path / "m.xml")).getroot()
    types = {el.findtext("name/text"): el.get("type") for el in root.iter("question") if el.get("type") != "category"}
    assert {qid for qid, t in types.items() if t == "multichoiceset"} == {q.id for q in _multiple(questions)}
    singles = {q.id for q in questions if q.is_choice and q not in _multiple(questions)}
    assert all(types[qid] == "multichoice" for qid in singles)  # (ordering and matching have types of their own)
    for el in root.iter("question"):
        if el.get("type") == "multichoiceset":
            q = next(q for q in questions if q.id == el.findtext("name/text"))
            assert [a.get("fraction") for a in el.iter("answer")] == ["100" if o.correct else "0" for o in q.options]
            assert el.find("single") is None
    assert any("multichoiceset" in w and "plugin" in w for w in shown(result))
    # single-response questions are the same under either choice
    read = {r.name: r for r in parse_file(str(tmp_path / "m.xml"))["multichoice"]}
    assert set(read) == {q.id for q in questions if q.type == "single"}
    # qlint's own importer reads the all-or-nothing type back as multiple response
    assert main(["import", "--from", "moodle", "-o", str(tmp_path / "back"), str(tmp_path / "m.xml")]) == 0
    back = [p.read_text(encoding="utf-8") for p in (tmp_path / "back").rglob("*.yaml")]
    assert len(back) == len(questions) and sum("type: multiple" in t for t in back) == len(_multiple(questions))


def test_gift_partial_weights_and_all_or_nothing_refused(sample, tmp_path, in_repo, capsys):
    questions, exams, bank = sample
    export("gift", questions, exams, bank, tmp_path / "q.gift", scoring="partial")
    read = {r.name: r for r in gift_reference.read((tmp_path / "q.gift").read_text(encoding="utf-8"))}
    for q in _multiple(questions):
        weights = [a.fraction / 100 for a in read[q.id].answers]
        for chosen in _answers(q):
            got = max(0.0, min(1.0, sum(w for w, o in zip(weights, q.options) if o.id in chosen)))
            assert got == pytest.approx(_expected(q, chosen, "partial"), abs=1e-4), (q.id, chosen)
    # GIFT has no all-or-nothing multiple response: refused, nothing written, the file named
    out = tmp_path / "aon.gift"
    assert main(["export", "-f", "gift", "-o", str(out), "--scoring", "all-or-nothing"]) == 2
    err = capsys.readouterr().err
    assert "cannot score a multiple-response question all-or-nothing" in err and ".yaml:" in err
    assert not out.exists()


# -- JSON, and the choice itself -----------------------------------------------------------------

@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_json_records_the_scoring_and_credits(sample, tmp_path, scoring):
    questions, exams, bank = sample
    export("json", questions, exams, bank, tmp_path / "b.json", scoring=scoring)
    doc = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    schema = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(doc)) == []
    records = {r["id"]: r for r in doc["questions"]}
    for q in questions:
        record = records[q.id]
        partial = scoring == "partial" and q.type == "multiple"
        assert record["scoring"] == ("partial" if partial else "all-or-nothing")
        if not partial:
            assert record["credits"] is None
            continue
        for chosen in _answers(q):
            got = max(0.0, min(1.0, sum(record["credits"][c] for c in chosen)))
            assert got == pytest.approx(_expected(q, chosen, "partial"), abs=1e-4), (q.id, chosen)


def _arrange_answers(q):
    """Every answer to an ordering (a sequence of distinct steps, one per keyed place) or a matching
    question (a response for each prompt), as (place or prompt, chosen id) pairs."""
    if q.type == "ordering":
        places = range(len(q.key_order))
        return [list(zip(places, seq)) for seq in permutations([s.id for s in q.steps], len(places))]
    return [list(zip([p.id for p in q.prompts], pick)) for pick in product([r.id for r in q.responses], repeat=len(q.prompts))]


def _check_arrange_credits(q, record, scoring: str) -> None:
    """The JSON credits give what QTI and Moodle give: all or nothing, or under partial 1/n per keyed
    step in its own place (Moodle's absolute position) or per prompt paired right."""
    assert record["scoring"] == scoring
    if scoring == "all-or-nothing":
        assert record["credits"] is None
        return
    key = dict(enumerate(s.id for s in q.key_order)) if q.type == "ordering" else {p.id: p.match for p in q.prompts}
    for answer in _arrange_answers(q):
        right = [(at, got) for at, got in answer if key[at] == got]
        credited = [got if q.type == "ordering" else at for at, got in right]
        assert sum(record["credits"][c] for c in credited) == pytest.approx(len(right) / len(key), abs=1e-6), (q.id, answer)


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_json_credits_of_ordering_and_matching_follow_the_choice(tmp_path, scoring):
    _, exams, bank = load_questions(REPO)
    files = [(p, yaml.safe_load(p.read_text(encoding="utf-8"))) for p in sorted(bank.glob("*/*/*.yaml"))]
    arranged = [Question(str(p), d) for p, d in files if d.get("type") in ("ordering", "matching")]
    assert {q.type for q in arranged} == {"ordering", "matching"}
    export("json", arranged, exams, bank, tmp_path / "b.json", scoring=scoring)
    records = {r["id"]: r for r in json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["questions"]}
    for q in arranged:
        _check_arrange_credits(q, records[q.id], scoring)


def _json_scoring(tmp_path, *flags: str) -> set[str]:
    out = tmp_path / "s.json"
    assert main(["export", "-f", "json", "-o", str(out), *flags]) == 0
    return {r["scoring"] for r in json.loads(out.read_text(encoding="utf-8"))["questions"] if r["type"] == "multiple"}


def test_flag_and_config_key_choose_the_scoring(tmp_path, in_repo, monkeypatch):
    assert _json_scoring(tmp_path) == {"partial"}  # the default
    assert _json_scoring(tmp_path, "--scoring", "all-or-nothing") == {"all-or-nothing"}
    project = tmp_path / "p"
    shutil.copytree(REPO / "bank", project / "bank")  # a configured bank stays inside its project
    (project / "qlint.toml").write_text('[export]\nscoring = "all-or-nothing"\n', encoding="utf-8")
    monkeypatch.chdir(project)
    assert _json_scoring(tmp_path) == {"all-or-nothing"}
    assert _json_scoring(tmp_path, "--scoring", "partial") == {"partial"}  # the flag wins


def test_unknown_scoring_is_a_usage_or_config_error(tmp_path, in_repo, monkeypatch, capsys):
    assert main(["export", "-f", "json", "-o", str(tmp_path / "x.json"), "--scoring", "half"]) == 2
    assert "invalid choice: 'half'" in capsys.readouterr().err
    (tmp_path / "qlint.toml").write_text('[export]\nscoring = "half"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["export", "-f", "json", "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "qlint.toml:" in err and ": export.scoring:" in err and "Traceback" not in err
