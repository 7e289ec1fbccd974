"""The bank run: every question of the bank as context (loaded and validated, or from the cache),
the bank rules over it, their findings placed on the files asked for through their Documents."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from qlint.bank import Bank
from qlint.bank.entry import BankEntry, CaseEntry, entry_from_plain, plain_entry
from qlint.diagnostic import Diagnostic, Severity
from qlint.lint.check import document_of, load_entry_hashed, place
from qlint.lint.results import FileResult, diagnostic
from qlint.lint.runner import FileChecker, RunOptions
from qlint.lint.settings import BANK_KINDS, Settings, exam_bank
from qlint.paths import absolute_path, display_path, is_within, real_path
from qlint.project.banks import CASES_FOLDER, bank_folders, bank_of, exams_folder
from qlint.project.discovery import YAML_SUFFIXES, walk
from qlint.project.exams import Exam
from qlint.rules import RULES, Finding, Rule
from qlint.rules.context import RuleContext


def _context_files(settings: Settings, results: dict[str, FileResult],
                   unreadable: list[tuple[str, str]] | None = None) -> list[str]:
    """Bank question files that are not among `results` (the files asked for); bank folders that
    cannot be listed go to `unreadable` as (folder, why)."""
    cwd = os.getcwd() + os.sep
    asked = [absolute_path(p, cwd) for p, r in results.items() if r.kind in BANK_KINDS]
    banks = bank_folders(settings.config, asked)  # the banks the files belong to, no other
    exams = [p for p, r in results.items() if r.kind == "exam"]  # judged against the bank using them
    if settings.config.bank_dir not in banks and any(is_within(p, settings.config.exams_dir) for p in exams):
        banks.insert(0, settings.config.bank_dir)
    banks += [b for b in bank_folders(settings.config, [absolute_path(p, cwd) for p in exams]) if b not in banks]
    out: list[str] = []
    for folder in banks:
        if folder.is_dir():
            out += _unasked(folder, exams_folder(settings.config, folder), asked, unreadable)
    return out + _nearby_cases(asked, banks, set(out))


def _nearby_cases(asked: list[str], banks: list[Path], known: set[str]) -> list[str]:
    """Case files beside question files that lie outside every bank (`qlint check
    some/folder/q.yaml`): those in `cases/` next to them or next to their folder, as in
    bank/<exam>/cases/ beside bank/<exam>/<domain>/. Inside a bank the walk found them."""
    roots = [str(b).rstrip(os.sep) + os.sep for b in banks]
    folders = {os.path.dirname(p) for p in asked if not p.startswith(tuple(roots))}
    seen = known | set(asked)
    out: list[str] = []
    for folder in sorted({os.path.join(f, CASES_FOLDER) for d in folders for f in (d, os.path.dirname(d))}):
        try:
            with os.scandir(folder) as it:
                names = sorted(e.path for e in it if e.name.endswith(YAML_SUFFIXES) and not e.name.startswith(".")
                               and e.is_file())
        except OSError:  # no such folder (the common case), or unreadable: nothing to add
            continue
        out += [n for n in names if n not in seen]
    return out


def _unasked(folder: Path, exams_dir: Path, asked: list[str], unreadable: list[tuple[str, str]] | None) -> list[str]:
    """The question files of one bank folder that are not among `asked` (absolute paths)."""
    # The walk starts at a resolved folder and enters no symlinked folder, so a file's real path
    # is its path unless the file itself is a link; a target whose absolute path is such a path
    # needs no realpath either (100k realpath calls cost 0.7 s).
    files, links = walk(str(folder), unreadable)
    exams = str(exams_dir).rstrip(os.sep) + os.sep
    walked = {f for f in files if not f.startswith(exams)}
    seen = {a if a in walked and a not in links else real_path(a) for a in asked}
    return [f for f in files if f in walked and (real_path(f) if f in links else f) not in seen]


def bank_context(settings: Settings, results: dict[str, FileResult], checker: FileChecker | None = None,
                 context: list[str] | None = None) -> Bank:
    """Every question in the bank plus the given question results, whatever files were passed
    (pre-commit passes only staged ones): context files are loaded and validated, no rules run,
    or their entries come from the cache."""
    targets = {p: r for p, r in results.items() if r.kind in BANK_KINDS and r.valid}
    context = _context_files(settings, results) if context is None else context
    checker = checker or FileChecker(settings, RunOptions(jobs=1))
    entries = {p: r.entry for p, r in targets.items() if r.entry is not None}
    context_set = set(context)  # absolute already (see `_context_files`)
    entries.update(checker.check(context + [p for p in targets if p not in entries], load_entry_hashed, table="entries",
                                 stored=plain_entry, restored=entry_from_plain))
    cwd = os.getcwd() + os.sep
    order = sorted((p if p in context_set else absolute_path(p, cwd), p) for p, e in entries.items()
                   if e is not None and not isinstance(e, CaseEntry))
    cases = sorted((p if p in context_set else absolute_path(p, cwd), p) for p, e in entries.items()
                   if isinstance(e, CaseEntry))
    exam_targets = {real_path(p) for p, r in results.items() if r.kind == "exam"}  # questions: the flags
    return Bank([entries[p] for _, p in order], settings.exams, exam_targets, [p in targets for _, p in order],
                cases=[entries[p] for _, p in cases], case_flags=[p in targets for _, p in cases],
                exam_groups=_exam_groups(settings, [(p, entries[p]) for _, p in order]))


def _exam_groups(settings: Settings, entries: list[tuple[str, Any]]) -> list[tuple[dict[str, Exam], list[BankEntry]]] | None:
    """Each bank's exam definitions with the questions of that bank (B008 judges each bank on its
    own); None when every question is judged against the configured exams."""
    if not settings.bank_exams:
        return None
    groups: dict[Path | None, list[BankEntry]] = {}
    for path, entry in entries:
        groups.setdefault(exam_bank(settings, path), []).append(entry)
    return [(settings.exams if bank is None else settings.bank_exams[bank], found) for bank, found in groups.items()]


def run_bank_rules(settings: Settings, results: dict[str, FileResult],
                   checker: FileChecker | None = None, whole_bank: bool = False) -> tuple[list[Diagnostic], Bank | None]:
    """Bank rules over the whole bank; findings are kept only for `results` (the files asked for),
    question or exam files alike. With a cache, an unchanged bank reuses the last result.
    `whole_bank`: the files asked for came from walking the bank folder (or one above it), so
    there is no other bank file to find."""
    rules = settings.selection.rules("bank")
    if not rules:
        return [], None
    unlisted: list[tuple[str, str]] = []
    context = [] if whole_bank else _context_files(settings, results, unlisted)
    # a bank folder the walk could not list hides its questions from the bank rules: say so
    blind = [diagnostic(RULES.get("Y010"), Severity.ERROR, display_path(folder),
                   why.replace("were not checked", "were not compared with the files checked"), 1, 1)
             for folder, why in unlisted]
    key = checker.bank_key(context + list(results), list(results)) if checker else None
    cached = checker.get_bank(key) if checker else None
    if cached is not None:
        return [replace(d) for d in cached] + blind, None
    bank = bank_context(settings, results, checker, context)
    by_name: dict[str, list[str]] = {}

    def target_of(path: str) -> str | None:
        """The file asked for that `path` names: itself, or the one with the same real path
        (only files of the same name are resolved: a bank has 100k, an exam finding needs one)."""
        if path in results:
            return path
        if not by_name:
            for p in results:
                by_name.setdefault(os.path.basename(p), []).append(p)
        real = real_path(path)
        same = (p for p in by_name.get(os.path.basename(real), ()) if real_path(p) == real)
        return next(same, None) or next((p for p in results if real_path(p) == real), None)  # via a link

    found: dict[str, list[tuple[Rule, Finding]]] = {}
    for rule, findings in _bank_findings(rules, bank, settings):
        if isinstance(findings, str):  # the rule failed
            first = next(iter(results), None)
            if first:
                found.setdefault(first, []).append((RULES.get("X001"), Finding("", findings)))
            continue
        for f in findings:
            target = target_of(f.path or "")
            if target is not None:  # report on the files asked for; the rest is context
                found.setdefault(target, []).append((rule, f))
    out = []
    for path, items in found.items():
        out += place(items, document_of(results[path], settings), settings)
    if checker:
        checker.put_bank(key, out)
    return out + blind, bank


def _bank_findings(rules: list[Rule], bank: Bank, settings: Settings) -> list[tuple[Rule, list[Finding] | str]]:
    """Each rule with its findings, or why it failed (a rule bug must not hide the others'), each
    bank of the run judged on its own. One process: forked workers would each copy the bank, as
    reading an object writes its reference count (measured: 1.06 GB for a 100k bank against 0.65 GB)."""
    out: list[tuple[Rule, list[Finding] | str]] = []
    banks = _per_bank(bank, settings)
    for rule in rules:
        try:
            out.append((rule, [f for b in banks
                               for f in rule.check(b, RuleContext(rule, settings.config, b.exams, b))]))  # type: ignore[union-attr]
        except Exception as exc:
            out.append((rule, f"bank rule {rule.code} failed: {type(exc).__name__}: {exc}"))
    return out


def _per_bank(bank: Bank, settings: Settings) -> list[Bank]:
    """The run's bank split by bank folder: `qlint check bank other/bank` must not report the
    two banks' twin questions as duplicates of each other. Loose files (in no bank) go with the
    configured bank, as their exams do."""
    own, cwd = settings.config.bank_dir, os.getcwd() + os.sep
    inside = (str(own).rstrip(os.sep) + os.sep,)
    if str(own).startswith(cwd):  # display paths are relative to the working folder
        inside += (str(own)[len(cwd):].rstrip(os.sep) + os.sep,)
    if all(e.path.startswith(inside) for e in bank.entries) and all(c.path.startswith(inside) for c in bank.cases):
        return [bank]  # the usual run: one bank (10k bank_of calls cost ~40 ms of a one-file check)

    def folder(path: str) -> Path:
        return bank_of(settings.config, absolute_path(path, cwd)) or own

    q_flags, c_flags = bank.target_flags(), bank.case_flags or [True] * len(bank.cases)
    groups: dict[Path, tuple[list, list, list, list]] = {}
    for e, flag in zip(bank.entries, q_flags):
        g = groups.setdefault(folder(e.path), ([], [], [], []))
        g[0].append(e)
        g[1].append(flag)
    for c, flag in zip(bank.cases, c_flags):
        g = groups.setdefault(folder(c.path), ([], [], [], []))
        g[2].append(c)
        g[3].append(flag)
    if len(groups) <= 1:
        return [bank]
    return [Bank(entries, settings.exams if b == own else settings.bank_exams.get(b, settings.exams), bank.targets,
                 flags, cases=cases, case_flags=case_flags)
            for b, (entries, flags, cases, case_flags) in groups.items()]
