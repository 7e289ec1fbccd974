"""Output formats: each reads only Diagnostic records and returns the report text.

A reporter is a function `(diagnostics, context) -> str` registered by name; modules in this
package register themselves on import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from qlint.diagnostic import Diagnostic
from qlint.registry import Registry


@dataclass(frozen=True)
class ReportContext:
    files_checked: int
    color: bool = False
    show_source: bool = False
    sources: dict[str, str] = field(default_factory=dict)  # shown path -> text, for --show-source
    statistics: bool = False
    extra: dict = field(default_factory=dict)  # bank figures etc., for formats that show them


Reporter = Callable[[list[Diagnostic], ReportContext], str]
REPORTERS: Registry[Reporter] = Registry("output format", "qlint.reports")
reporter = REPORTERS.register
