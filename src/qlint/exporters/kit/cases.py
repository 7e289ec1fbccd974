"""Case studies for exporters that write a case as a block (Canvas, Moodle): which exported
questions stand alone and which belong to a case, each case's questions in the case's order."""

from __future__ import annotations

from dataclasses import dataclass, field

from qlint.exporters import ExportJob
from qlint.exporters.kit.problems import Problem, problem
from qlint.model import Case, Question


@dataclass
class CaseBlock:
    case: Case
    questions: list[Question] = field(default_factory=list)  # in the order of the case's `items`


def split_cases(job: ExportJob, questions: list[Question], warnings: list[Problem]) -> tuple[list[Question], list[CaseBlock]]:
    """(questions that stand alone, case blocks sorted by case id). A question naming a case the
    export does not have stands alone, with a warning (file:line:col of its `case`)."""
    alone: list[Question] = []
    blocks: dict[str, CaseBlock] = {}
    for q in questions:
        if q.case is None:
            alone.append(q)
        elif q.case in job.cases:
            blocks.setdefault(q.case, CaseBlock(job.cases[q.case])).questions.append(q)
        else:
            warnings.append(problem(q, '/case', f"case study {q.case!r} is not part of this export; the question "
                            "is exported on its own, without the case's scenario"))
            alone.append(q)
    for block in blocks.values():
        order = {qid: n for n, qid in enumerate(block.case.items)}
        block.questions.sort(key=lambda q: order.get(q.id, len(order)))  # stable: unlisted ones keep export order
    return alone, [blocks[k] for k in sorted(blocks)]
