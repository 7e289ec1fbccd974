"""Rules that read the exam guide an exam definition carries (project/guide.py): a question's
task statements (G001) and the numbering of the guide's task statements (G002)."""

from __future__ import annotations

import difflib
from typing import Iterator

from qlint.model import ITEM_TYPES, Question
from qlint.project.guide import task_id
from qlint.rules import Finding, declare, rule

_SOURCE = "The exam guide's task statements (e.g. AWS MLA-C01: 1.1 to 4.3 under four domains)"


@rule("G001", "unknown-task", "error", types=ITEM_TYPES, source=_SOURCE)
def unknown_task(q: Question, ctx) -> Iterator[Finding]:
    """A question names a task statement its exam guide does not have, or one of another domain.

    ## What it does
    Reads the question's `tasks:` list and reports each id that is not a task statement of the
    exam definition (`bank/exams/<code>.yaml`, `tasks:` under each domain), naming the closest,
    and each task that sits under another domain than the question's `domain:`.

    ## Why it matters
    Coverage against the guide counts questions per task statement: a mistyped or renumbered id
    silently drops the question from its task, and a task from another domain puts it in two
    places of the blueprint at once.

    ## Example
    ```yaml
    exam: MLA-C01
    domain: data-preparation
    tasks: ["1.4"]
    ```

    ## Fix
    Use an id the exam definition lists under the question's domain (`1.1`, `1.2` or `1.3`), or
    add the task statement to the exam definition when the guide has it.
    """
    tasks = q.data.get("tasks")
    exam = ctx.exams.get(q.data.get("exam", ""))
    if not isinstance(tasks, list) or exam is None:
        return  # no exam definition: S002 says so
    guide = exam.guide
    for i, raw in enumerate(tasks):
        tid = task_id(raw)
        task = guide.task(tid)
        if task is None:
            if not guide.tasks:
                yield Finding(f"/tasks/{i}", f"task {tid} cannot be checked: the exam definition of {exam.code} "
                                             "lists no task statements (add `tasks:` under its domains)")
                continue
            close = difflib.get_close_matches(tid, guide.task_ids, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else f"; tasks: {', '.join(guide.task_ids)}"
            yield Finding(f"/tasks/{i}", f"{tid} is not a task statement of {exam.code}{hint}")
        elif q.data.get("domain") and task.domain != q.data.get("domain"):
            yield Finding(f"/tasks/{i}", f"task {tid} ({task.text}) belongs to domain {task.domain!r}, "
                                         f"not to the question's domain {q.data.get('domain')!r}")


declare("G002", "task-numbering", "error", """An exam definition numbers a task statement against its domain, or twice.

## What it does
Reports a task statement whose id does not start with the number of the domain it is listed
under (the third domain's tasks are 3.1, 3.2, ...), and an id listed twice.

## Why it matters
Questions cite task statements by these ids (`tasks: [3.2]`); the guide numbers them by
domain, so an id out of place means a copying mistake that sends questions to the wrong task.

## Example
```yaml
domains:
  - id: data-preparation
    tasks:
      - id: "2.1"
```

## Fix
Copy the id from the guide: the domain's number, a dot, the task's number.""", scope="schema", source=_SOURCE)
