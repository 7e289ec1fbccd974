"""The export gates run in the registry's wrapper, so an exporter registered anywhere (here: a toy
one, in a test) gets every gate without calling one; and exporters hand back problems as records
(file, JSON pointer, message) that the pipeline places at line:col, never strings parsed back."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from kit.export import png, refused, sample_question, write_question
from qlint.exporters import EXPORTERS, ExportJob, ExportResult, exporter
from qlint.exporters.kit.problems import ExportError, Problem, problem
from qlint.exporters.pipeline import ExportRequest, Filters, Linted, export_bank, place
from qlint.model import Question

ACTIVE_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


@pytest.fixture
def toys(monkeypatch):
    """Register toy exporters for one test only; `ran` lists the jobs their bodies received."""
    EXPORTERS.names()  # load the real ones first, then register into a copy
    monkeypatch.setattr(EXPORTERS, "_items", dict(EXPORTERS._items))
    ran: list[ExportJob] = []

    def body(job: ExportJob) -> ExportResult:
        ran.append(job)
        return ExportResult(warnings=[problem(q, "/stem", "the toy drops the stem") for q in job.questions])

    exporter("toy", "a test's exporter that calls no gate itself")(body)
    exporter("toy-xml", "the same, declared an XML target", xml=True)(body)
    return ran


def _job(tmp_path: Path, data: dict) -> ExportJob:
    path = write_question(tmp_path / "bank" / "mla-c01" / "model-development", data)
    return ExportJob(questions=[Question(str(path), data)], exams={}, output=tmp_path / "out",
                     bank_root=tmp_path / "bank")


def test_a_toy_exporter_gets_the_sound_options_gate(tmp_path, toys):
    data = sample_question()
    data["options"][1]["id"] = data["options"][0]["id"]
    with refused(r"mla-c01-dev-sample\.yaml:\d+:\d+: .*\(S005\)"):
        EXPORTERS.get("toy").write(_job(tmp_path, data))
    assert toys == []  # refused before the target ran


def test_the_xml_gate_runs_for_xml_targets_only(tmp_path, toys):
    data = sample_question(explanation="Split\vthe layers.\n")
    job = _job(tmp_path, data)
    with refused(r"mla-c01-dev-sample\.yaml:\d+:\d+: /explanation holds U\+000B, a character XML forbids"):
        EXPORTERS.get("toy-xml").write(job)
    assert toys == []
    EXPORTERS.get("toy").write(job)  # a text target carries it
    assert len(toys) == 1


@pytest.mark.parametrize("ref, why", [("../../../../outside.png", "leaves the bank"), ("img/bad.svg", "script")])
def test_a_toy_exporter_gets_the_unsafe_image_gate(tmp_path, toys, ref, why):
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    (folder / "img").mkdir(parents=True)
    (folder / "img" / "bad.svg").write_bytes(ACTIVE_SVG)
    (tmp_path / "outside.png").write_bytes(png())
    with refused(rf"mla-c01-dev-sample\.yaml:\d+:\d+: image .*{why}") as info:
        EXPORTERS.get("toy").write(_job(tmp_path, sample_question(stem=f"See ![x]({ref}).\n")))
    assert info.value.problem.pointer == "/stem" and info.value.problem.within == ref
    assert toys == []


def test_every_registered_exporter_is_behind_the_gates():
    """The wrapper is what the registry holds: no exporter's `write` is its bare body."""
    for name, e in EXPORTERS.items():
        assert e.write.__qualname__ == "exporter.<locals>.deco.<locals>.write", name


def _linted(path: str, data: dict) -> Linted:
    return Linted(path, path, "question", data, [])


def test_the_pipeline_places_warnings_and_refusals_at_their_pointer(tmp_path, toys):
    data = sample_question()
    path = str(write_question(tmp_path / "bank" / "mla-c01" / "model-development", data))
    stem_line = next(n for n, line in enumerate(Path(path).read_text().splitlines(), 1) if line.startswith("stem:"))
    request = ExportRequest(format="toy", output=tmp_path / "out", filters=Filters(statuses=("published",)))
    out = export_bank([_linted(path, data)], [], False, {}, request)
    assert [(d.code, d.line, d.col, d.message) for d in out.diagnostics] == [("E003", stem_line, 7, "the toy drops the stem")]

    unsound = copy.deepcopy(data)
    unsound["options"][1]["text"] = unsound["options"][0]["text"]
    out = export_bank([_linted(path, unsound)], [], False, {}, request)
    assert out.refused == "a question cannot be exported"
    assert [(d.code, d.path.endswith("mla-c01-dev-sample.yaml")) for d in out.diagnostics] == [("E001", True)]


def test_a_message_that_looks_located_is_not_parsed_back(tmp_path):
    """The record's place wins: a message starting `x.yaml:9:9:` stays the message."""
    path = write_question(tmp_path, sample_question())
    found = Problem(str(path), "/stem", "other.yaml:9:9: looks like a place")
    assert place(found)[0] > 1
    assert str(ExportError(found)) == "other.yaml:9:9: looks like a place"
    assert place(Problem(str(tmp_path / "gone.yaml"), "/stem", "m")) == (1, 1)  # unreadable: line 1


def test_warnings_about_one_file_read_it_once(tmp_path, toys, monkeypatch):
    """Placing every warning re-read the question file once per warning; now at most once per
    export (none when the lint's Document is held: tests/test_single_read.py)."""
    import qlint.loading.document as document

    reads: list[str] = []
    real = document.read_bytes
    monkeypatch.setattr(document, "read_bytes", lambda path, limits: reads.append(path) or real(path, limits))

    def many(job: ExportJob) -> ExportResult:
        return ExportResult(warnings=[problem(q, p, "dropped") for q in job.questions for p in ("/stem", "/trap", "/options/0")])

    exporter("toy-many", "three warnings per question")(many)
    data = sample_question()
    path = str(write_question(tmp_path / "bank" / "mla-c01" / "model-development", data))
    request = ExportRequest(format="toy-many", output=tmp_path / "out", filters=Filters(statuses=("published",)))
    out = export_bank([_linted(path, data)], [], False, {}, request)
    assert len(out.diagnostics) == 3 and len({d.line for d in out.diagnostics}) == 3
    assert reads == [path]
