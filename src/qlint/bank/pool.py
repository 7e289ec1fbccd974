"""The question pool a number of practice exams needs: each sitting of `questions` questions
follows the blueprint's weights, and no question appears in two practice exams, so a domain needs
its per-sitting share times the number of exams (project/exams.py gives the length)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from qlint.project.exams import Exam

PRACTICE_EXAMS = 1  # the PR summary's figure: can the bank fill one practice exam without a repeat


def sitting(exam: Exam, length: int) -> dict[str, int]:
    """Questions per domain on one sitting of `length`: the weights' shares, rounded by largest
    remainder so they add up to `length` (ties go to the domain listed first)."""
    total = sum(d.weight for d in exam.domains) or 1.0
    exact = [length * d.weight / total for d in exam.domains]
    counts = [math.floor(x) for x in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in by_remainder[: length - sum(counts)]:
        counts[i] += 1
    return {d.id: n for d, n in zip(exam.domains, counts)}


@dataclass(frozen=True)
class PoolNeed:
    """What `exams` practice exams of `length` questions need from the bank, without repeats."""

    exam: str
    exams: int
    length: int
    scored: int | None
    per_sitting: dict[str, int]  # domain id -> questions on one sitting
    domains: dict[str, int]  # domain id -> questions the pool needs
    tasks: dict[str, int]  # task id -> questions the pool needs: its domain's need spread evenly, rounded up


def pool_need(exam: Exam, exams: int, length: int | None = None) -> PoolNeed | None:
    """The pool for `exams` practice exams; None when the exam's length is not known (no
    `questions:` in its definition and none given)."""
    length = length or exam.questions
    if not length or exams < 1:
        return None
    per = sitting(exam, length)
    domains = {d: n * exams for d, n in per.items()}
    tasks_of: dict[str, list[str]] = {}
    for t in exam.guide.tasks:
        tasks_of.setdefault(t.domain, []).append(t.id)
    tasks = {t: math.ceil(domains.get(d, 0) / len(ids)) for d, ids in tasks_of.items() for t in ids}
    return PoolNeed(exam.code, exams, length, exam.scored, per, domains, tasks)


def pool_needs(exams: dict[str, Exam], count: int, length: int | None = None) -> dict[str, PoolNeed]:
    """Each exam's pool for `count` practice exams, for those whose length is known."""
    out = {}
    for code, exam in sorted(exams.items()):
        need = pool_need(exam, count, length)
        if need is not None:
            out[code] = need
    return out
