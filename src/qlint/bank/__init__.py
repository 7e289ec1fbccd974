"""The whole bank as context: bank-wide rules and figures read it; reports name only target files."""

from __future__ import annotations

from dataclasses import dataclass, field

from qlint.model import Question
from qlint.project.exams import Exam


@dataclass
class Bank:
    """Every schema-valid question in the bank (plus any targets outside it), in path order."""

    questions: list[Question]
    exams: dict[str, Exam]
    targets: set[str] = field(default_factory=set)  # paths (as loaded) that findings may name

    def by_id(self) -> dict[str, list[Question]]:
        out: dict[str, list[Question]] = {}
        for q in self.questions:
            out.setdefault(q.id, []).append(q)
        return out
