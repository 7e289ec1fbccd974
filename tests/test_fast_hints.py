"""The prefilters written as plain string searches answer as the regular expressions they replace
(they are only faster): F004's and the answer marks' word hints, the locator's odd line breaks."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from qlint.loading.positions import _ODD_BREAKS, _odd_breaks
from qlint.rules.leftovers import _HINT, _MARK_HINT, _MARK_WORDS, _hinted

from conftest import BANK

WORDS = ["Note", "EDITOR", "reviewer", "Needed", "cHeck", "verify", "Add ", "put", "WIP", "tbd", "XxX", "???", "[",
         "Correct", "RIGHT", "Key", "ANS", "antwort", "Kelvin \u212a", "\u017f", "\u2028", "\ufeff", "\x85", "text"]
texts = st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=8).map(" ".join)


def marked(text: str) -> bool:
    return _MARK_HINT.search(text) is not None if not text.isascii() else any(w in text.lower() for w in _MARK_WORDS)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_the_string_searches_answer_as_the_patterns(text):
    assert _hinted(text) == (_HINT.search(text) is not None)
    assert marked(text) == (_MARK_HINT.search(text) is not None)
    assert _odd_breaks(text) == (_ODD_BREAKS.search(text) is not None)
    assert _odd_breaks("\ufeff" + text) == (_ODD_BREAKS.search("\ufeff" + text) is not None)


def test_on_the_sample_bank():
    for f in sorted(BANK.rglob("*.yaml")):
        text = f.read_text(encoding="utf-8")
        for line in text.splitlines():
            assert _hinted(line) == (_HINT.search(line) is not None)
            assert marked(line) == (_MARK_HINT.search(line) is not None)
        assert _odd_breaks(text) == (_ODD_BREAKS.search(text) is not None)
