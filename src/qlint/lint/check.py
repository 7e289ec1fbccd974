"""Check one file: load its Document, validate, run the item rules, place their findings.

`check_file` is a pure function of the file's bytes and the settings, so its result can be
cached by content hash and computed in worker processes.
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable

from qlint.bank.entry import BankEntry, CaseEntry
from qlint.diagnostic import Diagnostic
from qlint.lint.cache import digest
from qlint.lint.results import FileResult, diagnostic
from qlint.lint.settings import Settings, entry_gram, entry_names, exams_for
from qlint.lint.suppression import MARKER
from qlint.loading.document import Document
from qlint.loading.errors import LoadError
from qlint.loading.reader import read_source
from qlint.loading.schema import validate
from qlint.model import Question
from qlint.paths import display_path
from qlint.project.banks import file_kind
from qlint.project.config import Config
from qlint.project.exams import Exam
from qlint.project.review import reads_case
from qlint.prose.shapes import shapes
from qlint.rules import RULES, Finding, Rule
from qlint.rules.context import RuleContext


def load_document(path: str, config: Config, text: str | None = None,
                  source: bytes | None = None) -> tuple[str, dict[str, Any]]:
    """(text, data) of one file (or of `text`, its proposed new content, or of `source`, bytes
    already read from it), or LoadError."""
    doc = Document(path, text) if text is not None else Document.read(path, config.root, config.limits, source)
    return doc.text, doc.parse(config.limits)


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
        ctx = _context(settings, rule, exams)
        try:
            found = list(rule.check(q, ctx))  # type: ignore[misc]
        except Exception as exc:  # a rule bug must not hide the other rules' findings
            yield RULES.get("X001"), Finding("", f"rule {rule.code} ({rule.name}) failed on this file: "
                                                 f"{type(exc).__name__}: {exc}; please report it")
            continue
        for finding in found:
            yield rule, finding


def _context(settings: Settings, rule: Rule, exams: dict[str, Any]) -> RuleContext:
    """The rule's context for files judged by `exams` (a hundred per question were made afresh)."""
    ctx = settings.contexts.get(rule.code)
    if ctx is None or ctx.exams is not exams or ctx.config is not settings.config:
        ctx = settings.contexts[rule.code] = RuleContext(rule, settings.config, exams)
    return ctx


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


def failed(path: str, settings: Settings, exc: LoadError, text: str = "") -> FileResult:
    """The result of a file that did not load: the reason at its place; `text` for --show-source."""
    rule = RULES.get(exc.code)
    d = diagnostic(rule, settings.selection.severity_of(rule), display_path(path), exc.message, exc.line, exc.col)
    return FileResult(path, [d], file_kind(path, settings.config), text=text)


def check_file(path: str, settings: Settings, text: str | None = None, source: bytes | None = None,
               document: Document | None = None) -> FileResult:
    """Lint one file; `text` lints proposed content for it instead of what is on disk (--fix),
    `source` the bytes already read from it, `document` the file already read (exam files)."""
    config, selection = settings.config, settings.selection
    kind = file_kind(path, config)
    doc = document
    try:
        if doc is None:
            doc = Document(path, text) if text is not None else Document.read(path, config.root, config.limits, source)
        data = doc.parse(config.limits)
    except LoadError as exc:
        return failed(path, settings, exc, doc.text if doc is not None else "")

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

    diagnostics = place(found, doc, settings)
    entry: BankEntry | CaseEntry | None = None
    if kind == "question" and not errors and settings.selection.rules("bank"):
        entry = BankEntry.of(path, data, entry_gram(settings), entry_names(settings))
    elif kind == "case" and not errors and settings.selection.rules("bank"):
        entry = CaseEntry.of(path, data)
    # S007 reads the images a question references, the W rules a case question's case study:
    # their bytes are not in the cache key
    volatile = ("![" in doc.text and selection.allows("S007", doc.shown)) or (
        kind == "question" and not errors and reads_case(data)
        and any(selection.allows(code, doc.shown) for code in ("W004", "W005")))
    return FileResult(path, diagnostics, kind, data, doc.text, valid=not errors, entry=entry,
                      directives=MARKER in doc.text, volatile=volatile, document=doc)


def place(found: list[tuple[Rule, Finding]], document: Document, settings: Settings) -> list[Diagnostic]:
    """Diagnostics for the findings that the selection allows, placed through the file's Document."""
    selection = settings.selection
    shown = document.shown
    out = []
    for rule, f in found:
        if selection.allows(rule.code, shown):
            out.append(document.diagnostic(rule.code, f.pointer, f.message, name=rule.name,
                                           severity=selection.severity_of(rule, f.severity), at_key=f.at_key,
                                           offset=f.offset, within=f.within or "", fix=f.fix))
    return out


def _read_hashed(path: str, settings: Settings) -> tuple[str | None, bytes | None]:
    """(hash, bytes) of the file as read now; (None, None) if unreadable (the check says why)."""
    try:
        data = read_source(path, settings.config.root, settings.config.limits)
    except LoadError:
        return None, None
    return digest(data), data


# The cache files each result under the hash of the very bytes its check parsed (returned with
# it): hashing first and reading again later would file an edit made in between under old bytes.
def check_hashed(path: str, settings: Settings, source: bytes | None = None) -> tuple[str | None, FileResult]:
    """`source`: the bytes the cache hashed already (not read again)."""
    if source is None:
        d, source = _read_hashed(path, settings)
    else:
        d = digest(source)
    return d, check_file(path, settings, source=source)


def check_lean_hashed(path: str, settings: Settings, source: bytes | None = None) -> tuple[str | None, FileResult]:
    d, result = check_hashed(path, settings, source)
    keep = keep_text(result, settings)
    return d, result.lean(keep, keep and settings.hold_documents and result.entry is not None)


def keep_text(result: FileResult, settings: Settings) -> bool:
    """A lean result keeps its text when this run will place more on it: bank findings (the file
    is in the bank rules' view) or --show-source (it has findings), so it is not read again."""
    return settings.hold_texts and (result.entry is not None or (settings.sources and bool(result.diagnostics)))


def load_entry(path: str, settings: Settings, source: bytes | None = None) -> BankEntry | CaseEntry | None:
    """Load and validate only, no rules: a context question (or case study) for the bank rules."""
    try:
        _, data = load_document(path, settings.config, source=source)
    except LoadError:
        return None
    if file_kind(path, settings.config) == "case":
        return None if validate("case", data) else CaseEntry.of(path, data)
    return None if validate("question", data) else BankEntry.of(path, data, entry_gram(settings), entry_names(settings))


def load_entry_hashed(path: str, settings: Settings, source: bytes | None = None) -> tuple[str | None, BankEntry | CaseEntry | None]:
    if source is None:
        d, source = _read_hashed(path, settings)
    else:
        d = digest(source)
    return d, load_entry(path, settings, source) if source is not None else None


def document_of(result: FileResult, settings: Settings) -> Document:
    """The result's Document: the one checked while held, else from its text; a lean result
    without its text reads the file again (the bytes are what was checked unless the file
    changed meanwhile, which a re-run reports)."""
    if result.document is None:
        if not result.text:
            try:
                result.text = Document.read(result.path, settings.config.root, settings.config.limits).text
            except LoadError:
                pass
        result.document = Document(result.path, result.text)
    return result.document


def text_of(result: FileResult, settings: Settings) -> str:
    """The file's text (see `document_of`)."""
    return document_of(result, settings).text
