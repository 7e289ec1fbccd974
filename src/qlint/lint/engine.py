"""Lint files: the orchestration of one run. Discovery, the project session (exam definitions),
each file's check (`lint.check`, through the cache and workers of `lint.runner`), the bank run
(`lint.bankrun`), suppression comments, and the result (`lint.results`).

The names other modules use from the former single engine are re-exported here.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from qlint.bank.entry import plain_entry
from qlint.diagnostic import Diagnostic, Severity
from qlint.lint.bankrun import bank_context, run_bank_rules
from qlint.lint.check import (check_file, check_hashed, check_lean_hashed, document_of, failed, load_document,
                              load_entry, place, text_of)
from qlint.lint.results import FileResult, LintResult, diagnostic
from qlint.lint.runner import FileChecker, RunOptions
from qlint.lint.settings import BANK_KINDS, Settings, entry_gram, exam_bank, exams_for, exported_exams, make_settings
from qlint.lint.suppression import apply_suppressions
from qlint.loading.document import Document
from qlint.loading.errors import LoadError
from qlint.paths import display_path, display_paths, real_path
from qlint.project.banks import file_kind
from qlint.project.discovery import YAML_SUFFIXES, discover, entered
from qlint.project.session import Session
from qlint.rules import RULES

__all__ = ["BANK_KINDS", "FileResult", "LintResult", "Settings", "bank_context", "check_file", "check_hashed",
           "check_lean_hashed", "document_of", "entry_gram", "exam_bank", "exams_for", "exported_exams", "lint",
           "load_document", "load_entry", "load_exams", "make_settings", "place", "run_bank_rules", "source_texts",
           "text_of"]

HELD_TEXTS_MAX_FILES = 20_000  # a lean run holds the texts bank findings and --show-source need up to this size
HELD_DOCUMENTS_MAX_FILES = 200  # ... and the Documents (locators) of bank files up to this size (no workers)


def load_exams(settings: Settings, files: Iterable[str] = ()) -> list[Diagnostic]:
    """Open the run's project session (the configured bank's exam definitions, and those of
    every other bank that `files` belong to: read and validated once), then check each exam file
    it read from its Document; their diagnostics are returned for reporting if asked."""
    session = settings.session
    if session is None or session.config is not settings.config:
        session = settings.session = Session(settings.config)
    read = session.add(list(files))
    settings.exams.update(session.exams)
    for bank, exams in session.bank_exams.items():
        settings.bank_exams.setdefault(bank, {}).update(exams)
    diagnostics: list[Diagnostic] = []
    for f in read:
        loaded = session.document(f)
        result = failed(f, settings, loaded) if isinstance(loaded, LoadError) else check_file(f, settings, document=loaded)
        result.document = None  # checked: the session holds it
        settings.exam_results[real_path(f)] = result
        diagnostics += result.diagnostics
    return diagnostics


def source_texts(result: LintResult, settings: Settings) -> dict[str, str]:
    """Shown path -> text of every file a finding names, for --show-source (bank findings
    included); lean results are read again."""
    named = {d.path for d in result.diagnostics}
    for f, shown in display_paths(list(result.results)).items():
        if shown in named:
            text_of(result.results[f], settings)
    return result.sources


def lint(paths: list[str], settings: Settings, options: RunOptions | None = None) -> LintResult:
    """Lint `paths`. `options` turns on the results cache and worker processes (the CLI does);
    without them every file is checked here, serially."""
    options = options or RunOptions(jobs=1)
    files, problems = discover(paths)
    load_exams(settings, files)  # exam files the user asked about are reported below
    diagnostics: list[Diagnostic] = []
    results: dict[str, FileResult] = {}
    unreadable = RULES.get("Y010")
    for m, why in problems:  # missing paths, folders that cannot be listed
        diagnostics.append(diagnostic(unreadable, Severity.ERROR, display_path(m), why, 1, 1))
    # Texts kept for placing bank findings and --show-source: a 100k-file run re-reads the few
    # it needs instead (holding them all was ~330 MB, a third of its memory).
    settings.hold_texts = len(files) <= HELD_TEXTS_MAX_FILES
    settings.hold_documents = len(files) <= HELD_DOCUMENTS_MAX_FILES
    checker = FileChecker(settings, options)
    exams = {f: settings.exam_results.get(real_path(f)) if file_kind(f, settings.config) == "exam" else None
             for f in files}
    checked = checker.check([f for f in files if exams[f] is None], check_lean_hashed if options.lean else check_hashed,
                            stored=_stored)
    computed = set(checker.computed)
    for f in files:
        known = exams[f]
        if known is not None:
            shown = display_path(f)
            result = replace(known, path=f, diagnostics=[replace(d, path=shown) for d in known.diagnostics])
        elif f in computed:
            result = checked[f]
            if result.entry is not None:
                checker.store("entries", f, plain_entry(result.entry))
        else:
            result = _restored(checked[f], f, settings, options.lean, checker.take_source(f))
        results[f] = result
        diagnostics += result.diagnostics
    bank_diags, bank = run_bank_rules(settings, results, checker, _walks_bank(paths, settings))
    checker.close()
    diagnostics += bank_diags
    extra = _extra(settings, results)
    diagnostics += extra
    named = {d.path for d in bank_diags + extra}  # (from the cache, bank findings were placed without reading)
    if named:
        for f, shown in display_paths([f for f, r in results.items() if not r.text]).items():
            if shown in named:
                text_of(results[f], settings)
    diagnostics = _suppress(diagnostics, results, settings)
    for r in results.values():  # placed: the composed locators go (the texts and data stay)
        r.document = None
    if options.lean:  # what a lean result keeps once placed: the texts a report still shows
        _drop_texts(results, {d.path for d in diagnostics} if settings.sources else named)
    return LintResult(sorted(diagnostics), files, results, bank, checker)


def _drop_texts(results: dict[str, FileResult], named: set[str]) -> None:
    """Let go of the texts held for placing bank findings, but those of files with `# qlint:`
    comments and of the files `named` (--show-source shows them)."""
    held = [f for f, r in results.items() if r.text and not r.directives]
    for f, shown in display_paths(held).items():
        if shown not in named:
            results[f].text = ""


def _extra(settings: Settings, results: dict[str, FileResult]) -> list[Diagnostic]:
    """Diagnostics placed elsewhere (response rules) on the files asked for."""
    if not settings.extra:
        return []
    shown = set(display_paths(list(results)).values())
    return [d for d in settings.extra if d.path in shown]


def _walks_bank(paths: list[str], settings: Settings) -> bool:
    """A path asked for is a folder holding the bank folder, reached by the walk (no hidden
    folder or folder named like a question file on the way): discovery found every bank file."""
    bank = settings.config.bank_dir
    for p in paths:
        if os.path.isdir(p) and not p.rstrip("/").endswith(YAML_SUFFIXES):  # as `discover` walks it
            folder = Path(real_path(p))
            if (folder == bank or folder in bank.parents) and all(map(entered, bank.relative_to(folder).parts)):
                return True
    return False


def _stored(result: FileResult) -> FileResult:
    """A result as the cache keeps it: its entry goes to a table of its own, the text and data
    are read again when needed."""
    return replace(result, data=None, text="", entry=None, document=None)


def _restored(result: FileResult, path: str, settings: Settings, lean: bool, source: bytes | None) -> FileResult:
    """A cached result made whole again for this run: its text when a report may need it, and
    for callers that read them (not `--lean`), text and data as `check_file` gives them.
    `source`: the bytes the cache hashed, when it had to read them (not read again)."""
    result.path = path  # a fresh object from the cache codec: nothing else holds it
    if lean:
        if result.directives or (source is not None and settings.hold_texts):
            try:
                result.document = Document.read(path, settings.config.root, settings.config.limits, source)
                result.text = result.document.text
            except LoadError:
                pass
        return result
    try:
        result.document = Document.load(path, settings.config.root, settings.config.limits, source)
        result.text, result.data = result.document.text, result.document.data
    except LoadError:
        pass
    return result


def _suppress(diagnostics: list[Diagnostic], results: dict[str, FileResult], settings: Settings) -> list[Diagnostic]:
    """Apply `# qlint:` comments file by file, once every finding (item and bank) is placed."""
    texts = {display_path(p): r.text for p, r in results.items() if r.text}
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    out: list[Diagnostic] = []
    for shown, text in texts.items():
        out += apply_suppressions(by_path.pop(shown, []), text, shown, settings.selection)
    for rest in by_path.values():  # files with no text (unreadable, missing)
        out += rest
    return out
