"""Coverage of the exam guide's task statements: questions per task against what the blueprint
asks of the task's domain (project/guide.py gives the tasks, `tasks:` on each question)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from qlint.bank.entry import BankEntry
from qlint.project.exams import Exam


@dataclass(frozen=True)
class TaskCoverage:
    exam: str
    task: str
    text: str
    domain: str
    count: int  # questions that name the task
    expected: float  # questions the task would have if the bank followed the blueprint, spread evenly over the domain's tasks

    @property
    def gap(self) -> float:
        return self.count - self.expected


def task_coverage(entries: list[BankEntry], exams: dict[str, Exam]) -> list[TaskCoverage]:
    """One row per task statement of each exam whose guide lists them, in the guide's order."""
    out = []
    for code, exam in sorted(exams.items()):
        tasks = exam.guide.tasks
        if not tasks:
            continue
        mine = [e for e in entries if e.exam == code and e.status != "retired"]
        counts = Counter(t for e in mine for t in set(e.tasks))
        weights = sum(d.weight for d in exam.domains) or 1.0
        per_domain = Counter(t.domain for t in tasks)
        weight = {d.id: d.weight / weights for d in exam.domains}
        for t in tasks:
            expected = len(mine) * weight.get(t.domain, 0.0) / per_domain[t.domain]
            out.append(TaskCoverage(code, t.id, t.text, t.domain, counts.get(t.id, 0), expected))
    return out


def uses_tasks(entries: list[BankEntry], code: str) -> bool:
    """The bank's questions of `code` name task statements at all (coverage is judged only then)."""
    return any(e.tasks for e in entries if e.exam == code)
