"""What a rule sees besides the question: its options as configured, the exam definitions, the bank."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qlint.project.config import Config
from qlint.project.exams import Exam
from qlint.rules import Rule


@dataclass
class RuleContext:
    """What a check sees besides the question: its options and the exam definitions."""

    rule: Rule
    config: Config
    exams: dict[str, Exam]
    bank: Any = None

    def option(self, name: str) -> Any:
        configured = self.config.rules.get(self.rule.code, {}) or self.config.rules.get(self.rule.name, {})
        if name in configured:
            return configured[name]
        return self.rule.options[name].default
