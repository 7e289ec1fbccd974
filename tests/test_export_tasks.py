"""A question's task statements (`tasks:`, issue 27 point 5) travel in every export that has a
place for them: QTI's LOM classification (one taxon path exam -> domain -> task), Moodle tags and
GIFT `[tag:…]` marks (`task:1.2`), the JSON document (ids on the question, texts under the exam's
domains), and the Markdown and HTML pages (the statement's text). The importers read them back:
the round trips are in test_import_roundtrip."""

from __future__ import annotations

import json
import zipfile

import jsonschema
import pytest
from lxml import etree

from qlint.importers import IMPORTERS, ImportJob
from qlint.model import Question

from kit.export import export, load_questions
from conftest import REPO

LOM = "http://ltsc.ieee.org/xsd/LOM"
SCHEMA = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sample():
    """One sample data-preparation question naming tasks 1.2 and 1.3, the exams and the bank folder."""
    questions, exams, root = load_questions(REPO)
    q = next(q for q in questions if q.domain == "data-preparation")
    return Question(q.path, {**q.data, "tasks": ["1.2", 1.3]}), exams, root  # 1.3 unquoted: YAML's number


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_qti_lom_has_a_taxon_path_per_task(sample, tmp_path, fmt):
    q, exams, root = sample
    export(fmt, [q], exams, root, tmp_path / "p.zip")
    with zipfile.ZipFile(tmp_path / "p.zip") as z:
        manifest = etree.fromstring(z.read("imsmanifest.xml"))
    paths = manifest.findall(f".//{{{LOM}}}classification/{{{LOM}}}taxonPath")
    taxa = [[(t.findtext(f"{{{LOM}}}id"), t.findtext(f"{{{LOM}}}entry/{{{LOM}}}string")) for t in p.findall(f"{{{LOM}}}taxon")]
            for p in paths]
    exam_domain = [("MLA-C01", "AWS Certified Machine Learning Engineer - Associate"),
                   ("data-preparation", "Data Preparation for Machine Learning (ML)")]
    assert taxa == [exam_domain + [("1.2", "Transform data and perform feature engineering")],
                    exam_domain + [("1.3", "Ensure data integrity and prepare data for modeling")]]


def test_moodle_and_gift_carry_task_tags(sample, tmp_path):
    q, exams, root = sample
    export("moodle", [q], exams, root, tmp_path / "b.xml")
    tags = [t.findtext("text") for t in etree.parse(str(tmp_path / "b.xml")).iter("tag")]
    assert tags == [*(q.data.get("tags") or []), "task:1.2", "task:1.3"]
    export("gift", [q], exams, root, tmp_path / "b.gift")
    assert "[tag:task:1.2] [tag:task:1.3]" in (tmp_path / "b.gift").read_text(encoding="utf-8")


def test_json_carries_task_ids_and_the_guides_texts(sample, tmp_path):
    q, exams, root = sample
    export("json", [q], exams, root, tmp_path / "b.json")
    doc = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, SCHEMA)
    assert doc["questions"][0]["tasks"] == ["1.2", "1.3"]
    domains = {d["id"]: d for d in doc["exams"][0]["domains"]}
    assert [t["id"] for t in domains["monitoring-security"]["tasks"]] == ["4.1", "4.2", "4.3"]
    assert domains["data-preparation"]["tasks"][1] == {"id": "1.2", "text": "Transform data and perform feature engineering"}


@pytest.mark.parametrize("fmt, ext", [("markdown", ".md"), ("html", ".html")])
def test_pages_show_the_task_statements(sample, tmp_path, fmt, ext):
    q, exams, root = sample
    export(fmt, [q], exams, root, tmp_path / "site")
    page = (tmp_path / "site" / "mla-c01" / q.domain / f"{q.id}{ext}").read_text(encoding="utf-8")
    assert "Exam guide task statement" in page
    assert "1.2 Transform data and perform feature engineering" in page
    assert "1.3 Ensure data integrity and prepare data for modeling" in page


def test_a_tag_that_is_no_task_id_is_reported_and_left_out(sample, tmp_path):
    """Another tool's `task:` tag that is no guide id: a note, not a question the schema refuses."""
    q, exams, root = sample
    export("moodle", [q], exams, root, tmp_path / "b.xml")
    text = (tmp_path / "b.xml").read_text(encoding="utf-8").replace("task:1.3", "task:intro")
    (tmp_path / "b.xml").write_text(text, encoding="utf-8")
    result = IMPORTERS.get("moodle").read(ImportJob(source=tmp_path / "b.xml", text="", exams=exams,
                                                    data=(tmp_path / "b.xml").read_bytes()))
    assert [i.data.get("tasks") for i in result.questions] == [["1.2"]]
    notes = [u.message for u in [*result.unmapped, *(u for i in result.questions for u in i.unmapped)]]
    assert any("task statement 'intro' is not an id such as 1.2" in m for m in notes), notes
