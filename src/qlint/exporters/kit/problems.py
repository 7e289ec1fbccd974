"""What an export refuses or cannot carry, as a record (`loading/problems.Problem`, shared with the
importers): the file, the JSON pointer of the value an author must edit, and the message. The
export pipeline places each record at line:col through the file as it was loaded
(`loading/problems.place`); no exporter formats `path:line:col` itself."""

from __future__ import annotations

from typing import Protocol

from qlint.loading.problems import Problem

__all__ = ["ExportError", "Problem", "about_output", "problem"]


class _Sourced(Protocol):
    path: str


def problem(item: _Sourced, pointer: str | None, message: str, within: str = "") -> Problem:
    """A problem at `pointer` in a question's (or case's) file."""
    return Problem(item.path, pointer, message, within=within)


def about_output(output: object, message: str) -> Problem:
    """A problem of the export as a whole (what the target drops everywhere), named by its output."""
    return Problem(str(output), None, message)


class ExportError(ValueError):
    """Input the target cannot carry: the export is refused, and `problem` says where and why."""

    def __init__(self, found: Problem) -> None:
        super().__init__(found.message)
        self.problem = found
