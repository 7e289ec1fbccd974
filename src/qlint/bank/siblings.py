"""Template siblings: two questions on one frame that ask about different things.

A bank built from a template ("How many legs does a spider have?" / "... a dragonfly have?",
"What's the output?" over different code) shares most of its wording between items that are not
duplicates at all. What tells them apart is in the text: each stem has content the other lacks
(a subject, a number, code), and the keys differ. A reworded copy instead only adds or swaps
function words ("What is" / "Which is", "the following"), or swaps words but keeps its key.
"""

from __future__ import annotations

from qlint.bank.entry import BankEntry
from qlint.text import STOPWORDS

# Keys that say nothing of what was asked: two items keyed "True" (or "3") may ask anything.
_BARE_KEYS = frozenset("true false yes no correct incorrect none all both neither".split())


def _content(tokens: list[str]) -> set[str]:
    return {t for t in tokens if t not in STOPWORDS}


def _key_texts(e: BankEntry) -> frozenset[str]:
    return frozenset(text for _, text in e.keys)


def _informative(keys: frozenset[str]) -> bool:
    """A key text that names something (not a number, a truth value or a stock answer)."""
    return any(not t.isdigit() and t not in _BARE_KEYS and t not in STOPWORDS
               for text in keys for t in text.split(" "))


def distinguishing(a: BankEntry, b: BankEntry) -> tuple[list[str], list[str]]:
    """The stems' content words that the other stem lacks (each in stem order, without repeats)."""
    ta, tb = a.stem_tokens(), b.stem_tokens()
    sa, sb = set(ta), set(tb)
    only_a = [t for t in dict.fromkeys(ta) if t not in sb and t in _content([t])]
    only_b = [t for t in dict.fromkeys(tb) if t not in sa and t in _content([t])]
    return only_a, only_b


def keys_agree(a: BankEntry, b: BankEntry) -> bool:
    """The keys say the same: equal texts, or words that mostly coincide (Jaccard over 0.5:
    "Base64 encoded (not encrypted)" / "Base64 encoding (not encrypted)" agree; "Eight legs" /
    "Six legs" and "Physical controls" / "Data center security controls" do not). Every word
    counts: a key is short, and its small words ("six", "not") are often what it says."""
    ka, kb = _key_texts(a), _key_texts(b)
    if ka == kb:
        return True
    wa = {t for text in ka for t in text.split(" ") if t}
    wb = {t for text in kb for t in text.split(" ") if t}
    return bool(wa | wb) and len(wa & wb) / len(wa | wb) > 0.5


def are_siblings(a: BankEntry, b: BankEntry) -> bool:
    """Same frame, different questions: each stem has content the other lacks, and the keys differ
    or say nothing of what was asked (one named key on both, with words swapped, is a copy)."""
    only_a, only_b = distinguishing(a, b)
    if not only_a or not only_b:
        return False  # one stem is the other with words added or dropped: the same question
    return not (keys_agree(a, b) and _informative(_key_texts(a) | _key_texts(b)))
