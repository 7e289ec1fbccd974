"""One project as the server holds it: the checked configuration, the rule selection, the exam
definitions (a lint `Settings`), and a resident index of the bank's files as on disk.

Every check goes through the functions `qlint check` runs: `check_file` on the buffer's text,
`run_bank_rules` over the index, `apply_suppressions` on the result; nothing is re-implemented,
so the server cannot disagree with the command line.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from qlint.bank.entry import BankEntry, CaseEntry
from qlint.diagnostic import Diagnostic
from qlint.lint.bankrun import run_bank_rules
from qlint.lint.check import check_file, failed
from qlint.lint.engine import lint, load_exams
from qlint.lint.results import FileResult
from qlint.lint.runner import RunOptions
from qlint.lint.settings import BANK_KINDS, Settings, entry_gram, make_settings
from qlint.lint.suppression import apply_suppressions
from qlint.loading.errors import LoadError
from qlint.server.convert import file_path
from qlint.paths import display_path, display_paths, is_within
from qlint.project.config import Config
from qlint.project.lifecycle import catalogue, check_date

ConfigLoader = Callable[[Path], Config]  # the command line's checked loader (cli.config.load_config)


@contextmanager
def inside(root: Path) -> Iterator[None]:
    """Run with the project root as the working folder, as `qlint check` is run: display paths,
    file kinds and bank membership read it."""
    before = os.getcwd()
    os.chdir(root)
    try:
        yield
    finally:
        try:
            os.chdir(before)
        except OSError:  # the folder went away meanwhile
            os.chdir(root)


@dataclass
class Project:
    config: Config
    settings: Settings
    index: dict[str, FileResult] = field(default_factory=dict)  # absolute path -> the file on disk, checked
    bank: dict[str, list[Diagnostic]] = field(default_factory=dict)  # absolute path -> bank findings
    indexed: bool = False

    @classmethod
    def open(cls, start: Path, load_config: ConfigLoader) -> "Project":
        """The project whose configuration is in force at `start`; ConfigError, ValueError (a bad
        date or lifecycle catalogue) or SelectionError as `qlint check` would exit 2 with."""
        config = load_config(start)
        check_date(config.date)
        catalogue(config.bank_dir)
        project = cls(config, make_settings(config))
        with inside(config.root):
            load_exams(project.settings, [])
        return project

    @property
    def root(self) -> Path:
        return self.config.root

    def in_bank(self, path: str) -> bool:
        """`path` lies in the configured bank, the one the index holds (a loose file, or one of
        another project's bank, is judged with its own bank read from disk: `loose_bank`)."""
        return is_within(os.path.abspath(path), self.config.bank_dir)

    # --- the resident bank index -----------------------------------------------------------

    def build_index(self, cache_dir: Path | None = None, jobs: int = 0) -> set[str]:
        """Check every file of the configured bank as on disk (through the results cache when
        given; the files it cannot answer in `jobs` worker processes, 0: one per core, as
        `qlint check`: the rules' working memory stays in them) and run the bank rules over
        them; the files that have bank findings."""
        with inside(self.root):
            if not self.config.bank_dir.is_dir():
                self.indexed = True
                return set()
            result = lint([str(self.config.bank_dir)], self.settings, RunOptions(cache_dir, jobs=jobs, lean=False))
            for path, r in result.results.items():
                self.index[os.path.abspath(path)] = self._held(r)
            self.indexed = True
            return self.run_bank()

    def update(self, path: str, text: str | None) -> None:
        """The file at `path` as now on disk (`text`: its content just saved; None: read it, or
        it was deleted)."""
        path = os.path.abspath(path)
        with inside(self.root):
            if text is None and not os.path.exists(path):
                self.index.pop(path, None)
                return
            if not is_within(path, self.config.bank_dir):
                return
            self.index[path] = self._held(check_file(path, self.settings, text=text))

    def run_bank(self) -> set[str]:
        """Bank rules over the index; the files whose bank findings changed."""
        with inside(self.root):
            found, _ = run_bank_rules(self.settings, self.index, None, whole_bank=True) if self.index else ([], None)
            shown = {s: p for p, s in display_paths(list(self.index)).items()}
            bank: dict[str, list[Diagnostic]] = {}
            for d in found:
                bank.setdefault(shown.get(d.path, d.path), []).append(d)
        changed = {p for p in set(bank) | set(self.bank) if sorted(bank.get(p, [])) != sorted(self.bank.get(p, []))}
        self.bank = bank
        return changed

    # --- one file's diagnostics ------------------------------------------------------------

    def check(self, path: str, text: str) -> tuple[list[Diagnostic], FileResult]:
        """The diagnostics of `path` holding `text` (an editor's buffer): its own check on that
        text, the bank findings on it from the last bank run, the suppression comments applied."""
        path = os.path.abspath(path)
        settings = self.settings
        with inside(self.root):
            # the bytes the file would hold once saved, checked as if read from disk: the same
            # decoding (Y003 for a NUL or a lone surrogate) and size limit (Y009) as `qlint check`
            source = text.encode("utf-8", "surrogatepass")
            limit = self.config.limits.max_file_bytes
            if len(source) > limit:  # a huge paste
                result = failed(path, settings, LoadError(
                    "Y009", f"the text is {len(source):,} bytes; the limit is {limit:,} (max-file-bytes); not checked"))
                return result.diagnostics, result
            load_exams(settings, [path])
            result = check_file(path, settings, source=source)
            diagnostics = result.diagnostics + self.bank.get(path, [])
            return sorted(apply_suppressions(diagnostics, result.text, display_path(path), settings.selection)), result

    def on_disk(self, path: str) -> list[Diagnostic]:
        """The diagnostics of an indexed file that no editor holds (its text as on disk)."""
        r = self.index.get(path)
        with inside(self.root):
            own = r.diagnostics if r is not None else []
            return sorted(apply_suppressions(own + self.bank.get(path, []), r.text if r else "",
                                             display_path(path), self.settings.selection))

    def loose_bank(self, path: str, result: FileResult) -> None:
        """Bank findings of a file outside the index (a loose file, a bank of another project),
        as `qlint check FILE` gives them: the bank it belongs to read from disk as context."""
        path = os.path.abspath(path)
        with inside(self.root):
            found, _ = run_bank_rules(self.settings, {path: result}) if result.kind in BANK_KINDS and result.valid else ([], None)
        if found:
            self.bank[path] = found
        else:
            self.bank.pop(path, None)

    def _held(self, r: FileResult) -> FileResult:
        """What the index keeps of a file: its diagnostics, its text (to place bank findings and
        apply its comments) and its bank entry (made here when no bank rule is selected:
        completion and definitions read the ids), not its parsed data or composed locator."""
        if r.entry is None and r.valid and r.data is not None and r.kind in BANK_KINDS:
            r.entry = CaseEntry.of(r.path, r.data) if r.kind == "case" else BankEntry.of(r.path, r.data, entry_gram(self.settings))
        r.data = None
        r.document = None
        return r


def project_of(ls: Any, uri: str) -> tuple[str, Project] | None:
    """The file path of `uri` and the project it belongs to; None for a file no project holds."""
    path = file_path(uri)
    if path is None:
        return None
    project = ls.project_for(path)
    return (path, project) if isinstance(project, Project) else None
