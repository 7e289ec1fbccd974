"""`json` and `jsonl`: the bank as data for downstream tools, following schema/export.schema.json.

`json` writes one document (exams and questions); `jsonl` writes one question object per line,
the shape of `#/$defs/question`, for streaming tools. Texts carry both the author's Markdown and
qlint's safe HTML; images are embedded in base64 and named by their path in the bank.

Ordering and matching questions add `steps` or `prompts` and `responses`; a question of a case
study carries its case inline (scenario, references, its place in the case), so every JSON Lines
record stands alone. Records of single and multiple questions keep exactly their old keys.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

from qlint.exporters import PARTIAL, ExportJob, ExportResult, exporter
from qlint.exporters.kit.grades import fractions, is_multiple
from qlint.markup import render
from qlint.exporters.kit.case_study import case_of, missing_cases, position
from qlint.exporters.kit.gates import bank_root
from qlint.exporters.kit.media import images_in, question_images
from qlint.exporters.kit.output import write_file
from qlint.model import MATCHING, ORDERING, Case, Question
from qlint.project.exams import Exam
from qlint.exporters.kit.language import question_lang
from qlint.project.guide import question_tasks

SCHEMA_ID = "https://qlint.dev/schema/export/v1.json"
VERSION = 1


def _text(markdown: str | None, urls: dict[str, str]) -> dict[str, str] | None:
    if markdown is None:
        return None
    return {"markdown": markdown, "html": render(markdown, urls)}


def _exam(exam: Exam) -> dict[str, Any]:
    return {"code": exam.code, "name": exam.name,
            "domains": [{"id": d.id, "name": d.name, "weight": int(d.weight) if d.weight.is_integer() else d.weight,
                         "tasks": [{"id": t.id, "text": t.text} for t in exam.guide.tasks if t.domain == d.id]}
                        for d in exam.domains]}


def question_record(q: Question, job: ExportJob, root) -> dict[str, Any]:
    images = question_images(q, root)
    urls = {ref: image.key for ref, image in images.items()}
    exam = job.exams.get(q.exam)
    domain_names = {d.id: d.name for d in exam.domains} if exam else {}
    try:
        source = os.path.relpath(os.path.abspath(q.path), root).replace(os.sep, "/")
    except ValueError:  # another drive on Windows
        source = os.path.basename(q.path)
    case = case_of(q, job)
    case_images = images_in(Question(case.path, case.data), case.scenario, "/scenario", root) if case else {}
    unique = {image.key: image for image in [*images.values(), *case_images.values()]}
    return {
        "id": q.id, "exam": q.exam, "exam_name": exam.name if exam else q.exam,
        "domain": q.domain, "domain_name": domain_names.get(q.domain, q.domain),
        "type": q.type, "choose": _choose(q), "status": q.data.get("status"),
        "difficulty": q.data.get("difficulty"), "tags": list(q.data.get("tags") or []),
        "tasks": question_tasks(q.data),
        "lang": question_lang(q, job.lang), "translation_of": q.data.get("translation_of"),
        "shuffle": q.data.get("shuffle", True) is not False, "source": source,
        **({"case": _case(q, case, {ref: image.key for ref, image in case_images.items()})} if case else {}),
        "stem": _text(q.stem, urls), "trap": _text(q.trap, urls),
        "options": [{
            "id": o.id, "letter": o.letter, "correct": o.correct, "pinned": o.raw.get("pinned") is True,
            "text": _text(o.text, urls), "rationale": _text(o.rationale, urls),
            "right_when": _text(o.raw.get("right_when"), urls), "why_chosen": _text(o.raw.get("why_chosen"), urls),
        } for o in q.options],
        **_parts(q, urls),
        "keys": _keys(q),
        **_scoring(q, job.scoring),
        "explanation": _text(q.explanation, urls),
        "references": [{"title": r["title"], "url": r["url"]} for r in q.data.get("references") or []],
        "related": list(q.data.get("related") or []),
        "media": [{"path": key, "media_type": image.media_type, "sha256": hashlib.sha256(data := image.read()).hexdigest(),
                   "base64": base64.b64encode(data).decode("ascii")} for key, image in sorted(unique.items())],
    }


def _choose(q: Question) -> int:
    """How many answers the learner gives: options to choose, steps to place, prompts to match."""
    if q.type == ORDERING:
        return len(q.key_order)
    if q.type == MATCHING:
        return len(q.prompts)
    return q.choose if q.type == "multiple" else 1


def _keys(q: Question) -> list[str]:
    """The answer as ids: keyed options (option order), keyed steps (in their correct order), or
    each prompt's response (prompt order)."""
    if q.type == ORDERING:
        return [s.id for s in q.key_order]
    if q.type == MATCHING:
        return [p.match for p in q.prompts]
    return [o.id for o in q.keys]


def _parts(q: Question, urls: dict[str, str]) -> dict[str, Any]:
    """`steps`, or `prompts` and `responses`: present only on the types that have them."""
    if q.type == ORDERING:
        places = {s.id: i for i, s in enumerate(q.key_order, 1)}
        return {"steps": [{
            "id": s.id, "correct": s.correct, "position": places.get(s.id) if s.correct else None,
            "text": _text(s.text, urls), "rationale": _text(s.rationale, urls),
            "right_when": _text(s.raw.get("right_when"), urls), "why_chosen": _text(s.raw.get("why_chosen"), urls),
        } for s in q.steps]}
    if q.type == MATCHING:
        matched = {p.match for p in q.prompts}
        return {"prompts": [{"id": p.id, "text": _text(p.text, urls), "match": p.match,
                             "rationale": _text(p.rationale, urls)} for p in q.prompts],
                "responses": [{"id": r.id, "text": _text(r.text, urls), "surplus": r.id not in matched,
                               "rationale": _text(r.rationale, urls)} for r in q.responses]}
    return {}


def _case(q: Question, case: Case, urls: dict[str, str]) -> dict[str, Any]:
    """The case study inline, so a JSON Lines record carries the scenario its question needs."""
    return {"id": case.id, "exam": case.exam, "domain": case.domain, "title": case.title or None,
            "scenario": _text(case.scenario, urls), "items": case.items, "position": position(q, case),
            "references": [{"title": r["title"], "url": r["url"]} for r in case.data.get("references") or []]}


def _scoring(q: Question, scoring: str) -> dict[str, Any]:
    """How the point is earned: single response and all-or-nothing need every key and nothing else;
    partial gives each option's credit when chosen (the total kept in 0..1), and for ordering and
    matching 1/n per keyed step in its own place or per prompt paired right, as the QTI and Moodle
    exports grade them."""
    if scoring == PARTIAL and q.type in (ORDERING, MATCHING):
        parts = [s.id for s in q.key_order] if q.type == ORDERING else [p.id for p in q.prompts]
        if parts:
            return {"scoring": "partial", "credits": {i: round(1 / len(parts), 7) for i in parts}}
    if not (scoring == PARTIAL and is_multiple(q)):
        return {"scoring": "all-or-nothing", "credits": None}
    return {"scoring": "partial", "credits": {o.id: round(share / 100, 7) for o, share in zip(q.options, fractions(q))}}


def _records(job: ExportJob):
    root = bank_root(job)
    for i, q in enumerate(job.questions, 1):
        yield question_record(q, job, root)
        job.tick(i)


def _dump(value: Any, indent: int | None) -> str:
    # ensure_ascii=False keeps text readable; allow_nan=False keeps the output strict JSON.
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent,
                      separators=(",", ": ") if indent else (",", ":"))


@exporter("json", "JSON document (schema/export.schema.json): exams and questions with Markdown and HTML texts")
def export_json(job: ExportJob) -> ExportResult:
    questions = list(_records(job))
    codes = sorted({q["exam"] for q in questions})
    doc = {"$schema": SCHEMA_ID, "format": "qlint-export", "version": VERSION,
           "exams": [_exam(job.exams[c]) for c in codes if c in job.exams], "questions": questions}
    return ExportResult(written=write_file(job.output, (_dump(doc, 2) + "\n").encode("utf-8")),
                        warnings=missing_cases(job, "the JSON export"))


@exporter("jsonl", "JSON Lines: one question object per line (schema/export.schema.json#/$defs/question)")
def export_jsonl(job: ExportJob) -> ExportResult:
    lines = "".join(_dump(record, None) + "\n" for record in _records(job))
    return ExportResult(written=write_file(job.output, lines.encode("utf-8")), warnings=missing_cases(job, "the JSON Lines export"))
