"""`qlint export --format markdown|html|json|jsonl` of the sample bank with its ordering, matching
and case-study questions (issue 13), through the real command line: the loader finds the case
study, every new item is written in its target's shape, and nothing is warned about or lost."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache

import jsonschema
import pytest
import yaml
from lxml import html as lhtml
from referencing import Registry, Resource

from conftest import BANK, REPO

ALL = "draft,review,published"  # the new sample items may still be drafts


@lru_cache(maxsize=1)
def _bank() -> tuple[dict[str, dict], dict[str, dict]]:
    """Questions and case studies of the sample bank, read as plain YAML (not through qlint)."""
    questions, cases = {}, {}
    for path in sorted(BANK.rglob("*.yaml")):
        if "exams" in path.parts:
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        (cases if path.parent.name == "cases" else questions)[data["id"]] = data
    return questions, cases


def _new_types() -> dict[str, dict]:
    return {qid: q for qid, q in _bank()[0].items() if q["type"] in ("ordering", "matching") or q.get("case")}


def _run(tmp_path, fmt: str):
    out = tmp_path / f"out-{fmt}"
    proc = subprocess.run([sys.executable, "-m", "qlint", "export", "-f", fmt, "-o", str(out), "--status", ALL],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"Exported {len(_bank()[0])} questions as {fmt}" in proc.stdout
    assert "E003" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr  # the case study was found
    return out


def test_the_sample_bank_has_every_new_shape():
    kinds = {q["type"] for q in _new_types().values()}
    assert {"ordering", "matching"} <= kinds and _bank()[1], "the sample bank lost its new item types"


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_cli_json_carries_steps_pairs_and_cases(tmp_path, fmt):
    out = _run(tmp_path, fmt)
    schema = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))
    registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
    if fmt == "json":
        doc = json.loads(out.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema, registry=registry).validate(doc)
        records = doc["questions"]
    else:
        one = jsonschema.Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/question"}, registry=registry)
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        for record in records:
            one.validate(record)
    by_id = {r["id"]: r for r in records}
    cases = _bank()[1]
    for qid, q in _new_types().items():
        record = by_id[qid]
        if q["type"] == "ordering":
            assert record["keys"] == [s["id"] for s in q["steps"] if s.get("correct", True)]
            assert [s["id"] for s in record["steps"]] == [s["id"] for s in q["steps"]]
        elif q["type"] == "matching":
            assert record["keys"] == [p["match"] for p in q["prompts"]]
            matched = {p["match"] for p in q["prompts"]}
            assert [r["surplus"] for r in record["responses"]] == [r["id"] not in matched for r in q["responses"]]
        if q.get("case"):
            case = cases[q["case"]]
            assert record["case"]["id"] == case["id"] and record["case"]["scenario"]["markdown"] == case["scenario"]
            assert record["case"]["position"] == case["items"].index(qid) + 1


def test_cli_markdown_pages_of_the_new_types(tmp_path):
    out = _run(tmp_path, "markdown")
    for qid, q in _new_types().items():
        page = (out / q["exam"].lower() / q["domain"] / f"{qid}.md").read_text(encoding="utf-8")
        heading = {"ordering": "## Step-by-step breakdown", "matching": "## Pair-by-pair breakdown"}.get(q["type"], "## Option-by-option breakdown")
        assert heading in page and "## Correct answer & explanation" in page
        if q.get("case"):
            assert f"(../cases/{q['case']}.md)** (question" in page
    for case in _bank()[1].values():
        page = (out / case["exam"].lower() / "cases" / f"{case['id']}.md").read_text(encoding="utf-8")
        assert [line.split("](")[1].split(")")[0].rsplit("/", 1)[1] for line in page.splitlines() if line[:1].isdigit()] == [
            f"{i}.md" for i in case["items"]]


def test_cli_html_pages_of_the_new_types(tmp_path):
    out = _run(tmp_path, "html")
    for qid, q in _new_types().items():
        doc = lhtml.fromstring((out / q["exam"].lower() / q["domain"] / f"{qid}.html").read_text(encoding="utf-8"))
        selects = doc.xpath("//form[@id='practice']//select")
        if q["type"] == "ordering":
            assert [s.get("data-key") for s in selects] == [s["id"] for s in q["steps"] if s.get("correct", True)]
        elif q["type"] == "matching":
            assert [s.get("data-key") for s in selects] == [p["match"] for p in q["prompts"]]
        assert all(doc.xpath(f"//label[@for='{s.get('id')}']") for s in selects)
        if q.get("case"):
            assert doc.xpath(f"//aside[@class='case']//a[@href='../cases/{q['case']}.html']")
    for case in _bank()[1].values():
        doc = lhtml.fromstring((out / case["exam"].lower() / "cases" / f"{case['id']}.html").read_text(encoding="utf-8"))
        assert [h.rsplit("/", 1)[1] for h in doc.xpath("//main//ol//a/@href")] == [f"{i}.html" for i in case["items"]]
