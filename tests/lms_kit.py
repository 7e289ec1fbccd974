"""The item-type fixtures (tests/fixtures/types: ordering, matching, a case study with two questions)
exported directly through an ExportJob, as `qlint export` does once the loader has read them."""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path
from typing import Any

import yaml

from conftest import BANK, REPO
from exportkit import load_bank
from qlint.exporters import EXPORTERS, ExportJob, ExportResult
from qlint.markup import render
from qlint.model import Case, Question

TYPES = REPO / "tests" / "fixtures" / "types"
CASE_PATH = TYPES / "cases" / "fraud-scoring.yaml"


def question(name: str, **overrides: Any) -> Question:
    path = TYPES / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for key, value in overrides.items():
        data[key] = copy.deepcopy(value)
    return Question(str(path), data)


def case() -> Case:
    return Case(str(CASE_PATH), yaml.safe_load(CASE_PATH.read_text(encoding="utf-8")))


def all_questions() -> list[Question]:
    qs = [question(p.name) for p in sorted(TYPES.glob("*.yaml"))]
    return sorted(qs, key=lambda q: (q.exam, q.domain, q.id))


def export_types(fmt: str, output: Path, questions: list[Question] | None = None,
                 cases: dict[str, Case] | None = None, **options: Any) -> ExportResult:
    exams = load_bank(BANK)[1]
    c = case()
    job = ExportJob(questions=all_questions() if questions is None else questions, exams=exams, output=output,
                    bank_root=TYPES, cases={c.id: c} if cases is None else cases, **options)
    return EXPORTERS.get(fmt).write(job)


def words(markup: str) -> str:
    """The words an HTML (or Markdown rendered to HTML) text shows, one space apart."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup or "")).split())


def md_words(markdown: str) -> str:
    return words(render(markdown))
