"""Retired questions (`status: retired`, `replaced_by:`): links that lead to a question learners
no longer see (B014). Exports never include a retired question (exporters/pipeline.py). And the
exam guide's task statements that too few questions assess (B015)."""

from __future__ import annotations

import difflib
from typing import Iterator

from qlint.bank.pool import pool_need
from qlint.bank.tasks import task_coverage, uses_tasks
from qlint.rules import Finding, Option, rule


@rule("B014", "retired-link", "error", scope="bank",
      source="Bank integrity: a retired question is never exported, so a link to it is a dead link")
def retired_link(bank, ctx) -> Iterator[Finding]:
    """A `replaced_by` or `related` link leads to a retired or missing question.

    ## What it does
    For each question, checks `replaced_by` (set only on a retired question) names a question of
    the bank that is not retired itself, and that no `related` entry names a retired question.
    A `replaced_by` on a question that is not retired is reported too. A `related` id that names
    no question at all is B002's finding.

    ## Why it matters
    Retired questions are never exported: a link to one is a broken link in every export, and a
    replacement that is itself retired sends reviewers round in circles.

    ## Example
    ```yaml
    status: retired
    replaced_by: mla-c01-dev-forecast-canvas   # also retired
    ```

    ## Fix
    Point `replaced_by` (and `related`) at the current question, or drop the link.
    """
    status = {e.id: e.status for e in bank.entries}
    for q, target in zip(bank.entries, bank.target_flags()):
        if not target:
            continue
        successor = q.replaced_by
        if successor:
            if q.status != "retired":
                yield Finding("/replaced_by", f"only a retired question has a replacement; this one is "
                                              f"{q.status or 'not retired'}: set status: retired or drop replaced_by",
                              path=q.path)
            elif successor == q.id:
                yield Finding("/replaced_by", "a question cannot replace itself", path=q.path)
            elif successor not in status:
                close = difflib.get_close_matches(successor, list(status), n=1, cutoff=0.8)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                yield Finding("/replaced_by", f"no question has the id {successor!r}{hint}", path=q.path)
            elif status[successor] == "retired":
                yield Finding("/replaced_by", f"{successor!r} is retired too: name the question that replaces "
                                              "it now", path=q.path)
        for i, ref in enumerate(q.related):
            if status.get(ref) == "retired":
                yield Finding(f"/related/{i}", f"{ref!r} is retired and never exported: link the question that "
                                               "replaces it", path=q.path)


@rule("B015", "thin-task", "warning", scope="bank",
      options={"min-questions": Option(1, "Fewest questions a task statement needs.", min=1, max=10_000),
               "min-bank": Option(40, "Fewest questions for an exam before its tasks are judged.", min=1, max=100_000),
               "practice-exams": Option(0, "Practice exams each task's questions should fill without a repeat, for "
                                           "exams whose file gives `questions:` (0: only `min-questions`).",
                                        min=0, max=1000)},
      source="The exam guide's task statements (e.g. AWS MLA-C01: 1.1 to 4.3); rules.md 'blueprint coverage'")
def thin_task(bank, ctx) -> Iterator[Finding]:
    """A task statement of the exam guide has fewer than `min-questions` questions.

    ## What it does
    For each exam with at least `min-bank` questions whose definition lists task statements and
    whose questions name them (`tasks:`), counts the questions (retired ones left out) that name each task statement and
    reports, on the task's line of the exam definition, each with fewer than `min-questions`.
    With `practice-exams = N` and a sitting's length in the exam file (`questions:`), a task also
    needs its share of the pool N practice exams take without repeating a question, the figure
    `qlint coverage --exams N` shows (the domain's questions a sitting, times N, spread evenly
    over its tasks, rounded up). It appears when the exam file is among the files checked
    (`qlint check` on the whole bank).

    ## Why it matters
    Every task statement can be asked on the exam; a task no practice question assesses is a
    gap learners find only in the exam room.

    ## Example
    An MLA-C01 bank with no question that names task 3.2 (Create and script infrastructure).

    ## Fix
    Write questions for the task (or name it in the `tasks:` of questions that already assess it).
    """
    minimum, smallest = int(ctx.option("min-questions")), int(ctx.option("min-bank"))
    practice = int(ctx.option("practice-exams"))
    for exams, entries in bank.by_exams():
        for code, exam in sorted(exams.items()):
            total = sum(1 for e in entries if e.exam == code and e.status != "retired")
            if total < smallest or not bank.is_target(exam.path) or not uses_tasks(entries, code):
                continue
            rows = {c.task: c for c in task_coverage(entries, {code: exam})}
            pool = pool_need(exam, practice) if practice else None
            for d_index, domain in enumerate(exam.domains):
                mine = [t for t in exam.guide.tasks if t.domain == domain.id]
                for t_index, task in enumerate(mine):
                    row = rows[task.id]
                    need = max(minimum, pool.tasks.get(task.id, 0)) if pool else minimum
                    if row.count < need:
                        why = (f"{practice} practice exam{'' if practice == 1 else 's'} of {pool.length} questions "
                               "take" if pool and need > minimum else "it needs at least")
                        yield Finding(f"/domains/{d_index}/tasks/{t_index}/id",
                                      f"task {task.id} ({task.text}) has {row.count} question"
                                      f"{'' if row.count == 1 else 's'}; {why} {need} "
                                      f"(the blueprint's share for it: {row.expected:.1f})", path=exam.path)
