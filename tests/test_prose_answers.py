"""Short cuts in `qlint.prose.answers` must give the answers of the patterns they replace."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.prose.answers import _word_set

_TEXT = st.lists(st.sampled_from(["TTP", "TTPs", "TTPS", "xTTP", "TTP2", "TTP_", "-", " ", ".", "é", "s", "ttp", "Ä"]),
                 max_size=8).map("".join)


@given(_TEXT)
@settings(max_examples=800, deadline=None)
def test_initials_as_a_whole_word_agree_with_the_pattern(text):
    words = _word_set(text)
    assert ("TTP" in words or "TTPs" in words) == bool(re.search(r"\bTTPs?\b", text))
