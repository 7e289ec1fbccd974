"""Key leaks between items ("enemy items"): one question's answer written into another's stem.

Two leaks are found:
- the key's text (at least `min_words` words) appears word for word in another stem;
- a run of `ngram` words from the explanation appears in another stem.
A phrase also in the leaking question's own stem is its scenario, not its answer, and a phrase
found in more than `max_stems` stems is shared wording of the bank (boilerplate), so neither
counts.

Texts are `BankEntry` token strings, so "phrase in stem" is a substring test on whole tokens.
Over the whole bank, keys are found through an index of their first words and explanation
passages through the stable n-gram hashes the entries carry (set operations in C; a hash only
sifts, every hit is confirmed on the text). With a few target questions (pre-commit), only the
leaks naming a target are sought, by scanning every stem for the targets' answers and every
answer for the targets' stems: no index is built. Both ways give the same leaks; a test holds
them to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection

from qlint.bank import acyclic_build
from qlint.bank.entry import BankEntry, contains, gram_hashes, unpacked

# Up to this many targets, leaks are sought from and into each target directly (see
# qlint.bank.similarity.DIRECT_MAX_PROBES for the measured turn).
DIRECT_MAX_TARGETS = 4


@dataclass(frozen=True)
class Leak:
    source: int  # the question whose answer leaks (index)
    stem_of: int  # the question whose stem holds it
    kind: str  # "key" or "explanation"
    phrase: str
    option: int = -1  # the key's option index, for kind "key"


class _Texts:
    """The entries' texts and n-gram hashes for one `ngram` (the entries' own, or recomputed)."""

    def __init__(self, entries: list[BankEntry], min_words: int, ngram: int, max_stems: int) -> None:
        self.entries, self.min_words, self.ngram, self.max_stems = entries, min_words, ngram, max_stems
        self.stems = [e.stem for e in entries]
        self._same_n = all(e.gram == ngram for e in entries)

    def grams(self, e: BankEntry, which: str) -> Collection[int]:
        if self._same_n:
            return unpacked(e.stem_grams if which == "stem" else e.explanation_grams)
        return gram_hashes(e.stem_tokens() if which == "stem" else e.explanation_tokens(), self.ngram)

    def shared_grams(self) -> tuple[dict[int, list[int]], list[int]]:
        """(explanation n-gram hash -> the stems whose n-grams include it; the questions whose
        explanation has any such n-gram), over the whole bank."""
        wanted: set[int] = set()
        for e in self.entries:
            wanted.update(self.grams(e, "explanation"))
        by_hash: dict[int, list[int]] = {}
        for b, e in enumerate(self.entries):
            grams = self.grams(e, "stem")
            if not wanted.isdisjoint(grams):
                for h in wanted.intersection(grams):
                    by_hash.setdefault(h, []).append(b)
        sources = [a for a, e in enumerate(self.entries) if not by_hash.keys().isdisjoint(self.grams(e, "explanation"))]
        return by_hash, sources

    def leaking_keys(self, a: int) -> list[tuple[int, str]]:
        """(option, phrase) of a's keys long enough to count and not part of a's own stem."""
        return [(opt, text) for opt, text in self.entries[a].keys
                if text and text.count(" ") + 1 >= self.min_words and not contains(self.stems[a], text)]

    def key_leaks(self, a: int, opt: int, phrase: str, where: list[int]) -> list[Leak]:
        """The leaks of a's key `phrase`, given every other stem holding it."""
        return [Leak(a, b, "key", phrase, opt) for b in where] if len(where) <= self.max_stems else []

    def explanation_leaks(self, a: int, holders: Callable[[int], list[int] | None], skip: Collection[int]) -> list[Leak]:
        """a's explanation leaks: the earliest passage per stem. `holders(h)` gives the stems
        whose n-gram hashes include h (a superset: each is confirmed on the text); stems in
        `skip` already hold a's key."""
        toks = self.entries[a].explanation_tokens()
        first: dict[int, str] = {}
        n = self.ngram
        for k, h in enumerate(self.grams(self.entries[a], "explanation")):
            maybe = holders(h)
            if not maybe:
                continue
            phrase = " ".join(toks[k:k + n])
            where = [b for b in maybe if contains(self.stems[b], phrase)]
            if not where or len(where) > self.max_stems or a in where:
                continue
            for b in where:
                if b not in skip:
                    first.setdefault(b, phrase)
        return [Leak(a, b, "explanation", g) for b, g in sorted(first.items())]


def _all_leaks(t: _Texts) -> list[Leak]:
    """Every leak in the bank."""
    entries, stems, m = t.entries, t.stems, t.min_words
    anchors: dict[str, list[tuple[int, int, str]]] = {}  # first `min_words` words -> keys
    for a in range(len(entries)):
        for opt, phrase in t.leaking_keys(a):
            anchors.setdefault(" ".join(phrase.split(" ", m)[:m]), []).append((a, opt, phrase))
    firsts = {anchor.split(" ", 1)[0] for anchor in anchors}
    holding: dict[str, list[int]] = {}  # anchor -> stems holding it
    for b, stem in enumerate(stems):
        toks = stem.split(" ")
        if firsts.isdisjoint(toks):
            continue  # no key starts with any of this stem's words
        for anchor in {" ".join(toks[i:i + m]) for i, w in enumerate(toks) if w in firsts}:
            if anchor in anchors:
                holding.setdefault(anchor, []).append(b)
    keys: dict[int, list[Leak]] = {}
    for anchor, where in holding.items():
        for a, opt, phrase in anchors[anchor]:
            found = [b for b in where if b != a and (phrase == anchor or contains(stems[b], phrase))]
            if found:
                keys.setdefault(a, []).extend(t.key_leaks(a, opt, phrase, found))
    by_hash, sources = t.shared_grams()  # explanation n-gram hashes some stem holds -> those stems
    out = [x for found in keys.values() for x in found]
    for a in sources:
        out += t.explanation_leaks(a, by_hash.get, {x.stem_of for x in keys.get(a, ())})
    return out


def _leaks_of(t: _Texts, targets: list[int]) -> list[Leak]:
    """Every leak whose source or stem is a target, without an index over the bank."""
    entries, stems = t.entries, t.stems
    wanted = set(targets)
    sources = set(targets)  # every leak of a target's answer ...
    for b in targets:  # ... and every answer leaking into a target's stem
        stem, grams = stems[b], set(t.grams(entries[b], "stem"))
        for a, e in enumerate(entries):
            for _, text in e.keys:  # `in` first: a C substring test rules out nearly all
                if text and text in stem and contains(stem, text):
                    sources.add(a)
            if grams and a not in sources and not grams.isdisjoint(t.grams(e, "explanation")):
                sources.add(a)
    out = []
    for a in sorted(sources):
        keys = []
        for opt, phrase in t.leaking_keys(a):
            where = [b for b, stem in enumerate(stems) if b != a and contains(stem, phrase)]
            keys += t.key_leaks(a, opt, phrase, where)
        hashes = set(t.grams(entries[a], "explanation"))
        by_hash: dict[int, list[int]] = {}
        for b, e in enumerate(entries):
            grams = t.grams(e, "stem")
            if not hashes.isdisjoint(grams):
                for h in hashes.intersection(grams):
                    by_hash.setdefault(h, []).append(b)
        found = keys + t.explanation_leaks(a, by_hash.get, {x.stem_of for x in keys})
        out += [x for x in found if x.source in wanted or x.stem_of in wanted]
    return out


def _order(leak: Leak) -> tuple[int, int, str, int, str]:
    return leak.stem_of, leak.source, leak.kind, leak.option, leak.phrase


def find_leaks(entries: list[BankEntry], targets: list[int] | None = None, min_words: int = 4, ngram: int = 8,
               max_stems: int = 3) -> list[Leak]:
    """Key and explanation leaks; with `targets` (indexes), at least every leak naming one of them."""
    texts = _Texts(entries, min_words, ngram, max_stems)
    if targets is not None and len(targets) <= DIRECT_MAX_TARGETS:
        return sorted(_leaks_of(texts, targets), key=_order)
    with acyclic_build():
        return sorted(_all_leaks(texts), key=_order)
