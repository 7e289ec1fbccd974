"""`qlint export` without the command line: keep the questions the filters select, refuse when
those have lint errors (a draft's TODOs do not block publishing the rest), run the target, and
say what went wrong as Diagnostics (E001-E003), so every reporter can print it.

The lint itself is the caller's: this package never imports the engine (the layer contract in
.importlinter), it reads what the lint found as `Linted` records.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from qlint.diagnostic import Diagnostic, Severity
from qlint.exporters import EXPORTERS, ExportJob
from qlint.exporters.kit.problems import ExportError, Problem, problem
from qlint.files import UnsafePathError
from qlint.model import Case, Question
from qlint.paths import display_path
from qlint.project.casestudy import case_of
from qlint.project.config import Config, ReviewPolicy
from qlint.project.exams import Exam
from qlint.project.review import reads_case, refused as review_refusal, review_summary
from qlint.loading.document import Document
from qlint.loading.problems import place
from qlint.rules import RULES, reported

DEFAULT_STATUS = ("published", "review")
FILTER_ORDER = ("--exam", "--domain", "--tag", "--lang", "--status")


@dataclass(frozen=True)
class Filters:
    exams: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    statuses: tuple[str, ...] = DEFAULT_STATUS
    lang: str = ""  # --lang: only questions in this language
    default_lang: str = "en"  # the language of a question without `lang:`

    def skipped_by(self, data: dict[str, Any]) -> str | None:
        """The first filter (in FILTER_ORDER) that leaves this question out, or None when it is exported."""
        if self.exams and data.get("exam") not in self.exams:
            return "--exam"
        if self.domains and data.get("domain") not in self.domains:
            return "--domain"
        if self.tags and not set(self.tags) & set(data.get("tags") or []):
            return "--tag"
        if self.lang and str(data.get("lang") or self.default_lang).lower() != self.lang.lower():
            return "--lang"
        if data.get("status") == "retired":  # never exported, whatever --status asks for
            return "--status"
        return None if data.get("status") in self.statuses else "--status"

    def select(self, questions: list[Question]) -> list[Question]:
        """The questions every filter keeps, in export order (exam, domain, id)."""
        return sorted((q for q in questions if self.skipped_by(q.data) is None), key=lambda q: (q.exam, q.domain, q.id))


@dataclass(frozen=True)
class Linted:
    """One file as the lint left it: `shown` is its path as diagnostics name it."""

    path: str
    shown: str
    kind: str
    data: dict[str, Any] | None
    diagnostics: list[Diagnostic]


@dataclass(frozen=True)
class ExportRequest:
    format: str
    output: Path
    filters: Filters = Filters()
    zip: bool = True
    shuffle: bool = True
    scoring: str = "partial"
    force: bool = False  # export even when the exported questions have lint errors
    bank_root: Path | None = None
    progress: Callable[[int, int], None] | None = None
    lang: str = "en"  # the configured default language
    review: ReviewPolicy = ReviewPolicy()  # the project's [review] policy (the HTML site's review summary)
    require_review: bool = False  # --require-review: refuse published questions not reviewed as required
    config: Config | None = None  # the project's, to find a case question's case study for its content hash


@dataclass
class ExportOutcome:
    diagnostics: list[Diagnostic] = field(default_factory=list)  # what blocked or warned
    exported: int = 0
    left_out: int = 0  # questions the format cannot carry, left out with a warning each
    written: list[Path] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # filter -> questions it left out
    skipped_statuses: tuple[str, ...] = ()  # the statuses --status left out
    refused: str = ""  # why nothing was written (one line); "" when the export was written

    def skipped_note(self) -> str:
        """"; skipped 3 by --domain, 1 by --status (draft)" for the summary line (and how many
        questions the format left out)."""
        left = f"; left out {self.left_out} the format cannot carry (see the warnings)" if self.left_out else ""
        if not self.skipped:
            return left
        parts = [f"{n} by {name}" + (f" ({', '.join(self.skipped_statuses)})" if name == "--status" else "")
                 for name, n in sorted(self.skipped.items(), key=lambda kv: FILTER_ORDER.index(kv[0]))]
        return f"; skipped {', '.join(parts)}{left}"


def export_bank(linted: list[Linted], lint_diagnostics: list[Diagnostic], fatal: bool,
                exams: dict[str, Exam], request: ExportRequest) -> ExportOutcome:
    """Filter, gate on lint errors, export; never raises for bad input or an unwritable output."""
    out = ExportOutcome()
    left_out = {r.shown: (by, r.data.get("status")) for r in linted
                if r.kind == "question" and r.data is not None and (by := request.filters.skipped_by(r.data))}
    out.skipped = Counter(by for by, _status in left_out.values())
    out.skipped_statuses = tuple(sorted({str(s) for by, s in left_out.values() if by == "--status"}))
    # A case study is exported only with a question that names it: a draft case from `qlint new
    # --case-study` that no exported question names does not block the rest either.
    named = {c for r in linted if r.kind == "question" and r.data is not None and r.shown not in left_out
             and isinstance(c := r.data.get("case"), str)}
    unused = {r.shown for r in linted if r.kind == "case" and r.data is not None
              and not (isinstance(c := r.data.get("id"), str) and c in named)}
    not_exported = left_out.keys() | unused
    errors = [d for d in lint_diagnostics if d.severity >= Severity.ERROR and d.path not in not_exported]
    if fatal or (errors and not request.force):
        out.diagnostics = errors or list(lint_diagnostics)
        out.refused = ("files cannot be read" if fatal
                       else "the questions it exports have lint errors (use --force to export anyway)")
        return out
    loaded = [Question(r.path, r.data) for r in linted if r.kind == "question" and r.data is not None
              and not any(d.code == "S001" for d in r.diagnostics)]
    questions = request.filters.select(loaded)
    if not questions:
        out.refused = "no questions match the filters"
        return out
    read = {os.path.abspath(r.path): r.data for r in linted if r.kind == "case" and r.data is not None}
    if request.require_review:  # --force does not lift it: the review was asked for explicitly
        unreviewed = [(q, why) for q in questions
                      if (why := review_refusal(q.data, request.review, _case(q, request, read)))]
        if unreviewed:
            out.diagnostics = [placed("E001", problem(q, pointer, message)) for q, (pointer, message) in unreviewed]
            out.refused = (f"{len(unreviewed)} published question{'s are' if len(unreviewed) != 1 else ' is'} "
                           "not reviewed as required (--require-review)")
            return out
    cases = {r.data["id"]: Case(r.path, r.data) for r in linted if r.kind == "case" and r.data is not None
             and isinstance(r.data.get("id"), str) and not any(d.code == "S001" for d in r.diagnostics)}
    job = ExportJob(questions=questions, exams=exams, output=request.output, zip=request.zip,
                    shuffle=request.shuffle, scoring=request.scoring, bank_root=request.bank_root,
                    progress=request.progress, cases=cases, lang=request.lang,
                    review=tuple(review_summary([q.data for q in questions], request.review,
                                                [_case(q, request, read) for q in questions])))
    try:
        result = EXPORTERS.get(request.format).write(job)
    except ExportError as exc:  # a question the target cannot carry
        out.diagnostics.append(placed("E001", exc.problem))
        out.refused = "a question cannot be exported"
        return out
    except (UnsafePathError, FileNotFoundError, ValueError) as exc:  # the output cannot be used
        out.diagnostics.append(reported("E001", str(request.output), str(exc)))
        out.refused = "a question cannot be exported"
        return out
    except OSError as exc:  # a directory in the way, no permission, disk full
        out.diagnostics.append(reported("E002", str(request.output), f"cannot write: {exc.strerror or exc}"))
        out.refused = f"cannot write {request.output}"
        return out
    documents: dict[str, Document | None] = {}  # each file a warning names, read at most once
    out.diagnostics += [placed(w.code, w, documents) for w in result.warnings]
    out.exported, out.written, out.left_out = len(questions) - result.left_out, result.written, result.left_out
    return out


def _case(q: Question, request: ExportRequest, read: dict[str, Any]) -> Case | None:
    """The case study a question's content hash covers, found as `qlint check` finds it (only
    when a sign-off or freeze needs it); `read`: the case files linted, not read again."""
    if request.config is None or not reads_case(q.data):
        return None
    return case_of(q.path, q.data, request.config, read)


def placed(code: str, found: Problem, documents: dict[str, Document | None] | None = None) -> Diagnostic:
    """A problem as a Diagnostic of `code`, at its place, its file named as diagnostics name it."""
    rule = RULES.get(code)
    line, col = place(found, documents)
    return Diagnostic(display_path(found.path), line, col, code, rule.name, rule.severity, found.message)
