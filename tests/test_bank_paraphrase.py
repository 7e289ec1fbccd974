"""B013's paraphrase search: candidate pairs scored with the exact TF-IDF cosine, at bank scale."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np

from qlint.bank import paraphrase as P

WORDS = ("storage gateway object file share volume disk cloud premises data centre managed service "
         "applications mount network local attached offering allows lets block").split()


def _dense_cosine(texts: list[str]) -> np.ndarray:
    """The same vectors built densely, n-gram by n-gram in Python: the reference."""
    grams = [[t[k:k + P.N] for k in range(len(t) - P.N + 1)] for t in (" " + x + " " if x else "" for x in texts)]
    vocab = sorted({g for gs in grams for g in gs})
    at = {g: i for i, g in enumerate(vocab)}
    tf = np.zeros((len(texts), len(vocab)))
    for d, gs in enumerate(grams):
        for g in gs:
            tf[d, at[g]] += 1
    df = (tf > 0).sum(axis=0)
    w = np.where(tf > 0, 1 + np.log(np.where(tf > 0, tf, 1)), 0) * (np.log((1 + len(texts)) / (1 + df)) + 1)
    w /= np.maximum(np.linalg.norm(w, axis=1, keepdims=True), 1e-12)
    return w @ w.T


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    base = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) for _ in range(n // 2)]
    # half are light rewrites of another: drop or swap a word
    out = list(base)
    for t in base:
        words = t.split()
        words[rng.randrange(len(words))] = rng.choice(WORDS)
        out.append(" ".join(words))
    return out


def test_candidate_scores_are_the_exact_cosine():
    texts = _texts(40, 1)
    ref = _dense_cosine(texts)
    vectors = P.Vectors(texts)
    pairs = vectors.candidates(None, min_shared=1)
    assert len(pairs) > 20
    np.testing.assert_allclose(vectors.cosine(pairs), ref[pairs[:, 0], pairs[:, 1]], atol=1e-9)


def test_pairs_above_threshold_are_found_and_ordered():
    texts = _texts(40, 2)
    ref = _dense_cosine(texts)
    found = P.paraphrase_pairs(texts, 0.8, min_shared=1)
    scores = [s for _, _, s in found]
    assert scores == sorted(scores, reverse=True)
    for a, b, s in found:
        assert a < b and abs(ref[a, b] - s) < 1e-9 and s >= 0.8
    # every pair at 0.8 that shares a rare n-gram in both top lists: here, every pair at 0.8
    assert {(a, b) for a, b, _ in found} == {(a, b) for a in range(40) for b in range(a + 1, 40) if ref[a, b] >= 0.8}


def test_probes_keep_only_their_pairs():
    texts = _texts(40, 3)
    every = P.paraphrase_pairs(texts, 0.5)
    mine = P.paraphrase_pairs(texts, 0.5, probes=[0, 21])
    assert mine == [p for p in every if {p[0], p[1]} & {0, 21}]


def test_degenerate_banks():
    assert P.paraphrase_pairs([], 0.5) == []
    assert P.paraphrase_pairs(["", ""], 0.5) == []
    assert P.paraphrase_pairs(["abc", "abc"], 0.5) == []  # shorter than one n-gram after padding
    assert [p[:2] for p in P.paraphrase_pairs(["same words here", "same words here"], 0.5, min_shared=1)] == [(0, 1)]
    assert P.paraphrase_pairs(["日本語の質問です", "日本語の質問です"], 0.5, min_shared=1)[0][2] > 0.99


def test_check_without_b013_does_not_import_numpy(tmp_path):
    """The bank rules load NumPy only for the whole-bank index and B013: a pre-commit style run on
    one file does not pay for it."""
    code = ("import sys; from qlint.cli import main; main(['check', '--no-cache', '--select', 'B006,B012', "
            f"{str(tmp_path / 'q.yaml')!r}]); print('numpy' in sys.modules)")
    (tmp_path / "q.yaml").write_text("format: 1\nid: q\nexam: MLA-C01\ndomain: d\ntype: single\nstem: Which?\n"
                                     "options:\n  - {id: a, text: One, correct: true}\n  - {id: b, text: Two, correct: false}\n",
                                     encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr
