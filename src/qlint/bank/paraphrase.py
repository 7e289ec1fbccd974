"""Paraphrase search: character n-gram TF-IDF cosine over stem and key, with NumPy (B013).

Two questions a reader calls the same can share almost no word 3-gram ("Which service stores
objects durably?" / "What AWS offering keeps objects with high durability?"), so B006's Jaccard
misses them; their character n-grams (inside words, so "object"/"objects" and "durab" still
meet) overlap far more. Each question's text (stem tokens, then its key texts) becomes a sparse
vector of character 4-grams weighted by sublinear tf x smooth idf, L2-normalised (as scikit-learn's
TfidfVectorizer(analyzer="char_wb", sublinear_tf=True) does); the score is their cosine.

No pair loop: candidates are pairs that both hold one of their `top` rarest shared n-grams (rare
n-grams are what a paraphrase keeps: names, numbers, technical terms), n-grams held by more than
`max_df` questions never make candidates; each candidate's cosine is then computed exactly over
the full vectors. Candidate generation can miss a pair whose only overlap is common n-grams, so,
unlike B006, the search is not exhaustive; it is deterministic. This module is the only one the
bank rules import NumPy through (lazily, when B013 runs).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from qlint.bank._numpy import np

N = 4  # character n-gram size; 3 matched too many template pairs, 5 lost inflected words
TOP = 24  # rarest shared n-grams per question used to make candidates
MIN_SHARED = 4  # ... of which a candidate pair holds at least this many in both lists
MAX_DF = 64  # an n-gram in more questions than this is the bank's shared wording, no candidate
_CHUNK = 1 << 21  # expanded (candidate, n-gram) rows per block when scoring


def _grams(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(document index, n-gram code) of every character n-gram of every text, in order. Each word
    is padded with spaces ("char_wb"); an n-gram never spans two texts."""
    padded = [" " + t + " " if t else "" for t in texts]
    codes = np.frombuffer("".join(padded).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    lengths = np.fromiter(map(len, padded), dtype=np.int64, count=len(padded))
    doc = np.repeat(np.arange(len(padded), dtype=np.int64), lengths)
    if len(codes) < N:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    m = len(codes) - N + 1
    gram = np.zeros(m, dtype=np.uint64)
    mult = np.uint64(0x100000001B3)  # FNV prime: a mix that wraps in 64 bits (collisions only blur)
    for k in range(N):
        gram = gram * mult + codes[k:k + m]
    # splitmix64's finaliser, so the top 32 bits (what `Vectors` keeps) depend on every character
    gram ^= gram >> np.uint64(30)
    gram *= np.uint64(0xBF58476D1CE4E5B9)
    gram ^= gram >> np.uint64(27)
    gram *= np.uint64(0x94D049BB133111EB)
    gram ^= gram >> np.uint64(31)
    same = doc[:m] == doc[N - 1:]
    # n-grams that are only spaces inside a word boundary ("  ") carry nothing
    return doc[:m][same], gram[same]


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values, how often each occurs) of a sorted array."""
    if not len(values):
        return values, np.zeros(0, dtype=np.int64)
    starts = np.concatenate(([0], np.flatnonzero(values[1:] != values[:-1]) + 1))
    return values[starts], np.diff(np.append(starts, len(values)))


class Vectors:
    """TF-IDF rows of the texts: for row d, `gid[start[d]:start[d+1]]` ascending with weights `w`."""

    def __init__(self, texts: Sequence[str]) -> None:
        n = self.n = len(texts)
        doc, gram = _grams(texts)
        # one sort: (document, top 32 bits of the n-gram hash) packed in an int64; sorting and cutting
        # by hand, as qlint.bank.hash_counts does (NumPy 2's hash-based `unique` is ~10x slower here)
        keys, tf = _runs(np.sort((doc << np.int64(32)) | (gram >> np.uint64(32)).astype(np.int64)))
        self.doc = keys >> np.int64(32)
        h = keys & np.int64(0xFFFFFFFF)
        order = np.argsort(h, kind="stable")
        hs = h[order]
        dense = np.cumsum(np.concatenate(([True], hs[1:] != hs[:-1]))) - 1 if len(hs) else hs
        self.gid = np.empty(len(h), dtype=np.int64)
        self.gid[order] = dense
        self.vocab = int(dense[-1]) + 1 if len(dense) else 0
        self.keys = self.doc * np.int64(max(1, self.vocab)) + self.gid  # still sorted: ids follow hash order
        self.df = np.bincount(self.gid, minlength=self.vocab)
        idf = np.log((1.0 + n) / (1.0 + self.df)) + 1.0
        w = (1.0 + np.log(tf)) * idf[self.gid]
        norms = np.sqrt(np.bincount(self.doc, weights=w * w, minlength=n))
        self.w = w / np.where(norms > 0, norms, 1.0)[self.doc]
        self.start = np.searchsorted(self.doc, np.arange(n + 1))

    def candidates(self, probes: np.ndarray | None, top: int = TOP, max_df: int = MAX_DF,
                   min_shared: int = MIN_SHARED) -> np.ndarray:
        """(i, j) pairs, i < j, that share at least `min_shared` of their `top` rarest shared
        n-grams (df in [2, max_df]); with `probes`, only pairs with a probe in them."""
        df = self.df[self.gid]
        ok = (df >= 2) & (df <= max_df)
        rows = np.flatnonzero(ok)
        # each document's rarest first (ties by n-gram), then its first `top`
        order = rows[np.lexsort((self.gid[rows], df[rows], self.doc[rows]))]
        d = self.doc[order]
        first = np.searchsorted(d, d, side="left")
        keep = order[(np.arange(len(order)) - first) < top]
        g, dk = self.gid[keep], self.doc[keep]
        by = np.lexsort((dk, g))
        g, dk = g[by], dk[by]
        pairs = []
        for k in range(1, max_df):  # group members k apart: every pair of a group once
            same = g[k:] == g[:-k] if k < len(g) else np.zeros(0, bool)
            if not same.any():
                break
            a, b = dk[:-k][same], dk[k:][same]
            pairs.append(np.minimum(a, b) * np.int64(self.n) + np.maximum(a, b))
        if not pairs:
            return np.zeros((0, 2), np.int64)
        codes, shared = np.unique(np.concatenate(pairs), return_counts=True)
        codes = codes[shared >= min_shared]
        found = np.stack([codes // self.n, codes % self.n], axis=1)
        if probes is not None:
            mark = np.zeros(self.n, bool)
            mark[probes] = True
            found = found[mark[found[:, 0]] | mark[found[:, 1]]]
        return found

    def cosine(self, pairs: np.ndarray) -> np.ndarray:
        """The exact cosine of each (i, j) pair over the full vectors."""
        out = np.zeros(len(pairs))
        if not len(pairs):
            return out
        i, j = pairs[:, 0], pairs[:, 1]
        size = self.start[i + 1] - self.start[i]
        # walk the shorter row of each pair and look its n-grams up in the other
        swap = (self.start[j + 1] - self.start[j]) < size
        i, j = np.where(swap, j, i), np.where(swap, i, j)
        size = self.start[i + 1] - self.start[i]
        ends = np.cumsum(size)
        lo = 0
        while lo < len(pairs):
            hi = int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + _CHUNK, side="right"))
            hi = max(hi, lo + 1)
            sz = size[lo:hi]
            owner = np.repeat(np.arange(lo, hi), sz)
            offs = np.arange(int(sz.sum())) - np.repeat(np.cumsum(sz) - sz, sz)
            rows = self.start[i[lo:hi]].repeat(sz) + offs
            want = j[owner] * np.int64(max(1, self.vocab)) + self.gid[rows]
            at = np.minimum(np.searchsorted(self.keys, want), len(self.keys) - 1)
            hit = self.keys[at] == want
            out[lo:hi] = np.bincount(owner[hit] - lo, weights=self.w[rows[hit]] * self.w[at[hit]], minlength=hi - lo)
            lo = hi
        return out


def paraphrase_pairs(texts: Sequence[str], threshold: float, probes: Iterable[int] | None = None,
                     top: int = TOP, max_df: int = MAX_DF, min_shared: int = MIN_SHARED) -> list[tuple[int, int, float]]:
    """(i, j, cosine) for the candidate pairs at `threshold` or above, i < j, best first."""
    vectors = Vectors(texts)
    chosen = None if probes is None else np.fromiter(probes, dtype=np.int64)
    pairs = vectors.candidates(chosen, top, max_df, min_shared)
    scores = vectors.cosine(pairs)
    keep = scores >= threshold
    out = [(int(a), int(b), float(s)) for (a, b), s in zip(pairs[keep].tolist(), scores[keep].tolist())]
    out.sort(key=lambda p: (-p[2], p[0], p[1]))
    return out
