"""The whole bank as context: bank-wide rules and figures read it; reports name only target files."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from qlint.model import Question
from qlint.project.discovery import real_path
from qlint.project.exams import Exam


@dataclass
class Bank:
    """Every schema-valid question in the bank (plus any targets outside it), in path order."""

    questions: list[Question]
    exams: dict[str, Exam]
    targets: set[str] = field(default_factory=set)  # real paths of the files findings may name
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def by_id(self) -> dict[str, list[Question]]:
        out: dict[str, list[Question]] = {}
        for q in self.questions:
            out.setdefault(q.id, []).append(q)
        return out

    def is_target(self, path: str) -> bool:
        """True if findings on `path` will be reported (the file was passed to the run)."""
        return real_path(path) in self.targets

    def target_flags(self) -> list[bool]:
        """`is_target` for every question, in bank order (computed once)."""
        def flags() -> list[bool]:
            folders: dict[str, str] = {}
            return [_realpath(q.path, folders) in self.targets for q in self.questions]

        return self.memo("target-flags", flags)

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """Work shared by several bank rules (tokens, indexes), computed once per run."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]


def _realpath(path: str, folders: dict[str, str]) -> str:
    """`os.path.realpath(path)`, resolving each folder once: a bank's thousands of files share a
    few folders, and realpath checks every component of every path."""
    if os.path.islink(path):
        return os.path.realpath(path)
    head, tail = os.path.split(path)
    if not tail or tail in (".", ".."):
        return os.path.realpath(path)
    real = folders.get(head)
    if real is None:
        real = folders[head] = os.path.realpath(head or os.curdir)
    return os.path.join(real, tail)


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
