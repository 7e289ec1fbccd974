"""The near-duplicate index on a generated bank: every planted pair is found, few others are,
and on a sample the index agrees exactly with comparing every pair. (Timings live in
benchmarks/bench_bank.py, never in tests.)"""

from __future__ import annotations

import sys
from itertools import combinations

import pytest

from qlint.bank.entry import BankEntry
from qlint.bank.leaks import find_leaks
from qlint.bank.similarity import SimilarityIndex, jaccard, shingle_sets

from conftest import REPO, random_sets

sys.path.insert(0, str(REPO / "benchmarks"))
from bench_bank import planted_recall  # noqa: E402
from synthbank import planted  # noqa: E402


@pytest.fixture(scope="module")
def generated():
    gen = planted(2000)
    return gen, [BankEntry.of(f"{q['id']}.yaml", q) for q in gen.questions]


def test_generator_is_deterministic():
    a, b = planted(300), planted(300)
    assert a.questions == b.questions and a.duplicates == b.duplicates and len(a.duplicates) > 3


def test_every_planted_near_duplicate_is_found(generated):
    gen, questions = generated
    r = planted_recall(questions, gen.duplicates, 0.5)
    assert r["planted"] >= 30 and r["at_threshold"] >= 0.9 * r["planted"], r  # the plants are real near-duplicates
    assert r["found"] == r["at_threshold"], r
    assert r["unplanted"] <= 0.02 * r["pairs_reported"], r
    assert r["candidates"] < 0.001 * len(questions) ** 2, r  # pruning: far from every pair


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_index_matches_brute_force(generated, threshold):
    _gen, questions = generated
    sample = questions[:400]
    sets = shingle_sets(sample)
    index = SimilarityIndex(sets, threshold)
    found = {(i, j) for i in range(len(sets)) for j, _ in index.similar(i) if i < j}
    brute = {(i, j) for i, j in combinations(range(len(sets)), 2) if jaccard(sets[i], sets[j]) >= threshold}
    assert found == brute and brute


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7, 0.9, 1.0])
def test_index_matches_brute_force_on_random_sets(threshold):
    """Sets of many sizes over a small vocabulary, with copies and subsets: the overlap bounds
    must keep every pair that reaches the threshold, and only those, with their exact scores."""
    sets = random_sets(3)
    index = SimilarityIndex(sets, threshold)
    brute = {i: sorted(((j, jaccard(a, b)) for j, b in enumerate(sets) if j != i and jaccard(a, b) >= threshold),
                       key=lambda p: (-p[1], p[0])) for i, a in enumerate(sets)}
    brute = {i: pairs for i, pairs in brute.items() if pairs}
    assert brute and {i: pairs for i in range(len(sets)) if (pairs := index.similar(i))} == brute


def test_every_planted_key_leak_is_found(generated):
    gen, questions = generated
    leaks = {(questions[x.source].id, questions[x.stem_of].id) for x in find_leaks(questions)}
    assert gen.leaks and all(pair in leaks for pair in gen.leaks)
