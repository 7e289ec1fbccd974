"""Bank figures: key-position balance, key runs, longest-key rate, blueprint coverage.

Pure functions over `BankEntry` records, shared by the bank rules, the reports and `qlint shuffle`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from qlint.bank.entry import BankEntry
from qlint.project.exams import Exam


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with integer `df`, in closed form (no SciPy)."""
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5) * math.exp(-half)  # i = 1
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= half / (i - 0.5)
        total += term
    return min(1.0, total)


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p); terms in log space, so large banks do not overflow."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    lp, lq, top = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return min(1.0, sum(math.exp(top - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)
                        for i in range(k, n + 1)))


@dataclass(frozen=True)
class Balance:
    """Key positions of single-answer questions with `k` options."""

    k: int
    counts: tuple[int, ...]  # keys at position 1..k
    chi2: float
    p_value: float
    middle_share: float  # share of keys not at the first or last position

    @property
    def n(self) -> int:
        return sum(self.counts)


def key_balance(entries: list[BankEntry]) -> list[Balance]:
    groups: dict[int, list[int]] = {}
    for e in entries:
        if (key := e.single_key) is not None:
            groups.setdefault(e.option_count, []).append(key)
    out = []
    for k, positions in sorted(groups.items()):
        counts = Counter(positions)
        n = len(positions)
        observed = tuple(counts.get(i, 0) for i in range(k))
        expected = n / k
        chi2 = sum((o - expected) ** 2 / expected for o in observed) if n else 0.0
        middle = sum(observed[1:-1]) / n if n and k > 2 else 0.0
        out.append(Balance(k, observed, chi2, chi2_sf(chi2, k - 1), middle))
    return out


@dataclass(frozen=True)
class Run:
    """Consecutive single-answer questions (bank order) keyed at the same position."""

    start: int  # index of the first question in the list given
    length: int
    position: int  # 0-based key position
    chance: float  # probability of one given run this long: product of 1/k after the first


def key_runs(entries: list[BankEntry], min_length: int = 2) -> list[Run]:
    """Every run of at least `min_length`; a question without exactly one key breaks a run."""
    out: list[Run] = []
    start, length, prev, chance = 0, 0, None, 1.0

    def close() -> None:
        if prev is not None and length >= min_length:
            out.append(Run(start, length, prev, chance))

    for i, e in enumerate(entries):
        pos = e.single_key
        if pos is not None and pos == prev:
            length += 1
            chance /= max(1, e.option_count)
            continue
        close()
        start, length, prev, chance = i, (1 if pos is not None else 0), pos, 1.0
    close()
    return out


@dataclass(frozen=True)
class LongestKey:
    n: int
    longest: int
    expected_rate: float
    p_value: float

    @property
    def rate(self) -> float:
        return self.longest / self.n if self.n else 0.0


def longest_key_rate(entries: list[BankEntry]) -> LongestKey:
    singles = [e for e in entries if e.single_key is not None and e.option_count >= 2]
    n = len(singles)
    hits = sum(e.key_longest for e in singles)
    expected = sum(1 / e.option_count for e in singles) / n if n else 0.0
    return LongestKey(n, hits, expected, binom_sf(hits, n, expected) if n else 1.0)


@dataclass(frozen=True)
class Coverage:
    exam: str
    domain: str
    name: str
    weight: float  # percent, from the blueprint
    count: int
    share: float  # percent of the exam's questions

    @property
    def gap(self) -> float:
        return self.share - self.weight


def blueprint_coverage(entries: list[BankEntry], exams: dict[str, Exam]) -> list[Coverage]:
    out = []
    for code, exam in sorted(exams.items()):
        mine = [e for e in entries if e.exam == code]
        counts = Counter(e.domain for e in mine)
        total = len(mine)
        for d in exam.domains:
            share = 100.0 * counts.get(d.id, 0) / total if total else 0.0
            out.append(Coverage(code, d.id, d.name, d.weight, counts.get(d.id, 0), share))
    return out
