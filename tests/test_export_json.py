"""JSON and JSON Lines exports validate against the published schema and carry every field."""

from __future__ import annotations

import base64
import copy
import hashlib
import json

import jsonschema
import pytest
from referencing import Registry, Resource

from kit.export import shown, banks, export, exported, hostile_project, image_project, load_questions  # noqa: F401
from conftest import REPO
from qlint.markup import render

SCHEMA = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))


def _validator(ref: str | None = None):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    schema = SCHEMA if ref is None else {"$ref": f"{SCHEMA['$id']}#/$defs/{ref}"}
    registry = Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA))
    return jsonschema.Draft202012Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize("bank", ["sample", "generated"])
def test_json_and_jsonl_validate_and_match_the_bank(banks, exported, bank):
    questions = banks[bank][0]
    doc = json.loads(exported("json", bank)[0].read_text(encoding="utf-8"))
    _validator().validate(doc)
    lines = exported("jsonl", bank)[0].read_text(encoding="utf-8").splitlines()
    one = _validator("question")
    for line in lines:
        one.validate(json.loads(line))
    assert [json.loads(ln) for ln in lines] == doc["questions"]
    assert [d["id"] for d in doc["questions"]] == [q.id for q in questions]
    assert {e["code"] for e in doc["exams"]} == {q.exam for q in questions}
    for d, q in zip(doc["questions"], questions):
        assert d["keys"] == [o.id for o in q.keys] and d["stem"]["markdown"] == q.stem
        assert d["stem"]["html"] == render(q.stem) and d["explanation"]["markdown"] == q.explanation
        assert d["shuffle"] == (q.data.get("shuffle") is not False)
        for got, o in zip(d["options"], q.options):
            assert (got["id"], got["letter"], got["correct"], got["text"]["markdown"]) == (o.id, o.letter, o.correct, o.text)
            assert (got["rationale"] or {}).get("markdown") == o.rationale
            assert (got["right_when"] or {}).get("markdown") == (o.right_when or None)
            assert got["pinned"] == bool(o.raw.get("pinned"))


def test_the_validator_rejects_broken_documents(exported):
    doc = json.loads(exported("json", "sample")[0].read_text(encoding="utf-8"))
    validator = _validator()
    for breakage in (lambda d: d["questions"][0].pop("keys"), lambda d: d.update(version=2),
                     lambda d: d["questions"][0]["options"][0].update(correct="yes"),
                     lambda d: d["questions"][0]["stem"].pop("html")):
        broken = copy.deepcopy(doc)
        breakage(broken)
        assert list(validator.iter_errors(broken)), breakage


def test_images_are_embedded_and_hostile_text_kept(tmp_path):
    root, data = image_project(tmp_path)
    export("json", *load_questions(root), tmp_path / "x.json")
    doc = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    _validator().validate(doc)
    q = next(d for d in doc["questions"] if d["id"] == "mla-c01-dev-layer-split-gpus")
    (media,) = q["media"]
    assert media["path"] == "mla-c01/model-development/img/gpu.png" and media["media_type"] == "image/png"
    assert base64.b64decode(media["base64"]) == data and media["sha256"] == hashlib.sha256(data).hexdigest()
    assert f'src="{media["path"]}"' in q["stem"]["html"] and "](img/gpu.png)" in q["stem"]["markdown"]

    root, qid = hostile_project(tmp_path / "h")
    export("json", *load_questions(root), tmp_path / "h.json")
    doc = json.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    _validator().validate(doc)
    q = next(d for d in doc["questions"] if d["id"] == qid)
    assert "<script>window.__pwned = 1</script>" in q["stem"]["markdown"]
    assert "&lt;script&gt;" in q["stem"]["html"] and "<script" not in q["stem"]["html"]


# --- ordering, matching and case studies (issue 13) -----------------------------------------

from kit.export import CASE, CASE_ORDERING, CASE_SINGLE, MATCHING, ORDERING, by_id, copy_types, export_types, load  # noqa: E402

# The keys of a single/multiple record, in order: new item types must not add any to them.
CHOICE_KEYS = ["id", "exam", "exam_name", "domain", "domain_name", "type", "choose", "status", "difficulty", "tags", "tasks",
               "lang", "translation_of", "shuffle", "source", "stem", "trap", "options", "keys", "scoring", "credits", "explanation",
               "references", "related", "media"]


def _types_doc(tmp_path, **options):
    result = export_types("json", tmp_path / "t.json", **options)
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    _validator().validate(doc)
    export_types("jsonl", tmp_path / "t.jsonl", **options)
    one = _validator("question")
    lines = [json.loads(ln) for ln in (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()]
    for line in lines:
        one.validate(line)
    assert lines == doc["questions"]
    return {d["id"]: d for d in doc["questions"]}, result


def test_ordering_record_carries_steps_key_order_and_distractor_steps(tmp_path):
    docs, result = _types_doc(tmp_path)
    assert result.warnings == []
    d, q = docs[ORDERING], by_id()[ORDERING]
    assert (d["type"], d["choose"], d["options"], d["scoring"]) == ("ordering", 3, [], "partial")  # the default
    assert d["credits"] == {"create-model": 0.3333333, "create-endpoint-config": 0.3333333, "create-endpoint": 0.3333333}
    assert d["keys"] == ["create-model", "create-endpoint-config", "create-endpoint"]
    assert [s["id"] for s in d["steps"]] == [s.id for s in q.steps]  # authoring order
    assert [(s["correct"], s["position"]) for s in d["steps"]] == [(True, 1), (True, 2), (True, 3), (False, None)]
    distractor = d["steps"][3]
    assert distractor["right_when"]["markdown"] == q.steps[3].right_when and distractor["rationale"]["html"].startswith("<p>Batch")
    assert all(s["rationale"]["markdown"] == v.rationale for s, v in zip(d["steps"], q.steps))
    assert "prompts" not in d and "case" not in d


def test_matching_record_carries_prompts_with_their_match_and_surplus_responses(tmp_path):
    docs, _ = _types_doc(tmp_path)
    d, q = docs[MATCHING], by_id()[MATCHING]
    assert (d["type"], d["choose"], d["options"], d["scoring"]) == ("matching", 4, [], "partial")  # the default
    assert d["credits"] == {p.id: 0.25 for p in q.prompts}  # a share per prompt paired right
    assert d["keys"] == [p.match for p in q.prompts] == ["model-monitor", "clarify", "cloudtrail", "cloudwatch"]
    assert [(p["id"], p["match"], p["rationale"]["markdown"]) for p in d["prompts"]] == [(p.id, p.match, p.rationale) for p in q.prompts]
    assert [(r["id"], r["surplus"]) for r in d["responses"]] == [
        ("model-monitor", False), ("clarify", False), ("cloudtrail", False), ("cloudwatch", False), ("ground-truth", True)]
    assert d["responses"][4]["rationale"]["markdown"].startswith("Ground Truth labels") and d["responses"][0]["rationale"] is None
    assert "steps" not in d


def test_case_study_is_inline_in_each_of_its_questions(tmp_path):
    docs, _ = _types_doc(tmp_path)
    _, cases = load()
    for qid, place in ((CASE_SINGLE, 1), (CASE_ORDERING, 2)):
        case = docs[qid]["case"]
        assert (case["id"], case["position"], case["items"]) == (CASE, place, [CASE_SINGLE, CASE_ORDERING])
        assert case["scenario"]["markdown"] == cases[CASE].scenario and "<li>Each score must return" in case["scenario"]["html"]
        assert case["title"] == "Fraud scoring for card payments"
    assert docs[CASE_SINGLE]["type"] == "single" and list(docs[CASE_SINGLE]) == CHOICE_KEYS[:15] + ["case"] + CHOICE_KEYS[15:]


def test_a_question_whose_case_is_missing_is_exported_alone_with_a_warning(tmp_path):
    docs, result = _types_doc(tmp_path, with_cases=False)
    assert "case" not in docs[CASE_SINGLE] and "case" not in docs[CASE_ORDERING]
    for warnings in (shown(result), shown(export_types("jsonl", tmp_path / "x.jsonl", with_cases=False))):
        assert [w.split(": case study")[0] for w in warnings] == [f"{by_id()[qid].path}:6:7" for qid in (CASE_ORDERING, CASE_SINGLE)]
        assert all(f"'{CASE}' is not part of this export" in w for w in warnings)


def test_choice_records_keep_exactly_their_keys_beside_the_new_types(tmp_path, banks):
    docs, _ = _types_doc(tmp_path)
    questions, exams, root = banks["sample"]
    export("json", [q for q in questions if q.is_choice and not q.case][:3], exams, root, tmp_path / "s.json")
    for d in [*json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["questions"], docs["types-case-fraud-endpoint-type"]]:
        assert [k for k in d if k != "case"] == CHOICE_KEYS


def test_scenario_images_are_embedded(tmp_path):
    from kit.export import png

    folder = copy_types(tmp_path)
    (folder / "cases" / "flow.png").write_bytes(png())
    case = folder / "cases" / "fraud-scoring.yaml"
    case.write_text(case.read_text(encoding="utf-8").replace("  items:\n", "  items:\n").replace(
        "  model artifact is in Amazon S3.\n", "  model artifact is in Amazon S3.\n\n  ![Payment flow](flow.png)\n", 1), encoding="utf-8")
    export_types("json", tmp_path / "i.json", folder=folder)
    doc = json.loads((tmp_path / "i.json").read_text(encoding="utf-8"))
    _validator().validate(doc)
    q = next(d for d in doc["questions"] if d["id"] == CASE_SINGLE)
    assert [m["path"] for m in q["media"]] == ["cases/flow.png"] and 'src="cases/flow.png"' in q["case"]["scenario"]["html"]


def test_the_validator_rejects_broken_new_type_records(tmp_path):
    docs, _ = _types_doc(tmp_path)
    one = _validator("question")
    for qid, breakage in ((ORDERING, lambda d: d["options"].append(copy.deepcopy(docs[CASE_SINGLE]["options"][0]))),
                          (ORDERING, lambda d: d.pop("steps")),
                          (ORDERING, lambda d: d["steps"][0].update(position="1")),
                          (MATCHING, lambda d: d.pop("responses")),
                          (MATCHING, lambda d: d["responses"][0].pop("surplus")),
                          (MATCHING, lambda d: d.update(steps=docs[ORDERING]["steps"])),
                          (CASE_SINGLE, lambda d: d.update(steps=docs[ORDERING]["steps"])),
                          (CASE_SINGLE, lambda d: d["case"].pop("scenario")),
                          (CASE_SINGLE, lambda d: d.update(options=d["options"][:1]))):
        broken = copy.deepcopy(docs[qid])
        breakage(broken)
        assert list(one.iter_errors(broken)), (qid, breakage)
