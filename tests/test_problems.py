"""Problems as records (loading/problems.py): one place() for the exporters' pointers and the
importers' source positions."""

from __future__ import annotations

from qlint.loading.document import Document, holding
from qlint.loading.problems import Problem, place

TEXT = "id: q1\nstem: |\n  Which one?\noptions:\n  - id: a\n    text: First\n"


def test_a_pointer_is_placed_through_the_held_document_without_reading_the_file(tmp_path):
    path = str(tmp_path / "never-written.yaml")  # reading it would fail: the held text is used
    with holding([Document(path, TEXT)]):
        assert place(Problem(path, "/options/0/text", "m")) == (6, 11)
        assert place(Problem(path, "/stem", "m", within="one")) == (3, 9)


def test_a_pointer_in_a_file_that_cannot_be_read_or_does_not_hold_it_is_the_top(tmp_path):
    assert place(Problem(str(tmp_path / "missing.yaml"), "/stem", "m")) == (1, 1)
    (tmp_path / "q.yaml").write_text(TEXT, encoding="utf-8")
    documents: dict = {}
    assert place(Problem(str(tmp_path / "q.yaml"), "/options/0/text", "m"), documents) == (6, 11)
    assert list(documents) == [str(tmp_path / "q.yaml")]  # read once for the whole run


def test_a_source_position_is_kept_as_the_parser_gave_it():
    assert place(Problem("quiz.xml", None, "not well-formed XML", line=7, col=12)) == (7, 12)
    assert place(Problem("quiz.xml", None, "no position")) == (1, 1)
    assert place(Problem("quiz.xml", None, "a line only", line=4)) == (4, 1)
