"""Lint files: load, validate, run the selected rules, place diagnostics.

`check_file` is a pure function of the file's bytes and the settings, so its result can be
cached by content hash and computed in worker processes.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from qlint.bank import Bank
from qlint.bank.entry import BankEntry, CaseEntry, entry_from_plain, plain_entry
from qlint.diagnostic import Diagnostic, Severity
from qlint.lint.cache import digest
from qlint.lint.runner import FileChecker, RunOptions
from qlint.lint.selection import Selection
from qlint.lint.suppression import MARKER, apply_suppressions
from qlint.loading.errors import LoadError
from qlint.loading.fast import FastPathError, load_fast
from qlint.loading.positions import Locator
from qlint.loading.syntax import syntax_error
from qlint.loading.reader import decode, read_source
from qlint.loading.schema import validate
from qlint.model import Question
from qlint.paths import absolute_path, display_path, display_paths, is_within, real_path
from qlint.project.banks import CASES_FOLDER, bank_folders, bank_of, exams_folder, file_kind
from qlint.project.config import Config
from qlint.project.discovery import YAML_SUFFIXES, discover, entered, walk
from qlint.project.exams import Exam
from qlint.prose.shapes import shapes
from qlint.rules import RULES, Finding, Rule
from qlint.rules.context import RuleContext


BANK_KINDS = ("question", "case")  # files the bank rules read (exam files are judged against them)


@dataclass
class Settings:
    config: Config
    selection: Selection
    exams: dict[str, Exam] = field(default_factory=dict)  # the configured bank's (load_exams)
    bank_exams: dict[Path, dict[str, Exam]] = field(default_factory=dict)  # other banks' of this run, by bank folder
    exam_results: dict[str, "FileResult"] = field(default_factory=dict)  # real path -> result (load_exams)
    extra: list[Diagnostic] = field(default_factory=list)  # placed elsewhere (response rules), reported with the rest


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

    def lean(self) -> "FileResult":
        """Without what no report needs: the data, and the text unless `# qlint:` comments need
        it (kept for a 100k-file run, or stored in the cache). `--show-source` reads the text of
        files with findings again (`source_texts`): kept, it was 280 MB of a 100k bank where most
        files have findings."""
        return replace(self, data=None, text=self.text if self.directives else "")


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
        """Shown path -> text of every file whose text is held (see `source_texts`)."""
        return {display_path(p): r.text for p, r in self.results.items() if r.text}


def _diag(rule: Rule, severity: Severity, path: str, message: str, line: int, col: int,
          end_line: int = 0, end_col: int = 0, pointer: str = "", fix=None) -> Diagnostic:
    return Diagnostic(path, line, col, rule.code, rule.name, severity, message,
                      end_line or line, end_col or col, pointer, fix)


def _kind(path: str, config: Config) -> str:
    return file_kind(path, config)


def load_document(path: str, config: Config, text: str | None = None,
                  source: bytes | None = None) -> tuple[str, dict[str, Any]]:
    """(text, data) of one file (or of `text`, its proposed new content, or of `source`, bytes
    already read from it), or LoadError."""
    if text is None:
        text = decode(source if source is not None else read_source(path, config.root, config.limits))
    try:
        data = load_fast(text, config.limits)
    except FastPathError as exc:
        raise syntax_error(text, exc) from None
    return text, data


def _text_for_report(path: str, config: Config, text: str | None, source: bytes | None) -> str:
    """The text of a file that did not load, for --show-source; "" when it cannot be decoded."""
    if text is not None:
        return text
    try:
        return decode(source if source is not None else read_source(path, config.root, config.limits))
    except LoadError:
        return ""


def exam_bank(settings: Settings, path: str) -> Path | None:
    """The other bank whose exam definitions `path` is judged against; None: the configured
    bank's (a file of that bank, a loose file, or one of a bank whose exams were not loaded)."""
    if not settings.bank_exams:  # the usual run: no other bank
        return None
    bank = bank_of(settings.config, absolute_path(path, os.getcwd() + os.sep))
    return bank if bank in settings.bank_exams else None


def exams_for(settings: Settings, path: str) -> dict[str, Exam]:
    """The exam definitions of the bank `path` belongs to."""
    bank = exam_bank(settings, path)
    return settings.exams if bank is None else settings.bank_exams[bank]


def exported_exams(settings: Settings, files: list[str]) -> dict[str, Exam] | str:
    """The exam definitions of the banks `files` belong to, by code; a message when two of those
    banks define one code differently (exports name exams by code: one would take the other's
    name and domains)."""
    out: dict[str, Exam] = {}
    for bank in dict.fromkeys(exam_bank(settings, f) for f in files) or [None]:
        for code, exam in (settings.exams if bank is None else settings.bank_exams[bank]).items():
            known = out.setdefault(code, exam)
            if replace(known, path="") != replace(exam, path=""):
                return (f"exam {code!r} is defined differently in {display_path(known.path)} and "
                        f"{display_path(exam.path)}: export one bank at a time")
    return out


def _findings(settings: Settings, q: Question, case: bool = False) -> Iterable[tuple[Rule, Finding]]:
    """Item rules on a question (those for its type), or on a case study file (`case`: the rules
    declared to read any file's strings)."""
    kind = q.type
    exams = exams_for(settings, q.path)
    selection = settings.selection
    item_shapes: frozenset[str] | None = None
    for rule in selection.rules("item"):
        if not (rule.cases if case else rule.applies_to(kind)):  # no option rule for an ordering question
            continue
        if rule.shaped:  # a rule never reads a shape it abstains on (True/False pairs, code options)
            if item_shapes is None:
                item_shapes = shapes(q)
            state = rule.on_shapes(item_shapes)
            if state == "abstains" or (state == "preview" and not selection.runs_preview_of(rule)):
                continue
        ctx = RuleContext(rule, settings.config, exams)
        try:
            found = list(rule.check(q, ctx))  # type: ignore[misc]
        except Exception as exc:  # a rule bug must not hide the other rules' findings
            yield RULES.get("X001"), Finding("", f"rule {rule.code} ({rule.name}) failed on this file: "
                                                 f"{type(exc).__name__}: {exc}; please report it")
            continue
        for finding in found:
            yield rule, finding


def _exam_findings(q: dict[str, Any], exams: dict[str, Exam]) -> Iterable[tuple[Rule, Finding]]:
    exam = exams.get(q.get("exam", ""))
    if exam is None:
        known = ", ".join(sorted(exams)) or "none defined"
        yield RULES.get("S002"), Finding("/exam", f"no exam definition for {q.get('exam')!r} (known: {known})")
        return
    if q.get("domain") not in exam.domain_ids:
        close = difflib.get_close_matches(str(q.get("domain")), exam.domain_ids, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; domains: {', '.join(exam.domain_ids)}"
        yield RULES.get("S003"), Finding("/domain", f"{q.get('domain')!r} is not a domain of {exam.code}{hint}")


def check_file(path: str, settings: Settings, text: str | None = None, source: bytes | None = None) -> FileResult:
    """Lint one file; `text` lints proposed content for it instead of what is on disk (--fix),
    `source` the bytes already read from it."""
    shown = display_path(path)
    config, selection = settings.config, settings.selection
    kind = _kind(path, config)
    try:
        text, data = load_document(path, config, text, source)
    except LoadError as exc:
        rule = RULES.get(exc.code)
        return FileResult(path, [_diag(rule, selection.severity_of(rule), shown, exc.message, exc.line, exc.col)], kind,
                          text=_text_for_report(path, config, text, source))

    found: list[tuple[Rule, Finding]] = []
    schema_rule = RULES.get("S001")
    errors = validate(kind, data)
    found += [(schema_rule, Finding(e.pointer, e.message, e.at_key, fix=e.fix)) for e in errors]
    if kind == "question" and not errors:
        found += list(_exam_findings(data, exams_for(settings, path)))
        found += list(_findings(settings, Question(path, data)))
    elif kind == "case" and not errors:  # the scenario reaches learners: the text rules read it
        found += list(_exam_findings(data, exams_for(settings, path)))
        found += list(_findings(settings, Question(path, data), case=True))
    elif kind == "exam" and not errors:  # names and domain names reach learners too
        from qlint.project.guide import guide_problems
        from qlint.rules.hygiene import hidden_in

        found += [(RULES.get("F003"), f) for f in hidden_in(data)]
        found += [(RULES.get("G002"), Finding(p, m)) for p, m in guide_problems(data)]

    diagnostics = place(found, text, shown, settings)
    entry: BankEntry | CaseEntry | None = None
    if kind == "question" and not errors and settings.selection.rules("bank"):
        entry = BankEntry.of(path, data, entry_gram(settings))
    elif kind == "case" and not errors and settings.selection.rules("bank"):
        entry = CaseEntry.of(path, data)
    # S007 reads the images a question references: their bytes are not in the cache key
    volatile = "![" in text and selection.allows("S007", shown)
    return FileResult(path, diagnostics, kind, data, text, valid=not errors, entry=entry, directives=MARKER in text,
                      volatile=volatile)


def _read_hashed(path: str, settings: Settings) -> tuple[str | None, bytes | None]:
    """(hash, bytes) of the file as read now; (None, None) if unreadable (the check says why)."""
    try:
        data = read_source(path, settings.config.root, settings.config.limits)
    except LoadError:
        return None, None
    return digest(data), data


# The cache files each result under the hash of the very bytes its check parsed (returned with
# it): hashing first and reading again later would file an edit made in between under old bytes.
def check_hashed(path: str, settings: Settings) -> tuple[str | None, FileResult]:
    d, data = _read_hashed(path, settings)
    return d, check_file(path, settings, source=data)


def check_lean_hashed(path: str, settings: Settings) -> tuple[str | None, FileResult]:
    d, result = check_hashed(path, settings)
    return d, result.lean()


def load_entry(path: str, settings: Settings, source: bytes | None = None) -> BankEntry | CaseEntry | None:
    """Load and validate only, no rules: a context question (or case study) for the bank rules."""
    try:
        _, data = load_document(path, settings.config, source=source)
    except LoadError:
        return None
    if _kind(path, settings.config) == "case":
        return None if validate("case", data) else CaseEntry.of(path, data)
    return None if validate("question", data) else BankEntry.of(path, data, entry_gram(settings))


def load_entry_hashed(path: str, settings: Settings) -> tuple[str | None, BankEntry | CaseEntry | None]:
    d, data = _read_hashed(path, settings)
    return d, load_entry(path, settings, data) if data is not None else None


def entry_gram(settings: Settings) -> int:
    """The n of B007's explanation n-grams, which bank entries hash ahead."""
    rule = RULES.get("B007")
    return int(RuleContext(rule, settings.config, settings.exams).option("ngram"))


def place(found: list[tuple[Rule, Finding]], text: str, shown: str, settings: Settings) -> list[Diagnostic]:
    """Diagnostics for the findings that the selection allows, positioned from libyaml's node marks."""
    selection = settings.selection
    kept = [(r, f) for r, f in found if selection.allows(r.code, shown)]
    if not kept:
        return []
    locator = Locator(text)
    out = []
    for rule, f in kept:
        span = locator.locate(f.pointer, f.at_key) if f.offset is None else locator.locate_char(f.pointer, f.offset, f.at_key)
        if f.within:
            span = locator.find(span, f.within)
        out.append(_diag(rule, selection.severity_of(rule, f.severity), shown, f.message, span.line, span.col,
                         span.end_line, span.end_col, f.pointer, f.fix))
    return out


def load_exams(settings: Settings, files: Iterable[str] = ()) -> list[Diagnostic]:
    """Read the configured bank's exam definitions, and those of every other bank that `files`
    (the files of the run) belong to; their diagnostics are returned for reporting if asked."""
    cwd = os.getcwd() + os.sep
    others = bank_folders(settings.config, [absolute_path(f, cwd) for f in files])
    diagnostics = _read_exams(settings, settings.config.exams_dir, settings.exams)
    for bank in others:
        if bank != settings.config.bank_dir:
            exams = settings.bank_exams.setdefault(bank, {})
            diagnostics += _read_exams(settings, exams_folder(settings.config, bank), exams)
    return diagnostics


def _read_exams(settings: Settings, folder: Path, exams: dict[str, Exam]) -> list[Diagnostic]:
    """Check the exam files of `folder` and add the exams they define to `exams`."""
    files, _ = discover([str(folder)]) if folder.is_dir() else ([], [])
    diagnostics: list[Diagnostic] = []
    for f in files:
        result = check_file(f, settings)
        settings.exam_results[real_path(f)] = result
        diagnostics += result.diagnostics
        if result.data is not None and result.valid:  # a text finding (F003) still defines the exam
            exam = Exam.from_data(result.data, f)
            exams[exam.code] = exam
    return diagnostics


def make_settings(config: Config, select=(), ignore=(), extend_select=(), preview: bool = False,
                  responses: bool = False) -> Settings:
    """`responses`: the response rules will run (`qlint analyze`, `check --responses`); otherwise
    they are left out of the selection, so no suppression naming them is judged unused."""
    selection = Selection.build(
        tuple(select) or config.select,
        tuple(config.extend_select) + tuple(extend_select),
        tuple(config.ignore) + tuple(ignore),
        config.per_file_ignores,
        config.severity,
        config.root,
        preview or config.preview,
    )
    if not responses:
        selection = replace(selection, enabled=frozenset(c for c in selection.enabled if RULES.get(c).scope != "responses"))
    return Settings(config, selection)


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
    blind = [_diag(RULES.get("Y010"), Severity.ERROR, display_path(folder),
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
        out += place(items, text_of(results[path], settings), display_path(path), settings)
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


def source_texts(result: LintResult, settings: Settings) -> dict[str, str]:
    """Shown path -> text of every file a finding names, for --show-source (bank findings
    included); lean results are read again."""
    named = {d.path for d in result.diagnostics}
    for f, shown in display_paths(list(result.results)).items():
        if shown in named:
            text_of(result.results[f], settings)
    return result.sources


def text_of(result: FileResult, settings: Settings) -> str:
    """The file's text; a lean result without it reads it again (the bytes are what was checked
    unless the file changed meanwhile, which a re-run reports)."""
    if not result.text:
        try:
            result.text = decode(read_source(result.path, settings.config.root, settings.config.limits))
        except LoadError:
            pass
    return result.text


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
        diagnostics.append(_diag(unreadable, Severity.ERROR, display_path(m), why, 1, 1))
    checker = FileChecker(settings, options)
    exams = {f: settings.exam_results.get(real_path(f)) if _kind(f, settings.config) == "exam" else None
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
            result = _restored(checked[f], f, settings, options.lean)
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
    return LintResult(sorted(diagnostics), files, results, bank, checker)


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
    return replace(result, data=None, text="", entry=None)


def _restored(result: FileResult, path: str, settings: Settings, lean: bool) -> FileResult:
    """A cached result made whole again for this run: its text when a report may need it, and
    for callers that read them (not `--lean`), text and data as `check_file` gives them."""
    result.path = path  # a fresh object from the cache codec: nothing else holds it
    if lean:
        if result.directives:
            text_of(result, settings)
        return result
    try:
        result.text, result.data = load_document(path, settings.config)
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
