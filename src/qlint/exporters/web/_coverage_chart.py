"""The HTML site's coverage page: per exam, questions per blueprint domain and per task statement
against the blueprint's share, as inline SVG bar charts (attributes only: the page's CSP allows no
inline style) with a table of the same figures. The figures are the bank layer's (statistics,
tasks, pool), counted over the questions this site carries."""

from __future__ import annotations

from dataclasses import dataclass

from qlint.bank import Bank
from qlint.bank.pool import PRACTICE_EXAMS, pool_needs
from qlint.bank.statistics import blueprint_coverage
from qlint.bank.tasks import task_coverage
from qlint.exporters import ExportJob

LABEL_W, BAR_X, BAR_W, ROW_H, CHART_W = 190, 200, 330, 28, 600


@dataclass(frozen=True)
class Row:
    label: str  # short, in the chart: a domain id or a task id
    text: str  # the full name, in the table and the bar's accessible text
    count: int
    expected: float  # questions the blueprint's weight asks of this many
    need: int | None  # questions one practice exam set needs (None: exam length unknown)


def _bars(rows: list[Row]) -> dict:
    """Geometry for one chart: a bar per row scaled to the largest count or share, the share as a mark."""
    top = max([1.0, *(r.count for r in rows), *(r.expected for r in rows)])
    bars = []
    for i, r in enumerate(rows):
        y = 8 + i * ROW_H
        share = f"{r.expected:.1f}"
        need = f"; {r.need} needed for {PRACTICE_EXAMS} practice exam" if r.need is not None else ""
        bars.append({
            "y": y, "text_y": y + 15, "label": r.label, "count": r.count,
            "width": round(BAR_W * r.count / top, 1), "mark_x": round(BAR_X + BAR_W * r.expected / top, 1),
            # the count stands after the bar and the share's line, so neither covers it
            "count_x": round(BAR_X + BAR_W * max(r.count, r.expected) / top + 6, 1),
            "aria": f"{r.text}: {r.count} question{'' if r.count == 1 else 's'}, blueprint share {share}{need}",
            "share": share, "text": r.text, "need": "" if r.need is None else str(r.need),
            "short": "" if r.need is None else str(max(0, r.need - r.count)),
        })
    return {"bars": bars, "height": 16 + len(rows) * ROW_H, "width": CHART_W, "label_x": LABEL_W, "bar_x": BAR_X,
            "pool": any(r.need is not None for r in rows)}


def coverage_sections(job: ExportJob) -> list[dict]:
    """One section per exam with a definition, in code order: its totals and two charts."""
    bank = Bank.of_questions(job.questions, job.exams, set())
    exams = {code: exam for code, exam in job.exams.items() if any(e.exam == code for e in bank.entries)}
    pool = pool_needs(exams, PRACTICE_EXAMS)
    domains = blueprint_coverage(bank.entries, exams)
    tasks = task_coverage(bank.entries, exams)
    out = []
    for code, exam in sorted(exams.items()):
        need = pool.get(code)
        total = sum(c.count for c in domains if c.exam == code)
        domain_rows = [Row(c.domain, c.name, c.count, total * c.weight / (sum(d.weight for d in exam.domains) or 1),
                           need.domains.get(c.domain) if need else None) for c in domains if c.exam == code]
        task_rows = [Row(t.task, f"{t.task} {t.text}", t.count, t.expected, need.tasks.get(t.task) if need else None)
                     for t in tasks if t.exam == code]
        out.append({
            "code": code, "name": exam.name, "total": total,
            "length": need.length if need else None, "scored": need.scored if need else None,
            "pool": sum(need.domains.values()) if need else None,
            "domains": _bars(domain_rows), "tasks": _bars(task_rows) if task_rows else None,
        })
    return out
