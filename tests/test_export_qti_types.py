"""qti21 and qti30 exports of the item types beyond single/multiple (issue 13): ordering
(orderInteraction), matching (matchInteraction) and case studies (a 3.0 stimulus, a 2.1 passage in
each item). Each package is validated against the official schemas with both engines, its
manifest checked, read back by the documented mapping, and scored by pyslet, an independent QTI
engine, under both scoring choices."""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import pytest
import yaml
from lxml import etree

from conftest import REPO
from kit.export import (CASE_ID, CASE_ITEMS, MATCHING, ORDERING, export_types_package as run, fixtures, missing_from_package,
                       read_package, refused, resolve, unlisted_in_manifest, xml)
from qlint.model import Case, Question
from kit.qti_readback import comparable, expected, expected_case, read_item, read_stimulus
from kit.qti_readback import read_package as read_back
from kit.xsd import cp21_xsd, cp30_xsd, qti21_xsd, qti30_xsd  # noqa: F401  (session fixtures)

FORMATS = ("qti21", "qti30")


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """{(format, scoring): files} for the fixtures of every type."""
    out = {}
    for fmt in FORMATS:
        for scoring in ("all-or-nothing", "partial"):
            out[fmt, scoring] = run(tmp_path_factory.mktemp(f"{fmt}-{scoring}"), fmt, scoring=scoring)
    return out


def schemas(fmt, request):
    names = ("qti21_xsd", "cp21_xsd") if fmt == "qti21" else ("qti30_xsd", "cp30_xsd")
    return tuple(request.getfixturevalue(n) for n in names)


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_items_tests_stimulus_and_manifest_validate_with_both_engines(packages, fmt, scoring, request):
    files, _ = packages[fmt, scoring]
    item_xsd, cp_xsd = schemas(fmt, request)
    docs = sorted(n for n in files if n.endswith(".xml") and n != "imsmanifest.xml")
    expected_docs = [f"items/{q}.xml" for q in sorted([ORDERING, MATCHING, *CASE_ITEMS])] + ["tests/MLA-C01.xml"]
    expected_docs += [f"stimuli/{CASE_ID}.xml"] if fmt == "qti30" else []
    assert docs == sorted(expected_docs)
    problems = {n: item_xsd.errors(files[n]) for n in docs}
    problems["imsmanifest.xml"] = cp_xsd.errors(files["imsmanifest.xml"])
    assert {n: e for n, e in problems.items() if e} == {}


@pytest.mark.parametrize("fmt", FORMATS)
def test_negative_controls_for_the_new_elements_fail_in_both_engines(packages, fmt, request):
    files, _ = packages[fmt, "partial"]
    item_xsd, _cp = schemas(fmt, request)
    v3 = fmt == "qti30"
    order, match = files[f"items/{ORDERING}.xml"], files[f"items/{MATCHING}.xml"]
    broken = {
        "ordered is no cardinality name": order.replace(b'cardinality="ordered"', b'cardinality="sequence"', 1),
        "a match interaction needs two match sets": re.sub(rb"<(qti-simple-match-set|simpleMatchSet)>.*?</\1>", b"",
                                                           match, count=1, flags=re.S),
        "matchMax is required": re.sub(rb' match-?[mM]ax="1"', b"", match, count=1),
    }
    if v3:
        stimulus = files[f"stimuli/{CASE_ID}.xml"]
        broken["a stimulus needs a title"] = re.sub(rb' title="[^"]*"', b"", stimulus, count=1)
        broken["a stimulus-ref needs an href"] = re.sub(rb'(<qti-assessment-stimulus-ref[^>]*) href="[^"]*"', rb"\1",
                                                        files[f"items/{CASE_ITEMS[1]}.xml"], count=1)
    for what, doc in broken.items():
        assert len(item_xsd.errors(doc)) == 2, what  # one from lxml, one from xmlschema


@pytest.mark.parametrize("fmt", FORMATS)
def test_documented_mapping_reads_every_field_back(packages, fmt):
    files, _ = packages[fmt, "partial"]
    questions, cases, _ = fixtures()
    read = read_back(files)
    assert sorted(read) == sorted(q.id for q in questions)
    for q in questions:
        assert comparable(read[q.id]) == expected(q, case=cases.get(q.case or "")), q.id
    assert read[ORDERING]["steps"][-1]["right_when"].startswith("Predictions are needed")  # a distractor step's
    assert read[MATCHING]["responses"][-1]["rationale"].startswith("Ground Truth labels data")  # a surplus response's


@pytest.mark.parametrize("fmt", FORMATS)
def test_key_order_comes_from_the_steps_never_from_the_order_they_are_shown(packages, fmt, tmp_path):
    item = read_item(packages[fmt, "partial"][0][f"items/{ORDERING}.xml"])
    assert item["key_order"] == ["create-model", "create-endpoint-config", "create-endpoint"]
    assert item["select"] == (3, 3) and "batch-transform" in item["presented"]
    shown_keys = [s for s in item["presented"] if s in item["key_order"]]
    assert shown_keys != item["key_order"]  # an unshuffled player must not show the answer
    # Over many ids (seeds) the key stays put and the listed order never gives it away.
    base, _, _ = fixtures()
    q = next(q for q in base if q.id == ORDERING)
    variants = [Question(q.path, {**q.data, "id": f"types-ordering-{n}", "shuffle": False}) for n in range(40)]
    files, _ = run(tmp_path, fmt, questions=variants, cases={})
    for v in variants:
        read = read_item(files[f"items/{v.id}.xml"])
        assert read["key_order"] == item["key_order"] and read["shuffle"] is False
        assert [s for s in read["presented"] if s in read["key_order"]] != read["key_order"], v.id
    assert len({tuple(read_item(files[f"items/{v.id}.xml"])["presented"]) for v in variants}) > 3


@pytest.mark.parametrize("fmt", FORMATS)
def test_shuffle_follows_the_job_and_the_question(tmp_path, fmt):
    questions, _, _ = fixtures()
    files, _ = run(tmp_path, fmt)
    assert {read_item(files[f"items/{i}.xml"])["shuffle"] for i in (ORDERING, MATCHING)} == {True}
    files, _ = run(tmp_path, fmt, shuffle=False)  # --no-shuffle
    assert {read_item(files[f"items/{i}.xml"])["shuffle"] for i in (ORDERING, MATCHING)} == {False}
    pinned = [Question(q.path, {**q.data, "shuffle": False}) if q.id == MATCHING else q for q in questions]
    files, _ = run(tmp_path, fmt, questions=pinned)
    assert read_item(files[f"items/{MATCHING}.xml"])["shuffle"] is False
    assert read_item(files[f"items/{ORDERING}.xml"])["shuffle"] is True


def _section(test: etree._Element, identifier: str) -> etree._Element:
    return next(el for el in test.iter() if isinstance(el.tag, str) and el.get("identifier") == identifier
                and etree.QName(el).localname in ("assessmentSection", "qti-assessment-section"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_case_items_share_one_section_and_the_3_0_stimulus_is_listed_and_depended_on(packages, fmt):
    files, warnings_ = packages[fmt, "partial"]
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []
    test = xml(files["tests/MLA-C01.xml"])
    domain = _section(test, "domain_deployment-orchestration")
    case = _section(test, f"case_{CASE_ID}")
    assert case.getparent() is domain and case.get("title") == "Fraud scoring for card payments"
    assert [ref.get("identifier") for ref in case] == CASE_ITEMS  # the case's own order
    refs = [el.get("identifier") for el in test.iter() if isinstance(el.tag, str) and el.get("href")]
    assert sorted(refs) == sorted([ORDERING, MATCHING, *CASE_ITEMS])  # every item once
    manifest = xml(files["imsmanifest.xml"])
    ns = etree.QName(manifest).namespace
    resources = {r.get("identifier"): r for r in manifest.iter(f"{{{ns}}}resource")}
    deps = {i: [d.get("identifierref") for d in r.iter(f"{{{ns}}}dependency")] for i, r in resources.items()}
    _, cases, _ = fixtures()
    if fmt == "qti30":
        stimulus = resources[f"stimulus_{CASE_ID}"]
        assert stimulus.get("type") == "imsqti_stimulus_xmlv3p0" and stimulus.get("href") == f"stimuli/{CASE_ID}.xml"
        assert {i for i, d in deps.items() if f"stimulus_{CASE_ID}" in d} == {f"item_{i}" for i in CASE_ITEMS}
        assert read_stimulus(files[stimulus.get("href")]) == expected_case(cases[CASE_ID])
        for i in CASE_ITEMS:  # the scenario is written once, not in the items
            assert b"qlint-scenario" not in files[f"items/{i}.xml"]
            # the place a player shows it in (SBAC's data-stimulus-idref), a link to it for any other player
            places = [el for el in xml(files[f"items/{i}.xml"]).iter() if isinstance(el.tag, str) and el.get("data-stimulus-idref")]
            assert [el.get("data-stimulus-idref") for el in places] == [f"case_{CASE_ID}"]
            links = [a.get("href") for a in places[0].iter() if isinstance(a.tag, str) and etree.QName(a).localname == "a"]
            assert [resolve(f"items/{i}.xml", h) for h in links] == [stimulus.get("href")]
        assert warnings_ == []
    else:
        assert not [n for n in files if n.startswith("stimuli/")]
        assert not any("stimulus" in i for i in resources)
        for i in CASE_ITEMS:
            assert read_item(files[f"items/{i}.xml"])["passage"] == expected_case(cases[CASE_ID])
        assert len(warnings_) == 1
        assert re.fullmatch(r"tests/fixtures/types/cases/fraud-scoring\.yaml:\d+:\d+: QTI 2\.1 has no shared stimulus: "
                            r"the scenario of case 'types-case-fraud-scoring' is repeated in each of its 2 items .*",
                            warnings_[0].replace(str(REPO) + "/", "")), warnings_


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_question_whose_case_is_missing_is_exported_alone_with_a_warning(tmp_path, fmt, request):
    files, warns = run(tmp_path, fmt, cases={})
    assert [w.split(": ", 1)[1] for w in warns] == [
        f"case '{CASE_ID}' is not in the bank; the question is exported without its scenario"] * 2
    assert all(re.match(r".*case-(single|ordering)\.yaml:\d+:\d+: ", w) for w in warns)
    for i in CASE_ITEMS:
        read = read_item(files[f"items/{i}.xml"])
        assert read["case"] is None and read["passage"] is None
    assert not [n for n in files if n.startswith("stimuli/")]
    item_xsd, cp_xsd = schemas(fmt, request)
    assert cp_xsd.errors(files["imsmanifest.xml"]) == [] and item_xsd.errors(files["tests/MLA-C01.xml"]) == []


# -- scoring by an independent engine ---------------------------------------------------------

def _score(item_xml: bytes, response) -> tuple[float, set[str]]:
    """(SCORE, FEEDBACK) after pyslet runs the item's own response processing (feedback blocks
    removed: pyslet wrongly rejects them inside an item body; processing never refers to them)."""
    import pyslet.qtiv2.xml as pyslet_qti
    from pyslet.qtiv2.variables import ItemSessionState

    stripped = re.sub(rb"<(feedbackBlock) .*?</\1>", b"", item_xml, flags=re.S)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pyslet's own renamed methods
        doc = pyslet_qti.QTIDocument()
        doc.read(src=io.BytesIO(stripped))
        state = ItemSessionState(doc.root)
        state.begin_session()
        if response:
            state["RESPONSE"].set_value(response)
        state.end_attempt()
        return state["SCORE"].value, set(state["FEEDBACK"].value or {})


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_pyslet_scores_ordering_all_or_nothing_or_per_step_in_place(packages, scoring):
    data = packages["qti21", scoring][0][f"items/{ORDERING}.xml"]
    right = ["step_create-model", "step_create-endpoint-config", "step_create-endpoint"]
    partial = scoring == "partial"
    assert _score(data, right) == (1.0, {"correct", "general_feedback"})
    tries = {  # response -> steps in their own place
        ("step_create-model", "step_create-endpoint", "step_create-endpoint-config"): 1,
        ("step_batch-transform", "step_create-endpoint-config", "step_create-endpoint"): 2,  # a distractor step first
        ("step_create-endpoint", "step_create-model", "step_create-endpoint-config"): 0,
        ("step_create-endpoint-config", "step_create-model", "step_create-endpoint"): 1,
    }
    for response, in_place in tries.items():
        score, feedback = _score(data, list(response))
        assert score == pytest.approx(in_place / 3 if partial else 0.0, abs=1e-6), response
        assert feedback == {"incorrect", "general_feedback"}, response
    assert _score(data, []) == (0.0, {"incorrect", "general_feedback"})


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_pyslet_scores_matching_all_pairs_or_per_pair(packages, scoring):
    data = packages["qti21", scoring][0][f"items/{MATCHING}.xml"]
    right = [("prompt_input-drift", "resp_model-monitor"), ("prompt_explain-prediction", "resp_clarify"),
             ("prompt_api-audit", "resp_cloudtrail"), ("prompt_latency-alarm", "resp_cloudwatch")]
    partial = scoring == "partial"
    assert _score(data, right) == (1.0, {"correct", "general_feedback"})
    assert _score(data, list(reversed(right))) == (1.0, {"correct", "general_feedback"})  # pairs, not a sequence
    swapped = [("prompt_input-drift", "resp_clarify"), ("prompt_explain-prediction", "resp_model-monitor")] + right[2:]
    surplus = right[:3] + [("prompt_latency-alarm", "resp_ground-truth")]
    for response, good in ((swapped, 2), (surplus, 3), (right[:1], 1)):
        score, feedback = _score(data, response)
        assert score == pytest.approx(good / 4 if partial else 0.0, abs=1e-6), response
        assert feedback == {"incorrect", "general_feedback"}
    assert _score(data, []) == (0.0, {"incorrect", "general_feedback"})


def test_a_case_item_scores_on_its_own(packages):
    """Case items are separate items: each scores 0 or 1 by itself, whatever the other gets."""
    files = packages["qti21", "partial"][0]
    single = files[f"items/{CASE_ITEMS[0]}.xml"]
    stripped = re.sub(rb"<feedbackInline .*?</feedbackInline>", b"", single, flags=re.S)
    assert _score(stripped, "opt_real-time")[0] == 1.0 and _score(stripped, "opt_serverless")[0] == 0.0
    order = files[f"items/{CASE_ITEMS[1]}.xml"]
    assert _score(order, ["step_register-version", "step_approve-version", "step_pipeline-deploys"])[0] == 1.0


@pytest.mark.parametrize("fmt", FORMATS)
def test_feedback_shows_from_outcomes_the_processing_sets(packages, fmt):
    """The verdict blocks and the one reveal show from FEEDBACK; the new types set no CHOSEN."""
    files = packages[fmt, "partial"][0]
    for name in (f"items/{ORDERING}.xml", f"items/{MATCHING}.xml"):
        read = read_item(files[name])
        assert read["feedback_ids"] == ["correct", "general_feedback", "incorrect"]
        heading = "Step by step" if ORDERING in name else "Pair by pair"
        assert list(read["headings"].values()) == ["Explanation", heading, "Common exam trap", "Go deeper"]
        root = xml(files[name])
        declared = {el.get("identifier") for el in root.iter() if isinstance(el.tag, str)
                    and etree.QName(el).localname in ("outcomeDeclaration", "qti-outcome-declaration")}
        assert declared == {"SCORE", "MAXSCORE", "FEEDBACK"}
        verdict = next(el for el in root.iter() if isinstance(el.tag, str) and el.get("identifier") == "incorrect")
        words = " ".join("".join(verdict.itertext()).split())
        if ORDERING in name:
            assert words.startswith("Incorrect. The correct order is: Create a model") and "batch" not in words
        else:
            assert "Show which features drove one transaction's fraud score → SageMaker Clarify" in words


def test_rows_resolve_to_the_identifiers_of_the_interaction(packages):
    """Every reveal row names a choice of the item, once (ids are unique in the document)."""
    for fmt in FORMATS:
        for name in (f"items/{ORDERING}.xml", f"items/{MATCHING}.xml"):
            root = xml(packages[fmt, "partial"][0][name])
            rows = [el.get("id") for el in root.iter() if isinstance(el.tag, str) and el.get("id", "").startswith("row_")]
            choices = {el.get("identifier") for el in root.iter() if isinstance(el.tag, str)
                       and etree.QName(el).localname in ("simpleChoice", "simpleAssociableChoice",
                                                         "qti-simple-choice", "qti-simple-associable-choice")}
            assert len(rows) == len(set(rows)) and {r.removeprefix("row_") for r in rows} <= choices


def test_stimulus_href_resolves_from_the_item(packages):
    files = packages["qti30", "partial"][0]
    root = xml(files[f"items/{CASE_ITEMS[0]}.xml"])
    ref = next(el for el in root.iter() if isinstance(el.tag, str) and etree.QName(el).localname == "qti-assessment-stimulus-ref")
    assert resolve(f"items/{CASE_ITEMS[0]}.xml", ref.get("href")) == f"stimuli/{CASE_ID}.xml"
    assert ref.get("identifier") == xml(files[f"stimuli/{CASE_ID}.xml"]).get("identifier") == f"case_{CASE_ID}"


# -- independent converters and readers ----------------------------------------------------

def _zip(files: dict[str, bytes], path: Path) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w") as zf:
        for name, data in sorted(files.items()):
            zf.writestr(name, data)
    return path


def _bytes(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value


def test_citolab_converter_upgrades_the_21_package_and_keeps_every_field(packages, tmp_path, qti30_xsd, cp30_xsd):
    import qti_convert

    ours = packages["qti21", "partial"][0]
    result = qti_convert.upgrade_package(str(_zip(ours, tmp_path / "qti21.zip")))
    files = {name: _bytes(data) for name, data in result.files.items()}
    assert sorted(files) == sorted(ours)
    problems = {n: (cp30_xsd if n == "imsmanifest.xml" else qti30_xsd).errors(d) for n, d in files.items() if n.endswith(".xml")}
    assert {n: e for n, e in problems.items() if e} == {}
    for name in ours:
        if name.startswith("items/"):
            assert read_item(files[name]) == read_item(ours[name]), name


def test_citolab_converter_downgrades_the_30_package_inlining_the_stimulus_as_21_does(packages, tmp_path, qti21_xsd, cp21_xsd,
                                                                                     capsys, monkeypatch):
    """The converter's own 2.1 for a shared stimulus is what qti21 writes: the passage in each
    case item. Its package validates, and `qlint import --from qti21` rebuilds the case from it."""
    import qti_convert

    from qlint.cli import main

    ours = packages["qti30", "partial"][0]
    result = qti_convert.downgrade_package(str(_zip(ours, tmp_path / "qti30.zip")))
    files = {name: _bytes(data) for name, data in result.files.items()}
    assert sorted(files) == sorted(n for n in ours if not n.startswith("stimuli/"))
    # each case item: its stimulus inlined, and the SBAC data-stimulus-idref of its place dropped (2.1 has none)
    assert [w.code for w in result.warnings] == ["stimulus-inlined", "data-attributes-removed"] * len(CASE_ITEMS)
    problems = {n: (cp21_xsd if n == "imsmanifest.xml" else qti21_xsd).errors(d) for n, d in files.items() if n.endswith(".xml")}
    assert {n: e for n, e in problems.items() if e} == {}
    _, cases, _ = fixtures()
    for name in ours:
        if name.startswith("items/"):
            down, mine = read_item(files[name]), read_item(ours[name])
            assert down["steps" if "steps" in mine else "options"] == mine["steps" if "steps" in mine else "options"]
            if name in {f"items/{i}.xml" for i in CASE_ITEMS}:
                assert down["passage"] == expected_case(cases[CASE_ID])
    folder = tmp_path / "down"
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    monkeypatch.chdir(REPO)
    assert main(["import", "--from", "qti21", str(folder), "--output", str(tmp_path / "bank")]) == 0, capsys.readouterr().err
    case = yaml.safe_load((tmp_path / "bank" / "mla-c01" / "cases" / f"{CASE_ID}.yaml").read_text(encoding="utf-8"))
    assert case["items"] == CASE_ITEMS and case["scenario"].rstrip() == cases[CASE_ID].scenario.rstrip()


def test_citolab_json_converter_reads_the_keys_of_every_type(packages, tmp_path):
    import citolab_qti_json_schema_converters as json_converters

    doc = json_converters.convert_qti_zip_to_exam_document(str(_zip(packages["qti30", "partial"][0], tmp_path / "q.zip")))
    answers = {i.item_identifier: json_converters.split_answer_values(i.answer) for i in doc.items}
    assert answers[ORDERING] == ["step_create-model", "step_create-endpoint-config", "step_create-endpoint"]
    assert answers[MATCHING] == ["prompt_input-drift resp_model-monitor", "prompt_explain-prediction resp_clarify",
                                 "prompt_api-audit resp_cloudtrail", "prompt_latency-alarm resp_cloudwatch"]
    assert answers[CASE_ITEMS[0]] == ["opt_real-time"]
    assert {i.max_score for i in doc.items} == {1.0}


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_ordering_with_no_keyed_step_is_refused_naming_file_and_line(tmp_path, fmt):
    questions, _, _ = fixtures()
    q = next(q for q in questions if q.id == ORDERING)
    unkeyed = Question(q.path, {**q.data, "steps": [{**s.raw, "correct": False} for s in q.steps]})
    with refused(r"ordering\.yaml:\d+:\d+: no step is keyed"):
        run(tmp_path, fmt, questions=[unkeyed], cases={})
    assert not list(tmp_path.glob("*.zip"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_markup_in_steps_pairs_and_scenario_stays_text_and_validates(tmp_path, fmt, request):
    from kit.export import INJECTION

    questions, cases, _ = fixtures()
    hostile = []
    for q in questions:
        data = yaml.safe_load(yaml.safe_dump(q.data))
        for part in data.get("steps", []) + data.get("prompts", []) + data.get("responses", []):
            part["text"] = f"{part['text']} {INJECTION}"
            part["rationale"] = INJECTION
        hostile.append(Question(q.path, data))
    case = cases[CASE_ID]
    bad_case = Case(case.path, {**case.data, "title": INJECTION, "scenario": f"{INJECTION}\n\n{case.scenario}"})
    files, _ = run(tmp_path, fmt, questions=hostile, cases={CASE_ID: bad_case})
    item_xsd, cp_xsd = schemas(fmt, request)
    docs = [n for n in files if n.endswith(".xml") and n != "imsmanifest.xml"]
    assert {n: item_xsd.errors(files[n]) for n in docs if item_xsd.errors(files[n])} == {}
    assert cp_xsd.errors(files["imsmanifest.xml"]) == []
    assert not [n for n in docs if b"<script" in files[n]]
    read = read_back(files)
    for q in hostile:
        assert comparable(read[q.id]) == expected(q, case=bad_case if q.case else None), q.id
    assert read[ORDERING]["steps"][0]["rationale"] == INJECTION


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_pyslet_scores_every_ordering_and_matching_item_of_the_sample_bank(tmp_path, scoring, monkeypatch):
    """The sample bank's own items (drafts): the key scores 1, a wrong answer what the documented
    credit says (0, or the share of steps in place / pairs right)."""
    from qlint.cli import main

    monkeypatch.chdir(REPO)
    assert main(["export", "-f", "qti21", "-o", str(tmp_path / "q.zip"), "--scoring", scoring,
                 "--status", "draft,review,published"]) == 0
    files = read_package(tmp_path / "q.zip")
    seen = set()
    for name, data in files.items():
        if not name.startswith("items/") or read_item(data)["type"] not in ("ordering", "matching"):
            continue
        item = read_item(data)
        seen.add(item["type"])
        if item["type"] == "ordering":
            key = [f"step_{s}" for s in item["key_order"]]
            shifted = key[:-2] + key[-2:][::-1]  # the last two steps swapped
            in_place = sum(a == b for a, b in zip(shifted, key))
            total = len(key)
        else:
            key = [(f"prompt_{p['id']}", f"resp_{p['match']}") for p in item["prompts"]]
            shifted = [(p, key[(i + 1) % len(key)][1]) for i, (p, _r) in enumerate(key)]
            in_place = sum(a == b for a, b in zip(shifted, key))
            total = len(key)
        assert _score(data, key) == (1.0, {"correct", "general_feedback"}), name
        score, feedback = _score(data, shifted)
        assert score == pytest.approx(in_place / total if scoring == "partial" else 0.0, abs=1e-6), name
        assert feedback == {"incorrect", "general_feedback"}, name
        if scoring == "partial" and item["type"] == "matching":
            assert _score(data, key[:2])[0] == pytest.approx(2 / total, abs=1e-6), name
    assert seen == {"ordering", "matching"}
