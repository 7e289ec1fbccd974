"""The one detector of references to options by letter ("option B", "(C)", "A and D",
"Response B is the one"): K006-K008 report them, `qlint shuffle` refuses to reorder a
question that has one, since its letters would then name other options."""

from __future__ import annotations

import re
from dataclasses import dataclass

from qlint.prose.sentences import _SENTENCE_END
from qlint.prose.views import per_text, view

_LETTER_LIST = r"\(?[A-J]\)?(?:\s*(?:,|and|or|&)\s*(?:and\s+|or\s+)?\(?[A-J]\)?(?![\w'’/-]))*"
_LETTER_PATTERNS = (
    re.compile(rf"\b(?i:options?|answers?|choices?|letters?|responses?)\s+({_LETTER_LIST})(?![\w'’/-])"),
    re.compile(r"(?<![\w(])\(([A-J])\)"),
    re.compile(r"(?<![\w/'’-])([A-J](?:\s*,\s*[A-J])*\s*,?\s*(?:and|or|&)\s+[A-J])(?![\w'’/-])"),
    re.compile(r"(?:^|(?<=[.!?]\s))([A-J])(?:[.):]\s|\s+is\s+(?:the\s+)?(?:correct|incorrect|wrong|right|best|key)\b)"),
)


@dataclass(frozen=True)
class LetterRef:
    letters: tuple[str, ...]
    start: int  # of the letters, in the text with markup removed (`plain`)
    end: int
    sentence: str  # the sentence holding the reference, markup removed
    quote: str = ""  # the whole reference as written ("option B", "(C)", "B is correct")
    at: int = 0  # where `quote` starts, in the same text as `start`


def _sentence_at(text: str, pos: int) -> str:
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    begin = max(s for s in starts if s <= pos)
    nxt = [s for s in starts if s > pos]
    return text[begin : nxt[0] if nxt else len(text)].strip()


# Every pattern above ends its match with a letter A-J that no word character follows: texts
# without one (most rationales) need none of the four scans. Each pattern also has a cheap
# necessary condition (a simpler regex with a literal start, a superset of its matches), so a
# text with "DynamoDB" in it does not pay for four scans that try every position.
_LETTER_HINT = re.compile(r"[A-J](?!\w)")
# The same before markup is removed: `plain` turns markup (which may start with "_") into spaces,
# so such a letter is followed in the raw text by a character that is no letter or digit.
_RAW_LETTER_HINT = re.compile(r"[A-J](?![^\W_])")
_KEYWORD_LETTER = re.compile(r"(?:option|answer|choice|letter|response)s?\s+\(?[a-j]")  # pattern 1, lower-cased
_PAREN_LETTER = re.compile(r"\([A-J]\)")  # pattern 2
_LETTER_LIST_HINT = re.compile(r"[A-J](?:\s*,\s*[A-J])*\s*,?\s*(?:and|or|&)\s+[A-J]")  # pattern 3, no lookarounds
_SENTENCE_LETTER = re.compile(r"[.!?]\s[A-J]")  # pattern 4 after the first character


def _possible_patterns(body: str) -> tuple[bool, bool, bool, bool]:
    ascii_text = body.isascii()  # lower-casing non-ASCII text can create ASCII letters: no shortcut
    return (not ascii_text or bool(_KEYWORD_LETTER.search(view(body).lower)),
            bool(_PAREN_LETTER.search(body)),
            bool(_LETTER_LIST_HINT.search(body)),
            body[:1] in ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J") or bool(_SENTENCE_LETTER.search(body)))


def letter_refs(text: str) -> tuple[LetterRef, ...]:
    """References to options by letter ("option B", "(C)", "A and D are correct"), first to last."""
    # most texts fail the raw test: decided before any shared view is made for them
    return _letter_refs(text) if _RAW_LETTER_HINT.search(text) else ()


@per_text
def _letter_refs(text: str) -> tuple[LetterRef, ...]:
    body = view(text).plain
    if not _LETTER_HINT.search(body):
        return ()
    needed = _possible_patterns(body)
    found: dict[int, LetterRef] = {}
    for pattern, possible in zip(_LETTER_PATTERNS, needed):
        if not possible:
            continue
        for m in pattern.finditer(body):
            if any(r.start <= m.start(1) < r.end for r in found.values()):
                continue
            letters = tuple(re.findall(r"[A-J]", m.group(1)))
            found[m.start(1)] = LetterRef(letters, m.start(1), m.end(1), _sentence_at(body, m.start(1)),
                                          m.group(0).strip(), m.start())
    return tuple(found[k] for k in sorted(found))
