"""Word-level helpers shared by the rules: tokens, content words, negation scope."""

from __future__ import annotations

import re
from typing import Callable

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
# _WORD on lower-case ASCII with the trailing quotes and hyphens (that strip("-'") removes) left out
_ASCII_WORD = re.compile(r"[a-z0-9](?:[a-z0-9'\-]*[a-z0-9])?")
# A link target stops at the next `]` and a tag at the next `<`: an unclosed `](` or `<` no longer
# scans to the end of the text from every one of them (quadratic on a run of them).
_MARKUP = re.compile(r"`{1,3}|\*{1,2}|_{2}|\[|\]\([^)\]]*\)|<[^<>]+>")
_MARKUP_CHAR = re.compile(r"[`*_\[\]<]")  # every match of _MARKUP starts with one of these

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been before
    being below between both but by can cannot could did didn't do does doesn't doing don't down during each
    few for from further had has have having he her here hers herself him himself his how i if in into is
    isn't it it's its itself just let me more most my myself no nor not now of off on once only or other our
    ours ourselves out over own same she should so some such than that the their theirs them themselves then
    there these they this those through to too under until up very was wasn't we were what when where which
    while who whom why will with won't would you your yours yourself yourselves must need needs use uses used
    using should which one two three four five six each per via within without into onto upon across
    company team wants want needs using use must should could would which what option options""".split()
)

def plain(text: str) -> str:
    """Markdown text with markup characters removed (code spans keep their words)."""
    text = text or ""
    # most texts have no markup: one character-class scan is far cheaper than the alternation
    return _MARKUP.sub(" ", text) if _MARKUP_CHAR.search(text) else text


def tokenise(text: str) -> tuple[str, ...]:
    """Lower-case word tokens, apostrophes normalised (rules read them via `qlint.prose.views`)."""
    body = plain(text)
    if body.isascii():  # lower-casing ASCII first cannot move a token boundary
        return tuple(_ASCII_WORD.findall(body.lower()))
    return tuple([t.lower().replace("’", "'").strip("-'") for t in _WORD.findall(body)])


def tokens(text: str) -> list[str]:
    """Lower-case word tokens, apostrophes normalised."""
    return list(tokenise(text))


def _stem(word: str) -> str:
    w = word.lower()
    for suf, rep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: len(w) - len(suf)] + rep
    return w


class WordMemo(dict):
    """word -> fn(word). Rules stem every token of every text, and a bank's vocabulary is small:
    a dict lookup (mapped over a token tuple in C) is the cheapest cache (lru_cache costs a call
    more); cleared if ever huge. `WordMemo(fn).__getitem__` is the cached function."""

    def __init__(self, fn: Callable[[str], str]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, word: str) -> str:
        if len(self) >= 200_000:
            self.clear()
        value = self[word] = self.fn(word)
        return value


# stem(word): a deliberately light stemmer (plural and common suffixes, enough to match word forms)
stem = WordMemo(_stem).__getitem__


def content_words(text: str, min_len: int = 3) -> set[str]:
    """Stemmed words that carry meaning: not stopwords, at least `min_len` characters."""
    return {stem(t) for t in tokenise(text) if len(t) >= min_len and t not in STOPWORDS}


def normalise(text: str) -> str:
    """Case, markup, punctuation and spacing folded away: for equality tests."""
    return " ".join(tokenise(text))


def has_phrase(toks: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """True if `phrase` occurs in `toks` (both tuples) as whole tokens, trying only the places
    where the first word matches."""
    n = len(phrase)
    if not n:
        return False
    first, i = phrase[0], -1
    try:
        while True:
            i = toks.index(first, i + 1)
            if toks[i : i + n] == phrase:
                return True
    except ValueError:
        return False


_SENTENCE_BREAK = re.compile(r"(?<=[.?!:])\s+|\n\s*\n")


def sentences(text: str) -> list[str]:
    """Split prose into sentences on ., ?, ! or : followed by space, and on blank lines."""
    parts = _SENTENCE_BREAK.split(plain(text).strip())
    return [p.strip() for p in parts if p.strip()]


# --- Unicode that cannot hide anything -------------------------------------------------------
# Characters that draw nothing (or only reorder what is drawn), written out from the Unicode
# Character Database rather than taken from `unicodedata` at import: the visible Cf characters
# (Arabic number signs, U+0600-0605 and kin) are left out, and the invisible letters the
# category misses (Hangul fillers, U+034F, Khmer inherent vowels) are added.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # marks, embeddings, overrides, isolates
_HIDDEN_CLASS = (
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f"
    "\u3164\ufeff\uffa0\ufff9-\ufffb\U0001bca0-\U0001bca3\U00013430-\U0001343f\U0001d173-\U0001d17a\U000e0000-\U000e007f"
    + BIDI_CONTROLS
)
HIDDEN = re.compile(f"[{_HIDDEN_CLASS}]")
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def hidden_name(ch: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`: how a message names an invisible character."""
    import unicodedata

    name = unicodedata.name(ch, "")
    if not name and 0xE0000 <= ord(ch) <= 0xE007F:
        name = "TAG CHARACTER"
    return f"U+{ord(ch):04X} {name}".rstrip()


def is_bidi(ch: str) -> bool:
    return bool(_BIDI.match(ch))


# Letters of other scripts drawn like Latin ones (after the Unicode confusables data, TR39), and
# dashes and quotes drawn like ASCII ones. Fullwidth forms, ligatures, mathematical letters and
# the odd spaces are folded by NFKC already, so they are not listed here.
_LOOKALIKES = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "Ԁ": "D", "Ɡ": "G",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j",
    "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y", "ɡ": "g",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϳ": "J",
    "α": "a", "ο": "o", "ν": "v", "ι": "i", "ρ": "p", "υ": "u", "ϳ": "j", "κ": "k", "γ": "y",
    # Armenian and Latin letters outside ASCII drawn like ASCII ones
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "ı": "i", "ɑ": "a", "ȷ": "j", "ǀ": "l",
    # dashes, minus signs and quotes
    "\u2010": "-", "\u2012": "-", "\u2013": "-", "\u2043": "-", "\u2212": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"',
}
_FOLD = str.maketrans(_LOOKALIKES)


def skeleton(text: str) -> str:
    """`text` as a reader sees it: invisible characters removed, NFKC-normalised, and letters of
    other scripts that look Latin (Cyrillic "Ѕ", Greek "Ο") folded to their Latin twins.

    Two strings with the same skeleton cannot be told apart on screen; compare skeletons where
    "the same text" or "the same id" matters. ASCII text is its own skeleton (the common case).
    """
    if text.isascii():
        return text
    import unicodedata

    out = unicodedata.normalize("NFKC", HIDDEN.sub("", text)).translate(_FOLD)
    # a folded letter may now compose with a following mark (Cyrillic "с" + U+0301 -> "ć")
    return out if out.isascii() else unicodedata.normalize("NFC", out)


# The placeholder marker `qlint new` and `qlint import` write (F002 reports it); upper case only:
# "a to-do list" in prose is not a marker.
PLACEHOLDER_MARKER = re.compile(r"\b(?:TODO|FIXME)\b")


def holds_placeholder(text: str) -> bool:
    """The text still holds a TODO or FIXME marker, look-alike letters and invisible characters
    included ("ТODO" with a Cyrillic Т): it is unfinished, not yet anything to compare or read."""
    return has_marker(skeleton(text))


def has_marker(folded: str) -> bool:
    """`PLACEHOLDER_MARKER` in already folded text; the literal test first (twenty times as fast as
    the regex, which tries every position, on a question's text)."""
    return ("TODO" in folded or "FIXME" in folded) and PLACEHOLDER_MARKER.search(folded) is not None


def unread_letters(text: str) -> str:
    """The letters the word tokens do not read: Chinese, Cyrillic, Greek, Arabic, ... (after the
    look-alike fold; accents aside, so "é" is read as "e")."""
    if text.isascii():
        return ""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", skeleton(text))
                   if not ch.isascii() and ch.isalnum() and not unicodedata.combining(ch))


def mostly_unread(text: str) -> bool:
    """Most of the text's letters are of a script the word tokens do not read: its tokens are the
    numbers and Latin fragments left over ("19世纪..." reads as "19"), too little to compare."""
    unread = len(unread_letters(text))
    return unread > 0 and unread > sum(1 for ch in text if ch.isascii() and ch.isalnum())


def same_text(text: str) -> str:
    """The key under which two option texts are "the same text": the skeleton with case and runs
    of whitespace folded and a final full stop dropped. Nothing else (punctuation, Markdown,
    articles, plurals) is folded: those are near-duplicates, a judgement, not an identity."""
    key = " ".join(skeleton(text).casefold().split())
    return key[:-1].rstrip() if key.endswith(".") else key


def id_key(value: str) -> str:
    """The key under which two ids are the same id: their skeletons (q-1 and q‐1 with U+2010)."""
    return skeleton(value)
