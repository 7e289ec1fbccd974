"""Every packaged export on a generated bank of 300 questions (synthbank.practice, two exams): every
manifest href and item checked, every item validated by lxml, a deterministic sample of items by
xmlschema as well (it is ~100x slower), every question's fields read back."""

from __future__ import annotations

import pytest
from lxml import etree

import synthbank
from kit.export import formats, load_bank, missing_from_package, read_package, export, unlisted_in_manifest, xml
from qlint.loading.schema import validate
from kit.qti_readback import comparable, expected
from kit.qti_readback import read_package as read_back
from kit.xsd import cp21_xsd, cp30_xsd, qti21_xsd, qti30_xsd  # noqa: F401  (session fixtures)

pytestmark = pytest.mark.slow  # a 300-question bank through every packaged exporter, validated item by item

N = 300  # ids, manifests and packages behave at 300 as at 1,000 (a bank past any hand-written one)
XMLSCHEMA_SAMPLE = 12  # every 12th item: 25 items per format


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = synthbank.practice(tmp_path_factory.mktemp("gen"), N, exams=2)
    questions, exams = load_bank(root / "bank")
    out = root / "out"
    results = {fmt: export(fmt, questions, exams, root / "bank", out / f"{fmt}.zip") for fmt in formats(packaged=True)}
    return questions, exams, root, {fmt: read_package(out / f"{fmt}.zip") for fmt in results}, results


def test_generated_bank_is_schema_valid_and_varied(generated):
    questions = generated[0]
    assert len(questions) == N
    assert all(validate("question", q.data) == [] for q in questions)
    assert {q.type for q in questions} == {"single", "multiple"}
    assert any(q.data.get("shuffle") is False for q in questions)
    assert any(o.raw.get("pinned") for q in questions for o in q.options)


@pytest.mark.parametrize("fmt", formats(packaged=True))
def test_every_manifest_href_exists_and_every_file_is_listed(generated, fmt):
    files = generated[3][fmt]
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_every_item_validates_and_reads_back(generated, fmt, request):
    questions, _, _, packages, results = generated
    files = packages[fmt]
    item_xsd = request.getfixturevalue("qti21_xsd" if fmt == "qti21" else "qti30_xsd")
    cp_xsd = request.getfixturevalue("cp21_xsd" if fmt == "qti21" else "cp30_xsd")
    items = sorted(n for n in files if n.startswith("items/"))
    assert len(items) == N and results[fmt].warnings == []
    bad = {n: e for n, e in ((n, item_xsd.errors(files[n], engines=("lxml",))) for n in items) if e}
    assert bad == {}
    sample = items[::XMLSCHEMA_SAMPLE]
    bad = {n: e for n, e in ((n, item_xsd.errors(files[n], engines=("xmlschema",))) for n in sample) if e}
    assert bad == {}
    for test in ("tests/GEN-01.xml", "tests/GEN-02.xml"):
        assert item_xsd.errors(files[test]) == []
    assert cp_xsd.errors(files["imsmanifest.xml"]) == []
    read = read_back(files)
    assert len(read) == N
    for q in questions:
        assert comparable(read[q.id]) == expected(q), q.id


def test_canvas_has_one_quiz_per_exam_with_every_question_keyed(generated):
    questions, _, _, packages, results = generated
    files = packages["canvas"]
    Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
    by_id = {q.id: q for q in questions}
    seen = 0
    for quiz in ("qlint-gen-01", "qlint-gen-02"):
        for item in xml(files[f"{quiz}/{quiz}.xml"]).iter(f"{Q}item"):
            q = by_id[item.get("ident")]
            scoring = next(c for c in item.iter(f"{Q}respcondition") if c.findtext(f"{Q}setvar") == "100")
            keyed = sorted(v.text for v in scoring.iter(f"{Q}varequal") if etree.QName(v.getparent()).localname != "not")
            assert keyed == sorted(f"{q.id}_{k.id}" for k in q.keys)
            seen += 1
    assert seen == N
    assert len(results["canvas"].warnings) == 2  # shuffle:false questions turn shuffling off, once per quiz


def test_same_generated_bank_same_bytes(generated, tmp_path):
    questions, exams, root, packages, _ = generated
    export("qti30", questions, exams, root / "bank", tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == (root / "out" / "qti30.zip").read_bytes()
