"""A question's tags as Moodle and GIFT carry them: its own tags, then one `task:1.2` tag per task
statement it names (Moodle has no other field for them; qlint's importers read them back)."""

from __future__ import annotations

from qlint.model import Question
from qlint.project.guide import TASK_TAG, question_tasks


def lms_tags(q: Question) -> list[str]:
    return [*(q.data.get("tags") or []), *(TASK_TAG + t for t in question_tasks(q.data))]
