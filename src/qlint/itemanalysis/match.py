"""Map LMS exports' question and answer texts back to bank questions and options.

Texts are compared as word sequences (HTML tags and entities, Markdown marks, case and
punctuation dropped), since an LMS shows the rendered text and may shorten long headers."""

from __future__ import annotations

import bisect
import functools
import html
import re
import secrets

from qlint.itemanalysis.data import ItemKey

_TAG = re.compile(r"<[^<>]*>")  # a tag ends at the next `<`: from each `<` of a run the scan stops at the next one
_WORD = re.compile(r"\w+")
MIN_PREFIX = 30  # a shortened header must keep this many characters to be matched by its start
_MOD = (1 << 61) - 1  # prime modulus of the word-sequence hashes in `options_in`
_BASE = secrets.randbelow(_MOD - 2) + 2  # random per run: no input is built to collide


def normal(text: str) -> str:
    return " ".join(_WORD.findall(html.unescape(_TAG.sub(" ", text or "")).lower().replace("_", " ")))


class QuestionIndex:
    """Find a bank question by its id, or by its stem text (whole, or a shortened header)."""

    def __init__(self, keys: dict[str, ItemKey]) -> None:
        self.keys = keys
        self.by_text: dict[str, list[ItemKey]] = {}
        for k in keys.values():
            self.by_text.setdefault(normal(k.stem), []).append(k)
        self._stems = sorted(self.by_text)  # a shortened header's stems are one run of this list
        self._found: dict[str, tuple[ItemKey | None, str]] = {}  # an LMS repeats each header on every row

    def find(self, text: str) -> tuple[ItemKey | None, str]:
        """(question, "") or (None, why not)."""
        if text not in self._found:
            self._found[text] = self._find(text)
        return self._found[text]

    def _find(self, text: str) -> tuple[ItemKey | None, str]:
        raw = text.strip()
        if raw in self.keys:
            return self.keys[raw], ""
        t = normal(raw)
        found = self.by_text.get(t)
        if not found and len(t) >= MIN_PREFIX:
            t = t.rstrip(". ")
            lo = bisect.bisect_left(self._stems, t)
            hi = bisect.bisect_left(self._stems, t + "\U0010ffff", lo)
            found = [k for stem in self._stems[lo:hi] if stem.startswith(t) for k in self.by_text[stem]]
        if not found:
            return None, "no bank question has this id or stem text"
        if len(found) > 1:
            return None, f"the stem text matches {len(found)} questions ({', '.join(k.id for k in found[:3])})"
        return found[0], ""


@functools.lru_cache(maxsize=1024)
def _options(texts: tuple[str, ...]) -> tuple[dict[str, int], list[tuple[int, int, int, list[str]]]]:
    """(normal text -> option index, and (word count, hash, index, words) of every option with
    words, longest first) of one question's option texts: computed once, not per answer cell."""
    whole = {normal(t): i for i, t in enumerate(texts)}
    runs = []
    for t, i in whole.items():
        words = t.split()
        if words:
            runs.append((len(words), _hash(words), i, words))
    runs.sort(key=lambda r: -r[0])
    return whole, runs


def _hash(words: list[str]) -> int:
    h = 0
    for w in words:
        h = (h * _BASE + hash(w)) % _MOD
    return h


def options_in(cell: str, key: ItemKey, separators: str) -> tuple[int | None, str]:
    """(bit mask, "") of the options whose texts make up `cell` (joined by any of `separators`),
    0 for an empty answer, or (None, why not). Pieces are joined back greedily, so an option
    text that itself holds a separator still matches: from each piece, the longest run of
    pieces whose words are an option's.

    Linear in the cell: the pieces' words are hashed once (prefix hashes), and each piece tries
    each option length once (at most MAX_OPTIONS) by comparing two hashes; a hash that agrees
    is confirmed word by word before it counts."""
    if not cell.strip() or cell.strip() == "-":
        return 0, ""
    texts, runs = _options(key.option_texts)
    whole = normal(cell)
    if whole in texts:
        return 1 << texts[whole], ""
    pieces = re.split("[" + re.escape(separators) + "]", cell) if separators else [cell]
    words: list[str] = []
    starts = {0}  # word positions where a piece begins
    for piece in pieces:
        words += normal(piece).split()
        starts.add(len(words))
    prefix = [0]
    for w in words:
        prefix.append((prefix[-1] * _BASE + hash(w)) % _MOD)
    powers = {n: pow(_BASE, n, _MOD) for n, *_ in runs}
    mask, at, n = 0, 0, len(words)
    while at < n:
        for size, h, i, option in runs:
            end = at + size
            if (end <= n and end in starts and (prefix[end] - prefix[at] * powers[size]) % _MOD == h
                    and words[at:end] == option):
                mask |= 1 << i
                at = end
                break
        else:
            return None, f"answer {cell.strip()[:60]!r} matches no option text of {key.id}"
    return mask, ""
