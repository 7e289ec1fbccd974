"""What a lint run returns: one FileResult per file, one LintResult per run."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from qlint.bank import Bank
from qlint.bank.entry import BankEntry, CaseEntry
from qlint.diagnostic import Diagnostic, Severity
from qlint.paths import display_path
from qlint.rules import RULES, Rule


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic]
    kind: str = "question"
    data: dict[str, Any] | None = None  # plain data when the file loaded
    text: str = ""
    valid: bool = False  # loaded and schema-valid: bank rules may read it
    entry: BankEntry | CaseEntry | None = None  # what bank rules read, when they run and the file is valid
    directives: bool = False  # the text holds `qlint:` comments (suppression reads them)
    volatile: bool = False  # depends on other files (images S007 reads): never served from the cache
    document: Any = None  # the loading.document.Document checked (its locator, once composed), while held

    def lean(self, keep_text: bool = False, keep_document: bool = False) -> "FileResult":
        """Without what no report needs: the data, the Document (its locator is ~40 KiB) unless
        `keep_document`, and the text unless `# qlint:` comments or `keep_text` need it (kept
        for a 100k-file run, or stored in the cache; a lean text was 280 MB of a 100k bank where
        most files have findings)."""
        return replace(self, data=None, document=self.document if keep_document else None,
                       text=self.text if (self.directives or keep_text or keep_document) else "")


@dataclass
class LintResult:
    diagnostics: list[Diagnostic]
    files: list[str]
    results: dict[str, FileResult] = field(default_factory=dict)
    bank: Bank | None = None  # set when bank rules ran
    checker: Any = None  # the FileChecker that ran: cache hits and misses

    @property
    def fatal(self) -> bool:
        return any(RULES.get(d.code).fatal for d in self.diagnostics)

    @property
    def sources(self) -> dict[str, str]:
        """Shown path -> text of every file whose text is held (see `engine.source_texts`)."""
        return {display_path(p): r.text for p, r in self.results.items() if r.text}


def diagnostic(rule: Rule, severity: Severity, path: str, message: str, line: int, col: int,
               end_line: int = 0, end_col: int = 0, pointer: str = "", fix=None) -> Diagnostic:
    return Diagnostic(path, line, col, rule.code, rule.name, severity, message,
                      end_line or line, end_col or col, pointer, fix)
