"""Word-level helpers shared by the rules: tokens, content words, negation scope."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
# _WORD on lower-case ASCII with the trailing quotes and hyphens (that strip("-'") removes) left out
_ASCII_WORD = re.compile(r"[a-z0-9](?:[a-z0-9'\-]*[a-z0-9])?")
_MARKUP = re.compile(r"`{1,3}|\*{1,2}|_{2}|\[|\]\([^)]*\)|<[^>]+>")
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

NEGATION_TRIGGERS = frozenset(
    "not no never none neither nor cannot can't isn't aren't wasn't weren't doesn't don't didn't won't "
    "wouldn't shouldn't couldn't without lacks fails unlike rather instead".split()
)


def plain(text: str) -> str:
    """Markdown text with markup characters removed (code spans keep their words)."""
    text = text or ""
    # most texts have no markup: one character-class scan is far cheaper than the alternation
    return _MARKUP.sub(" ", text) if _MARKUP_CHAR.search(text) else text


def tokenise(text: str) -> tuple[str, ...]:
    """Lower-case word tokens, apostrophes normalised (rules read them via `qlint.analysis`)."""
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


class _StemMemo(dict):
    """word -> stem. Rules stem every token of every text, and a bank's vocabulary is small: a
    dict lookup (mapped over a token tuple in C) is the cheapest cache; cleared if ever huge."""

    def __missing__(self, word: str) -> str:
        if len(self) >= 200_000:
            self.clear()
        value = self[word] = _stem(word)
        return value


# stem(word): a deliberately light stemmer (plural and common suffixes, enough to match word forms)
stem = _StemMemo().__getitem__


def content_words(text: str, min_len: int = 3) -> set[str]:
    """Stemmed words that carry meaning: not stopwords, at least `min_len` characters."""
    return {stem(t) for t in tokenise(text) if len(t) >= min_len and t not in STOPWORDS}


def normalise(text: str) -> str:
    """Case, markup, punctuation and spacing folded away: for equality tests."""
    return " ".join(tokenise(text))


def negated_spans(toks: list[str], window: int = 5) -> list[bool]:
    """NegEx-style scope: True for tokens within `window` tokens after a negation trigger."""
    out = [False] * len(toks)
    left = 0
    for i, t in enumerate(toks):
        if t in NEGATION_TRIGGERS or t.endswith("n't"):
            left = window
            continue
        if left:
            out[i] = True
            left -= 1
    return out


def find_phrase(toks: list[str], phrase: list[str]) -> list[int]:
    """Start indexes of `phrase` (a token list) inside `toks`."""
    n = len(phrase)
    if not n:
        return []
    return [i for i in range(len(toks) - n + 1) if toks[i : i + n] == phrase]


def has_phrase(toks: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """True if `phrase` occurs in `toks` (both tuples): `find_phrase`, trying only the places
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
