"""A distractor's rationale that says when it would be right or why it tempts, without the page's
labels (issue 28 point 9): those sentences move to right_when and why_chosen word for word, the
rest of the rationale stays as written. Table: (rationale, what stays, what moves)."""

from __future__ import annotations

import pytest

from qlint.importers._rationale import split_rationale

CASES = [
    ("Replicas do not shrink memory. It would be the correct choice when the model fits on one GPU.",
     "Replicas do not shrink memory.", {"right_when": "It would be the correct choice when the model fits on one GPU."}),
    ("Tuning splits nothing. It is tempting because it runs on many GPUs, and would be the right choice for finding "
     "a learning rate.",
     "Tuning splits nothing.", {"why_chosen": "It is tempting because it runs on many GPUs.",
                                "right_when": "It would be the right choice for finding a learning rate."}),
    ("It suits scenarios where throughput must grow. Each GPU still holds\nevery weight.",
     "Each GPU still holds\nevery weight.", {"right_when": "It suits scenarios where throughput must grow."}),
    ("First paragraph stays.\n\nThis option is tempting because\nits name sounds right. The second stays too.",
     "First paragraph stays.\n\nThe second stays too.", {"why_chosen": "This option is tempting because its name sounds right."}),
    # no lead-in at the start of a sentence: nothing moves
    ("Candidates think it would be the correct choice when memory is short; it is not.", None, {}),
    ("Data parallelism copies the model. Right when? Never here.", None, {}),
]


@pytest.mark.parametrize("rationale, kept, moved", CASES)
def test_sentences_move_to_their_field(rationale, kept, moved):
    assert split_rationale(rationale) == (rationale if kept is None else kept, moved)


def test_only_the_fields_asked_for_are_filled():
    text = "It is tempting because it is new. It would be the right choice for a small model."
    assert split_rationale(text, {"why_chosen"}) == ("It would be the right choice for a small model.",
                                                     {"why_chosen": "It is tempting because it is new."})


def test_a_long_rationale_without_sentence_ends_is_read_in_linear_time():
    import time

    text = "a. b " * 40_000
    start = time.perf_counter()
    split_rationale(text)
    assert time.perf_counter() - start < 1.0
