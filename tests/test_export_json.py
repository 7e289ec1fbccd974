"""JSON and JSON Lines exports validate against the published schema and carry every field."""

from __future__ import annotations

import base64
import copy
import hashlib
import json

import jsonschema
import pytest
from referencing import Registry, Resource

from exportkit import banks, export, exported, hostile_project, image_project, load_questions  # noqa: F401
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
