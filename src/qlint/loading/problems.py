"""A problem found in a file, as a record: the file, where in it, and the message. Exporters name
the value by JSON pointer (placed through the file's Document, the text the lint read);
importers name the line and column their parser reported in a source that is not YAML. Both
become Diagnostics in their pipelines through `place`; nobody formats `path:line:col` to have
it parsed back."""

from __future__ import annotations

from dataclasses import dataclass

from qlint.loading.document import Document, document_for
from qlint.loading.errors import LoadError


@dataclass(frozen=True)
class Problem:
    path: str  # the file (a question, a case, an import source or a file inside it; an export's output)
    pointer: str | None  # JSON pointer of the value; None: at `line`:`col`, or the file as a whole
    message: str
    code: str = "E003"  # the diagnostic an export warning becomes (a refusal is always E001)
    within: str = ""  # a part of the value to point at (an image path inside a text)
    line: int = 0  # where a parser found it, 1-based, when there is no pointer (0: the top of the file)
    col: int = 0


def place(found: Problem, documents: dict[str, Document | None] | None = None) -> tuple[int, int]:
    """(line, col) of a problem in its file: the one place problems are located. A pointer goes
    through the Document the lint read (read again, with the reader's size limit, only when the
    lint did not hold it; once per run with `documents`); line 1 when it cannot be read. Without a
    pointer, the position the problem carries (1:1 when none)."""
    if found.pointer is None:
        return found.line or 1, found.col or 1
    documents = {} if documents is None else documents
    if found.path not in documents:
        try:
            documents[found.path] = document_for(found.path)
        except (OSError, ValueError, LoadError):
            documents[found.path] = None
    doc = documents[found.path]
    if doc is None:
        return 1, 1
    try:
        span = doc.span(found.pointer, within=found.within)
    except (ValueError, LoadError):
        return 1, 1
    return span.line, span.col
