"""Near-duplicate search without comparing every pair: shingles, prefix filtering, exact Jaccard.

A question becomes the set of word 3-gram shingles of its normalised stem and of each option
(a set, so reordering the options changes nothing; stable hashes, see `qlint.bank.entry`). Prefix filtering (Chaudhuri, Ganti &
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
from typing import Collection, Iterable, Sequence

from qlint.bank import acyclic_build
from qlint.bank.entry import BankEntry, unpacked

# Up to this many probes, each is compared with every question directly (about 3 us a pair);
# more, and building the prefix index once is cheaper. Measured on a 10k bank, B006 and B007
# together: ~60 ms a target directly, ~0.3 s for the indexes (5 targets 0.70 s, 9 targets 0.73 s
# end to end), so the turn comes at about 5 (pre-commit usually passes one or two files).
DIRECT_MAX_PROBES = 4


def shingle_sets(entries: list[BankEntry]) -> list[frozenset[int]]:
    return [frozenset(unpacked(e.shingles)) for e in entries]


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
    exact Jaccard is computed. Bounds only prune: every pair reported is verified exactly.

    `sets` may be frozensets or views of packed shingles (`BankEntry.shingles`): the index keeps
    no set per question, so a 100,000-question bank fits in a few hundred MB."""

    def __init__(self, sets: Sequence[Collection[int]], threshold: float) -> None:
        if not 0 < threshold <= 1:
            raise ValueError(f"Jaccard threshold must be in (0, 1], got {threshold}")
        self.sets = sets
        self.threshold = threshold
        # a shingle seen once cannot pair anything; the others are ranked rarest first (from 1),
        # ties by value
        rank = _ranks(sets)
        self.sizes = [len(s) for s in sets]
        self._unique: list[int] = []  # shingles of the set seen nowhere else
        self._prefixes: list[list[int]] = []  # ranks of the prefix's shingles, ascending
        for i, s in enumerate(sets):
            shared = sorted(filter(None, map(rank.get, s)))  # unranked: seen once
            self._unique.append(len(s) - len(shared))
            room = _prefix_size(len(s), threshold) - (len(s) - len(shared))  # unique ones come first
            if room <= 0 or not s:
                self._prefixes.append([])
                continue
            self._prefixes.append(shared[:room])
        self._postings: dict[int, list[int]] | None = None  # rank -> sets with it in their prefix
        self.candidates_checked = 0  # for the benchmark: how much pruning left to verify
        self._least: dict[int, _LeastFound] = {}

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

    def _verify(self, probe: frozenset[int], i: int, j: int, found: int) -> float | None:
        """Jaccard of sets i (as `probe`) and j if it can reach the threshold, else None
        (without computing it)."""
        if not self._reaches(self._overlap_bound(i, j, found), i, j):
            return None
        self.candidates_checked += 1
        inter = len(probe.intersection(self.sets[j]))
        return inter / (self.sizes[i] + self.sizes[j] - inter) if inter else 0.0  # as `jaccard`

    def _least_found(self, n: int) -> dict[int, int]:
        """Size m -> fewest shared prefix shingles with which a set of size n and one of size m
        can reach the threshold (a cheap first cut before `_overlap_bound`). What is not found
        lies in a suffix, at most the positions after the longer prefix; sizes the length filter
        rules out map to more than any count."""
        if n not in self._least:
            self._least[n] = _LeastFound(n, self.threshold)
        return self._least[n]

    def similar(self, i: int) -> list[tuple[int, float]]:
        """(other index, Jaccard) for every set with Jaccard >= threshold, best first."""
        prefix = self._prefixes[i]
        if not prefix:
            return []
        if self._postings is None:
            self._postings = {}
            for j, pj in enumerate(self._prefixes):
                for r in pj:
                    self._postings.setdefault(r, []).append(j)
        least, sizes = self._least_found(self.sizes[i]), self.sizes
        counts = Counter(chain.from_iterable(map(self._postings.__getitem__, prefix)))
        out = []
        probe = frozenset(self.sets[i])
        for j, found in [(j, f) for j, f in counts.items() if f >= least[sizes[j]]]:
            if j != i and (score := self._verify(probe, i, j, found)) is not None and score >= self.threshold:
                out.append((j, score))
        out.sort(key=lambda p: (-p[1], p[0]))
        return out

    def all_similar(self) -> dict[int, list[tuple[int, float]]]:
        """`similar(i)` for every set with any, each pair counted once: set i meets only the
        sets before it, through postings that grow as the sets are taken in turn (AllPairs,
        Bayardo, Ma & Srikant 2007). Pairs, bounds and scores are those of `similar`."""
        out: dict[int, list[tuple[int, float]]] = {}
        postings: dict[int, list[int]] = {}
        sizes, threshold = self.sizes, self.threshold
        for i, prefix in enumerate(self._prefixes):
            lists = [postings[r] for r in prefix if r in postings]
            if lists:
                least = self._least_found(sizes[i])
                probe: frozenset[int] | None = None
                for j, found in Counter(chain.from_iterable(lists)).items():
                    if found >= least[sizes[j]]:
                        probe = probe if probe is not None else frozenset(self.sets[i])
                        score = self._verify(probe, i, j, found)
                        if score is not None and score >= threshold:
                            out.setdefault(i, []).append((j, score))
                            out.setdefault(j, []).append((i, score))
            for r in prefix:
                postings.setdefault(r, []).append(i)
        for found in out.values():
            found.sort(key=lambda p: (-p[1], p[0]))
        return out


def _ranks(sets: Sequence[Collection[int]]) -> dict[int, int]:
    """Rank (from 1) of each shingle more than one set holds: rarest first, ties by value."""
    if sets and all(isinstance(s, memoryview) for s in sets):
        from qlint.bank.hash_counts import shared_ranks  # NumPy: whole-bank paths only

        return shared_ranks(sets)
    df = _shared_counts(sets)
    order = sorted(df)
    order.sort(key=df.__getitem__)  # stable: ties stay by value
    return dict(zip(order, range(1, len(order) + 1)))


def _shared_counts(sets: Sequence[Collection[int]]) -> Counter[int]:
    """How many sets hold each shingle, for the shingles more than one set holds. Counting only
    those (the rest are a bank's own wording, most of it) keeps the table a fifth the size."""
    seen: set[int] = set()
    counts: Counter[int] = Counter()
    for s in sets:
        mine = frozenset(s)
        again = mine.intersection(seen)
        if again:
            counts.update(again)
            counts.update([h for h in again if counts[h] == 1])  # its first holder, counted now
        seen |= mine
    return counts

class _LeastFound(dict):
    """See `SimilarityIndex._least_found`; filled on first use of each size."""

    def __init__(self, n: int, threshold: float) -> None:
        super().__init__()
        self.n, self.threshold = n, threshold

    def __missing__(self, m: int) -> int:
        n, t = self.n, self.threshold
        least = min(n, m) + 1  # more than two sets can share: never a candidate
        if t * n <= m <= n / t:  # the length filter of `similar`
            rest = max(n - _prefix_size(n, t), m - _prefix_size(m, t))
            least = next((f for f in range(1, min(n, m) + 1) if (f + rest) / (n + m - f - rest) >= t), least)
        self[m] = least
        return least


def similar_direct(entries: list[BankEntry], i: int, threshold: float) -> list[tuple[int, float]]:
    """`SimilarityIndex.similar` for one probe, by comparing it with every other entry: the same
    pairs and scores (Jaccard is exact either way), without building an index."""
    probe = frozenset(unpacked(entries[i].shingles))
    n = len(probe)
    if not n:
        return []
    low, high = threshold * n, n / threshold  # the length filter: Jaccard <= min/max of sizes
    out = []
    for j, e in enumerate(entries):
        m = len(e.shingles) >> 3
        if j == i or not low <= m <= high:
            continue
        inter = len(probe.intersection(unpacked(e.shingles)))
        if inter and (score := inter / (n + m - inter)) >= threshold:
            out.append((j, score))
    out.sort(key=lambda p: (-p[1], p[0]))
    return out


def near_duplicates(entries: list[BankEntry], threshold: float, probes: Iterable[int]) -> dict[int, list[tuple[int, float]]]:
    """For each probe (an index into `entries`), its near-duplicates at Jaccard >= threshold."""
    probes = list(probes)
    if not 0 < threshold <= 1:
        raise ValueError(f"Jaccard threshold must be in (0, 1], got {threshold}")
    if len(probes) <= DIRECT_MAX_PROBES:
        return {i: found for i in probes if (found := similar_direct(entries, i, threshold))}
    with acyclic_build():
        index = SimilarityIndex([unpacked(e.shingles) for e in entries], threshold)
        if len(probes) * 2 < len(entries):
            return {i: found for i in probes if (found := index.similar(i))}
        every = index.all_similar()  # most sets are probes: find each pair once
        return {i: every[i] for i in probes if i in every}
