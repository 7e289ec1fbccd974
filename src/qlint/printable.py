"""Text a human-facing report prints, made unable to drive the terminal or hide itself.

File names and messages come from the repository, so from whoever wrote the pull request: an
ESC or CR in a file name can rewrite the line above ("All checks passed."), a bidi override
(U+202E) can reverse what a reviewer reads. `printable` spells every such character as an escape
(`\\x1b`, `\\u202e`); `EscapingStream` does the same for everything the CLI writes to stderr.
"""

from __future__ import annotations

import unicodedata
from typing import Any, TextIO

from qlint.text import HIDDEN

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Cc: C0, DEL and C1 controls; Cf: bidi controls, zero-width and other invisible format characters;
# Zl/Zp: line and paragraph separators (some terminals break lines there); Cs: lone surrogates.
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def printable(text: str, keep: str = "") -> str:
    """`text` with control, format and separator characters escaped; characters in `keep` (say
    "\\n") stay as they are."""
    text = str(text)
    if text.isprintable() and not HIDDEN.search(text):  # the common case, decided in C
        return text
    # the categories, and the invisible letters F003 knows that no category marks (Hangul fillers)
    return "".join(_escape(ch) if ch not in keep and (unicodedata.category(ch) in _HIDDEN or HIDDEN.match(ch)) else ch
                   for ch in text)


class EscapingStream:
    """A text stream that escapes what `printable` would, keeping line breaks and tabs, so every
    error message the CLI prints is safe whatever path or text it echoes. `raw` is the wrapped
    stream, for output that is the CLI's own (a progress bar's carriage returns)."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(printable(text, keep="\n\t"))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding...
        return getattr(self.raw, name)


def raw_stream(stream: Any) -> Any:
    """The stream under an `EscapingStream` (or the stream itself)."""
    return getattr(stream, "raw", stream) if isinstance(stream, EscapingStream) else stream
