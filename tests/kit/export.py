"""The export test kit: load a bank as `qlint export` does (or unchecked), run a registered
exporter, read a package back, and build small banks (images, hostile text, a generated bank)."""

from __future__ import annotations

import copy
import html
import io
import posixpath
import re
import shutil
import struct
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote

import pytest
import yaml
from lxml import etree

from qlint.lint.engine import lint, load_document, make_settings
from qlint.exporters import EXPORTERS, ExportJob, ExportResult
from qlint.exporters.kit.problems import ExportError
from qlint.exporters.pipeline import place
from qlint.markup import render
from qlint.model import Case, Question
from qlint.cli.config import load_config
from qlint.project.config import Config
from qlint.project.exams import Exam

from conftest import BANK, REPO

SAMPLE_MULTIPLE = BANK / "mla-c01" / "monitoring-security" / "vpc-kms-training.yaml"
SAMPLE_SINGLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
# Moodle's question_bank::fraction_options() as percentages, written out here independently.
ALLOWED_GRADES = {100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                  16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0}

# Hostile text: markup, CDATA end, entities, quotes, GIFT specials, Unicode and an XSS probe.
HOSTILE = ('Pick <script>window.__pwned = 1</script> or <img src=x onerror="window.__pwned = 2"> '
           'and ]]> & &amp; "double" \'single\' ~ = # { } : \\ Zürich 東京 🙂')
# Markup, a CDATA end, entities, quotes and non-ASCII text, for the QTI round trips.
INJECTION = "<script>alert('x')</script> ]]> & \"quoted\" 'single' café ≤ 日本 😀 <![CDATA[x]]>"


# CHOICE_ONLY: these loaders give the sample bank's single and multiple questions outside case
# studies, for the tests of what every target does with options (letters, shuffling, partial
# credit). Every exporter carries ordering, matching and case studies too (issue 13); their
# tests load tests/fixtures/types, call `load_bank(..., every_type=True)` or go through the CLI,
# which exports the whole sample bank.


def load_questions(root: Path) -> tuple[list[Question], dict, Path]:
    """Questions (sorted as the CLI sorts them), exams and bank folder of the project at `root`."""
    config = load_config(root)
    settings = make_settings(config)
    result = lint([str(config.bank_dir)], settings)
    questions = [Question(p, r.data) for p, r in result.results.items()
                 if r.kind == "question" and r.data is not None and not any(d.code == "S001" for d in r.diagnostics)]
    questions = [q for q in questions if q.is_choice and not q.case]  # see CHOICE_ONLY
    questions.sort(key=lambda q: (q.exam, q.domain, q.id))
    return questions, settings.exams, config.bank_dir


def export(fmt: str, questions, exams, bank_root: Path, output: Path, **options) -> ExportResult:
    """Run one registered exporter, as `qlint export --format fmt` does after loading."""
    job = ExportJob(questions=questions, exams=exams, output=output, bank_root=bank_root, **options)
    return EXPORTERS.get(fmt).write(job)


def shown(found) -> list[str] | str:
    """An export's problems (a list of them, an ExportResult's warnings, or one ExportError) as
    `path:line:col: message` lines, placed the way `qlint export` places them."""
    if isinstance(found, ExportError):
        return shown([found.problem])[0]
    if isinstance(found, ExportResult):
        found = found.warnings
    return [f"{p.path}:{line}:{col}: {p.message}" for p in found for line, col in [place(p)]]


@contextmanager
def refused(pattern: str) -> Iterator[pytest.ExceptionInfo[ExportError]]:
    """The export in the block is refused (ExportError) with a problem that, placed, matches `pattern`."""
    with pytest.raises(ExportError) as info:
        yield info
    assert re.search(pattern, shown(info.value)), shown(info.value)


def formats(*, packaged: bool | None = None) -> list[str]:
    """Registered export formats (content packages only, or none of them): tests loop over these."""
    return [name for name, e in EXPORTERS.items() if packaged is None or e.packaged == packaged]


def mixed(questions: list[Question], each: int = 5) -> list[Question]:
    """A small slice with `shuffle: false`, pinned, multiple-response and plain questions, in export order."""
    picks = [q for q in questions if q.data.get("shuffle") is False][:each]
    picks += [q for q in questions if any(o.raw.get("pinned") for o in q.options)][:each]
    picks += [q for q in questions if q.type == "multiple"][:each] + questions[:each]
    assert len({q.id for q in picks}) >= 3 * each, "the bank lacks the variety this test needs"
    return sorted({q.id: q for q in picks}.values(), key=lambda q: (q.exam, q.domain, q.id))


def plain(markdown: str) -> str:
    """Plain words of a Markdown text, as a reader shows them (tags dropped, entities decoded)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", render(markdown))).split())


def words_of(html_text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text or "")).split())


def png(rgb: tuple[int, int, int] = (255, 0, 0)) -> bytes:
    """A valid 1x1 PNG, built here so the tests need no binary fixtures."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"\x00" + bytes(rgb)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def copy_project(tmp: Path) -> Path:
    """A copy of the sample project (config, schema, bank) that a test may change."""
    root = tmp / "project"
    root.mkdir(parents=True)
    for name in ("pyproject.toml", "schema"):
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    shutil.copytree(BANK, root / "bank")
    return root


def add_question(root: Path, source: Path, rel: str, replace: list[tuple[str, str]]) -> Path:
    """Copy a sample question to bank/`rel`, applying text replacements (each must apply)."""
    text = source.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text, old
        text = text.replace(old, new, 1)
    target = root / "bank" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def _yaml_block(text: str) -> str:
    return "|\n      " + text


def hostile_project(tmp: Path) -> tuple[Path, str]:
    """The sample project plus one question whose every text holds HOSTILE; returns (root, id)."""
    root = copy_project(tmp)
    qid = "mla-c01-dev-hostile-markup"
    add_question(root, SAMPLE_SINGLE, "mla-c01/model-development/hostile.yaml", [
        ("id: mla-c01-dev-layer-split-gpus", f"id: {qid}"),
        ("  Which distributed training strategy should the team use?",
         f"  {HOSTILE}\n\n  Which distributed training strategy should the team use?"),
        ("  weight onto each GPU, so it cannot help when the weights do not fit.",
         f"  weight onto each GPU, so it cannot help when the weights do not fit. {HOSTILE}"),
        ("    text: Data parallelism", "    text: 'Data parallelism <b>bold</b> ]]> & {x} ~y =z #w: \"q\"'"),
        ("      so per-GPU memory does not shrink and the constraint remains.",
         f"      so per-GPU memory does not shrink and the constraint remains. {HOSTILE}"),
        ("      The network fits on one GPU and the goal is higher throughput on a large",
         f"      {HOSTILE}\n      The network fits on one GPU and the goal is higher throughput on a large"),
        ("  independent full copies.", f"  independent full copies. {HOSTILE}"),
        ("  - title: Distributed training in Amazon SageMaker AI", "  - title: '<script>x</script> & ]]> \"T\"'"),
    ])
    return root, qid


def image_project(tmp: Path, ref: str = "img/gpu.png") -> tuple[Path, bytes]:
    """The sample project with an image in one stem (and one rationale); returns (root, bytes)."""
    root = copy_project(tmp)
    data = png()
    folder = root / "bank" / "mla-c01" / "model-development"
    (folder / "img").mkdir()
    (folder / "img" / "gpu.png").write_bytes(data)
    (root / "outside.png").write_bytes(png((0, 0, 255)))
    path = folder / "layer-split-across-gpus.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  Which distributed training strategy should the team use?",
                        f"  ![GPU memory layout]({ref})\n\n  Which distributed training strategy should the team use?", 1)
    text = text.replace("      so per-GPU memory does not shrink and the constraint remains.",
                        f"      so per-GPU memory does not shrink and the constraint remains. ![again]({ref})", 1)
    path.write_text(text, encoding="utf-8")
    return root, data


def tree_bytes(path: Path) -> dict[str, bytes]:
    """Every file under `path` (or the file itself) as relative name -> bytes."""
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


# Module-level caches: the fixtures below are imported into several test modules, and pytest
# would otherwise build each module's copy of a session fixture anew.
_BANKS: dict[str, tuple] = {}
_EXPORTS: dict[tuple[str, str], tuple[Path, ExportResult]] = {}


@pytest.fixture(scope="session")
def banks(tmp_path_factory):
    """name -> (questions, exams, bank root) for the sample bank and a generated bank of 400: pages,
    indexes and links at a size no hand-written bank reaches (export time grows with the count)."""
    if not _BANKS:
        import sys

        sys.path.insert(0, str(REPO / "benchmarks"))
        import synthbank

        gen_root = tmp_path_factory.mktemp("generated")
        synthbank.practice(gen_root, 400, seed=5)
        _BANKS.update(sample=load_questions(REPO), generated=load_questions(gen_root))
    return _BANKS


@pytest.fixture(scope="session")
def exported(banks, tmp_path_factory):
    """exported(fmt, bank) -> (output path, ExportResult), each export made once per session."""
    def get(fmt: str, bank: str) -> tuple[Path, ExportResult]:
        if (fmt, bank) not in _EXPORTS:
            questions, exams, root = banks[bank]
            target = tmp_path_factory.mktemp("exports") / f"{bank}-{fmt}"
            _EXPORTS[fmt, bank] = target, export(fmt, questions, exams, root, target)
        return _EXPORTS[fmt, bank]

    return get


# --- packages -------------------------------------------------------------------------------


def load_bank(bank: Path, every_type: bool = False) -> tuple[list[Question], dict[str, Exam]]:
    """Every question and exam under `bank` (exams in `bank/exams`) as written, sorted like
    `qlint export`, unchecked: for tests that hand an exporter data the CLI would refuse.
    `every_type`: ordering, matching and case questions too (for targets that carry them)."""
    config = Config(root=bank)
    questions, exams = [], {}
    for f in sorted(bank.rglob("*.yaml")):
        if f.parent.name == "cases":  # case studies: load_cases
            continue
        _, data = load_document(str(f), config)
        if f.parent.name == "exams":
            exam = Exam.from_data(data, str(f))
            exams[exam.code] = exam
        elif f.parent.name != "cases" and (every_type or Question(str(f), data).is_choice and not data.get("case")):  # see CHOICE_ONLY
            questions.append(Question(str(f), data))
    return sorted(questions, key=lambda q: (q.exam, q.domain, q.id)), exams


def load_cases(bank: Path) -> dict[str, Case]:
    """Every case study under `bank` (files in a `cases` folder), by id, unchecked."""
    config = Config(root=bank)
    cases = [Case(str(f), load_document(str(f), config)[1]) for f in sorted(bank.rglob("*.yaml")) if f.parent.name == "cases"]
    return {c.id: c for c in cases}


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


# --- the item-type fixtures (tests/fixtures/types) ------------------------------------------
# Ordering, matching and a case study of two questions, with the sample bank's exam definitions,
# handed to a registered exporter in an ExportJob as `qlint export` does after loading. The one
# kit for every exporter's item-type tests (it replaces lms_kit.py, webtypes.py and the QTI
# tests' own loader).

TYPES = REPO / "tests" / "fixtures" / "types"
CASE_PATH = TYPES / "cases" / "fraud-scoring.yaml"
ORDERING, MATCHING = "types-ordering-realtime-deploy", "types-matching-monitoring-tools"
CASE, CASE_SINGLE, CASE_ORDERING = "types-case-fraud-scoring", "types-case-fraud-endpoint-type", "types-case-fraud-approval-order"
CASE_ID, CASE_ITEMS = CASE, [CASE_SINGLE, CASE_ORDERING]  # the case's `items`, in order


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def type_exams() -> dict[str, Exam]:
    """The sample bank's exam definitions (bank/exams), as the fixtures' questions name them."""
    exam_files = sorted((BANK / "exams").glob("*.yaml"))
    exams = [Exam.from_data(_yaml(f), str(f)) for f in exam_files]
    return {e.code: e for e in exams}


def load(folder: Path = TYPES) -> tuple[list[Question], dict[str, Case]]:
    """The questions (sorted as `qlint export` sorts them) and case studies under `folder`."""
    questions = [Question(str(p), _yaml(p)) for p in sorted(folder.glob("*.yaml"))]
    cases = [Case(str(p), _yaml(p)) for p in sorted((folder / "cases").glob("*.yaml"))]
    return sorted(questions, key=lambda q: (q.exam, q.domain, q.id)), {c.id: c for c in cases}


def fixtures() -> tuple[list[Question], dict[str, Case], dict[str, Exam]]:
    """(questions, cases by id, exams) of the fixtures."""
    return (*load(), type_exams())


def export_types_package(tmp_path: Path, fmt: str, questions=None, cases=None, root: Path = TYPES, **options):
    """(files, placed warnings) of one export of the fixtures through the registered exporter."""
    qs, cs, exams = fixtures()
    out = tmp_path / f"{fmt}-{len(list(tmp_path.iterdir()))}.zip"
    result = export(fmt, qs if questions is None else questions, exams, root, out,
                    cases=cs if cases is None else cases, **options)
    return read_package(out), shown(result)


def question(name: str, **overrides: Any) -> Question:
    """One fixture file as a Question, with top-level fields replaced."""
    path = TYPES / name
    data = _yaml(path)
    for key, value in overrides.items():
        data[key] = copy.deepcopy(value)
    return Question(str(path), data)


def case() -> Case:
    return Case(str(CASE_PATH), _yaml(CASE_PATH))


def by_id(folder: Path = TYPES) -> dict[str, Question]:
    return {q.id: q for q in load(folder)[0]}


def copy_types(tmp: Path) -> Path:
    """A copy of the fixtures a test may change."""
    return Path(shutil.copytree(TYPES, tmp / "types"))


def edit(folder: Path, name: str, change) -> None:
    """Load a fixture file in `folder`, let `change(data)` alter it, write it back as YAML."""
    path = folder / name
    data = _yaml(path)
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")


def export_types(fmt: str, output: Path, questions: list[Question] | None = None, cases: dict[str, Case] | None = None,
                 folder: Path = TYPES, with_cases: bool = True, **options: Any) -> ExportResult:
    """Export the fixtures under `folder` (or the given questions and cases) in one format."""
    loaded, found = load(folder)
    job = ExportJob(questions=loaded if questions is None else questions, exams=type_exams(), output=output,
                    bank_root=folder, cases=(found if with_cases else {}) if cases is None else cases, **options)
    return EXPORTERS.get(fmt).write(job)


def words(markup: str) -> str:
    """The words an HTML (or Markdown rendered to HTML) text shows, one space apart."""
    return words_of(markup)


def md_words(markdown: str) -> str:
    return plain(markdown)
