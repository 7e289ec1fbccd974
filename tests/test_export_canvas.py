"""canvas export: the package's structure compared with what text2qti (the reference Canvas QTI 1.2
writer) produces for an equivalent quiz, plus scoring, feedback content, shuffle, images, markup
injection and determinism."""

from __future__ import annotations

import io
import re
import shutil
import zipfile

import pytest
import synthbank
import yaml
from lxml import etree

from conftest import BANK, REPO
from kit.export import (shown, png, load_bank, manifest_hrefs, missing_from_package, read_package, resolve, export,
                       sample_question, unlisted_in_manifest, write_question, xml)
from qlint.cli import main
from qlint.markup import render, render_inline
from kit.qti_readback import plain

from text2qti.config import Config  # a test dependency: missing, the test must fail, not skip
from text2qti.qti import QTI
from text2qti.quiz import Quiz

Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
QUIZ = "qlint-mla-c01"

# The same two questions as the first two below, in text2qti's plain-text quiz format.
TEXT2QTI_QUIZ = """Quiz title: Sample
Quiz description: Two questions.

1.  A model does not fit on one GPU. Which strategy should the team use?
... Model parallelism places layers on different GPUs.
+   Correct.
-   Incorrect.
a)  Data parallelism
... Every GPU holds the whole model.
*b) Model parallelism
... Correct: it splits the layers across GPUs.
c)  Hyperparameter tuning
... Tuning does not split anything.

2.  Which configurations meet the requirements? (Choose TWO.)
... Use an endpoint and your own key.
+   Correct.
-   Incorrect.
[*] Gateway endpoint
... Correct: traffic stays on the AWS network.
[ ] NAT gateway
... Traffic crosses the internet.
[*] KMS key ids
... Correct: the company's key.
"""


def _multiple():
    return sample_question(
        id="mla-c01-dev-sample-multi", type="multiple", choose=2,
        stem="Which configurations meet the requirements? (Choose TWO.)\n",
        options=[
            {"id": "gateway", "text": "Gateway endpoint", "correct": True, "rationale": "Correct: traffic stays on the AWS network.\n"},
            {"id": "nat", "text": "NAT gateway", "correct": False, "rationale": "Traffic crosses the internet.\n",
             "right_when": "Containers need the internet.\n"},
            {"id": "kms", "text": "KMS key ids", "correct": True, "rationale": "Correct: the company's key.\n"},
        ])


def _export(tmp_path, questions, name="canvas.zip", **options):
    bank = tmp_path / "bank"
    for data in questions:
        write_question(bank / "mla-c01" / "model-development", data)
    shutil.copytree(BANK / "exams", bank / "exams", dirs_exist_ok=True)
    loaded, exams = load_bank(bank)
    result = export("canvas", loaded, exams, bank, tmp_path / name, **options)
    return read_package(tmp_path / name), result


def _normalise(name: str, quiz_id: str) -> str:
    return name.replace(quiz_id, "<quiz>")


def _paths(el: etree._Element, prefix: str = "") -> set[str]:
    here = f"{prefix}/{etree.QName(el).localname}"
    out = {here}
    for child in el:
        if isinstance(child.tag, str):
            out |= _paths(child, here)
    return out


def _items(files: dict[str, bytes], quiz_id: str) -> list[etree._Element]:
    return list(xml(files[f"{quiz_id}/{quiz_id}.xml"]).iter(f"{Q}item"))


def _fields(item) -> list[str]:
    return [f.findtext(f"{Q}fieldlabel") for f in item.iter(f"{Q}qtimetadatafield")]


def _answer_ids(item) -> list[str]:
    return [r.get("ident") for r in item.iter(f"{Q}response_label")]


def _conditions(item) -> list[tuple]:
    """Each respcondition as (continue, condition shape, SCORE set, feedback), answer ids generalised."""
    answers = _answer_ids(item)
    def norm(value: str) -> str:
        for i, a in enumerate(answers):
            value = value.replace(a, f"<answer{i}>")
        return value
    out = []
    for cond in item.iter(f"{Q}respcondition"):
        shape = " ".join(f"{etree.QName(el).localname}:{norm(el.text or '').strip()}"
                         for el in cond.find(f"{Q}conditionvar").iter() if isinstance(el.tag, str))
        out.append((cond.get("continue"), shape, cond.findtext(f"{Q}setvar"),
                    norm(cond.find(f"{Q}displayfeedback").get("linkrefid"))))
    return out


@pytest.fixture
def both(tmp_path):
    """(our package, text2qti's package) for the same two questions."""
    # text2qti scores multiple answers all-or-nothing: compare that mode.
    ours, _ = _export(tmp_path, [sample_question(), _multiple()], scoring="all-or-nothing")
    theirs = read_package_bytes(QTI(Quiz(TEXT2QTI_QUIZ, config=Config(), source_name="sample")).zip_bytes())
    return ours, theirs


def read_package_bytes(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _quiz_id(files: dict[str, bytes]) -> str:
    return next(n.split("/")[0] for n in files if n.endswith("/assessment_meta.xml"))


def test_file_layout_matches_text2qti(both):
    ours, theirs = both
    assert sorted(_normalise(n, _quiz_id(ours)) for n in ours) == sorted(_normalise(n, _quiz_id(theirs)) for n in theirs) == [
        "<quiz>/<quiz>.xml", "<quiz>/assessment_meta.xml", "imsmanifest.xml", "non_cc_assessments/"]
    assert ours["non_cc_assessments/"] == b""


def test_manifest_resources_match_text2qti(both):
    def resources(files):
        quiz = _quiz_id(files)
        root = xml(files["imsmanifest.xml"])
        ns = etree.QName(root).namespace
        by_id = {r.get("identifier"): r for r in root.iter(f"{{{ns}}}resource")}
        out = []
        for r in by_id.values():
            deps = [by_id[d.get("identifierref")].get("type") for d in r.iter(f"{{{ns}}}dependency")]
            files_ = [_normalise(f.get("href"), quiz) for f in r.iter(f"{{{ns}}}file")]
            out.append((r.get("type"), _normalise(r.get("href") or "", quiz), tuple(files_), tuple(deps)))
        return ns, etree.QName(root).localname, sorted(out)
    assert resources(both[0]) == resources(both[1])
    assert missing_from_package(both[0]) == [] and unlisted_in_manifest(both[0]) == []


def test_assessment_and_items_have_text2qti_structure_metadata_and_feedback_idents(both):
    ours, theirs = both
    our_root, their_root = xml(ours[f"{_quiz_id(ours)}/{_quiz_id(ours)}.xml"]), xml(theirs[f"{_quiz_id(theirs)}/{_quiz_id(theirs)}.xml"])
    assert our_root.nsmap[None] == their_root.nsmap[None]
    assert our_root.find(f"{Q}assessment/{Q}section").get("ident") == their_root.find(f"{Q}assessment/{Q}section").get("ident")
    our_items, their_items = _items(ours, _quiz_id(ours)), _items(theirs, _quiz_id(theirs))
    assert len(our_items) == len(their_items) == 2
    for mine, ref in zip(our_items, their_items):  # single, then multiple
        assert _paths(mine) == _paths(ref)
        assert _fields(mine) == _fields(ref)
        assert [f.findtext(f"{Q}fieldentry") for f in mine.iter(f"{Q}qtimetadatafield")][0] == \
               [f.findtext(f"{Q}fieldentry") for f in ref.iter(f"{Q}qtimetadatafield")][0]
        lid, ref_lid = mine.find(f".//{Q}response_lid"), ref.find(f".//{Q}response_lid")
        assert (lid.get("ident"), lid.get("rcardinality")) == (ref_lid.get("ident"), ref_lid.get("rcardinality"))
        assert {m.get("texttype") for m in mine.iter(f"{Q}mattext")} == {"text/html"}
        assert _conditions(mine) == _conditions(ref)
        our_fb = sorted(re.sub(r"^.*_fb$", "<answer>_fb", f.get("ident")) if f.get("ident") not in ("general_fb", "correct_fb", "general_incorrect_fb") else f.get("ident") for f in mine.iter(f"{Q}itemfeedback"))
        ref_fb = sorted(re.sub(r"^.*_fb$", "<answer>_fb", f.get("ident")) if f.get("ident") not in ("general_fb", "correct_fb", "general_incorrect_fb") else f.get("ident") for f in ref.iter(f"{Q}itemfeedback"))
        assert our_fb == ref_fb
        answers = _answer_ids(mine)
        assert {f.get("ident") for f in mine.iter(f"{Q}itemfeedback")} >= {f"{a}_fb" for a in answers}
        assert mine.findtext(f".//{Q}qtimetadatafield[{Q}fieldlabel='original_answer_ids']/{Q}fieldentry") == ",".join(answers)


def test_assessment_meta_uses_only_fields_text2qti_writes(both):
    ours, theirs = both
    mine = xml(ours[f"{_quiz_id(ours)}/assessment_meta.xml"])
    ref = xml(theirs[f"{_quiz_id(theirs)}/assessment_meta.xml"])
    assert mine.nsmap[None] == ref.nsmap[None] and mine.get("identifier") == _quiz_id(ours)
    assert {etree.QName(el).localname for el in mine} <= {etree.QName(el).localname for el in ref}
    ns = f"{{{mine.nsmap[None]}}}"
    assert mine.findtext(f"{ns}points_possible") == "2.0"
    assert mine.findtext(f"{ns}shuffle_answers") == "true"


@pytest.fixture(scope="module")
def sample_canvas(tmp_path_factory):
    out = tmp_path_factory.mktemp("canvas")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)
        assert main(["export", "-f", "canvas", "-o", str(out / "a.zip")]) == 0
        assert main(["export", "-f", "canvas", "-o", str(out / "b.zip")]) == 0
        assert main(["export", "-f", "canvas", "-o", str(out / "dir"), "--no-zip"]) == 0
    return out


def test_sample_bank_same_bytes_and_complete_package(sample_canvas):
    assert (sample_canvas / "a.zip").read_bytes() == (sample_canvas / "b.zip").read_bytes()
    files = read_package(sample_canvas / "a.zip")
    folder = read_package(sample_canvas / "dir")
    assert {n: d for n, d in folder.items() if not n.endswith("/")} == {n: d for n, d in files.items() if not n.endswith("/")}
    assert "non_cc_assessments/" in folder and "non_cc_assessments/" in files  # the empty folder too
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []
    exported = set()  # every question `qlint export` takes by default (published, review), of any type
    for path in (BANK / "mla-c01").rglob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.parent.name != "cases" and data.get("status") in ("published", "review"):
            exported.add(data["id"])
    assert {i.get("ident") for i in _items(files, QUIZ) if _type_of(i) != "text_only_question"} == exported
    assert len(exported) >= 20


def test_sample_bank_answers_keys_and_feedback_match_the_questions(sample_canvas):
    files = read_package(sample_canvas / "a.zip")
    questions = {q.id: q for q in load_bank(BANK)[0]}
    for item in _items(files, QUIZ):
        q = questions.get(item.get("ident"))
        if q is None or not q.is_choice:  # a case's text-only item; ordering and matching: tests below
            continue
        answers = _answer_ids(item)
        assert answers == [f"{q.id}_{o.id}" for o in q.options]
        qtype = item.findtext(f".//{Q}qtimetadatafield[{Q}fieldlabel='question_type']/{Q}fieldentry")
        assert qtype == ("multiple_answers_question" if q.type == "multiple" else "multiple_choice_question")
        scoring = [c for c in item.iter(f"{Q}respcondition") if c.findtext(f"{Q}setvar") == "100"]
        assert len(scoring) == 1 and scoring[0].get("continue") == "No"
        cond = scoring[0].find(f"{Q}conditionvar")
        required = sorted(v.text for v in cond.iter(f"{Q}varequal") if etree.QName(v.getparent()).localname != "not")
        excluded = sorted(v.text for v in cond.iter(f"{Q}varequal") if etree.QName(v.getparent()).localname == "not")
        assert required == sorted(f"{q.id}_{k.id}" for k in q.keys)
        if q.type == "multiple":  # all or nothing
            assert excluded == sorted(f"{q.id}_{o.id}" for o in q.distractors)
        feedback = {f.get("ident"): plain(f.findtext(f".//{Q}mattext")) for f in item.iter(f"{Q}itemfeedback")}
        assert plain(render(q.explanation)) in feedback["general_fb"]
        assert f"Common exam trap: {plain(render(q.trap))}" in feedback["general_fb"]
        assert all(r["title"] in feedback["general_fb"] for r in q.data.get("references", []))
        for o in q.options:
            assert feedback[f"{q.id}_{o.id}_fb"].startswith(plain(render(o.rationale)))
            if o.right_when:
                assert f"When it would be right: {plain(render(o.right_when))}" in feedback[f"{q.id}_{o.id}_fb"]
        assert all(plain(render_inline(k.text)) in feedback["general_incorrect_fb"] for k in q.keys)


def test_one_quiz_per_exam(tmp_path):
    root = synthbank.practice(tmp_path / "gen", 12, exams=2)
    questions, exams = load_bank(root / "bank")
    export("canvas", questions, exams, root / "bank", tmp_path / "c.zip")
    files = read_package(tmp_path / "c.zip")
    assert sorted(n for n in files if n.endswith("/assessment_meta.xml")) == [
        "qlint-gen-01/assessment_meta.xml", "qlint-gen-02/assessment_meta.xml"]
    assert len(_items(files, "qlint-gen-01")) + len(_items(files, "qlint-gen-02")) == 12
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []


def _shuffle_answers(files):
    meta = xml(files[f"{QUIZ}/assessment_meta.xml"])
    return meta.findtext(f"{{{meta.nsmap[None]}}}shuffle_answers")


def test_shuffle_is_per_quiz_so_an_order_that_matters_turns_it_off_with_a_warning(tmp_path):
    files, result = _export(tmp_path, [sample_question(), _multiple()], "a.zip")
    assert _shuffle_answers(files) == "true" and result.warnings == []
    files, result = _export(tmp_path, [sample_question(), _multiple()], "b.zip", shuffle=False)
    assert _shuffle_answers(files) == "false" and result.warnings == []
    pinned = _multiple()
    pinned["options"][2]["pinned"] = True
    files, result = _export(tmp_path / "c", [sample_question(shuffle=False), pinned], "c.zip")
    assert _shuffle_answers(files) == "false"
    assert len(result.warnings) == 1
    assert re.match(r".*mla-c01-dev-sample\.yaml:\d+:\d+: Canvas shuffles answers per quiz.*shuffle: false.*\(and 1 more question\)$",
                    shown(result)[0]), shown(result)


def test_images_use_the_canvas_file_base_and_are_listed(tmp_path):
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    (folder / "img").mkdir(parents=True)
    (folder / "img" / "a b.png").write_bytes(png())  # a real PNG: exports refuse mislabelled files
    files, _ = _export(tmp_path, [sample_question(explanation="See ![diagram](<img/a b.png>).\n")])
    name = "images/mla-c01/model-development/img/a b.png"
    assert files[name] == png()
    assert name in manifest_hrefs(files) and missing_from_package(files) == []
    general = xml(files[f"{QUIZ}/{QUIZ}.xml"]).find(f".//{Q}itemfeedback[@ident='general_fb']").findtext(f".//{Q}mattext")
    src = re.search(r'src="([^"]+)"', general).group(1)
    assert src == "%24IMS-CC-FILEBASE%24/images/mla-c01/model-development/img/a%20b.png"
    assert resolve("x", src.replace("%24IMS-CC-FILEBASE%24/", "")) == name


def test_markup_injection_stays_text(tmp_path):
    payload = "<script>alert('x')</script> ]]> & \"quoted\" café ≤ 日本"
    options = sample_question()["options"]
    options[0]["text"] = payload
    options[0]["rationale"] = payload
    files, _ = _export(tmp_path, [sample_question(stem=payload + "\n", trap=payload, explanation=payload, options=options)])
    root = xml(files[f"{QUIZ}/{QUIZ}.xml"])  # well-formed XML
    for mattext in root.iter(f"{Q}mattext"):
        html = etree.fromstring(f"<div>{mattext.text}</div>".encode())  # the HTML inside is well-formed too
        assert not list(html.iter("script"))
    item = root.find(f".//{Q}item")
    assert plain(item.findtext(f"{Q}presentation/{Q}material/{Q}mattext")) == payload
    assert plain(item.find(f".//{Q}response_label").findtext(f".//{Q}mattext")) == payload
    feedback = {f.get("ident"): plain(f.findtext(f".//{Q}mattext")) for f in item.iter(f"{Q}itemfeedback")}
    assert feedback["mla-c01-dev-sample_data-parallel_fb"].startswith(payload + " When it would be right:")
    assert feedback["general_fb"].startswith(f"{payload} Common exam trap: {payload} Go deeper:")


# -- ordering, matching and case studies (issue 13) --------------------------------------------
# Read back as Canvas's importer reads a Canvas matching question (its qti_exporter: the matches
# are the first answer's choices, each match id the digits of its ident; an answer's match is the
# condition that adds to SCORE; its comment the `not` condition's feedback), and scored by running
# the QTI 1.2 response conditions.

from kit.export import export_types, md_words, question  # noqa: E402


def _canvas_matching(item) -> dict:
    lids = item.findall(f"{Q}presentation/{Q}response_lid")
    labels = lids[0].findall(f"{Q}render_choice/{Q}response_label")
    matches = {int(re.search(r"\d+", lab.get("ident")).group()): lab.findtext(f".//{Q}mattext") for lab in labels}
    answers = {lid.get("ident"): {"left": plain(lid.findtext(f"{Q}material/{Q}mattext")), "match": None, "fb": None}
               for lid in lids}
    for cond in item.iter(f"{Q}respcondition"):
        eq = cond.find(f".//{Q}varequal")
        if eq is None:
            continue
        answer = answers[eq.get("respident")]
        if cond.find(f"{Q}setvar[@action='Add']") is not None:
            answer["match"] = matches[int(re.search(r"\d+", eq.text).group())]
        if cond.find(f"{Q}displayfeedback") is not None:
            answer["fb"] = cond.find(f"{Q}displayfeedback").get("linkrefid")
    feedback = {f.get("ident"): f.findtext(f".//{Q}mattext") for f in item.iter(f"{Q}itemfeedback")}
    return {"answers": list(answers.values()), "matches": list(matches.values()), "feedback": feedback,
            "every_lid_lists_every_match": all(
                [lab.get("ident") for lab in lid.findall(f"{Q}render_choice/{Q}response_label")]
                == [lab.get("ident") for lab in labels] for lid in lids)}


def _pair_score(item, chosen: dict[str, str]) -> float:
    """QTI 1.2 resprocessing run over a matching response {respident: label ident}."""
    def holds(cond) -> bool:
        name = etree.QName(cond).localname
        if name == "other":
            return True
        if name == "varequal":
            return chosen.get(cond.get("respident")) == cond.text
        if name == "not":
            return not holds(cond[0])
        raise AssertionError(name)
    score = 0.0
    for rc in item.iter(f"{Q}respcondition"):
        if all(holds(c) for c in rc.find(f"{Q}conditionvar")):
            for sv in rc.iter(f"{Q}setvar"):
                score = float(sv.text) if sv.get("action") == "Set" else score + float(sv.text)
            if rc.get("continue") == "No":
                break
    return score


@pytest.fixture(scope="module")
def types_canvas(tmp_path_factory):
    out = tmp_path_factory.mktemp("canvas-types") / "types.zip"
    result = export_types("canvas", out)
    files = read_package(out)
    root = xml(files[f"{QUIZ}/{QUIZ}.xml"])
    return files, result, root, {i.get("ident"): i for i in root.iter(f"{Q}item")}


def _type_of(item) -> str:
    return item.findtext(f".//{Q}qtimetadatafield[{Q}fieldlabel='question_type']/{Q}fieldentry")


def test_matching_is_a_canvas_matching_question_with_the_surplus_response_as_a_distractor(types_canvas):
    _, _, _, items = types_canvas
    q = question("matching.yaml")
    item = items[q.id]
    assert _type_of(item) == "matching_question"
    read = _canvas_matching(item)
    text = {r.id: r.text for r in q.responses}
    assert [(a["left"], a["match"]) for a in read["answers"]] == [(p.text, text[p.match]) for p in q.prompts]
    assert sorted(read["matches"]) == sorted(r.text for r in q.responses)  # Ground Truth matches no answer
    assert read["every_lid_lists_every_match"]
    answer_ids = [lid.get("ident").removeprefix("response_") for lid in item.iter(f"{Q}response_lid")]
    assert all(a.isdigit() for a in answer_ids)
    assert item.findtext(f".//{Q}qtimetadatafield[{Q}fieldlabel='original_answer_ids']/{Q}fieldentry") == ",".join(answer_ids)
    for answer, p in zip(read["answers"], q.prompts):  # each pair's reason is its answer's comment
        assert plain(read["feedback"][answer["fb"]]) == md_words(p.rationale)
    general = plain(read["feedback"]["general_fb"])
    assert general.startswith(md_words(q.explanation)) and md_words(q.responses[-1].rationale) in general
    assert f"Common exam trap: {md_words(q.trap)}" in general
    assert all(f"{p.text} → {text[p.match]}" in plain(read["feedback"]["general_incorrect_fb"]) for p in q.prompts)


def test_matching_scores_each_pair_and_the_whole_set_to_100(types_canvas):
    _, _, _, items = types_canvas
    q = question("matching.yaml")
    item = items[q.id]
    by_text = {lab.findtext(f".//{Q}mattext"): lab.get("ident") for lab in item.iter(f"{Q}response_label")}
    text = {r.id: r.text for r in q.responses}
    lids = [lid.get("ident") for lid in item.iter(f"{Q}response_lid")]
    right = {lid: by_text[text[p.match]] for lid, p in zip(lids, q.prompts)}
    assert _pair_score(item, right) == pytest.approx(100)
    wrong = {**right, lids[0]: by_text["SageMaker Ground Truth"]}
    assert _pair_score(item, wrong) == pytest.approx(75)


def test_ordering_is_a_matching_question_of_positions_with_a_warning(types_canvas):
    _, result, _, items = types_canvas
    q = question("ordering.yaml")
    item = items[q.id]
    assert _type_of(item) == "matching_question"
    read = _canvas_matching(item)
    assert [(a["left"], a["match"]) for a in read["answers"]] == \
        [(f"Position {n}", s.text) for n, s in enumerate(q.key_order, 1)]
    assert sorted(read["matches"]) == sorted(s.text for s in q.steps)  # the distractor step: an extra match
    for n, (answer, s) in enumerate(zip(read["answers"], q.key_order), 1):
        assert plain(read["feedback"][answer["fb"]]) == f"{n}. {s.text} {md_words(s.rationale)}"
    general = plain(read["feedback"]["general_fb"])
    distractor = q.steps[-1]
    assert f"Not part of the order: {distractor.text} {md_words(distractor.rationale)}" in general
    assert any(w.startswith(f"{q.path}:6:7: ") and "no ordering question" in w for w in shown(result))


def test_case_is_a_text_only_question_then_a_group_drawing_all_its_questions(types_canvas):
    files, _, root, items = types_canvas
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []
    top = root.find(f"{Q}assessment/{Q}section")
    children = [(etree.QName(c).localname, c.get("ident")) for c in top]
    at = children.index(("item", "types-case-fraud-scoring"))
    assert children[at + 1] == ("section", "types-case-fraud-scoring_group")
    scenario = items["types-case-fraud-scoring"]
    assert _type_of(scenario) == "text_only_question" and scenario.find(f"{Q}resprocessing") is None
    assert scenario.findtext(f".//{Q}qtimetadatafield[{Q}fieldlabel='points_possible']/{Q}fieldentry") == "0.0"
    assert "within 100 ms" in plain(scenario.findtext(f"{Q}presentation/{Q}material/{Q}mattext"))
    group = top[at + 1]
    assert group.findtext(f".//{Q}selection_number") == "2" and group.findtext(f".//{Q}points_per_item") == "1.0"
    assert [i.get("ident") for i in group.findall(f"{Q}item")] == ["types-case-fraud-endpoint-type",
                                                                   "types-case-fraud-approval-order"]
    meta = xml(files[f"{QUIZ}/assessment_meta.xml"])
    assert meta.findtext(f"{{{meta.nsmap[None]}}}points_possible") == "4.0"  # the scenario scores nothing


def test_a_case_question_without_its_case_stays_at_the_top_with_a_warning(tmp_path):
    result = export_types("canvas", tmp_path / "c.zip", cases={})
    root = xml(read_package(tmp_path / "c.zip")[f"{QUIZ}/{QUIZ}.xml"])
    top = root.find(f"{Q}assessment/{Q}section")
    assert [etree.QName(c).localname for c in top] == ["item"] * 4
    single = question("case-single.yaml")
    assert any(w.startswith(f"{single.path}:6:7: ") and "not part of this export" in w for w in shown(result))


def test_all_or_nothing_warns_that_matching_is_graded_per_pair(tmp_path):
    result = export_types("canvas", tmp_path / "c.zip", scoring="all-or-nothing")
    for name in ("matching.yaml", "ordering.yaml"):
        assert any(w.startswith(question(name).path + ":") and "per pair" in w for w in shown(result)), name


def test_choice_items_are_unchanged_by_the_new_types(tmp_path):
    """A single-choice question's item is the same bytes alone as beside the new types and a case."""
    export_types("canvas", tmp_path / "alone.zip", questions=[question("case-single.yaml")], cases={})
    export_types("canvas", tmp_path / "all.zip")
    def item_bytes(name):
        root = xml(read_package(tmp_path / name)[f"{QUIZ}/{QUIZ}.xml"])
        item = next(i for i in root.iter(f"{Q}item") if i.get("ident") == "types-case-fraud-endpoint-type")
        # nested one level deeper in the case's group: compare without the indentation
        return etree.tostring(etree.fromstring(etree.tostring(item, with_tail=False),
                                               etree.XMLParser(remove_blank_text=True)))
    assert item_bytes("alone.zip") == item_bytes("all.zip")


def test_markup_in_prompts_responses_and_steps_stays_text(tmp_path):
    payload = "<script>alert('x')</script> ]]> & \"quoted\" café ≤ 日本"
    matching, ordering = question("matching.yaml"), question("ordering.yaml")
    prompts = [dict(p) for p in matching.data["prompts"]]
    responses = [dict(r) for r in matching.data["responses"]]
    steps = [dict(s) for s in ordering.data["steps"]]
    prompts[0]["text"], responses[0]["text"], steps[0]["text"] = payload, payload, payload
    export_types("canvas", tmp_path / "h.zip", questions=[question("matching.yaml", prompts=prompts, responses=responses),
                                                         question("ordering.yaml", steps=steps)], cases={})
    root = xml(read_package(tmp_path / "h.zip")[f"{QUIZ}/{QUIZ}.xml"])
    for mattext in root.iter(f"{Q}mattext"):
        if mattext.get("texttype") == "text/html":
            assert not list(etree.fromstring(f"<div>{mattext.text}</div>".encode()).iter("script"))
    items = {i.get("ident"): _canvas_matching(i) for i in root.iter(f"{Q}item")}
    assert items[matching.id]["answers"][0] == {**items[matching.id]["answers"][0], "left": payload, "match": payload}
    assert items[ordering.id]["answers"][0]["match"] == payload
