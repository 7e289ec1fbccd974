"""Helpers for export tests: load a bank as the CLI does, run an exporter, read a package back."""

from __future__ import annotations

import copy
import io
import posixpath
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml
from lxml import etree

from qlint.lint.engine import load_document
from qlint.exporters import EXPORTERS, ExportJob, ExportResult
from qlint.model import Question
from qlint.project.config import Config
from qlint.project.exams import Exam


def load_bank(bank: Path) -> tuple[list[Question], dict[str, Exam]]:
    """Every question and exam under `bank` (exams in `bank/exams`), sorted like `qlint export`."""
    config = Config(root=bank)
    questions, exams = [], {}
    for f in sorted(bank.rglob("*.yaml")):
        _, data = load_document(str(f), config)
        if f.parent.name == "exams":
            exam = Exam.from_data(data, str(f))
            exams[exam.code] = exam
        else:
            questions.append(Question(str(f), data))
    return sorted(questions, key=lambda q: (q.exam, q.domain, q.id)), exams


def run(fmt: str, questions: list[Question], exams: dict[str, Exam], output: Path, bank_root: Path,
        **options: Any) -> ExportResult:
    return EXPORTERS.get(fmt).write(ExportJob(questions, exams, output, bank_root=bank_root, **options))


def read_package(path: Path) -> dict[str, bytes]:
    """A zip's or folder's files by package path; folders as `name/` entries."""
    if path.is_dir():
        out = {}
        for p in sorted(path.rglob("*")):
            rel = p.relative_to(path).as_posix()
            out[rel + "/" if p.is_dir() else rel] = b"" if p.is_dir() else p.read_bytes()
        return out
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def xml(data: bytes) -> etree._Element:
    return etree.parse(io.BytesIO(data)).getroot()


def manifest_hrefs(files: dict[str, bytes]) -> list[str]:
    """Every href in imsmanifest.xml (resources and files), URL-decoded to package paths."""
    root = xml(files["imsmanifest.xml"])
    return [unquote(el.get("href")) for el in root.iter() if isinstance(el.tag, str) and el.get("href") is not None]


def missing_from_package(files: dict[str, bytes]) -> list[str]:
    return sorted({h for h in manifest_hrefs(files) if h not in files})


def unlisted_in_manifest(files: dict[str, bytes]) -> list[str]:
    listed = set(manifest_hrefs(files))
    return sorted(n for n in files if n != "imsmanifest.xml" and not n.endswith("/") and n not in listed)


def resolve(base_file: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_file), unquote(href)))


def sample_question(**overrides: Any) -> dict[str, Any]:
    """A complete, schema-valid question (MLA-C01, model-development) to vary in tests."""
    q: dict[str, Any] = {
        "format": 1, "id": "mla-c01-dev-sample", "exam": "MLA-C01", "domain": "model-development",
        "type": "single", "status": "published", "difficulty": "hard", "tags": ["sample", "gpu"],
        "stem": "A model does not fit on one GPU.\n\nWhich strategy should the team use?\n",
        "trap": "Candidates pick data parallelism and miss the **memory** constraint.\n",
        "options": [
            {"id": "data-parallel", "text": "Data parallelism", "correct": False,
             "rationale": "Every GPU holds the whole model.\n", "right_when": "The model fits on one GPU.\n",
             "why_chosen": "It is the usual default."},
            {"id": "model-parallel", "text": "Model parallelism", "correct": True,
             "rationale": "Correct: it splits the layers across GPUs.\n"},
            {"id": "tuning", "text": "Hyperparameter tuning", "correct": False,
             "rationale": "Tuning does not split anything.\n", "right_when": "Accuracy is the goal.\n"},
        ],
        "explanation": "Model parallelism places layers on different GPUs.\n",
        "references": [{"title": "Distributed training", "url": "https://docs.aws.amazon.com/sagemaker/latest/dg/distributed-training.html"}],
        "related": ["mla-c01-dev-layer-split-gpus"],
    }
    for key, value in overrides.items():
        if value is None:
            q.pop(key, None)
        else:
            q[key] = copy.deepcopy(value)
    return q


def write_question(folder: Path, data: dict[str, Any], name: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"{data['id']}.yaml")
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return path
