"""The item-type fixtures (tests/fixtures/types) as the web exporters receive them: ordering,
matching and a case study of two questions, with the sample project's exams, run through a
registered exporter by building the ExportJob directly (as `qlint export` does after loading)."""

from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path

import yaml

from qlint.cli.config import load_config
from qlint.exporters import EXPORTERS, ExportJob, ExportResult
from qlint.lint.engine import make_settings
from qlint.model import Case, Question

from conftest import REPO

TYPES = REPO / "tests" / "fixtures" / "types"
ORDERING, MATCHING = "types-ordering-realtime-deploy", "types-matching-monitoring-tools"
CASE, CASE_SINGLE, CASE_ORDERING = "types-case-fraud-scoring", "types-case-fraud-endpoint-type", "types-case-fraud-approval-order"


@lru_cache(maxsize=1)
def exams() -> dict:
    return make_settings(load_config(REPO)).exams


def load(folder: Path = TYPES) -> tuple[list[Question], dict[str, Case]]:
    """The questions (sorted as `qlint export` sorts them) and case studies under `folder`."""
    questions = [Question(str(p), yaml.safe_load(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.yaml"))]
    cases = [Case(str(p), yaml.safe_load(p.read_text(encoding="utf-8"))) for p in sorted((folder / "cases").glob("*.yaml"))]
    return sorted(questions, key=lambda q: (q.exam, q.domain, q.id)), {c.id: c for c in cases}


def copy_types(tmp: Path) -> Path:
    """A copy of the fixtures a test may change."""
    return Path(shutil.copytree(TYPES, tmp / "types"))


def export_types(fmt: str, output: Path, folder: Path = TYPES, with_cases: bool = True, **options) -> ExportResult:
    questions, cases = load(folder)
    job = ExportJob(questions=questions, exams=exams(), output=output, bank_root=folder,
                    cases=cases if with_cases else {}, **options)
    return EXPORTERS.get(fmt).write(job)


def by_id(folder: Path = TYPES) -> dict[str, Question]:
    return {q.id: q for q in load(folder)[0]}


def edit(folder: Path, name: str, change) -> None:
    """Load a fixture file in `folder`, let `change(data)` alter it, write it back as YAML."""
    path = folder / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
