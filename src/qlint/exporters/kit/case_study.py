"""Case studies as the web targets show them: the case a question belongs to, the questions of a
case in the order its `items` list them, and a warning for a question whose case is not part of
the export (it is exported alone, never dropped)."""

from __future__ import annotations

from qlint.exporters import ExportJob
from qlint.exporters.kit.problems import Problem, problem
from qlint.model import Case, Question


def case_of(q: Question, job: ExportJob) -> Case | None:
    return job.cases.get(q.case) if q.case else None


def missing_cases(job: ExportJob, target: str) -> list[Problem]:
    """One warning per question naming a case study the export does not hold."""
    return [problem(q, '/case', f"case study {q.case!r} is not part of this export; {target} shows this "
            "question without its scenario") for q in job.questions if q.case and q.case not in job.cases]


def members(job: ExportJob) -> list[tuple[Case, list[tuple[str, Question | None]]]]:
    """Each case study some exported question belongs to, with (id, question or None when it is
    not exported) in `items` order; exported questions naming the case that its `items` forget
    come last, by id, so none is lost."""
    named: dict[str, list[Question]] = {}
    for q in job.questions:
        if q.case in job.cases:
            named.setdefault(q.case, []).append(q)
    out = []
    for case_id in sorted(named):
        case, qs = job.cases[case_id], {q.id: q for q in named[case_id]}
        rows: list[tuple[str, Question | None]] = [(i, qs.get(i)) for i in case.items]
        rows += [(q.id, q) for q in sorted(named[case_id], key=lambda q: q.id) if q.id not in case.items]
        out.append((case, rows))
    return out


def position(q: Question, case: Case) -> int | None:
    """1-based place of the question in its case's `items`, or None when the case does not list it."""
    return case.items.index(q.id) + 1 if q.id in case.items else None
