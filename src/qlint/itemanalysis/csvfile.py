"""CSV rows with their line numbers and field columns, and clear errors for unreadable files."""

from __future__ import annotations

import csv
import io
from typing import Callable, Iterator, TypeVar

from qlint.itemanalysis.data import ResponsesError

T = TypeVar("T")
LIMIT = 256 * 1024 * 1024  # a responses export of 10,000 learners is a few MB


def read_text(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(LIMIT + 1)
    except OSError as exc:
        raise ResponsesError(f"{path}:1:1", f"cannot read: {exc.strerror or exc}") from None
    if len(data) > LIMIT:
        raise ResponsesError(f"{path}:1:1", f"larger than {LIMIT // 2**20} MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ResponsesError(f"{path}:{line}:{col}", "not UTF-8 text (save the export as CSV UTF-8)") from None


def col_of(row: list[str], index: int) -> int:
    """1-based column where field `index` starts (exact for unquoted fields)."""
    return 1 + sum(len(f) + 1 for f in row[:index])


def read_cell(path: str, line: int, row: list[str], at: int | None, read: Callable[[str], T]) -> T | None:
    """`read` of the stripped cell at `at`: None when there is no such column or the cell is
    blank, ResponsesError at the cell's `path:line:col` when `read` refuses it (ValueError)."""
    if at is None or at >= len(row) or not row[at].strip():
        return None
    try:
        return read(row[at].strip())
    except ValueError as exc:
        raise ResponsesError(f"{path}:{line}:{col_of(row, at)}", str(exc)) from None


def rows(path: str, text: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """(line, fields) of every non-blank row, the header first; ResponsesError on bad CSV."""
    text = read_text(path) if text is None else text
    if not text.strip():
        raise ResponsesError(f"{path}:1:1", "empty file: expected a header row")
    sample = text[:4096]
    delimiter = ";" if sample.split("\n", 1)[0].count(";") > sample.split("\n", 1)[0].count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    line = 1
    try:
        for row in reader:
            if any(row):  # blank lines (and rows of empty fields) are skipped
                yield line, row
            line = reader.line_num + 1
    except csv.Error as exc:
        if "field limit" not in str(exc):
            raise ResponsesError(f"{path}:{reader.line_num or line}:1", f"not valid CSV: {exc}") from None
        # csv reads a quoted field up to its closing quote, across lines: a stray quote makes the
        # rest of the file one field, stopped at csv's limit; name the row where it opened
        raise ResponsesError(f"{path}:{line}:{_quote_col(text, line)}",
                             f"a field of more than {csv.field_size_limit():,} characters starts in this row: "
                             "a quote that opens a field is never closed (a stray '\"'?)") from None


def _quote_col(text: str, line: int) -> int:
    """1-based column of the first quote on `line` (1 when it has none)."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if not start:
            return 1
    end = text.find("\n", start)
    at = text.find('"', start, end if end >= 0 else len(text))
    return at - start + 1 if at >= 0 else 1
