"""`qlint import --from moodle | gift` for ordering, matching and case studies (issue 13): qlint's
own exports of the item-type fixtures read back through the real CLI, and files as other tools
write them. Ids are compared apart: Moodle XML and GIFT store none (they become slugs of the text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from kit.authoring import make_project, pairs_of, run, schema_errors, steps_of, imported_text
from conftest import REPO
from kit.export import shown
from kit.export import case, export_types, question



@pytest.fixture
def project(tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _files(root: Path) -> dict[str, tuple[Path, dict]]:
    out = {}
    for path in sorted((root / "bank").rglob("*.yaml")):
        if "exams" not in path.parts:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            out[data["id"]] = (path, data)
    return out


def test_moodle_round_trip_keeps_steps_pairs_rationales_and_case_membership(capsys, project):
    source = project / "types.xml"
    export_types("moodle", source)
    code, _out, err = run(capsys, "import", "--from", "moodle", str(source))
    assert code == 0, err
    got = _files(project)
    path, data = got["types-case-fraud-scoring"]  # the description question became the case file
    assert path == project / "bank" / "mla-c01" / "cases" / "types-case-fraud-scoring.yaml"
    source_case = case().data
    assert {k: imported_text(v) for k, v in data.items()} == {k: imported_text(v) for k, v in source_case.items() if k != "status"} | \
        {"status": "draft"}
    assert list(data) == list(source_case)  # in the case schema's order
    assert list(Draft202012Validator(json.loads((REPO / "schema" / "case.schema.json").read_text())).iter_errors(data)) == []
    for name in ("ordering.yaml", "case-ordering.yaml"):
        q = question(name)
        path, data = got[q.id]
        assert data["type"] == "ordering"
        assert steps_of(data) == steps_of(q.data)  # keyed steps in order, then the distractor step
        assert imported_text(data["explanation"]) == imported_text(q.explanation) and imported_text(data["trap"]) == imported_text(q.trap)
        assert data["references"] == q.data["references"]
        assert schema_errors(project, path) == []
    q = question("matching.yaml")
    path, data = got[q.id]
    assert data["type"] == "matching" and data["tags"] == q.data["tags"]
    assert pairs_of(data) == pairs_of(q.data)
    assert schema_errors(project, path) == []
    for name in ("case-single.yaml", "case-ordering.yaml"):
        # the scenario the export puts before a case question's stem is the case's, not the stem's
        assert imported_text(got[question(name).id][1]["stem"]) == imported_text(question(name).stem)
        assert got[question(name).id][1]["case"] == "types-case-fraud-scoring"
        assert got[question(name).id][1]["domain"] == "deployment-orchestration"
    assert "case" not in got[q.id][1]


MOODLE_OTHER = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="ordering">
    <name><text>Deploy steps</text></name>
    <questiontext format="html"><text>&lt;p&gt;Put the steps in order.&lt;/p&gt;</text></questiontext>
    <generalfeedback format="html"><text>&lt;p&gt;Model, configuration, endpoint.&lt;/p&gt;</text></generalfeedback>
    <layouttype>HORIZONTAL</layouttype>
    <selecttype>RANDOM</selecttype>
    <selectcount>2</selectcount>
    <gradingtype>RELATIVE_NEXT_EXCLUDE_LAST</gradingtype>
    <answer fraction="2" format="plain_text"><text>Create the endpoint configuration</text></answer>
    <answer fraction="1" format="plain_text"><text>Create the model</text></answer>
    <answer fraction="3" format="plain_text"><text>Create the endpoint</text></answer>
  </question>
  <question type="match">
    <name><text>Tools</text></name>
    <questiontext format="html"><text>&lt;p&gt;Match each need.&lt;/p&gt;</text></questiontext>
    <generalfeedback format="html"><text>&lt;p&gt;Each need has one tool.&lt;/p&gt;</text></generalfeedback>
    <shuffleanswers>false</shuffleanswers>
    <subquestion format="html"><text>&lt;p&gt;Detect drift&lt;/p&gt;</text><answer><text>Model Monitor</text></answer></subquestion>
    <subquestion format="html"><text>&lt;p&gt;Explain a prediction&lt;/p&gt;</text><answer><text>Clarify</text></answer></subquestion>
    <subquestion format="html"><text>&lt;p&gt;Audit API calls&lt;/p&gt;</text><answer><text>CloudTrail</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>Ground Truth</text></answer></subquestion>
    <subquestion format="html"><text>&lt;p&gt;Watch latency&lt;/p&gt;</text><answer><text></text></answer></subquestion>
  </question>
</quiz>
"""


def test_moodle_match_and_ordering_from_another_tool(capsys, project):
    source = project / "other.xml"
    source.write_text(MOODLE_OTHER, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "moodle", "--exam", "MLA-C01", "--domain", "model-development",
                          str(source))
    assert code == 1
    assert "not listed in their order" in err and "shows 2 of the 3 items (random selection)" in err
    assert "subquestion 5 has no answer; not imported" in err
    got = {d["type"]: (p, d) for p, d in _files(project).values()}
    path, ordering = got["ordering"]
    assert [s["text"] for s in ordering["steps"]] == ["Create the model", "Create the endpoint configuration",
                                                      "Create the endpoint"]
    assert [s["id"] for s in ordering["steps"]] == ["create-the-model", "create-the-endpoint-configuration",
                                                    "create-the-endpoint"]
    assert schema_errors(project, path) == []
    path, matching = got["matching"]
    assert pairs_of(matching) == ([("Detect drift", "Model Monitor", None), ("Explain a prediction", "Clarify", None),
                                   ("Audit API calls", "CloudTrail", None)],
                                  [("Model Monitor", None), ("Clarify", None), ("CloudTrail", None), ("Ground Truth", None)])
    assert matching["shuffle"] is False and matching["explanation"] == "Each need has one tool."
    assert schema_errors(project, path) == []


def test_gift_round_trip_keeps_the_pairs_their_rationales_and_the_surplus_response(capsys, project):
    """The pair-by-pair block qlint's GIFT export puts in the general feedback gives each pair's
    rationale back (before: "GIFT matching has no feedback per pair", exit 1; issue 28 point 9)."""
    source = project / "types.gift"
    export_types("gift", source, questions=[question("matching.yaml")])
    code, _out, err = run(capsys, "import", "--from", "gift", str(source))
    assert code == 0 and "could not map" not in err, err
    ((path, data),) = _files(project).values()
    q = question("matching.yaml")
    assert data["type"] == "matching"
    assert pairs_of(data) == pairs_of(q.data)  # Ground Truth too
    assert schema_errors(project, path) == []


def test_gift_matching_as_moodle_documents_it(capsys, project):
    source = project / "capitals.gift"
    source.write_text("$CATEGORY: MLA-C01/model-development\n\n"
                      "::Capitals::Match the countries with their capitals. {\n"
                      "   =Canada -> Ottawa\n   =Italy  -> Rome\n   =Japan  -> Tokyo\n   =-> Paris\n"
                      "   ####It's good to know the capitals\n}\n", encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", str(source))
    assert code == 1
    ((path, data),) = _files(project).values()
    assert pairs_of(data) == ([("Canada", "Ottawa", None), ("Italy", "Rome", None), ("Japan", "Tokyo", None)],
                              [("Ottawa", None), ("Rome", None), ("Tokyo", None), ("Paris", None)])
    assert data["explanation"] == "It's good to know the capitals"
    assert schema_errors(project, path) == []


def test_a_case_studys_references_go_to_moodle_and_back_and_canvas_warns(capsys, project):
    from qlint.model import Case

    source_case = case()
    refs = [{"title": "Real-time inference", "url": "https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints.html"}]
    with_refs = Case(source_case.path, {**source_case.data, "references": refs})
    source = project / "refs.xml"
    export_types("moodle", source, cases={with_refs.id: with_refs})
    code, _out, err = run(capsys, "import", "--from", "moodle", str(source))
    assert code == 0, err
    assert _files(project)[with_refs.id][1]["references"] == refs
    result = export_types("canvas", project / "c.zip", cases={with_refs.id: with_refs})
    assert any(w.startswith(f"{source_case.path}:") and "references are not exported" in w for w in shown(result))
