"""What a lint run is asked to do: the configuration, the rule selection and the project session
(exam definitions of each bank), and which bank's exams judge a file."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qlint.diagnostic import Diagnostic
from qlint.lint.selection import Selection
from qlint.paths import absolute_path, display_path
from qlint.project.banks import bank_of
from qlint.project.config import Config
from qlint.project.exams import Exam
from qlint.project.session import Session
from qlint.rules import RULES
from qlint.rules.context import RuleContext

if TYPE_CHECKING:
    from qlint.lint.results import FileResult

BANK_KINDS = ("question", "case")  # files the bank rules read (exam files are judged against them)


@dataclass
class Settings:
    config: Config
    selection: Selection
    exams: dict[str, Exam] = field(default_factory=dict)  # the configured bank's (load_exams)
    bank_exams: dict[Path, dict[str, Exam]] = field(default_factory=dict)  # other banks' of this run, by bank folder
    exam_results: dict[str, "FileResult"] = field(default_factory=dict)  # real path -> result (load_exams)
    extra: list[Diagnostic] = field(default_factory=list)  # placed elsewhere (response rules), reported with the rest
    session: Session | None = None  # the exam files read (load_exams): one read per run
    sources: bool = False  # --show-source: lean results keep the text of files with findings
    hold_texts: bool = True  # lean results keep the texts this run places more on (set by `lint`)
    hold_documents: bool = False  # ... and their Documents, so bank findings reuse the locator (set by `lint`)
    # each item rule's context, made once per run rather than per rule and question (see check._context)
    contexts: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)


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


def entry_names(settings: Settings) -> tuple[str, ...]:
    """The product names translations keep as written (L006), which bank entries record: the
    configured `names` and the lifecycle catalogue's services."""
    from qlint.bank.parity import catalogue_names
    from qlint.project.lifecycle import CatalogueError, catalogue

    rule = RULES.get("L006")
    configured = tuple(RuleContext(rule, settings.config, settings.exams).option("names")) if rule else ()
    try:
        return configured + catalogue_names(catalogue(settings.config.bank_dir).services)
    except CatalogueError:  # a broken project catalogue is reported by the V rules' run
        return configured


def entry_gram(settings: Settings) -> int:
    """The n of B007's explanation n-grams, which bank entries hash ahead."""
    rule = RULES.get("B007")
    return int(RuleContext(rule, settings.config, settings.exams).option("ngram"))
