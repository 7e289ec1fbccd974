"""Moodle XML read back by an independent reader (moodle-xml-parser) and checked with lxml."""

from __future__ import annotations

import base64
from html import unescape as seen

import pytest
from lxml import etree
from lxml import html as lhtml
from moodle_xml_parser.parser import parse_file

from qlint.markup import render
from qlint.exporters.kit.feedback import compact

from kit.export import (ALLOWED_GRADES, banks, export, exported, hostile_project, image_project,  # noqa: F401
                            load_questions, mixed, plain, words_of)


@pytest.mark.parametrize("bank", ["sample", "generated"])
def test_moodle_xml_parser_reads_back_questions_grades_and_feedback(banks, exported, bank):
    questions = {q.id: q for q in banks[bank][0] if q.is_choice}  # ordering, matching: tests further down
    path, _ = exported("moodle", bank)
    read = parse_file(str(path))["multichoice"]
    assert [r.name for r in read] == list(questions)  # every question, in export order, none lost
    for r in read:
        q = questions[r.name]
        assert r.single == (q.type == "single")
        assert len(r.options) == len(q.options)
        fractions = [o.score_fraction for o in r.options]
        assert all(abs(f) in ALLOWED_GRADES for f in fractions), fractions
        assert abs(sum(f for f in fractions if f > 0) - 100) < 1e-3
        assert [f > 0 for f in fractions] == [o.correct for o in q.options]
        if q.type == "multiple":  # ticking everything must not score
            assert sum(fractions) <= 1e-3
        # The reader html-unescapes text after XML parsing, so compare with our HTML unescaped once.
        for got, o in zip(r.options, q.options):
            assert got.answer == seen(compact(o.text))
            assert seen(render(o.rationale)) in got.feedback
            if o.right_when:
                assert seen(render(o.right_when)) in got.feedback
        assert r.text_pre_parse == seen(render(q.stem))
        assert seen(render(q.explanation)) in r.general_feedback and seen(render(q.trap)) in r.general_feedback
        assert plain(q.stem).split()[:5] == words_of(r.text_pre_parse).split()[:5]
        assert r.correct_feedback and r.incorrect_feedback and r.partially_correct_feedback


def test_structure_categories_idnumbers_tags(banks, exported):
    questions, exams, _ = banks["sample"]
    questions = [q for q in questions if q.is_choice]
    path, result = exported("moodle", "sample")
    root = etree.parse(str(path)).getroot()
    cats = [q.findtext("category/text") for q in root.iterfind("question[@type='category']")
            if q.findtext("idnumber").count("/") < 2]  # exam and domains (a case's has three parts)
    names = {d.name for d in exams["MLA-C01"].domains}
    assert cats[0] == "$course$/MLA-C01"
    assert {c.split("/", 2)[2] for c in cats[1:]} == names
    items = root.findall("question[@type='multichoice']")
    assert [i.findtext("idnumber") for i in items] == [q.id for q in questions]
    for item, q in zip(items, questions):
        assert [t.findtext("text") for t in item.iterfind("tags/tag")] == [*q.data["tags"], *(f"task:{t}" for t in q.data.get("tasks", []))]
        assert item.findtext("answernumbering") == "ABCD"
        assert item.findtext("questiontext/text") and item.find("questiontext").get("format") == "html"
        assert float(item.findtext("defaultgrade")) == 1 and 0 <= float(item.findtext("penalty")) <= 1
    # each domain category comes right before its questions
    order = [(q.get("type"), q.findtext("category/text") or q.findtext("idnumber")) for q in root]
    first = order.index(("multichoice", questions[0].id))
    assert order[first - 1][0] == "category"
    assert any("no place for related questions" in w for w in shown(result))


@pytest.mark.slow
def test_shuffle_honours_question_flag_option_and_pins(tmp_path, banks):
    questions, exams, root = banks["generated"]
    some = mixed(questions)
    out = tmp_path / "m.xml"
    result = export("moodle", some, exams, root, out)
    shuffles = {q.findtext("idnumber"): q.findtext("shuffleanswers") for q in etree.parse(str(out)).getroot().iterfind("question[@type='multichoice']")}
    for q in some:
        pinned = any(o.raw.get("pinned") for o in q.options)
        expected = "false" if q.data.get("shuffle") is False or pinned else "true"
        assert shuffles[q.id] == expected, q.id
        if pinned:
            assert any(w.startswith(f"{q.path}:") and "shuffling is off" in w for w in shown(result))
    assert "false" in shuffles.values() and "true" in shuffles.values()
    export("moodle", some, exams, root, out, shuffle=False)
    assert {q.findtext("shuffleanswers") for q in etree.parse(str(out)).getroot().iterfind("question[@type='multichoice']")} == {"false"}


def test_images_travel_as_base64_files(tmp_path):
    root, data = image_project(tmp_path)
    questions, exams, bank = load_questions(root)
    out = tmp_path / "m.xml"
    export("moodle", questions, exams, bank, out)
    item = next(q for q in etree.parse(str(out)).getroot().iterfind("question[@type='multichoice']")
                if q.findtext("idnumber") == "mla-c01-dev-layer-split-gpus")
    stem = item.find("questiontext")
    assert '<img src="@@PLUGINFILE@@/gpu.png" alt="GPU memory layout" />' in stem.findtext("text")
    (f,) = stem.findall("file")
    assert f.get("name") == "gpu.png" and f.get("encoding") == "base64" and base64.b64decode(f.text) == data
    feedback = item.find("answer/feedback")
    assert "@@PLUGINFILE@@/gpu.png" in feedback.findtext("text")
    assert base64.b64decode(feedback.find("file").text) == data


def test_hostile_text_gives_valid_xml_and_inert_html(tmp_path):
    root, qid = hostile_project(tmp_path)
    questions, exams, bank = load_questions(root)
    out = tmp_path / "m.xml"
    export("moodle", questions, exams, bank, out)
    tree = etree.parse(str(out), etree.XMLParser(resolve_entities=False))  # raises if not well-formed
    item = next(q for q in tree.getroot().iterfind("question[@type='multichoice']") if q.findtext("idnumber") == qid)
    texts = [item.findtext("questiontext/text"), item.findtext("generalfeedback/text"),
             *(a.findtext("text") for a in item.iterfind("answer")), *(a.findtext("feedback/text") for a in item.iterfind("answer"))]
    for text in texts:
        fragment = lhtml.fragment_fromstring(text, create_parent="div")
        assert not fragment.xpath("//script | //img[@onerror] | //b"), text  # markup arrived as text
    stem = lhtml.fragment_fromstring(texts[0], create_parent="div").text_content()
    assert "<script>window.__pwned = 1</script>" in stem and "]]>" in stem and "Zürich 東京 🙂" in stem
    assert "<b>bold</b> ]]> & {x}" in lhtml.fragment_fromstring(texts[2], create_parent="div").text_content()
    assert len(parse_file(str(out))["multichoice"]) == len([q for q in questions if q.is_choice])


def test_forbidden_character_is_refused_with_file_and_line(tmp_path):
    root, _ = hostile_project(tmp_path)
    path = root / "bank" / "mla-c01" / "model-development" / "hostile.yaml"
    # a YAML escape puts U+000B into the data (a raw one in the file is refused while reading)
    text = path.read_text(encoding="utf-8").replace("    text: Model parallelism", '    text: "Model\\vparallelism"', 1)
    path.write_text(text, encoding="utf-8")
    questions, exams, bank = load_questions(root)
    with refused(r"hostile\.yaml:\d+:\d+: /\S+ holds U\+000B, a character XML forbids"):
        export("moodle", questions, exams, bank, tmp_path / "m.xml")
    assert not (tmp_path / "m.xml").exists()


@pytest.mark.parametrize("keys", range(1, 10))
def test_grades_stay_on_moodles_list_for_every_key_count(keys):
    from qlint.exporters.kit.grades import fractions
    from qlint.model import Question

    for wrong in range(1, 11 - keys):
        opts = [{"id": f"k{i}", "text": "k", "correct": True} for i in range(keys)]
        opts += [{"id": f"w{i}", "text": "w", "correct": False} for i in range(wrong)]
        q = Question("q.yaml", {"type": "multiple" if keys > 1 else "single", "options": opts})
        grades = fractions(q)
        assert all(abs(g) in ALLOWED_GRADES for g in grades), (keys, wrong, grades)
        assert abs(sum(g for g in grades if g > 0) - 100) < 1e-3
        if keys > 1:
            assert abs(sum(grades)) < 1e-3  # ticking every box scores nothing


# -- ordering, matching and case studies (issue 13), read back by tests/kit/moodle_reference.py ----


import shutil  # noqa: E402

import yaml  # noqa: E402

from kit import moodle_reference  # noqa: E402
from conftest import BANK  # noqa: E402
from kit.export import shown, load_bank, png, refused  # noqa: E402
from qlint.exporters import EXPORTERS, ExportJob  # noqa: E402
from qlint.model import Case, Question  # noqa: E402
from kit.export import TYPES, case, export_types, md_words, question, words  # noqa: E402


@pytest.fixture(scope="module")
def types_xml(tmp_path_factory):
    out = tmp_path_factory.mktemp("moodle-types") / "types.xml"
    result = export_types("moodle", out)
    return out, result, {q.idnumber: q for q in moodle_reference.read(out.read_bytes())}


def test_matching_is_a_match_question_with_every_pair_and_the_surplus_response(types_xml):
    _, _, read = types_xml
    q = question("matching.yaml")
    got = read[q.id]
    text = {r.id: r.text for r in q.responses}
    assert got.type == "match" and got.settings["shuffleanswers"] == "true"
    assert got.stems == [(p.text, text[p.match]) for p in q.prompts]
    assert sorted(got.choices) == sorted(r.text for r in q.responses)  # Ground Truth: an extra wrong choice
    assert "shownumcorrect" in got.settings and got.tags == q.data["tags"]


def test_match_grades_each_pair(types_xml):
    _, _, read = types_xml
    got = read[question("matching.yaml").id]
    right = dict(got.stems)
    assert got.grade(right) == 1.0
    first, second = got.stems[0][0], got.stems[1][0]
    swapped = {**right, first: right[second], second: right[first]}
    assert got.grade(swapped) == pytest.approx(1 - 2 / len(got.stems))  # Moodle's per-pair credit
    assert got.grade({**right, first: "SageMaker Ground Truth"}) == pytest.approx(1 - 1 / len(got.stems))


def test_pair_and_response_rationales_are_in_the_general_feedback_under_their_pair(types_xml):
    _, _, read = types_xml
    q = question("matching.yaml")
    general = read[q.id].general_feedback
    pairs = lhtml.fragment_fromstring(general, create_parent="div").xpath("//div[@class='qlint-pair']")
    text = {r.id: r.text for r in q.responses}
    assert len(pairs) == len(q.prompts)
    for div, p in zip(pairs, q.prompts):
        assert words(etree.tostring(div, encoding="unicode")) == \
            f"{md_words(p.text)} → {md_words(text[p.match])} {md_words(p.rationale)}"
    (surplus,) = lhtml.fragment_fromstring(general, create_parent="div").xpath("//div[@class='qlint-response']")
    assert md_words(q.responses[-1].rationale) in words(etree.tostring(surplus, encoding="unicode"))
    assert words(general).startswith(md_words(q.explanation))


def test_ordering_is_qtype_ordering_with_the_keyed_steps_in_order(types_xml):
    _, result, read = types_xml
    q = question("ordering.yaml")
    got = read[q.id]
    assert got.type == "ordering"
    assert got.order == [s.text for s in q.key_order] and got.fractions == ["1", "2", "3"]
    assert got.settings["selecttype"] == "ALL" and got.settings["selectcount"] == str(len(q.key_order))
    assert got.settings["layouttype"] == "VERTICAL" and got.settings["gradingtype"] == "ABSOLUTE_POSITION"
    assert "Start a batch transform job on the model" not in got.order  # the distractor step is no item
    assert got.grade(got.order) == 1.0
    assert got.grade([got.order[1], got.order[0], got.order[2]]) == pytest.approx(1 / 3)
    # ...and why it is no step is in the general feedback, with every keyed step's reason
    general = lhtml.fragment_fromstring(got.general_feedback, create_parent="div")
    steps = general.xpath("//div[@class='qlint-step']")
    assert [words(etree.tostring(d, encoding="unicode")) for d in steps] == \
        [f"{n}. {md_words(s.text)} {md_words(s.rationale)}" for n, s in enumerate(q.key_order, 1)]
    (distractor,) = general.xpath("//div[@class='qlint-step qlint-distractor']")
    step = q.steps[-1]
    assert words(etree.tostring(distractor, encoding="unicode")) == (
        f"Not part of the order: {md_words(step.text)} {md_words(step.rationale)} When it would be right "
        f"{md_words(step.right_when)}")
    warning = next(w for w in shown(result) if w.startswith(f"{q.path}:") and "distractor steps" in w)
    assert warning.startswith(f"{q.path}:43:5: ")  # the first `correct: false` step


def test_all_or_nothing_orders_all_or_nothing_and_warns_for_matching(tmp_path):
    out = tmp_path / "aon.xml"
    result = export_types("moodle", out, scoring="all-or-nothing")
    read = {q.idnumber: q for q in moodle_reference.read(out.read_bytes())}
    ordering = read[question("ordering.yaml").id]
    assert ordering.settings["gradingtype"] == "ALL_OR_NOTHING"
    assert ordering.grade([ordering.order[1], ordering.order[0], ordering.order[2]]) == 0.0
    matching = question("matching.yaml")
    assert any(w.startswith(f"{matching.path}:") and "per pair" in w for w in shown(result))


def test_a_case_is_a_category_with_the_scenario_then_its_questions_in_case_order(types_xml):
    path, _, read = types_xml
    order = [q for q in moodle_reference.read(path.read_bytes())]
    ids = [q.idnumber for q in order]
    start = ids.index("types-case-fraud-scoring")
    scenario = order[start]
    assert scenario.type == "description" and scenario.name == "Fraud scoring for card payments"
    assert scenario.default_grade == 0 and "within 100 ms" in words(scenario.text)
    assert ids[start + 1:start + 3] == ["types-case-fraud-endpoint-type", "types-case-fraud-approval-order"]
    for q in order[start:start + 3]:  # one category for the case, under its exam and domain
        assert q.category == "$course$/MLA-C01/Deployment and Orchestration of ML Workflows/Fraud scoring for card payments"
        assert q.category_idnumber == "MLA-C01/deployment-orchestration/types-case-fraud-scoring"
    assert read["types-case-fraud-approval-order"].type == "ordering"
    # the multiple-choice reader still reads every choice question of the file
    assert [r.name for r in parse_file(str(path))["multichoice"]] == ["types-case-fraud-endpoint-type"]


def test_a_case_question_carries_its_scenario_before_its_stem(types_xml):
    """Moodle shows the case's description question only where a quiz places it: each question of
    the case starts with the case's title and scenario, so one drawn or placed alone has it too."""
    _, _, read = types_xml
    scenario = case().data["scenario"]
    for name in ("case-single.yaml", "case-ordering.yaml"):
        q = question(name)
        text = words(read[q.id].text)
        assert text.startswith("Case study: Fraud scoring for card payments"), text[:120]
        assert md_words(scenario) in text and md_words(q.stem) in text
        assert text.index(md_words(scenario)) < text.index(md_words(q.stem))
    alone = read[question("ordering.yaml").id]
    assert "Case study" not in words(alone.text)  # only the case's questions


def test_a_question_whose_case_is_missing_is_exported_alone_with_a_warning(tmp_path):
    out = tmp_path / "alone.xml"
    result = export_types("moodle", out, cases={})
    read = moodle_reference.read(out.read_bytes())
    assert "description" not in {q.type for q in read}
    single = question("case-single.yaml")
    assert any(w.startswith(f"{single.path}:6:7: ") and "not part of this export" in w for w in shown(result))
    got = next(q for q in read if q.idnumber == single.id)
    assert got.category_idnumber == "MLA-C01/deployment-orchestration"


def test_single_and_multiple_output_is_unchanged_by_the_new_types(tmp_path, banks):
    """Choice questions give the same bytes whether or not ordering/matching questions and a case
    share the export: their XML is built exactly as before."""
    questions, exams, root = banks["sample"]
    alone = tmp_path / "alone.xml"
    export("moodle", questions, exams, root, alone)
    mixed_out = tmp_path / "mixed.xml"
    extra = [question("matching.yaml"), question("ordering.yaml")]
    export("moodle", sorted(questions + extra, key=lambda q: (q.exam, q.domain, q.id)), exams, root, mixed_out)
    def choice_blocks(data: bytes) -> list[bytes]:
        return [etree.tostring(q, with_tail=False) for q in etree.fromstring(data).iterfind("question")
                if q.get("type") == "multichoice"]
    assert choice_blocks(alone.read_bytes()) == choice_blocks(mixed_out.read_bytes())


def test_hostile_text_in_steps_prompts_and_responses_reads_back_exactly(tmp_path):
    from kit.export import HOSTILE
    from qlint.exporters.kit.breakdown import plain_text

    matching, ordering = question("matching.yaml"), question("ordering.yaml")
    prompts = [dict(p) for p in matching.data["prompts"]]
    responses = [dict(r) for r in matching.data["responses"]]
    steps = [dict(s) for s in ordering.data["steps"]]
    prompts[0]["text"], responses[0]["text"], steps[0]["text"] = HOSTILE, HOSTILE, HOSTILE
    out = tmp_path / "h.xml"
    export_types("moodle", out, questions=[question("ordering.yaml", steps=steps),
                                           question("matching.yaml", prompts=prompts, responses=responses)], cases={})
    read = {q.idnumber: q for q in moodle_reference.read(out.read_bytes())}
    assert read[matching.id].stems[0] == (compact(HOSTILE), plain_text(HOSTILE))
    assert read[ordering.id].order[0] == compact(HOSTILE)
    for text in (read[matching.id].stems[0][0], read[ordering.id].order[0], read[ordering.id].general_feedback):
        assert not lhtml.fragment_fromstring(text, create_parent="div").xpath("//script | //img[@onerror]")


def test_images_in_steps_prompts_and_the_scenario_travel_with_their_text_area(tmp_path):
    root = tmp_path / "types"
    shutil.copytree(TYPES, root)
    (root / "img").mkdir()
    (root / "img" / "flow.png").write_bytes(png())
    def load(name: str) -> dict:
        return yaml.safe_load((root / name).read_text(encoding="utf-8"))
    ordering, matching, scenario = load("ordering.yaml"), load("matching.yaml"), load("cases/fraud-scoring.yaml")
    ordering["steps"][0]["text"] += " ![flow](img/flow.png)"
    matching["prompts"][0]["rationale"] += "\n![flow](img/flow.png)\n"
    scenario["scenario"] += "\n![flow](../img/flow.png)\n"
    questions = [Question(str(root / "ordering.yaml"), ordering), Question(str(root / "matching.yaml"), matching),
                 Question(str(root / "case-single.yaml"), load("case-single.yaml"))]
    out = tmp_path / "img.xml"
    case_ = Case(str(root / "cases" / "fraud-scoring.yaml"), scenario)
    EXPORTERS.get("moodle").write(ExportJob(questions=questions, exams=load_bank(BANK)[1], output=out, bank_root=root,
                                            cases={case_.id: case_}))
    tree = etree.parse(str(out)).getroot()
    by_id = {q.findtext("idnumber"): q for q in tree.iterfind("question")}
    step = by_id["types-ordering-realtime-deploy"].find("answer")
    general = by_id["types-matching-monitoring-tools"].find("generalfeedback")
    text = by_id["types-case-fraud-scoring"].find("questiontext")
    for area in (step, general, text):
        assert "@@PLUGINFILE@@/flow.png" in area.findtext("text")
        (f,) = area.findall("file")
        assert f.get("name") == "flow.png" and base64.b64decode(f.text) == png()


def test_a_case_question_of_another_domain_is_kept_in_the_case_category_with_a_warning(tmp_path):
    other = question("case-ordering.yaml", domain="monitoring-security")
    out = tmp_path / "d.xml"
    result = export_types("moodle", out, questions=[question("case-single.yaml"), other])
    got = {q.idnumber: q for q in moodle_reference.read(out.read_bytes())}[other.id]
    assert got.category_idnumber == "MLA-C01/deployment-orchestration/types-case-fraud-scoring"
    assert any(w.startswith(f"{other.path}:") and "its own domain 'monitoring-security' is not in the file" in w
               for w in shown(result))


def test_a_response_that_reads_as_list_syntax_is_kept_as_its_text(tmp_path):
    """Found by the round trip: a response `2)` rendered as a block is an empty list item, and the
    pair was lost; responses are rendered inline."""
    q = question("matching.yaml")
    responses = [dict(r) for r in q.data["responses"]]
    responses[0]["text"], responses[1]["text"] = "2)", "- none"
    out = tmp_path / "l.xml"
    result = export_types("moodle", out, questions=[question("matching.yaml", responses=responses)], cases={})
    (got,) = moodle_reference.read(out.read_bytes())
    assert [answer for _stem, answer in got.stems][:2] == ["2)", "- none"]
    assert not any("formatting" in w for w in shown(result))
