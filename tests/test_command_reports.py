"""Issue 15 point 3: the export, import, shuffle and format pipelines report problems as Diagnostics with
codes, so they print through the reporters `qlint check` uses: text on stderr by default, any
--output-format (JSON here, checked against the report schema) as the whole report on stdout."""

from __future__ import annotations

import json
from pathlib import Path

from kit.authoring import make_project, question_yaml, run
from kit.reports import report_validator, schema_errors

FIXTURES = Path(__file__).parent / "fixtures" / "import"


def _bank_with_a_missing_image(tmp_path, monkeypatch) -> Path:
    folder = make_project(tmp_path) / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    for i in range(2):
        text = question_yaml(f"mla-c01-dev-q{i:02d}").replace("status: draft", "status: published")
        if i == 0:
            text = text.replace("  Model parallelism is the answer here.", "  Model parallelism is the answer here. See ![x](missing.png).")
        (folder / f"q{i:02d}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def _json_report(out: str) -> dict:
    doc = json.loads(out)
    assert schema_errors(report_validator(), doc) == []
    return doc


def test_export_problems_are_diagnostics_in_any_output_format(capsys, tmp_path, monkeypatch):
    _bank_with_a_missing_image(tmp_path, monkeypatch)
    # the lint gate: the exported question's own lint error, as qlint check reports it
    code, out, err = run(capsys, "export", "--format", "qti21", "--output", "out.zip", "--output-format", "json")
    assert code == 2 and "not exporting: the questions it exports have lint errors" in err
    codes = {(d["code"], d["path"]) for d in _json_report(out)["diagnostics"]}
    assert ("S007", "bank/mla-c01/model-development/q00.yaml") in codes
    # past the gate (--force) the exporter refuses the question: E001 where the image is named
    code, out, err = run(capsys, "export", "--format", "qti21", "--output", "out.zip", "--force", "--output-format", "json")
    assert code == 2 and "not exporting: a question cannot be exported" in err
    (d,) = _json_report(out)["diagnostics"]
    assert (d["code"], d["name"], d["severity"], d["path"]) == ("E001", "export-refused", "error", "bank/mla-c01/model-development/q00.yaml")
    line = (tmp_path / d["path"]).read_text(encoding="utf-8").splitlines()[d["line"] - 1]
    assert "missing.png" in line[d["col"] - 1:] and "not found" in d["message"]
    assert not (tmp_path / "out.zip").exists()
    # the default text format prints the same diagnostic on stderr, stdout stays empty
    code, out, err = run(capsys, "export", "--format", "qti21", "--output", "out.zip", "--force")
    assert code == 2 and out == ""
    assert f"bank/mla-c01/model-development/q00.yaml:{d['line']}:{d['col']}: E001 image 'missing.png' not found (export-refused)" in err


def test_a_written_export_in_json_keeps_stdout_for_the_report(capsys, tmp_path, monkeypatch):
    folder = _bank_with_a_missing_image(tmp_path, monkeypatch)
    (folder / "q00.yaml").unlink()
    code, out, err = run(capsys, "export", "--format", "json", "--output", "out.json", "--force", "--output-format", "json")
    assert code == 0 and _json_report(out)["diagnostics"] == []
    assert "Exported 1 question as json to out.json" in err


def test_import_problems_are_diagnostics_with_source_lines(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    src = str(FIXTURES / "sample.gift")
    code, out, err = run(capsys, "import", "--from", "gift", src, "--output-format", "json")
    assert code == 1
    found = {(d["code"], d["path"], d["line"]) for d in _json_report(out)["diagnostics"]}
    assert {("I001", src, 20), ("I001", src, 22)} <= found
    assert "Imported" in err  # the written files and the summary go to stderr beside a JSON report


def test_shuffle_reports_letter_references_as_k006(capsys, tmp_path, monkeypatch):
    folder = make_project(tmp_path) / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    (folder / "q00.yaml").write_text(question_yaml("mla-c01-dev-q00", key=1, rationale_extra=" Unlike option A, it copies."),
                                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "shuffle", "--seed", "1", "--output-format", "json")
    assert code == 1
    (d,) = _json_report(out)["diagnostics"]
    assert (d["code"], d["name"], d["path"]) == ("K006", "letter-reference", "bank/mla-c01/model-development/q00.yaml")
    line = (folder / "q00.yaml").read_text(encoding="utf-8").splitlines()[d["line"] - 1]
    assert line[d["col"] - 1:].startswith("option A")


def test_an_unknown_output_format_is_a_usage_error(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    for argv in (["export", "--format", "json", "--output", "o.json"], ["shuffle", "--seed", "1"],
                 ["import", "--from", "gift", str(FIXTURES / "sample.gift")], ["format"]):
        code, _out, err = run(capsys, *argv, "--output-format", "yaml")
        assert code == 2 and "unknown output format 'yaml'; choose from:" in err


def test_format_reports_a_file_it_cannot_read_at_its_place(capsys, tmp_path, monkeypatch):
    folder = make_project(tmp_path) / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    good = question_yaml("mla-c01-dev-q00")
    (folder / "q00.yaml").write_text(good, encoding="utf-8")
    (folder / "q01.yaml").write_text("id: q01\nstem: [unclosed\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "format", "--check", "--output-format", "json")
    assert code == 2 and "1 not formatted" in err
    (d,) = _json_report(out)["diagnostics"]
    assert d["code"].startswith("Y") and d["path"] == "bank/mla-c01/model-development/q01.yaml" and d["line"] >= 2
    assert (folder / "q01.yaml").read_text(encoding="utf-8") == "id: q01\nstem: [unclosed\n"


def test_a_write_conflict_is_a002_in_the_commands_format(capsys, tmp_path, monkeypatch):
    """An edit saved while `qlint format` writes: the file keeps the author's bytes, A002 names it."""
    from qlint.files import Batch

    folder = make_project(tmp_path) / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    messy = question_yaml("mla-c01-dev-q00").replace("format: 1\n", "") + "format: 1\n"
    target = folder / "q00.yaml"
    target.write_text(messy, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    real_replace = Batch.replace

    def replace(self, path, data, before=None):
        real_replace(self, path, data, before)
        target.write_text(messy + "# the author's edit\n", encoding="utf-8")

    monkeypatch.setattr(Batch, "replace", replace)
    code, out, err = run(capsys, "format", "--output-format", "json")
    assert code == 2
    (d,) = _json_report(out)["diagnostics"]
    assert (d["code"], d["name"], d["path"]) == ("A002", "changed-while-writing", "bank/mla-c01/model-development/q00.yaml")
    assert target.read_text(encoding="utf-8").endswith("# the author's edit\n")
