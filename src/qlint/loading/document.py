"""One file read once: its path, shown path, text, parsed data and position lookup.

Every diagnostic on a file is placed through its Document (rules, bank rules, exporters,
--show-source): the text a finding is placed on is the text that was checked, and the file is
neither read again nor composed twice for positions.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from qlint.diagnostic import Diagnostic, Fix, Severity
from qlint.loading.fast import FastPathError, load_fast
from qlint.loading.limits import Limits
from qlint.loading.positions import Locator, Span
from qlint.loading.reader import decode, read_bytes, read_source
from qlint.loading.syntax import syntax_error
from qlint.paths import display_path


@dataclass(eq=False)
class Document:
    path: str  # as given (relative to the working folder, or absolute)
    text: str  # "" when the bytes could not be decoded
    shown: str = ""  # as reports name it (display_path); filled from `path` when empty
    data: Any = None  # the parsed data; None until `parse` succeeded
    _locator: Locator | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.shown:
            self.shown = display_path(self.path)

    def __getstate__(self) -> dict[str, Any]:
        """Sent between processes without the composed locator (a node tree, rebuilt on demand)."""
        return {**self.__dict__, "_locator": None}

    @classmethod
    def read(cls, path: str, root: Path, limits: Limits, source: bytes | None = None) -> "Document":
        """The file's text (from `source`, bytes already read from it, when given); LoadError
        when it cannot be read (Y009, Y010) or decoded (Y003)."""
        return cls(path, decode(source if source is not None else read_source(path, root, limits)))

    @classmethod
    def load(cls, path: str, root: Path, limits: Limits, source: bytes | None = None) -> "Document":
        """Read and parse; LoadError when either fails."""
        doc = cls.read(path, root, limits, source)
        doc.parse(limits)
        return doc

    def parse(self, limits: Limits) -> Any:
        """Parse the text (once); LoadError (Y001 and the loader's limits) when it does not parse."""
        if self.data is None:
            try:
                self.data = load_fast(self.text, limits)
            except FastPathError as exc:
                raise syntax_error(self.text, exc) from None
        return self.data

    @property
    def locator(self) -> Locator:
        """The position lookup, composed on first use (clean files never need it)."""
        if self._locator is None:
            self._locator = Locator(self.text)
        return self._locator

    def span(self, pointer: str, at_key: bool = False, offset: int | None = None, within: str = "") -> Span:
        """Where the value at `pointer` is (its key with `at_key`; the character `offset` into a
        string value; the first occurrence of `within` inside that span)."""
        locator = self.locator
        span = locator.locate(pointer, at_key) if offset is None else locator.locate_char(pointer, offset, at_key)
        return locator.find(span, within) if within else span

    def locate(self, pointer: str, at_key: bool = False) -> tuple[int, int, int, int]:
        """(line, col, end_line, end_col), 1-based and inclusive, of the value at `pointer`."""
        s = self.span(pointer, at_key)
        return s.line, s.col, s.end_line, s.end_col

    def diagnostic(self, code: str, pointer: str, message: str, *, name: str = "",
                   severity: Severity = Severity.ERROR, at_key: bool = False, offset: int | None = None,
                   within: str = "", fix: Fix | None = None) -> Diagnostic:
        """A Diagnostic on this file at `pointer` ("" = the top of the file)."""
        s = self.span(pointer, at_key, offset, within)
        return Diagnostic(self.shown, s.line, s.col, code, name, severity, message, s.end_line or s.line,
                          s.end_col or s.col, pointer, fix)



# The Documents of the run under way, by path as the run names the file: code that places a
# message on a file it was handed only as a path (an exporter's `path:line:col`) finds the text
# that was checked here instead of reading the file again.
_HELD: dict[str, Document] = {}


@contextmanager
def holding(documents: Iterable[Document]) -> Iterator[None]:
    """Make `documents` findable by `document_for` while the block runs."""
    before = dict(_HELD)
    _HELD.update((d.path, d) for d in documents)
    try:
        yield
    finally:
        _HELD.clear()
        _HELD.update(before)


def document_for(path: str, limits: Limits | None = None) -> Document:
    """The held Document of `path`, else the file read now (with the size limit); LoadError if
    it cannot be read."""
    doc = _HELD.get(path)
    if doc is None:
        doc = Document(path, decode(read_bytes(path, limits or Limits())))
    return doc
