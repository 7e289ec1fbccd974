"""Importers: one module per source format, registered by name, like the exporters.

An importer reads one source file and returns question data plus everything it could not map,
each with the source line, so `qlint import` can report it and keep it in a YAML comment:
nothing in the source is dropped silently.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from qlint.project.exams import Exam
from qlint.registry import Registry


@dataclass(frozen=True)
class Unmapped:
    line: int  # 1-based line in the source (0: the file as a whole)
    message: str  # what could not be mapped, quoting the source text
    part: str = ""  # the file inside a package source (`items/q1.xml`), if any


@dataclass
class Imported:
    data: dict[str, Any]  # a question in qlint's format (possibly with unmapped fields missing)
    line: int  # where the question starts in the source
    unmapped: list[Unmapped] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # the source's comments on it, kept as YAML comments
    part: str = ""  # the file inside a package source that holds it
    files: dict[str, bytes] = field(default_factory=dict)  # images to write, by path inside the bank
    kind: str = "question"  # or "case": a case study file (bank/<exam>/cases/<id>.yaml)


@dataclass(frozen=True)
class ImportJob:
    source: Path
    text: str  # the source as text ("" for importers that read bytes or a package)
    exams: dict[str, Exam]
    exam: str = ""  # defaults when the source does not say (--exam, --domain)
    domain: str = ""
    data: bytes = b""  # the source's bytes, for importers that read bytes (XML declares its encoding)


@dataclass
class ImportResult:
    questions: list[Imported] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)  # source parts that are no question


class SourceError(Exception):
    """The source cannot be read as this format at all (exit 2). A parser that knows where names
    the file inside a package (`part`, "" for the source itself) and the 1-based line and column;
    the pipeline places it there (the message never carries the position)."""

    def __init__(self, message: str, part: str = "", line: int = 0, col: int = 0) -> None:
        super().__init__(message)
        self.message, self.part, self.line, self.col = message, part, line, col


@dataclass(frozen=True)
class Importer:
    name: str
    description: str
    read: Callable[[ImportJob], ImportResult]
    suffixes: tuple[str, ...] = ()  # files taken from a SOURCE folder
    reads: str = "text"  # "text" (decoded UTF-8), "bytes", or "package" (SOURCE itself: a zip or a folder)
    single: bool = False  # a source file holds one question: read at most max-file-bytes of it
    not_carried: str = ""  # what the format never holds, said once per import rather than per question


IMPORTERS: Registry[Importer] = Registry("import format", "qlint.importers")


def importer(name: str, description: str, suffixes: tuple[str, ...] = (), reads: str = "text", single: bool = False,
             not_carried: str = ""):
    def deco(fn: Callable[[ImportJob], ImportResult]) -> Callable[[ImportJob], ImportResult]:
        IMPORTERS.add(name, Importer(name, description, fn, suffixes, reads, single, not_carried))
        return fn

    return deco


def match_exam(code: str, exams: dict[str, Exam]) -> Exam | None:
    return exams.get(code.strip().upper())


def match_domain(text: str, exam: Exam | None) -> str | None:
    """A domain id from an id or a (nearly exact) domain name."""
    if exam is None or not text.strip():
        return None
    wanted = text.strip().lower()
    for d in exam.domains:
        if wanted in (d.id, d.name.lower()):
            return d.id
    names = {d.name.lower(): d.id for d in exam.domains}
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.85)
    return names[close[0]] if close else None
