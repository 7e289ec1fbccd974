"""Bank rules give the same findings on a file whether the whole bank is checked (indexes over
every question) or only a few files are (pre-commit: each target compared directly).

The direct paths in `qlint.bank.similarity` and `qlint.bank.leaks` exist only for speed; these
tests hold them to the full computation on a bank with planted near-duplicates, key leaks and
explanation leaks."""

from __future__ import annotations

import copy
import random
import sys

import pytest

from qlint.bank import Bank
from qlint.bank.entry import FIELDS, BankEntry, contains, packed
from qlint.bank.leaks import DIRECT_MAX_TARGETS, find_leaks
from qlint.bank.similarity import DIRECT_MAX_PROBES, near_duplicates
from qlint.rules.context import RuleContext
from qlint.project.config import Config
from qlint.rules import RULES

from conftest import REPO, random_sets

sys.path.insert(0, str(REPO / "benchmarks"))
from synthbank import planted  # noqa: E402


def _plant_explanation_leaks(questions: list[dict], rng: random.Random, count: int) -> None:
    """Copy an 8-to-12-word run of one explanation into another question's stem; every third
    time into its own stem as well (its scenario, which must not count)."""
    for n in range(count):
        a, b = rng.sample(range(len(questions)), 2)
        words = questions[a]["explanation"].split()
        if len(words) < 12:
            continue
        start = rng.randrange(len(words) - 11)
        run = " ".join(words[start:start + rng.randint(8, 12)])
        for holder in (b, a) if n % 3 == 0 else (b,):
            questions[holder]["stem"] = f"{questions[holder]['stem']} Note: {run}."


@pytest.fixture(scope="module")
def entries() -> list[BankEntry]:
    gen = planted(500, seed=5, leak_rate=0.03)
    questions = copy.deepcopy(gen.questions)
    _plant_explanation_leaks(questions, random.Random(9), 15)
    return [BankEntry.of(f"/bank/{i:04d}-{q['id']}.yaml", q) for i, q in enumerate(questions)]


def _involved(pairs: dict[int, list]) -> set[int]:
    return set(pairs) | {j for found in pairs.values() for j, _ in found}


def _probes(full: set[int], n: int, seed: int) -> list[int]:
    """Every question the full run names, and some it does not."""
    rng = random.Random(seed)
    return sorted(full) + rng.sample([i for i in range(n) if i not in full], 40)


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_near_duplicates_direct_equals_index(entries, threshold):
    everyone = list(range(len(entries)))
    full = near_duplicates(entries, threshold, everyone)  # more probes than DIRECT_MAX: the index
    assert len(everyone) > DIRECT_MAX_PROBES and full
    for i in _probes(_involved(full), len(entries), 1):
        assert near_duplicates(entries, threshold, [i]) == ({i: full[i]} if i in full else {}), i


@pytest.mark.parametrize("ngram", [8, 5])
def test_leaks_direct_equal_the_full_search(entries, ngram):
    full = find_leaks(entries, None, 4, ngram, 3)
    kinds = {x.kind for x in full}
    assert kinds == {"key", "explanation"}, "the bank must hold both kinds of leak"
    involved = {x.source for x in full} | {x.stem_of for x in full}
    for t in _probes(involved, len(entries), 2):
        expected = [x for x in full if t in (x.source, x.stem_of)]
        assert find_leaks(entries, [t], 4, ngram, 3) == expected, t
    # several targets at once, up to the direct limit
    rng = random.Random(3)
    for _ in range(10):
        group = rng.sample(sorted(involved), min(DIRECT_MAX_TARGETS, 4))
        expected = [x for x in full if x.source in group or x.stem_of in group]
        assert find_leaks(entries, group, 4, ngram, 3) == expected, group


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7, 0.9, 1.0])
def test_near_duplicates_direct_equals_index_on_random_sets(threshold):
    """Sets of many sizes, with copies and subsets: the direct path's length filter must keep
    every pair the index keeps, with the same scores and order."""
    sets = random_sets(4)
    shingles = [name for name, _ in FIELDS].index("shingles")
    blank = BankEntry.of("q.yaml", {"stem": "", "options": []})
    entries = [BankEntry(blank[:shingles] + (packed(s),) + blank[shingles + 1:]) for s in sets]
    full = near_duplicates(entries, threshold, range(len(entries)))
    assert full
    for i in range(len(entries)):
        assert near_duplicates(entries, threshold, [i]) == ({i: full[i]} if i in full else {}), i


def _bank_findings(entries: list[BankEntry], flags: list[bool]) -> set[tuple[str, str, str, str]]:
    bank = Bank(entries, {}, set(), flags)
    config = Config(root=REPO)
    out = set()
    for code, rule in RULES.items():
        if rule.scope == "bank":
            for f in rule.check(bank, RuleContext(rule, config, {}, bank)):  # type: ignore[misc]
                out.add((f.path, code, f.pointer, f"{f.severity}: {f.message}"))
    return out


def test_every_bank_rule_reports_the_same_on_one_file(entries):
    """Through the rules, as the engine runs them: a file checked alone gets exactly the
    findings it gets when the whole bank is checked."""
    full = _bank_findings(entries, [True] * len(entries))
    assert {code for _, code, _, _ in full} >= {"B006", "B007"}
    named = sorted({path for path, *_ in full})
    index = {e.path: i for i, e in enumerate(entries)}
    for path in named[:60] + [e.path for e in entries[::50]]:
        flags = [False] * len(entries)
        flags[index[path]] = True
        assert _bank_findings(entries, flags) == {f for f in full if f[0] == path}, path


def test_entry_texts_are_tokens_joined_by_single_spaces():
    e = BankEntry.of("q.yaml", {"stem": "Use **Amazon S3**  (Standard-IA) for `logs`?", "explanation": "x",
                                "options": [{"text": "Amazon  S3 Standard-IA", "correct": True}, {"text": "EBS"}]})
    assert e.stem == "use amazon s3 standard-ia for logs"
    assert e.keys == ((0, "amazon s3 standard-ia"),) and e.key_positions == (0,) and e.key_longest
    assert contains(e.stem, "amazon s3") and not contains(e.stem, "amazon s") and not contains(e.stem, "s3 standard")


def test_numpy_and_python_rank_shingles_alike(entries):
    """The whole-bank index ranks packed shingles with NumPy, other sets in Python: same ranks."""
    from qlint.bank.entry import unpacked
    from qlint.bank.similarity import _ranks

    views = [unpacked(e.shingles) for e in entries]
    ranks = _ranks(views)
    assert ranks and ranks == _ranks([frozenset(v) for v in views])
