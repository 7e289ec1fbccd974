"""Build a ReportContext's run figures from a lint run: the command composes the engine's
result with the reports, so the formats stay pure functions of (diagnostics, context)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from qlint.bank.pool import PRACTICE_EXAMS, pool_needs
from qlint.bank.tasks import task_coverage
from qlint.bank.statistics import blueprint_coverage, key_balance
from qlint.lint.bankrun import bank_context
from qlint.lint.results import LintResult
from qlint.lint.settings import Settings
from qlint.loading.errors import LoadError
from qlint.loading.fast import FastPathError, load_fast
from qlint.loading.reader import decode, read_source
from qlint.project.casestudy import case_of
from qlint.project.review import ReviewRow, review_summary
from qlint.reports._context import context_fields


def bank_figures(result: LintResult, settings: Settings, exams: int = PRACTICE_EXAMS,
                 length: int | None = None) -> dict[str, Any]:
    """Key balance and blueprint coverage of the whole bank (not only the files checked), and the
    pool `exams` practice exams need (for exams whose length is known, or `length`)."""
    bank = result.bank
    if bank is None:  # no bank rule ran (or their result came from the cache): load the context now
        questions = {p: r for p, r in result.results.items() if r.kind == "question"}
        bank = bank_context(settings, questions, result.checker)
    return {
        "key_balance": key_balance(bank.entries),
        "coverage": [c for exams, entries in bank.by_exams() for c in blueprint_coverage(entries, exams)],
        "tasks": [c for exams, entries in bank.by_exams() for c in task_coverage(entries, exams)],
        "pool": {code: need for defined, _ in bank.by_exams() for code, need in pool_needs(defined, exams, length).items()},
        "review": review_figures([e.path for e in bank.entries], settings),
    }


def review_figures(paths: list[str], settings: Settings) -> list[ReviewRow]:
    """Review status per domain (docs/review.md). The run keeps no question data for reports, so
    the sign-offs are read again here, for the formats that show figures only."""
    config = settings.config
    items, cases = [], []
    for path in paths:
        try:
            data = load_fast(decode(read_source(path, config.root, config.limits)), config.limits)
        except (LoadError, FastPathError, OSError, ValueError):  # the lint run reported it; a summary skips it
            continue
        items.append(data)
        cases.append(case_of(path, data, config) if isinstance(data, dict) and data.get("case") else None)
    return review_summary(items, config.review, cases)


def run_context(result: LintResult, settings: Settings, exit_code: int, environ: Mapping[str, str],
                cwd: Path | None = None) -> dict[str, Any]:
    """The ReportContext fields every format shares for this run."""
    return context_fields(len(result.files), exit_code, tuple(settings.selection.enabled), environ, cwd)
