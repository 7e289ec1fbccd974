"""Where a question's text lives: every text field with its JSON pointer, and pointer -> file:line:col
for messages, so export errors and warnings name the exact place an author must edit."""

from __future__ import annotations

from typing import Iterator

from qlint.loading.document import document_for
from qlint.loading.errors import LoadError
from qlint.markup import forbidden_char
from qlint.model import Question


def locate(q: Question, pointer: str, within: str = "") -> str:
    """`path:line:col` of the value at `pointer`, or of `within` inside it (an image path), or
    `path:1:1` when the file cannot be re-read."""
    try:
        span = document_for(q.path).span(pointer, within=within)  # the text the lint read
    except (ValueError, LoadError):
        return f"{q.path}:1:1"
    return f"{q.path}:{span.line}:{span.col}"


def _strings(value, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{pointer}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{pointer}/{i}")


def require_xml_chars(q: Question) -> None:
    """Refuse (ValueError naming file:line:col) a question holding a character XML 1.0 forbids.

    The lint gate reports these as S004; this catches them under `--force` too, before any
    target writes a document a platform would reject.
    """
    for pointer, text in _strings(q.data, ""):
        at = forbidden_char(text)
        if at is not None:
            raise ValueError(f"{locate(q, pointer)}: character U+{ord(text[at]):04X} is not allowed in XML exports")


def require_sound_options(q: Question) -> None:
    """Refuse (ValueError naming file:line:col) a question with a duplicate option id, an empty
    option or two options with the same text (lint rules S005, S006 and O006), or the same in its
    steps, prompts and responses or a prompt matched to no response (P004-P006): checked here
    again because an ignored or suppressed rule must not let one reach learners."""
    from qlint.prose.soundness import data_errors

    for e in data_errors(q):
        raise ValueError(f"{locate(q, e.pointer)}: {e.message} ({e.code}); not exporting this question")
