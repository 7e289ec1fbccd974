"""Map LMS exports' question and answer texts back to bank questions and options.

Texts are compared as word sequences (HTML tags and entities, Markdown marks, case and
punctuation dropped), since an LMS shows the rendered text and may shorten long headers."""

from __future__ import annotations

import html
import re

from qlint.itemanalysis.data import ItemKey

_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"\w+")
MIN_PREFIX = 30  # a shortened header must keep this many characters to be matched by its start


def normal(text: str) -> str:
    return " ".join(_WORD.findall(html.unescape(_TAG.sub(" ", text or "")).lower().replace("_", " ")))


class QuestionIndex:
    """Find a bank question by its id, or by its stem text (whole, or a shortened header)."""

    def __init__(self, keys: dict[str, ItemKey]) -> None:
        self.keys = keys
        self.by_text: dict[str, list[ItemKey]] = {}
        for k in keys.values():
            self.by_text.setdefault(normal(k.stem), []).append(k)

    def find(self, text: str) -> tuple[ItemKey | None, str]:
        """(question, "") or (None, why not)."""
        raw = text.strip()
        if raw in self.keys:
            return self.keys[raw], ""
        t = normal(raw)
        found = self.by_text.get(t)
        if not found and len(t) >= MIN_PREFIX:
            t = t.rstrip(". ")
            found = [k for stem, ks in self.by_text.items() if stem.startswith(t) for k in ks]
        if not found:
            return None, "no bank question has this id or stem text"
        if len(found) > 1:
            return None, f"the stem text matches {len(found)} questions ({', '.join(k.id for k in found[:3])})"
        return found[0], ""


def options_in(cell: str, key: ItemKey, separators: str) -> tuple[int | None, str]:
    """(bit mask, "") of the options whose texts make up `cell` (joined by any of `separators`),
    0 for an empty answer, or (None, why not). Pieces are joined back greedily, so an option
    text that itself holds a separator still matches."""
    if not cell.strip() or cell.strip() == "-":
        return 0, ""
    texts = {normal(t): i for i, t in enumerate(key.option_texts)}
    whole = normal(cell)
    if whole in texts:
        return 1 << texts[whole], ""
    pieces = re.split("[" + re.escape(separators) + "]", cell) if separators else [cell]
    mask, start = 0, 0
    while start < len(pieces):
        for end in range(len(pieces), start, -1):  # the longest run of pieces that is an option
            t = normal(",".join(pieces[start:end]))
            if t in texts:
                mask |= 1 << texts[t]
                start = end
                break
        else:
            if not normal(pieces[start]):
                start += 1
                continue
            return None, f"answer {cell.strip()[:60]!r} matches no option text of {key.id}"
    return mask, ""
