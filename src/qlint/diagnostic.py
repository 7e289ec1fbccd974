"""The one diagnostic record every output format reads."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.IntEnum):
    """Ordered so that `max()` gives the worst."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> "Severity":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Edit:
    """Set the value at `pointer` (RFC 6901) to `value`; `None` value with delete=True removes it."""

    pointer: str
    value: Any = None
    delete: bool = False


@dataclass(frozen=True)
class Fix:
    """A machine-applicable change; `safe` fixes run with --fix, others need --unsafe-fixes."""

    description: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding. Lines and columns are 1-based; `end_*` is exclusive of nothing: it is the last char."""

    path: str
    line: int
    col: int
    code: str
    name: str
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    end_line: int = field(default=0, compare=False)
    end_col: int = field(default=0, compare=False)
    pointer: str = field(default="", compare=False)
    fix: Fix | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": str(self.severity),
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line or self.line,
            "end_col": self.end_col or self.col,
            "pointer": self.pointer,
            "fixable": self.fix is not None,
        }
