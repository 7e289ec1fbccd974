"""Near-duplicate search without comparing every pair: shingles, prefix filtering, exact Jaccard.

A question becomes the set of word 3-gram shingles of its normalised stem and of each option
(options sorted, so reordering them changes nothing). Prefix filtering (Chaudhuri, Ganti &
Kaushik 2006; Bayardo, Ma & Srikant 2007) finds every pair with Jaccard >= t exactly: order each
set's shingles rarest first; two sets with Jaccard >= t share a shingle within the first
|x| - ceil(t*|x|) + 1 of each. Only those prefixes are indexed, and shingles that occur once in
the bank cannot pair anything, so a question made of its own wording is never compared at all.
Candidates are verified with the exact Jaccard, so nothing is approximate: unlike MinHash + LSH
there are no missed pairs to tune away and the result is the same on every run.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Sequence

from qlint.model import Question
from qlint.text import tokens

SHINGLE = 3


def ngrams(toks: Sequence[str], n: int) -> Iterable[tuple[str, ...]]:
    return zip(*(toks[i:] for i in range(n)))


def shingles(q: Question, n: int = SHINGLE, stem: list[str] | None = None,
             cache: dict[str, list[str]] | None = None) -> frozenset[int]:
    """Hashed word n-grams of the stem and of each option (a shorter option is one shingle).
    `stem` passes tokens already computed; `cache` shares option tokens (banks reuse options)."""
    cache = {} if cache is None else cache
    options = []
    for o in q.options:
        toks = cache.get(o.text)
        if toks is None:
            toks = cache[o.text] = tokens(o.text)
        options.append(toks)
    out: set[int] = set()
    for seg in [tokens(q.stem) if stem is None else stem] + sorted(options):
        if len(seg) >= n:
            out.update(map(hash, ngrams(seg, n)))
        elif seg:
            out.add(hash(tuple(seg)))
    return frozenset(out)


def bank_shingles(questions: list[Question], stems: list[list[str]]) -> list[frozenset[int]]:
    cache: dict[str, list[str]] = {}
    return [shingles(q, SHINGLE, s, cache) for q, s in zip(questions, stems)]


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter) if inter else 0.0


def _prefix_size(size: int, threshold: float) -> int:
    return size - math.ceil(threshold * size - 1e-9) + 1


class SimilarityIndex:
    """Prefix-filter index over shingle sets for one Jaccard threshold."""

    def __init__(self, sets: list[frozenset[int]], threshold: float) -> None:
        if not 0 < threshold <= 1:
            raise ValueError(f"Jaccard threshold must be in (0, 1], got {threshold}")
        self.sets = sets
        self.threshold = threshold
        df: Counter[int] = Counter()
        for s in sets:
            df.update(s)
        repeated = {g for g, c in df.items() if c > 1}  # a shingle seen once cannot pair anything
        # the global order (rarest first, ties by value) as a rank, so sorting needs no Python key function
        rank = {g: r for r, g in enumerate(sorted(repeated, key=lambda g: (df[g], g)))}
        self._prefixes: list[list[int]] = []
        self._postings: dict[int, list[int]] = {}
        for i, s in enumerate(sets):
            shared = s & repeated
            room = _prefix_size(len(s), threshold) - (len(s) - len(shared))  # unique ones come first
            if room <= 0 or not s:
                self._prefixes.append([])
                continue
            prefix = sorted(shared, key=rank.__getitem__)[:room]
            self._prefixes.append(prefix)
            for g in prefix:
                self._postings.setdefault(g, []).append(i)
        self.candidates_checked = 0  # for the benchmark: how much pruning left to verify

    def similar(self, i: int) -> list[tuple[int, float]]:
        """(other index, Jaccard) for every set with Jaccard >= threshold, best first."""
        mine = self.sets[i]
        low, high = self.threshold * len(mine), len(mine) / self.threshold
        seen: set[int] = {i}
        out = []
        for g in self._prefixes[i]:
            for j in self._postings[g]:
                if j in seen:
                    continue
                seen.add(j)
                other = self.sets[j]
                if not low <= len(other) <= high:
                    continue
                self.candidates_checked += 1
                score = jaccard(mine, other)
                if score >= self.threshold:
                    out.append((j, score))
        out.sort(key=lambda p: (-p[1], p[0]))
        return out


def near_duplicates(questions: list[Question], threshold: float, probes: Iterable[int],
                    stems: list[list[str]] | None = None) -> dict[int, list[tuple[int, float]]]:
    """For each probe (an index into `questions`), its near-duplicates at Jaccard >= threshold."""
    stems = stems if stems is not None else [tokens(q.stem) for q in questions]
    index = SimilarityIndex(bank_shingles(questions, stems), threshold)
    return {i: found for i in probes if (found := index.similar(i))}
