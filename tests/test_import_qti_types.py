"""`qlint import --from qti21|qti30` of ordering, matching and case-study items (issue 13): a
package exported by qlint comes back as the same questions and case file; items written by
another tool (no reveal rows, pairs written the other way round, a missing stimulus) are read
where they fit and every part that does not is reported."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from conftest import REPO
from qlint.cli import main
from kit.export import CASE_ID, CASE_ITEMS, MATCHING, ORDERING, TYPES, export_types_package as run

FORMATS = ("qti21", "qti30")


def no_final_newline(value):
    """A text's final newline is not kept by a round trip (rendering drops it; tests/test_import_roundtrip.py)."""
    if isinstance(value, str):
        return value.rstrip("\n")
    if isinstance(value, list):
        return [no_final_newline(v) for v in value]
    if isinstance(value, dict):
        return {k: no_final_newline(v) for k, v in value.items()}
    return value


def source(name: str) -> dict:
    return yaml.safe_load((TYPES / name).read_text(encoding="utf-8"))


def package(tmp_path: Path, fmt: str, **options) -> Path:
    """The fixtures exported as a folder package (files as written)."""
    files, _ = run(tmp_path, fmt, **options)
    out = tmp_path / f"{fmt}-pkg"
    for name, data in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    return out


def import_(pkg: Path, out: Path, fmt: str, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["import", "--from", fmt, str(pkg), "--output", str(out)])
    return code, capsys.readouterr().err


def read_bank(out: Path) -> dict[str, tuple[str, dict]]:
    return {yaml.safe_load(p.read_text(encoding="utf-8"))["id"]: (p.relative_to(out).as_posix(), yaml.safe_load(p.read_text()))
            for p in sorted(out.rglob("*.yaml")) if p.parent.name != "exams"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_exported_types_import_back_as_the_same_questions_and_case_file(tmp_path, fmt, capsys, monkeypatch):
    monkeypatch.chdir(REPO)  # the project's exams, so exam and domain map
    pkg = package(tmp_path, fmt)
    code, err = import_(pkg, tmp_path / "bank", fmt, capsys)
    assert code == 0, err
    assert "could not map" not in err
    assert "Imported 4 questions and 1 case study; 0 item(s) could not be mapped." in err
    got = read_bank(tmp_path / "bank")
    assert {i: path for i, (path, _) in got.items()} == {
        ORDERING: f"mla-c01/deployment-orchestration/{ORDERING}.yaml",
        MATCHING: f"mla-c01/monitoring-security/{MATCHING}.yaml",
        CASE_ITEMS[0]: f"mla-c01/deployment-orchestration/{CASE_ITEMS[0]}.yaml",
        CASE_ITEMS[1]: f"mla-c01/deployment-orchestration/{CASE_ITEMS[1]}.yaml",
        CASE_ID: f"mla-c01/cases/{CASE_ID}.yaml",
    }
    for name in ("ordering.yaml", "matching.yaml", "case-single.yaml", "case-ordering.yaml", "cases/fraud-scoring.yaml"):
        want = source(name)
        assert no_final_newline(got[want["id"]][1]) == no_final_newline(want), name
    schemas = {k: Draft202012Validator(json.loads((REPO / "schema" / f"{k}.schema.json").read_text())) for k in ("question", "case")}
    for qid, (path, data) in got.items():
        kind = "case" if "/cases/" in path else "question"
        assert [e.message for e in schemas[kind].iter_errors(data)] == [], qid
    case_file = (tmp_path / "bank" / got[CASE_ID][0]).read_text(encoding="utf-8")
    assert case_file.startswith("# yaml-language-server: $schema=") and "case.schema.json" in case_file.splitlines()[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_unshuffled_items_and_steps_without_a_reveal_still_read(tmp_path, fmt, capsys, monkeypatch):
    """Another tool's order item has no reveal rows: keyed steps in key order, then the rest."""
    monkeypatch.chdir(REPO)
    pkg = package(tmp_path, fmt, shuffle=False)
    item = pkg / "items" / f"{ORDERING}.xml"
    text = item.read_text(encoding="utf-8")
    text = re.sub(r'<div class="qlint-steps">.*?</div></div></div>(?=<div class="qlint-trap">)', "", text, flags=re.S)
    assert "qlint-row" not in text
    item.write_text(text, encoding="utf-8")
    code, err = import_(pkg, tmp_path / "bank", fmt, capsys)
    assert code == 0, err
    data = read_bank(tmp_path / "bank")[ORDERING][1]
    assert data["shuffle"] is False
    assert [(s["id"], s.get("correct", True)) for s in data["steps"]] == [
        ("create-model", True), ("create-endpoint-config", True), ("create-endpoint", True), ("batch-transform", False)]
    assert not any("rationale" in s for s in data["steps"])  # nothing to read them from: none invented


def test_pairs_written_response_first_and_a_prompt_without_a_pair(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    pkg = package(tmp_path, "qti21")
    item = pkg / "items" / f"{MATCHING}.xml"
    text = item.read_text(encoding="utf-8")
    text = text.replace("<value>prompt_input-drift resp_model-monitor</value>", "<value>resp_model-monitor prompt_input-drift</value>")
    text = re.sub(r"\s*<value>prompt_latency-alarm resp_cloudwatch</value>", "", text, count=1)
    item.write_text(text, encoding="utf-8")
    code, err = import_(pkg, tmp_path / "bank", "qti21", capsys)
    assert code == 1, err
    assert re.search(rf"items/{MATCHING}\.xml:\d+:\d+: I001 could not map: prompt 'latency-alarm' \(\"Alarm when the "
                     r"endpoint's model latency rises above a thr\.\.\.\"\) has no correct response; it was left out", err), err
    data = read_bank(tmp_path / "bank")[MATCHING][1]
    assert [(p["id"], p["match"]) for p in data["prompts"]] == [
        ("input-drift", "model-monitor"), ("explain-prediction", "clarify"), ("api-audit", "cloudtrail")]


def test_a_stimulus_missing_from_the_package_is_reported_and_the_items_keep_no_case(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    pkg = package(tmp_path, "qti30")
    (pkg / "stimuli" / f"{CASE_ID}.xml").unlink()
    manifest = pkg / "imsmanifest.xml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(f'<file href="stimuli/{CASE_ID}.xml"/>', ""), encoding="utf-8")
    code, err = import_(pkg, tmp_path / "bank", "qti30", capsys)
    assert code == 1
    assert f"could not map: stimulus 'stimuli/{CASE_ID}.xml' is not in the package; the item keeps no case" in err
    got = read_bank(tmp_path / "bank")
    assert CASE_ID not in got and all("case" not in got[i][1] for i in CASE_ITEMS)


def test_a_stimulus_href_leaving_the_package_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    pkg = package(tmp_path, "qti30")
    item = pkg / "items" / f"{CASE_ITEMS[0]}.xml"
    item.write_text(item.read_text(encoding="utf-8").replace(f'href="../stimuli/{CASE_ID}.xml"', 'href="../../outside.xml"'),
                    encoding="utf-8")
    code, err = import_(pkg, tmp_path / "bank", "qti30", capsys)
    assert code == 2 and "stimulus href '../../outside.xml' points outside the package; refused" in err, err
    assert not (tmp_path / "bank").exists()


def test_a_21_case_with_the_test_left_out_keeps_the_items_in_package_order(tmp_path, capsys, monkeypatch):
    """Without the test's case section the items' order is the manifest's."""
    monkeypatch.chdir(REPO)
    pkg = package(tmp_path, "qti21")
    shutil.rmtree(pkg / "tests")
    manifest = pkg / "imsmanifest.xml"
    text = re.sub(r'<resource identifier="test_MLA-C01".*?</resource>\s*', "", manifest.read_text(encoding="utf-8"), flags=re.S)
    manifest.write_text(text, encoding="utf-8")
    code, err = import_(pkg, tmp_path / "bank", "qti21", capsys)
    assert code == 0, err
    case = read_bank(tmp_path / "bank")[CASE_ID][1]
    assert sorted(case["items"]) == sorted(CASE_ITEMS) and case["domain"] == "deployment-orchestration"



@pytest.mark.parametrize("fmt", FORMATS)
def test_a_case_with_references_and_an_image_comes_back_whole(tmp_path, fmt, capsys, monkeypatch):
    from kit.export import missing_from_package, png, unlisted_in_manifest
    from qlint.model import Case
    from kit.export import fixtures

    monkeypatch.chdir(REPO)
    _, cases, _ = fixtures()
    folder = tmp_path / "src" / "mla-c01" / "cases"  # a bank's layout, so the image keeps its place
    (folder / "img").mkdir(parents=True)
    (folder / "img" / "flow.png").write_bytes(png())
    shutil.copy(cases[CASE_ID].path, folder / "fraud-scoring.yaml")
    data = {**cases[CASE_ID].data, "scenario": cases[CASE_ID].scenario + "\n![The scoring flow](img/flow.png)\n",
            "references": [{"title": "Fraud detection on AWS", "url": "https://aws.amazon.com/fraud-detector/"}]}
    files, _ = run(tmp_path, fmt, cases={CASE_ID: Case(str(folder / "fraud-scoring.yaml"), data)}, root=tmp_path / "src")
    assert files["images/mla-c01/cases/img/flow.png"] == png()
    assert missing_from_package(files) == [] and unlisted_in_manifest(files) == []  # the stimulus (or items) list it
    pkg = tmp_path / "pkg"
    for name, blob in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_bytes(blob)
    code, err = import_(pkg, tmp_path / "bank", fmt, capsys)
    assert code == 0, err
    got = read_bank(tmp_path / "bank")[CASE_ID][1]
    assert got["references"] == data["references"]
    assert "![The scoring flow](img/flow.png)" in got["scenario"]
    assert (tmp_path / "bank" / "mla-c01" / "cases" / "img" / "flow.png").read_bytes() == png()



def fixture_project(tmp_path: Path) -> Path:
    """A project whose bank holds the type fixtures where a bank keeps them (cases/ beside the domains)."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "bank" / "exams", root / "bank" / "exams")
    shutil.copytree(REPO / "schema", root / "schema")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    for name in ("ordering.yaml", "matching.yaml", "case-single.yaml", "case-ordering.yaml", "cases/fraud-scoring.yaml"):
        data = source(name)
        folder = root / "bank" / "mla-c01" / ("cases" if name.startswith("cases/") else data["domain"])
        folder.mkdir(parents=True, exist_ok=True)
        text = (TYPES / name).read_text(encoding="utf-8").replace("../../../../schema/", "../../../schema/")
        (folder / Path(name).name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_through_the_real_cli(tmp_path, fmt, capsys, monkeypatch):
    """`qlint export --format F` of a bank with every new type, then `qlint import --from F`:
    the same questions and case file come back (final newlines aside)."""
    root = fixture_project(tmp_path)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["export", "--format", fmt, "--output", str(tmp_path / "pkg.zip")]) == 0, capsys.readouterr()
    out = capsys.readouterr()
    warned = "QTI 2.1 has no shared stimulus" in out.err
    assert warned == (fmt == "qti21"), out.err
    code, err = import_(tmp_path / "pkg.zip", tmp_path / "imported", fmt, capsys)
    assert code == 0 and "could not map" not in err, err
    got = read_bank(tmp_path / "imported")
    want = {yaml.safe_load(p.read_text(encoding="utf-8"))["id"]: yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in sorted((root / "bank" / "mla-c01").rglob("*.yaml"))}
    assert {i: no_final_newline(data) for i, (_path, data) in got.items()} == {i: no_final_newline(d) for i, d in want.items()}
    assert got[CASE_ID][0] == f"mla-c01/cases/{CASE_ID}.yaml"
    assert {got[i][0] for i in (ORDERING, MATCHING)} == {f"mla-c01/{want[i]['domain']}/{i}.yaml" for i in (ORDERING, MATCHING)}


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_whole_sample_bank_round_trips_through_the_real_cli(tmp_path, fmt, capsys, monkeypatch):
    """Every question of the sample bank, of every type and status, and its case study: export
    then import into a new project give the same data (final newlines aside), lint-clean."""
    monkeypatch.chdir(REPO)
    capsys.readouterr()
    assert main(["export", "-f", fmt, "-o", str(tmp_path / "pkg.zip"), "--status", "draft,review,published"]) == 0
    project = tmp_path / "project"
    shutil.copytree(REPO / "bank" / "exams", project / "bank" / "exams")
    shutil.copytree(REPO / "schema", project / "schema")
    (project / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(project)
    code, err = import_(tmp_path / "pkg.zip", project / "bank", fmt, capsys)
    assert code == 0 and "could not map" not in err, err
    want = {}
    for p in sorted((REPO / "bank").rglob("*.yaml")):
        if p.parent.name != "exams":
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
            want[data["id"]] = no_final_newline(data)
    got = {i: no_final_newline(data) for i, (_path, data) in read_bank(project / "bank").items()}
    assert {d["type"] for d in got.values() if "type" in d} == {"single", "multiple", "ordering", "matching"}
    assert any("scenario" in d for d in got.values())  # the case file
    assert got == want
    capsys.readouterr()
    assert main(["check"]) == 0, capsys.readouterr().out
