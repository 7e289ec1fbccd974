"""`qlint shuffle` without the command line: load the chosen questions and the rest of the bank,
plan the fewest key moves (`shuffling.plan`), edit each moved question's YAML, and say what was
not shuffled as Diagnostics (K006 for letter references, as `qlint check` reports them; Y/S codes
for files that do not load; A001 for an edit refused), so every reporter can print them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from qlint.authoring.changes import Change, internal_error
from qlint.bank.entry import BankEntry
from qlint.bank.statistics import key_balance
from qlint.diagnostic import Diagnostic, Severity
from qlint.loading.errors import LoadError
from qlint.loading.document import Document
from qlint.loading.reader import read_source
from qlint.loading.schema import validate
from qlint.model import LETTERS, Question
from qlint.paths import absolute_path, display_path
from qlint.project.banks import bank_folders
from qlint.project.config import Config
from qlint.project.discovery import discover
from qlint.rules import reported


@dataclass
class ShuffleOutcome:
    changes: list[Change] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)  # qlint bugs met: nothing may be written
    before: str = ""  # the key balance before and after, one line each
    after: str = ""
    kept: int = 0  # questions left as they are (pinned, `shuffle: false`, letter references)
    other_types: int = 0  # ordering and matching questions: no key position to balance

    @property
    def errors(self) -> bool:
        return any(d.severity >= Severity.ERROR for d in self.diagnostics)


def balance_line(questions: list[Question]) -> str:
    parts = []
    for b in key_balance([BankEntry.of(q.path, q.data) for q in questions]):
        counts = " ".join(f"{LETTERS[i]}:{n}" for i, n in enumerate(b.counts))
        parts.append(f"{b.k} options: {counts} (chi-square p={b.p_value:.2f})")
    return "; ".join(parts) or "no single-answer questions"


def load_questions(paths: list[str], config: Config, problems: list[Diagnostic]) -> dict[str, tuple[bytes, str, Question]]:
    """path -> (bytes, text, Question) for the schema-valid question files under `paths`; the bytes
    are what the text came from, so a file edited since then is not overwritten."""
    from qlint.authoring.formatter import kind_of  # the YAML editor's modules load only for this command

    files, missing = discover(paths)
    problems += [reported("Y010", display_path(m), why) for m, why in missing]
    out = {}
    for f in files:
        if kind_of(f, config) != "question":
            continue
        try:
            raw = read_source(f, config.root, config.limits)
            doc = Document.read(f, config.root, config.limits, raw)
            text, data = doc.text, doc.parse(config.limits)
        except LoadError as exc:
            problems.append(reported(exc.code, display_path(f), exc.message, exc.line, exc.col))
            continue
        if validate("question", data):
            problems.append(reported("S001", display_path(f), f"schema errors: run 'qlint check {display_path(f)}' (not shuffled)"))
            continue
        out[f] = (raw, text, Question(f, data))
    return out


def shuffle_bank(paths: list[str], config: Config, seed: int) -> ShuffleOutcome:
    """Plan and edit; `changes` are written by the caller (`changes.publish`), all or nothing."""
    from qlint.authoring.shuffling import plan, position_in, reordered
    from qlint.authoring.yamldoc import parse
    from qlint.authoring.yamledit import EditError, reorder

    out = ShuffleOutcome()
    selected = load_questions(paths, config, out.diagnostics)
    shown = {display_path(p) for p in selected}
    ignored: list[Diagnostic] = []  # the rest of the bank only counts; its problems are not this run's
    cwd = os.getcwd() + os.sep  # the banks the chosen questions belong to, not always the configured one
    banks = bank_folders(config, [absolute_path(p, cwd) for p in selected]) if selected else [config.bank_dir]
    context = [q for p, (_r, _t, q) in load_questions([str(b) for b in banks if b.is_dir()], config, ignored).items()
               if display_path(p) not in shown]
    plans = plan([q for _r, _t, q in selected.values()], context, seed)
    after: list[Question] = []
    for pl in plans:
        path = pl.question.path
        raw, text, _q = selected[path]
        if pl.refs:
            doc = parse(text, pl.question.data)
            for ref in pl.refs:
                line, col = position_in(doc, ref.pointer, ref.offset)
                out.diagnostics.append(reported("K006", display_path(path), f"refers to an option by letter ({ref.found!r}); "
                                                   "question not shuffled: name the option instead", line, col))
        if not pl.order or pl.order == sorted(pl.order):
            after.append(pl.question)
            continue
        try:
            new = reorder(text, "/options", pl.order, config)
        except EditError as exc:
            out.diagnostics.append(reported("A001", display_path(path), f"not shuffled: {exc}"))
            after.append(pl.question)
            continue
        except Exception as exc:  # a bug: a half-shuffled bank would be unbalanced, so write nothing
            out.internal.append(internal_error(display_path(path), "shuffling", exc))
            continue
        out.changes.append(Change(display_path(path), raw, new))
        after.append(reordered(pl.question, pl.order))
    out.before = balance_line(context + [q for _r, _t, q in selected.values()])
    out.after = balance_line(context + after)
    out.other_types = sum(1 for p in plans if not p.question.is_choice)
    out.kept = sum(1 for p in plans if p.kept) - out.other_types
    return out
