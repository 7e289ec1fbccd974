"""Sentences of a raw Markdown text (emphasis and capitals kept), for parsers that quote them."""

from __future__ import annotations

import re

from qlint.prose.views import per_text

# A whitespace run after ., ?, ! or : and before more text, or a blank line. Written to start with
# the whitespace (the lookbehind then checks the punctuation before it) rather than with the
# lookbehind, so the search skips to whitespace instead of trying every position; same matches.
_SENTENCE_END = re.compile(r"\s(?<=[.?!:]\s)\s*(?=\S)|\n\s*\n")


@per_text
def raw_sentences(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in _SENTENCE_END.split(text.strip()) if p.strip())
