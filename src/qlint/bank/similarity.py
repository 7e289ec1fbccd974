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
from itertools import chain
from typing import Iterable, Sequence

from qlint.bank import acyclic_build
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
    """Prefix-filter index over shingle sets for one Jaccard threshold.

    Each set is ordered globally: shingles seen once in the bank first (they cannot be shared),
    then the others rarest first. Two sets meeting the threshold share a shingle in their
    prefixes; a candidate's shared prefix count also bounds its overlap from above (every shared
    shingle ranked before the prefix ends was found), so most candidates are dropped before the
    exact Jaccard is computed. Bounds only prune: every pair reported is verified exactly."""

    def __init__(self, sets: list[frozenset[int]], threshold: float) -> None:
        if not 0 < threshold <= 1:
            raise ValueError(f"Jaccard threshold must be in (0, 1], got {threshold}")
        self.sets = sets
        self.threshold = threshold
        df: Counter[int] = Counter()
        for s in sets:
            df.update(s)
        repeated = {g for g, c in df.items() if c > 1}  # a shingle seen once cannot pair anything
        order = sorted(repeated)
        order.sort(key=df.__getitem__)  # rarest first, ties by value (the sort is stable)
        rank = dict(zip(order, range(len(order))))
        self.sizes = [len(s) for s in sets]
        self._unique: list[int] = []  # shingles of the set seen nowhere else
        self._prefixes: list[list[int]] = []  # ranks of the prefix's shingles, ascending
        self._postings: dict[int, list[int]] = {}
        for i, s in enumerate(sets):
            shared = s & repeated
            self._unique.append(len(s) - len(shared))
            room = _prefix_size(len(s), threshold) - (len(s) - len(shared))  # unique ones come first
            if room <= 0 or not s:
                self._prefixes.append([])
                continue
            prefix = sorted(map(rank.__getitem__, shared))[:room]
            self._prefixes.append(prefix)
            for r in prefix:
                self._postings.setdefault(r, []).append(i)
        self.candidates_checked = 0  # for the benchmark: how much pruning left to verify
        self._least: dict[tuple[int, bool], _LeastFound] = {}

    def _overlap_bound(self, i: int, j: int, found: int) -> int:
        """Most shingles sets i and j can share, given `found` shared within their prefixes: a
        shared shingle not found ranks after the earlier-ending prefix, so it lies in that set's
        suffix (and among the other set's shingles not found)."""
        pi, pj = self._prefixes[i], self._prefixes[j]
        if pi[-1] <= pj[-1]:
            return found + min(self.sizes[i] - self._unique[i] - len(pi), self.sizes[j] - self._unique[j] - found)
        return found + min(self.sizes[j] - self._unique[j] - len(pj), self.sizes[i] - self._unique[i] - found)

    def _reaches(self, overlap: int, i: int, j: int) -> bool:
        # the same formula as `jaccard`, increasing in the overlap, so a bound below stays below
        return overlap / (self.sizes[i] + self.sizes[j] - overlap) >= self.threshold

    def _verify(self, i: int, j: int, found: int) -> float | None:
        """Jaccard of sets i and j if it can reach the threshold, else None (without computing it)."""
        if not self._reaches(self._overlap_bound(i, j, found), i, j):
            return None
        self.candidates_checked += 1
        return jaccard(self.sets[i], self.sets[j])

    def _least_found(self, n: int, mutual: bool) -> dict[int, int]:
        """Size m -> fewest shared prefix shingles with which a set of size n and one of size m
        can reach the threshold (a cheap first cut before `_overlap_bound`). What is not found
        lies in a suffix, at most the positions after the longer prefix; sizes the length filter
        rules out map to more than any count (`mutual`: the filter of either set's search)."""
        key = (n, mutual)
        if key not in self._least:
            self._least[key] = _LeastFound(n, self.threshold, mutual)
        return self._least[key]

    def similar(self, i: int) -> list[tuple[int, float]]:
        """(other index, Jaccard) for every set with Jaccard >= threshold, best first."""
        prefix = self._prefixes[i]
        if not prefix:
            return []
        least, sizes = self._least_found(self.sizes[i], False), self.sizes
        counts = Counter(chain.from_iterable(map(self._postings.__getitem__, prefix)))
        out = []
        for j, found in [(j, f) for j, f in counts.items() if f >= least[sizes[j]]]:
            if j != i and (score := self._verify(i, j, found)) is not None and score >= self.threshold:
                out.append((j, score))
        out.sort(key=lambda p: (-p[1], p[0]))
        return out

    def all_similar(self) -> dict[int, list[tuple[int, float]]]:
        """`similar(i)` for every set, each pair examined once: each set probes an index of the
        sets before it (the index is built as the sets are visited)."""
        t, sizes = self.threshold, self.sizes
        index: dict[int, list[int]] = {}
        out: dict[int, list[tuple[int, float]]] = {}
        for x, prefix in enumerate(self._prefixes):
            if not prefix:
                continue
            n, least = sizes[x], self._least_found(sizes[x], True)
            counts = Counter(chain.from_iterable(index[r] for r in prefix if r in index))
            for y, found in [(y, f) for y, f in counts.items() if f >= least[sizes[y]]]:
                score = self._verify(x, y, found)
                if score is None or score < t:
                    continue
                m = sizes[y]
                if t * n <= m <= n / t:  # each search's own length filter, as `similar` applies it
                    out.setdefault(x, []).append((y, score))
                if t * m <= n <= m / t:
                    out.setdefault(y, []).append((x, score))
            for r in prefix:
                index.setdefault(r, []).append(x)
        for pairs in out.values():
            pairs.sort(key=lambda p: (-p[1], p[0]))
        return out


class _LeastFound(dict):
    """See `SimilarityIndex._least_found`; filled on first use of each size."""

    def __init__(self, n: int, threshold: float, mutual: bool) -> None:
        super().__init__()
        self.n, self.threshold, self.mutual = n, threshold, mutual

    def __missing__(self, m: int) -> int:
        n, t = self.n, self.threshold
        allowed = t * n <= m <= n / t or (self.mutual and t * m <= n <= m / t)
        least = min(n, m) + 1  # more than two sets can share: never a candidate
        if allowed:
            rest = max(n - _prefix_size(n, t), m - _prefix_size(m, t))
            least = next((f for f in range(1, min(n, m) + 1) if (f + rest) / (n + m - f - rest) >= t), least)
        self[m] = least
        return least


def near_duplicates(questions: list[Question], threshold: float, probes: Iterable[int],
                    stems: list[list[str]] | None = None) -> dict[int, list[tuple[int, float]]]:
    """For each probe (an index into `questions`), its near-duplicates at Jaccard >= threshold."""
    with acyclic_build():
        stems = stems if stems is not None else [tokens(q.stem) for q in questions]
        index = SimilarityIndex(bank_shingles(questions, stems), threshold)
        probes = list(probes)
        if len(probes) > len(questions) // 4:  # most of the bank: one pass over all pairs is cheaper
            every = index.all_similar()
            return {i: every[i] for i in probes if i in every}
        return {i: found for i in probes if (found := index.similar(i))}
