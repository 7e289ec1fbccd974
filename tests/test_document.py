"""The Document (loading/document.py): one file read once, placed through; the project Session
(project/session.py): exam definitions read and validated once, not linted."""

from __future__ import annotations

import pickle
import shutil

import pytest

from qlint.diagnostic import Severity
from qlint.loading.document import Document, document_for, holding
from qlint.loading.errors import LoadError
from qlint.loading.limits import Limits
from qlint.cli.config import load_config
from qlint.project.session import Session

from conftest import BANK

TEXT = "id: q1\nstem: |\n  Which one?\noptions:\n  - id: a\n    text: First\n"


def test_locate_and_diagnostic_place_a_pointer(tmp_path):
    doc = Document(str(tmp_path / "q.yaml"), TEXT, "q.yaml")
    assert doc.locate("/options/0/text") == (6, 11, 6, 15)
    assert doc.locate("/stem", at_key=True)[:2] == (2, 1)
    d = doc.diagnostic("O001", "/options/0/text", "too short", name="short-option", severity=Severity.WARNING)
    assert (d.path, d.line, d.col, d.end_col, d.code, d.name, d.pointer) == ("q.yaml", 6, 11, 15, "O001", "short-option",
                                                                              "/options/0/text")
    assert doc.diagnostic("X", "/stem", "m", within="one").col == 9  # `within` inside the value


def test_the_locator_is_composed_once_and_not_pickled(tmp_path):
    doc = Document(str(tmp_path / "q.yaml"), TEXT)
    first = doc.locator
    doc.locate("/id")
    assert doc.locator is first
    copy = pickle.loads(pickle.dumps(doc))
    assert copy._locator is None and copy.locate("/id") == doc.locate("/id")


def test_load_reads_and_parses_and_says_why_not(tmp_path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(TEXT, encoding="utf-8")
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    assert Document.load(str(good), tmp_path, Limits()).data["id"] == "q1"
    with pytest.raises(LoadError) as exc:
        Document.load(str(bad), tmp_path, Limits())
    assert exc.value.code == "Y001"
    doc = Document.read(str(bad), tmp_path, Limits())  # read, not parsed: the text for --show-source
    assert doc.text == "id: [unclosed\n" and doc.data is None


def test_a_held_document_is_found_without_reading(tmp_path):
    path = str(tmp_path / "gone.yaml")  # no such file: only the held Document can answer
    with holding([Document(path, TEXT)]):
        assert document_for(path).locate("/id")[:2] == (1, 5)
    with pytest.raises(LoadError):
        document_for(path)


def test_the_session_reads_exam_definitions_once_by_validating(tmp_path, monkeypatch):
    shutil.copytree(BANK / "exams", tmp_path / "bank" / "exams")
    exams = tmp_path / "bank" / "exams"
    (exams / "broken.yaml").write_text("code: [\n", encoding="utf-8")
    (exams / "invalid.yaml").write_text("code: X-1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    config = load_config(tmp_path)
    session = Session.open(config)
    assert sorted(session.exams) == ["MLA-C01"]
    assert isinstance(session.document(str(exams / "broken.yaml")), LoadError)
    assert isinstance(session.document(str(exams / "invalid.yaml")), Document)  # read; defines no exam
    assert session.add() == []  # a folder is read once per session
