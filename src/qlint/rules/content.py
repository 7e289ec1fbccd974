"""Rules on the text itself, independent of its teaching content."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.prose.views import all_text, strings
from qlint.loading.positions import join_pointer
from qlint.model import ITEM_TYPES, Question
from qlint.rules import Finding, rule

_ALLOWED_CONTROLS = str.maketrans("\t\n\r", "   ")
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


@rule("S004", "forbidden-character", "error", types=ITEM_TYPES, cases=True, source="XML 1.0 (Fifth Edition) §2.2 Characters")
def forbidden_character(q: Question, ctx) -> Iterator[Finding]:
    """Text holds a control character that XML (and so QTI, Moodle and Canvas) forbids.

    ## What it does
    Reports any string value containing C0 control characters other than tab, newline and
    carriage return, DEL, lone surrogates, U+FFFE or U+FFFF, naming the character's code point.

    ## Why it matters
    Such characters are invisible in editors but make every XML export invalid, so a platform
    rejects the whole package. They usually arrive by copy and paste from PDFs or word processors.

    ## Example
    ```yaml
    stem: "Which service\\x0bstores features?"
    ```

    ## Fix
    Delete the character (often it should be a space or a line break).
    """
    joined = all_text(q)
    # every forbidden character is unprintable; tab, newline and CR (allowed) too, so they are
    # blanked out first, and the joining newlines are allowed characters
    if joined.translate(_ALLOWED_CONTROLS).isprintable() or not _FORBIDDEN.search(joined):
        return
    for path, text in strings(q):
        m = _FORBIDDEN.search(text)
        if m:
            yield Finding(join_pointer(path), f"character U+{ord(m.group(0)):04X} at offset {m.start()} is not allowed in XML exports")
