"""The whole bank as context: bank-wide rules and figures read it; reports name only target files."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from qlint.model import Question
from qlint.project.discovery import real_path
from qlint.project.exams import Exam


@dataclass
class Bank:
    """Every schema-valid question in the bank (plus any targets outside it), in path order."""

    questions: list[Question]
    exams: dict[str, Exam]
    targets: set[str] = field(default_factory=set)  # real paths of the files findings may name
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def by_id(self) -> dict[str, list[Question]]:
        out: dict[str, list[Question]] = {}
        for q in self.questions:
            out.setdefault(q.id, []).append(q)
        return out

    def is_target(self, path: str) -> bool:
        """True if findings on `path` will be reported (the file was passed to the run)."""
        return real_path(path) in self.targets

    def target_flags(self) -> list[bool]:
        """`is_target` for every question, in bank order (computed once)."""
        return self.memo("target-flags", lambda: [self.is_target(q.path) for q in self.questions])

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """Work shared by several bank rules (tokens, indexes), computed once per run."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]
