"""Sentences of a distractor's rationale that belong in `right_when` or `why_chosen`.

A page without the "When it would be right" / "Why learners choose it" labels still says both,
inside the rationale: "It would be the correct choice when ...", "It is tempting because ...,
and would be the right choice for ...". Each such sentence (or half of one, split at ", and")
moves to its field, word for word; every other sentence stays where it was, byte for byte.
"""

from __future__ import annotations

import re

_RIGHT = (r"would (?:be|have been) the (?:correct|right|best) (?:choice|answer|option)\b"
          r"|would be (?:correct|right)\b"
          r"|suits (?:scenarios|cases|situations) (?:where|when|in which)\b")
_TEMPT = (r"is tempting because\b|tempts (?:learners|candidates) because\b"
          r"|looks (?:right|correct) because\b")
_SUBJECT = r"(?:It|This option|This)"
LEADS = {"right_when": re.compile(rf"{_SUBJECT} (?:{_RIGHT})"), "why_chosen": re.compile(rf"{_SUBJECT} (?:{_TEMPT})")}
# ", and would be the right choice for ...": the second half of a sentence about the other field
_JOINED = {"right_when": re.compile(rf",? and (?:it )?(?={_RIGHT})"), "why_chosen": re.compile(rf",? and (?:it )?(?={_TEMPT})")}
# a sentence ends at . ! or ? before white space and a capital letter (or the end of the text)
_SENTENCE = re.compile(r"[^\s].*?(?:[.!?](?=\s+[A-Z\"'(]|\s*\Z)|\Z)", re.S)


def _field(sentence: str, into: set[str]) -> str | None:
    return next((name for name, lead in LEADS.items() if name in into and lead.match(sentence)), None)


def _pieces(sentence: str, field: str, into: set[str]) -> list[tuple[str, str]]:
    """(field, text) of a lead-in sentence, split where ", and" starts the other field's clause."""
    other = "why_chosen" if field == "right_when" else "right_when"
    joined = _JOINED[other].search(sentence) if other in into else None
    if joined is None:
        return [(field, sentence)]
    first, rest = sentence[:joined.start()].rstrip(" ,"), sentence[joined.end():]
    return [(field, first + "."), (other, "It " + rest)]


def split_rationale(rationale: str, into: set[str] = set(LEADS)) -> tuple[str, dict[str, str]]:
    """(the rationale without the sentences that belong in a field of `into`, {field: those sentences})."""
    moved: dict[str, list[str]] = {}
    paragraphs = []
    for para in rationale.split("\n\n"):
        kept, last = [], 0
        for m in _SENTENCE.finditer(para):
            field = _field(m.group(0), into)
            if field is None:
                continue
            for name, text in _pieces(" ".join(m.group(0).split()), field, into):
                moved.setdefault(name, []).append(text)
            kept.append(para[last:m.start()])
            last = m.end()
        if last:  # a sentence was cut out: tidy the white space it leaves (Markdown renders it alike)
            kept.append(para[last:])
            lines = (re.sub(r"[ \t]{2,}", " ", line).strip() for line in "".join(kept).split("\n"))
            para = "\n".join(line for line in lines if line)
        if para.strip():
            paragraphs.append(para)
    return "\n\n".join(paragraphs), {k: " ".join(v) for k, v in moved.items()}
