"""`qlint import --from qti21 | qti30 | moodle`: qlint's own exports read back (the sample bank,
images), and files from other tools: what fits is mapped, everything else is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml


from kit.authoring import make_project, run, schema_errors
from conftest import BANK, REPO
from kit.export import image_project


FIXTURES = Path(__file__).parent / "fixtures" / "import"
# What Moodle XML cannot carry (docs/exports-web.md, "Dropped"); the importer cannot bring it back.
MOODLE_DROPS = ("status", "difficulty", "related")


@pytest.fixture
def project(tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def sample_bank() -> dict[str, dict]:
    out = {}
    for path in sorted((BANK / "mla-c01").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data["status"] in ("published", "review"):  # what export takes (case study files too)
            out[data["id"]] = data
    return out


def imported(root: Path) -> dict[str, tuple[Path, dict]]:
    out = {}
    for path in sorted(root.rglob("*.yaml")):
        if "exams" not in path.parts:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            out[data["id"]] = (path, data)
    return out


def final_newline(data):
    """Rendering drops a text's final newline; the importer ends multi-line text with one, one-line text without."""
    if isinstance(data, dict):
        return {k: final_newline(v) for k, v in data.items()}
    if isinstance(data, list):
        return [final_newline(v) for v in data]
    if isinstance(data, str):
        body = data.rstrip("\n")
        return body + "\n" if "\n" in body else body
    return data


def export(capsys, fmt: str, out: Path, *extra: str) -> None:
    code, _out, err = run(capsys, "export", "--format", fmt, "--output", str(out), *extra)
    assert code == 0, err


@pytest.mark.parametrize("fmt,zipped", [("qti21", True), ("qti21", False), ("qti30", True)])
def test_qti_package_of_the_sample_bank_reads_back_as_the_same_questions(capsys, tmp_path, monkeypatch, fmt, zipped):
    monkeypatch.chdir(REPO)
    package = tmp_path / ("pkg.zip" if zipped else "pkg")
    export(capsys, fmt, package, *([] if zipped else ["--no-zip"]))
    project = tmp_path / "project"
    make_project(project)
    monkeypatch.chdir(project)
    code, out, err = run(capsys, "import", "--from", fmt, str(package))
    assert code == 0, err
    expected = sample_bank()
    cases = sum(1 for d in expected.values() if "scenario" in d)
    assert "could not map" not in err, err
    assert f"Imported {len(expected) - cases} questions and {cases} case study; 0 item(s) could not be mapped." in err
    back = imported(project / "bank")
    assert len(out.splitlines()) == len(expected)
    assert set(back) == set(expected)
    for qid, (path, data) in back.items():
        assert data == final_newline(expected[qid]), qid  # every field, every text, exactly
        if "scenario" in data:  # the case study: a file of the exam's cases/ folder (`qlint check` below validates it)
            assert path.parent.name == "cases", path
            continue
        assert path.parent.name == data["domain"] and schema_errors(project, path) == []
        assert f"# Imported by qlint from {package}/items/{qid}.xml:2 ({fmt}); review it." in path.read_text(encoding="utf-8")
    code, _out, err = run(capsys, "check", "bank")
    assert code == 0, err
    assert run(capsys, "format", "--check", "bank")[0] == 0


def test_moodle_xml_of_the_sample_bank_reads_back(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    export(capsys, "moodle", tmp_path / "bank.xml")
    project = tmp_path / "project"
    make_project(project)
    monkeypatch.chdir(project)
    code, _out, err = run(capsys, "import", "--from", "moodle", str(tmp_path / "bank.xml"))
    assert code == 0, err
    back, expected = imported(project / "bank"), sample_bank()
    cases = {qid: back.pop(qid) for qid, (path, _data) in list(back.items()) if path.parent.name == "cases"}
    assert set(cases) == {qid for qid, d in expected.items() if "scenario" in d}
    expected = {qid: d for qid, d in expected.items() if qid not in cases}
    assert set(back) == set(expected)
    for qid, (path, data) in back.items():
        want = final_newline(expected[qid])
        assert data["status"] == "draft"
        for key in MOODLE_DROPS:
            want.pop(key, None)
            data.pop(key, None)
        # ids of options, steps, prompts and responses are slugs of the text (Moodle has no ids)
        if want["type"] == "ordering":
            want.pop("shuffle", None)  # Moodle always shuffles an ordering question's items
            assert [s["text"] for s in data["steps"]] == [s["text"] for s in want["steps"]]
            for s, w in zip(data["steps"], want["steps"]):
                w["id"] = s["id"]
        elif want["type"] == "matching":
            ids = {w["text"]: r["id"] for r in data["responses"] for w in want["responses"] if w["text"] == r["text"]}
            renamed = {w["id"]: ids[w["text"]] for w in want["responses"]}
            for r in want["responses"]:
                r["id"] = renamed[r["id"]]
            for p, w in zip(data["prompts"], want["prompts"]):
                w["id"], w["match"] = p["id"], renamed[w["match"]]
            data["responses"].sort(key=lambda r: r["id"])  # listed as the prompts name them
            want["responses"].sort(key=lambda r: r["id"])
        else:
            if any(o.get("pinned") for o in want["options"]):
                want["shuffle"] = False  # Moodle cannot pin one option: the export turns shuffling off
            assert [o["text"] for o in data["options"]] == [o["text"] for o in want["options"]]
            for o, w in zip(data["options"], want["options"]):
                w.pop("pinned", None)
                w["id"] = o["id"]
        assert data == want, qid
        assert schema_errors(project, path) == []
    bank_cases = {c["id"]: c for c in (yaml.safe_load(f.read_text(encoding="utf-8"))
                                       for f in (BANK / "mla-c01").glob("cases/*.yaml"))}
    for cid, (_path, data) in cases.items():  # a case's description question comes back as its file
        assert data == {**final_newline(bank_cases[cid]), "status": "draft"}, cid


def test_images_travel_into_the_bank_beside_the_question(capsys, tmp_path, monkeypatch):
    root, png = image_project(tmp_path)
    monkeypatch.chdir(root)
    export(capsys, "qti21", tmp_path / "pkg.zip")
    export(capsys, "moodle", tmp_path / "bank.xml")
    for fmt, source, image in (("qti21", "pkg.zip", "img/gpu.png"), ("moodle", "bank.xml", "img/gpu.png")):
        project = tmp_path / f"into-{fmt}"
        make_project(project)
        monkeypatch.chdir(project)
        code, _out, err = run(capsys, "import", "--from", fmt, str(tmp_path / source))
        assert code == 0, err
        folder = project / "bank" / "mla-c01" / "model-development"
        question = yaml.safe_load((folder / "dev-layer-split-gpus.yaml").read_text(encoding="utf-8"))
        assert f"![GPU memory layout]({image})" in question["stem"]
        assert f"![again]({image})" in question["options"][0]["rationale"]
        assert (folder / image).read_bytes() == png
        assert run(capsys, "check", "bank")[0] == 0


def test_moodle_xml_from_moodle_itself(capsys, project):
    code, out, err = run(capsys, "import", "--from", "moodle", str(FIXTURES / "foreign-moodle.xml"))
    assert code == 1  # things were reported
    src = FIXTURES / "foreign-moodle.xml"
    for line, message in (
        (9, "partial-credit grades [100.0, 50.0, 0.0] have no equivalent; only the best-graded answer is keyed"),
        (9, "name 'Layer split across GPUs' is not a qlint id; the id is 'mla-c01-model-development-layer-split-across-gpus'"),
        (21, "the question is hidden in Moodle; qlint has no such setting (status is draft)"),
        (26, "<correctfeedback> 'Well done!' has no place in a qlint question"),
        (42, "<hint> 'Think about memory.' has no place in a qlint question"),
        (9, "tag 'GPU Memory' became 'gpu-memory'"),
        (49, "truefalse question 'Dropout is a regulariser': only multichoice, match and ordering questions are imported"),
        (57, "no explanation; a TODO placeholder was written"),
    ):
        assert f"{src}:{line}:1: I001 could not map: {message}" in err, err
    folder = project / "bank" / "mla-c01" / "model-development"
    split = yaml.safe_load((folder / "layer-split-across-gpus.yaml").read_text(encoding="utf-8"))
    assert split["id"] == "mla-c01-model-development-layer-split-across-gpus"
    assert split["stem"] == "A 70B model does not fit on one GPU.\\\nWhich strategy splits its **layers** across GPUs?\n"
    assert [(o["text"], o["correct"]) for o in split["options"]] == [
        ("Model parallelism", True), ("Pipeline parallelism", False), ("Data parallelism \\*copies\\* the model", False)]
    assert split["options"][0]["rationale"] == "It places different layers on different GPUs."
    assert "rationale" not in split["options"][1]
    assert split["explanation"] == "Model parallelism places layers on different GPUs."
    assert split["shuffle"] is False and split["tags"] == ["gpu-memory"] and split["status"] == "draft"
    multi = yaml.safe_load((folder / "overfitting-fixes.yaml").read_text(encoding="utf-8"))
    assert multi["type"] == "multiple" and multi["choose"] == 2
    assert multi["stem"] == "Which **two** changes reduce overfitting? (Choose TWO.)"  # format="markdown" is kept as it is
    assert [o["correct"] for o in multi["options"]] == [True, True, False]
    text = (folder / "layer-split-across-gpus.yaml").read_text(encoding="utf-8")
    assert "# qlint import: could not map (line 42): <hint> 'Think about memory.' has no place" in text
    for path in folder.glob("*.yaml"):
        assert schema_errors(project, path) == []


FOREIGN_ITEM = """<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="Item_7" title="Seven" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>B</value></correctResponse>
  </responseDeclaration>
  <itemBody>
    <p>Read the scenario: a model is <em>too big</em> for one GPU.</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <prompt>Which strategy fits it?</prompt>
      <simpleChoice identifier="A">Data parallelism<feedbackInline outcomeIdentifier="FEEDBACK" identifier="A" showHide="show">Copies all weights.</feedbackInline></simpleChoice>
      <simpleChoice identifier="B" fixed="true">Model parallelism</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="SOLUTION" showHide="show"><p>Split the layers.</p></modalFeedback>
</assessmentItem>
"""
TEXT_ITEM = """<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="Item_8" title="Eight" adaptive="false" timeDependent="false">
  <itemBody><p>Name the strategy: <textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>
</assessmentItem>
"""
FOREIGN_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M1">
  <organizations/>
  <resources>
    <resource identifier="R7" type="imsqti_item_xmlv2p1" href="q/item7.xml"><file href="q/item7.xml"/></resource>
    <resource identifier="R8" type="imsqti_item_xmlv2p1" href="q/item8.xml"><file href="q/item8.xml"/></resource>
    <resource identifier="R9" type="imsqti_item_xmlv2p1" href="q/missing.xml"/>
  </resources>
</manifest>
"""


def test_qti_items_from_another_tool(capsys, project):
    package = project / "foreign"
    (package / "q").mkdir(parents=True)
    (package / "imsmanifest.xml").write_text(FOREIGN_MANIFEST, encoding="utf-8")
    (package / "q" / "item7.xml").write_text(FOREIGN_ITEM, encoding="utf-8")
    (package / "q" / "item8.xml").write_text(TEXT_ITEM, encoding="utf-8")
    code, out, err = run(capsys, "import", "--from", "qti21", "foreign", "--exam", "MLA-C01", "--domain", "model-development")
    assert code == 1
    for expected in (
        "foreign/q/item7.xml:2:1: I001 could not map: item identifier 'Item_7' is not a qlint id; it became 'mla-c01-model-development-item-7'",
        "foreign/q/item7.xml:10:1: I001 could not map: choice identifier 'A' is not a qlint option id; it became 'a'",
        "foreign/q/item7.xml:14:1: I001 could not map: modal feedback 'SOLUTION' became the explanation",
        "foreign/q/item8.xml:2:1: I001 could not map: item 'Item_8' has textEntryInteraction; only items with one choice, order or match interaction are imported",
        "foreign/imsmanifest.xml:7:1: I001 could not map: item file 'q/missing.xml' is not in the package",
    ):
        assert expected in err, err
    (path,) = (project / "bank" / "mla-c01" / "model-development").glob("*.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["stem"] == "Read the scenario: a model is *too big* for one GPU.\n\nWhich strategy fits it?\n"
    assert data["options"] == [
        {"id": "a", "text": "Data parallelism", "correct": False, "rationale": "Copies all weights."},
        {"id": "b", "text": "Model parallelism", "correct": True, "pinned": True},
    ]
    assert data["shuffle"] is False and data["status"] == "draft" and data["explanation"] == "Split the layers."
    assert schema_errors(project, path) == []


def test_not_a_package_or_not_moodle(capsys, project):
    (project / "empty").mkdir()
    code, _out, err = run(capsys, "import", "--from", "qti21", "empty")
    assert code == 2 and "empty:1:1: I002 no imsmanifest.xml: not a QTI content package" in err
    (project / "notes.zip").write_bytes(b"not a zip at all")
    code, _out, err = run(capsys, "import", "--from", "qti21", "notes.zip")
    assert code == 2 and "notes.zip:1:1: I002 not a zip file or a package folder" in err
    (project / "broken.xml").write_text("<quiz><question type='multichoice'>\n<name>", encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "moodle", "broken.xml")
    assert code == 2 and "broken.xml:2:" in err and "I002" in err and "not well-formed XML" in err
    (project / "other.xml").write_text("<html/>", encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "moodle", "other.xml")
    assert code == 1 and "the root element is <html>, not <quiz>: not Moodle XML" in err
    assert not list((project / "bank").rglob("*.yaml"))[1:]  # only the exam definition


def test_a_message_that_quotes_a_position_is_not_read_as_one(capsys, project):
    """A source's own text that looks like `file:line:col: ` (a question named after a time) stays
    in the message: problems are records, the diagnostic is placed where the importer found it."""
    (project / "clock.xml").write_text(
        "<quiz>\n<question type='truefalse'>\n<name><text>Shift 10:30:15: night</text></name>\n"
        "<questiontext><text>Is it late?</text></questiontext>\n</question>\n</quiz>\n", encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "moodle", "clock.xml")
    assert code == 1
    assert ("clock.xml:2:1: I001 could not map: truefalse question 'Shift 10:30:15: night': only multichoice, "
            "match and ordering questions are imported") in err, err
