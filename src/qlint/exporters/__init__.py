"""Exporters: one module per target, registered by name; all read the same ExportJob.

An exporter writes deterministic output (same bank, same bytes: no timestamps, stable order)
and returns the files it wrote plus warnings about anything the target cannot carry, as
`Problem` records (file, JSON pointer, message); it refuses a question by raising ExportError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from qlint.exporters.kit.problems import Problem
from qlint.model import Case, Question
from qlint.project.exams import Exam
from qlint.project.review import ReviewRow
from qlint.registry import Registry

# How a multiple-response question is credited: all keys and no distractor for the point, or
# Moodle's fractions (each key +1/k, each distractor -1/m, the total kept in 0..1). Partial is
# the default because core Moodle (XML and GIFT) can express nothing else (docs/exports-qti.md).
ALL_OR_NOTHING, PARTIAL = "all-or-nothing", "partial"
SCORING = (ALL_OR_NOTHING, PARTIAL)


@dataclass(frozen=True)
class ExportJob:
    questions: list[Question]  # filtered, schema-valid, sorted by (exam, domain, id)
    exams: dict[str, Exam]
    output: Path
    zip: bool = True  # package targets: a .zip, or a folder with --no-zip
    shuffle: bool = True  # QTI/Canvas/Moodle: let the player shuffle options (per-question `shuffle: false` wins)
    scoring: str = PARTIAL  # multiple response: ALL_OR_NOTHING or PARTIAL, in every exporter that scores
    bank_root: Path | None = None  # media paths must stay inside it
    progress: Callable[[int, int], None] | None = None  # (done, total), for a terminal progress bar
    cases: dict[str, Case] = field(default_factory=dict)  # case id -> case study its questions (`case:`) share
    lang: str = "en"  # the language of a question without `lang:` (the configured default)
    review: tuple[ReviewRow, ...] = ()  # review status per domain (docs/review.md); empty: no policy, no sign-offs

    def tick(self, done: int) -> None:
        if self.progress:
            self.progress(done, len(self.questions))


@dataclass
class ExportResult:
    written: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # what the target drops, where (placed by the pipeline)
    left_out: int = 0  # questions the target cannot carry at all (each named by a warning), not written


@dataclass(frozen=True)
class Exporter:
    name: str
    description: str
    write: Callable[[ExportJob], ExportResult]  # the gates, then the target
    packaged: bool = False  # True: honours --no-zip
    xml: bool = False  # True: an XML target, refused any character XML 1.0 forbids


EXPORTERS: Registry[Exporter] = Registry("export format", "qlint.exporters")


def exporter(name: str, description: str, packaged: bool = False, xml: bool = False):
    """Register a target. Its `write` runs behind every export gate (kit/gates.py: sound options,
    XML characters for `xml` targets, unsafe images), so no target can skip one."""
    def deco(fn: Callable[[ExportJob], ExportResult]) -> Callable[[ExportJob], ExportResult]:
        def write(job: ExportJob) -> ExportResult:
            from qlint.exporters.kit.gates import run_gates

            run_gates(job, xml)  # before the target writes a byte
            return fn(job)

        EXPORTERS.add(name, Exporter(name, description, write, packaged, xml))
        return fn

    return deco
