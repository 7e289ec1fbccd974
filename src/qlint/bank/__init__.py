"""The whole bank as context: bank-wide rules and figures read it; reports name only target files."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from qlint.bank.entry import BankEntry, CaseEntry
from qlint.paths import real_path
from qlint.project.exams import Exam
from qlint.text import id_key


@dataclass
class Bank:
    """Every schema-valid question in the bank (plus any targets outside it), in path order, as
    `BankEntry` records (what bank rules read, cached per file version)."""

    entries: list[BankEntry]
    exams: dict[str, Exam]
    targets: set[str] = field(default_factory=set)  # real paths of the files findings may name
    flags: list[bool] | None = None  # `target_flags`, when the caller already knows them (then
    # `targets` need only hold the exam files among them)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)
    cases: list[CaseEntry] = field(default_factory=list)  # the case study files, in path order
    case_flags: list[bool] | None = None  # per case: a file findings may name (as `flags`)
    exam_groups: list[tuple[dict[str, Exam], list[BankEntry]]] | None = None  # see `by_exams`

    @classmethod
    def of_questions(cls, questions: Iterable[Any], exams: dict[str, Exam], targets: set[str]) -> "Bank":
        """A bank of `qlint.model.Question`s (tests, benchmarks, tools that loaded them already)."""
        return cls([BankEntry.of(q.path, q.data) for q in questions], exams, targets)

    def by_exams(self) -> list[tuple[dict[str, Exam], list[BankEntry]]]:
        """(exam definitions, the questions judged against them): one pair per bank in the run,
        as each bank has its own exams folder (an exam code two banks define is two exams)."""
        return self.exam_groups if self.exam_groups is not None else [(self.exams, self.entries)]

    def by_id(self) -> dict[str, list[int]]:
        """id (as a reader sees it: `qlint.text.id_key`) -> indexes of the entries that use it."""
        out: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            out.setdefault(id_key(e.id), []).append(i)
        return out

    def target_indexes(self) -> list[int]:
        return [i for i, t in enumerate(self.target_flags()) if t]

    def is_target(self, path: str) -> bool:
        """True if findings on `path` will be reported (the file was passed to the run)."""
        return real_path(path) in self.targets

    def target_flags(self) -> list[bool]:
        """`is_target` for every question, in bank order (computed once)."""
        if self.flags is None:
            self.flags = [self.is_target(e.path) for e in self.entries]
        return self.flags

    def case_target_flags(self) -> list[bool]:
        """`is_target` for every case file, in bank order."""
        if self.case_flags is None:
            self.case_flags = [self.is_target(c.path) for c in self.cases]
        return self.case_flags

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """Work shared by several bank rules (tokens, indexes), computed once per run."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]


@contextmanager
def acyclic_build() -> Iterator[None]:
    """Pause the cyclic garbage collector while bank-wide indexes are built. They allocate
    hundreds of thousands of tuples and sets, each 700 of which trigger a collection that
    re-scans the loaded bank; none of them can form a reference cycle, so no collection is
    owed. The collector's state is restored, whatever happens."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
