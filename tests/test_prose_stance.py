"""qlint.prose.stance: the word keys the key-agreement rules compare, and the denial reading K019 uses."""

from __future__ import annotations

import pytest

from qlint.prose.stance import denies, option_words, stem


@pytest.mark.parametrize("forms", [
    ("store", "stores", "storing", "stored"),
    ("code", "codes"),
    ("scale", "scales", "scaling"),
    ("proceed", "proceeding", "proceeded"),
    ("manage", "manages", "managed", "managing"),
])
def test_word_forms_share_one_key(forms):
    assert len({stem(w) for w in forms}) == 1, {w: stem(w) for w in forms}


ASKED = option_words("Which service stores and versions the code?")
OWN = option_words("AWS CodeCommit")
NAME = frozenset({"codecommit"})


@pytest.mark.parametrize("text", [
    "CodeCommit is a chat tool with no capability to store the code.",
    "CodeCommit sends alerts, and is a messaging tool that does not store the code.",
    "CodeCommit describes a chat bot, which is unrelated to versioning the code.",
    "CodeCommit sends alerts, providing neither storage nor versions of the code.",
])
def test_denials_of_the_need(text):
    assert denies(text, NAME, ASKED, OWN)


@pytest.mark.parametrize("text", [
    "CodeCommit stores the code and does not need servers to store it.",
    "CodeCommit stores every version, ensuring developers do not store the code on laptops.",
    "CodeCommit keeps history, so that a lost laptop does not lose the code.",
    "CodeCommit stores the code; a build server does not store versions.",
])
def test_praise_and_other_subjects_are_not_denials(text):
    assert denies(text, NAME, ASKED, OWN) is None
