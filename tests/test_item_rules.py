"""The item-writing rules beyond their case files: the seed's flaws, the shared parsers, the
scoring script's statistics, the labelled set, and the sample bank under every rule."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from qlint.cli import main
from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.cli.config import load_config
from qlint.rules import RULES
from qlint.rules.cues import is_plural, opposite, wants_an
from qlint.rules.letters import criterion
from qlint.rules.parsing import lead_in, parse_numeric
from qlint.prose.letters import letter_refs
from qlint.rules.stem import negative_lead_words

from conftest import REPO, require_shared, script

FIXTURES = Path(__file__).parent / "fixtures"


def _script():
    return script("rule_quality")


def _diagnostics(path: Path) -> list[tuple[str, str]]:
    # preview rules too: the seed's word repeat is C003's, a preview rule since its real-text precision
    settings = make_settings(load_config(REPO), select=["ALL"], preview=True)
    load_exams(settings)
    return sorted((d.code, d.pointer) for d in check_file(str(path), settings).diagnostics)


def test_seed_like_question_has_the_seeds_two_flaws():
    require_shared("seeds")  # the fixture restates that page's flaws in our own words
    found = _diagnostics(FIXTURES / "seed_like.yaml")
    # "model" is in the stem and only in the key "Model parallelism"
    assert ("C003", "/options/3/text") in found
    # "Hyperparameter tuning" and "SageMaker Autopilot" are not distributed-training strategies
    assert ("O012", "/options/1/text") in found and ("O012", "/options/2/text") in found
    assert ("O012", "/options/0/text") not in found and ("O012", "/options/3/text") not in found


def test_sample_bank_is_clean_under_every_rule(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code = main(["check", "bank", "--select", "ALL", "--fail-on", "info"])
    out = capsys.readouterr().out
    assert code == 0, out


@pytest.mark.parametrize("stem, lead", [
    ("A team trains a model. Which strategy should it use?", "Which strategy should it use?"),
    ("Context here.\n\nWhich TWO services store objects? (Choose TWO.)", "Which TWO services store objects?"),
    ("All of these help EXCEPT:", "All of these help EXCEPT:"),
    ("No question at all.", "No question at all."),
])
def test_lead_in_is_the_last_question_sentence(stem, lead):
    assert lead_in(stem) == lead


@pytest.mark.parametrize("lead, negatives", [
    ("Which service does NOT encrypt data?", ["not"]),
    ("Which option is the LEAST likely cause?", ["least"]),
    ("Which solution has the LEAST operational overhead?", []),
    ("Which option ensures data is not lost?", []),
    ("If the GPU cannot hold the model, which strategy fits?", []),
    ("Which needs at least two instances, not only one?", []),
    ("All of the following are benefits EXCEPT:", ["except"]),
])
def test_negative_lead_in_words(lead, negatives):
    assert [w.low for w in negative_lead_words(lead)] == negatives


@pytest.mark.parametrize("text, low, high, dimension", [
    ("15 minutes", 900, 900, "time"),
    ("1 hour", 3600, 3600, "time"),
    ("$0.05", 0.05, 0.05, "usd"),
    ("10-20 ms", 0.01, 0.02, "time"),
    ("at least 4 GB", 4e9, math.inf, "data"),
    ("less than 5", -math.inf, 5, ""),
    ("99.9%", 99.9, 99.9, "percent"),
])
def test_parse_numeric(text, low, high, dimension):
    n = parse_numeric(text)
    assert n is not None and n.dimension == dimension
    assert n.low == pytest.approx(low) and n.high == pytest.approx(high)


@pytest.mark.parametrize("text", ["Amazon S3", "Use 3 instances behind a load balancer in two zones", "Model parallelism"])
def test_text_options_are_not_numeric(text):
    assert parse_numeric(text) is None


@pytest.mark.parametrize("text, letters", [
    ("Option B is correct because it splits layers.", [("B",)]),
    ("Answers A and D are right.", [("A", "D")]),
    ("Unlike (C), it scales out.", [("C",)]),
    ("A and C copy the weights.", [("A", "C")]),
    ("A model fits on one GPU; an A/B test compares variants.", []),
])
def test_letter_references(text, letters):
    assert [r.letters for r in letter_refs(text)] == letters


@pytest.mark.parametrize("word, an", [
    ("online", True), ("S3", True), ("SQL", True), ("KMS", False), ("unique", False), ("hour", True),
    ("user", False), ("8-GPU", True), ("feature", False), ("IAM", True), ("one-hot", False),
])
def test_article_sound(word, an):
    assert wants_an(word) is an


def test_number_of_option_phrases():
    assert is_plural("security groups and network ACLs") is True
    assert is_plural("a data quality schedule") is False
    assert is_plural("AWS KMS") is False


def test_opposites():
    assert opposite("Increase the learning rate", "Decrease the learning rate")
    assert opposite("Encrypt the objects", "Do not encrypt the objects")
    assert not opposite("Increase the learning rate", "Increase the batch size")


def test_superlative_criterion():
    assert criterion("Which solution meets these requirements with the LEAST operational overhead?")[1] == {"operational", "overhead"}
    assert criterion("Which option is the MOST cost-effective way to run these jobs?")[1] == {"cost", "effective"}
    assert criterion("Which is LEAST likely to help?") is None
    assert criterion("Which needs at least two replicas?") is None


# --- the scoring script -------------------------------------------------------------------------

def test_kappa_on_a_hand_checked_confusion_matrix():
    rq = _script()
    # 50 items: po = 35/50 = 0.70; pe = (25*30 + 25*20) / 50^2 = 0.50; kappa = (0.70-0.50)/(1-0.50) = 0.40
    assert rq.cohen_kappa(rq.Confusion(tp=20, fp=5, fn=10, tn=15)) == pytest.approx(0.40)
    # perfect agreement and agreement no better than chance
    assert rq.cohen_kappa(rq.Confusion(tp=5, fp=0, fn=0, tn=45)) == pytest.approx(1.0)
    assert rq.cohen_kappa(rq.Confusion(tp=5, fp=5, fn=5, tn=5)) == pytest.approx(0.0)


def test_clopper_pearson_matches_published_values():
    rq = _script()
    # 5 of 10: the exact interval is 0.1871-0.8129; 0 of 10: 0-0.3085 (= 1 - 0.025^(1/10))
    assert rq.clopper_pearson(5, 10) == pytest.approx((0.1871, 0.8129), abs=1e-4)
    assert rq.clopper_pearson(0, 10) == pytest.approx((0.0, 1 - 0.025 ** 0.1), abs=1e-6)
    assert rq.clopper_pearson(10, 10) == pytest.approx((0.025 ** 0.1, 1.0), abs=1e-6)


def test_confusion_counts_a_group_of_codes_as_one():
    rq = _script()
    items, _ = rq.load_set()
    neg = rq.confusion(items, {"T001", "T002"}, {"lab-neg-feature-store", "lab-kinesis-firehose"})
    assert (neg.tp, neg.fp) == (1, 1) and neg.n == len(items)


def test_labelled_set_loads_and_covers_every_scored_rule():
    rq = _script()
    items, unlabelled = rq.load_set()
    assert len(items) >= 60
    assert sum(1 for it in items if not it.labels) >= 20  # clean items measure false positives
    assert len({it.question.exam for it in items}) >= 3
    scored = [c for c, r in RULES.items() if r.scope == "item" and c not in unlabelled
              and not r.new_types_only]  # the set holds only single and multiple questions
    for code in scored:
        positives = sum(1 for it in items if code in it.labels)
        assert positives >= 2, f"{code} has {positives} labelled positives"


def test_labelled_set_errors_are_reported(tmp_path):
    rq = _script()
    bad = tmp_path / "set.yaml"
    bad.write_text("items:\n  - labels: [Z999]\n    question: {id: x}\n", encoding="utf-8")
    with pytest.raises(rq.SetError):
        rq.load_set(bad)
    assert rq.main(["--set", str(bad)]) == 2
