"""An exam definition's guide: the published exam guide's version, date and address, its task
statements under their domains, and the services it lists as in scope and out of scope."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TaskStatement:
    id: str  # "1.2": the domain's number, then the task's
    text: str
    domain: str  # the id of the domain it sits under


@dataclass(frozen=True)
class Guide:
    version: str = ""
    effective: str = ""  # ISO date the guide took effect
    url: str = ""
    tasks: tuple[TaskStatement, ...] = ()
    in_scope: tuple[str, ...] = ()
    out_of_scope: tuple[str, ...] = ()

    @property
    def task_ids(self) -> list[str]:
        return [t.id for t in self.tasks]

    def task(self, task_id: str) -> TaskStatement | None:
        return next((t for t in self.tasks if t.id == task_id), None)


def task_id(value: Any) -> str:
    """A question's `tasks:` entry as an id: `1.2` written unquoted reads as a number."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return format(value, "g")
    return str(value).strip()


TASK_TAG = "task:"  # a task statement as a Moodle or GIFT tag: `task:1.2` (exporters and importers)


def question_tasks(data: dict[str, Any]) -> list[str]:
    """The task ids a question's `tasks:` names, as strings, in its order."""
    return [task_id(t) for t in data.get("tasks") or []]


def guide_from_data(data: dict[str, Any]) -> Guide:
    """The guide of an exam file already checked against the exam schema."""
    meta = data.get("guide") or {}
    tasks = tuple(TaskStatement(task_id(t["id"]), t["text"], d["id"])
                  for d in data.get("domains", []) for t in d.get("tasks") or [])
    return Guide(
        version=str(meta.get("version", "")),
        effective=str(meta.get("effective", "")),
        url=str(meta.get("url", "")),
        tasks=tasks,
        in_scope=tuple(meta.get("in_scope") or ()),
        out_of_scope=tuple(meta.get("out_of_scope") or ()),
    )


def guide_problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(JSON pointer, message) for what the schema cannot say: a task id must start with its
    domain's number (the third domain's tasks are 3.1, 3.2, ...) and appear once."""
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for d_index, domain in enumerate(data.get("domains", [])):
        for t_index, task in enumerate(domain.get("tasks") or []):
            tid = task_id(task.get("id"))
            pointer = f"/domains/{d_index}/tasks/{t_index}/id"
            if tid.split(".")[0] != str(d_index + 1):
                problems.append((pointer, f"task {tid} is listed under domain {d_index + 1} ({domain.get('id')}); "
                                          f"its id must start with {d_index + 1}."))
            if tid in seen:
                problems.append((pointer, f"task {tid} is listed twice"))
            seen.add(tid)
    return problems
