"""qlint.prose.relevance: what of the stem's need each option's reason restates, and whether it
argues for its option (K020's reading)."""

from __future__ import annotations

import pytest

from qlint.model import Question
from qlint.prose.relevance import affirmative, against, asked, claimed, restated, restated_words
from qlint.prose.stance import stem


def _question(stem_text: str, *options: tuple[str, str | None, bool]) -> Question:
    data = {"id": "q", "stem": stem_text, "options": [
        {"id": f"o{i}", "text": text, "correct": correct, **({"rationale": reason} if reason else {})}
        for i, (text, reason, correct) in enumerate(options)]}
    return Question("q.yaml", data)


SPEECH = "A team must turn written product descriptions into life-like speech. Which AWS service should the team use?"


def test_asked_words_leave_out_the_options_the_vendor_and_scenario_words():
    q = _question("Which AWS service stores Amazon S3 objects in another Region?",
                  ("Amazon S3 Replication", None, True), ("Amazon EBS", None, False))
    words = asked(q)
    assert {stem("stores"), stem("objects"), stem("Region")} <= words
    assert not {stem("AWS"), stem("Amazon"), stem("service"), stem("S3")} & words  # vendor, scenario, an option's word


def test_a_reason_restates_only_outside_negation_and_contrast():
    q = _question(SPEECH,
                  ("Amazon Polly", "Polly turns written text into life-like speech.", True),
                  ("Amazon Transcribe", "Transcribe does not turn written text into speech.", False),
                  ("Amazon Rekognition", None, False))
    counts = restated(q)
    assert counts[0] >= 3 and counts[1] == 0 and counts[2] is None
    assert restated_words(q, 0)[:2] == (stem("turns"), stem("written"))


@pytest.mark.parametrize("reason, argues", [
    ("Transcribe turns written descriptions into speech for the team.", True),
    ("Transcribe turns written descriptions into speech, but only in one voice.", False),
    ("Transcribe would turn written descriptions into speech at a higher price.", False),
    ("Transcribe is a poor fit for turning written descriptions into speech.", False),
    ("Transcribe is unsuitable for speech output.", False),
])
def test_affirmative_reasons_have_no_contrast_concession_or_negative_judgement(reason, argues):
    q = _question(SPEECH, ("Amazon Polly", "Polly speaks.", True), ("Amazon Transcribe", reason, False))
    assert affirmative(q, 1) is argues


def test_against_and_claimed():
    assert against("Provisioning extra capacity is the opposite of elasticity.") == "opposite"
    assert against("Each zone is a physically separate location.") is None
    q = _question(SPEECH, ("Amazon Polly", "Correct: Polly is the one to choose.", True),
                  ("Amazon Transcribe", "Transcribe converts audio.", False))
    assert claimed(q, 0) and not claimed(q, 1)
