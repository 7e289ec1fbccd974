"""qlint.prose.names: runs of capitalised words found by one regex give what the token-by-token
definition gives, on hand-picked texts and on random strings of the characters that decide a run."""

from __future__ import annotations

import random

import pytest

from qlint.prose.names import _runs, _runs_by_token, abbreviations

CASES = [
    ("Use Amazon Simple Queue Service for this.", [["Use", "Amazon", "Simple", "Queue", "Service"]]),
    ("AWS Identity and Access Management roles", [["AWS", "Identity", "and", "Access", "Management"]]),
    ("the x-Ray trace and AWS X-Ray", [["AWS", "X-Ray"]]),  # a capital inside a word starts no run
    ("Amazon S3 and then", [["Amazon", "S3"]]),  # a connector ending a run is dropped
    ("R&D budget", [["R", "&", "D"]]),
    ("And so", []),  # a run of connectors only is none
    ("eC2 is not EC2", [["EC2"]]),
    ("Índice Internacional", [["Í"], ["Internacional"]]),  # a capital beyond ASCII is its own token
    ("", []),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_runs_on_chosen_texts(text, expected):
    assert _runs(text) == expected
    assert _runs_by_token(text) == expected


def test_runs_agree_with_the_definition_on_random_text():
    rng = random.Random(7)
    alphabet = "aAbBzZ09 -'’&.,()\n\tOfANDtoforXÍéΣ\u00a0"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert _runs(text) == _runs_by_token(text), repr(text)


def test_abbreviations_of_a_long_name_and_a_counted_one():
    assert {"=sqs"} <= abbreviations("Amazon Simple Queue Service (SQS) queues messages.")
    assert "=s3" in abbreviations("Simple Storage Service holds the objects.")
