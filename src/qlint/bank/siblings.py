"""Template siblings: two questions on one frame that ask about different things.

A bank built from a template ("How many legs does a spider have?" / "... a dragonfly have?",
"What's the output?" over different code) shares most of its wording between items that are not
duplicates at all. What tells them apart is in the text: each stem has content the other lacks
(a subject, a number, code), and the keys differ. A reworded copy instead only adds or swaps
function words ("What is" / "Which is", "the following"), or swaps words but keeps its key.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

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
    """The stems' content words that the other stem lacks (each in stem order, without repeats).

    Read from the stems' word-by-word difference, not their word sets: a word swapped in place
    counts even when the other stem uses it elsewhere ("runs a night bus" / "runs a night tram"
    in stems that both name the tram line; "answer area 1" / "answer area 2" under an address
    template holding both numbers). Words that only moved (in both stems' changed parts) cancel
    out, so a reordered copy is still the same question."""
    ta, tb = a.stem_tokens(), b.stem_tokens()
    changed_a: list[str] = []
    changed_b: list[str] = []
    opcodes = SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "equal":
            changed_a += ta[i1:i2]
            changed_b += tb[j1:j2]
    moved = Counter(changed_a) & Counter(changed_b)
    only_a = [t for t in dict.fromkeys(changed_a) if t not in moved and t in _content([t])]
    only_b = [t for t in dict.fromkeys(changed_b) if t not in moved and t in _content([t])]
    # a word and its misspelling ("tiene" / "tene") are one word: a typo makes no other question
    only_a, only_b = ([t for t in only_a if not any(_misspelt(t, u) for u in only_b)],
                      [u for u in only_b if not any(_misspelt(t, u) for t in only_a)])
    # a direction swapped ("from the region to the internet" / "from the internet to the region",
    # "copied to" / "copied from"): function words carry the difference, so both stems ask something
    if not only_a or not only_b:
        turned_a, turned_b = _turned(ta, tb, opcodes)
        if turned_a and turned_b:
            return only_a or turned_a, only_b or turned_b
    return only_a, only_b


# Function words that set a direction or a comparison, with their opposites.
_OPPOSITES = {a: b for x, y in (("to", "from"), ("into", "out"), ("before", "after"), ("above", "below"),
                                ("over", "under"), ("up", "down"), ("more", "less"), ("most", "least"),
                                ("with", "without"), ("inbound", "outbound")) for a, b in ((x, y), (y, x))}
_DIRECTIONS = frozenset(("to", "from", "into", "onto", "than"))


def _relations(tokens: list[str]) -> list[tuple[str, str]]:
    """("to", "internet"), ("from", "region"): each direction word with the content word that follows it."""
    out = []
    for i, t in enumerate(tokens):
        if t in _DIRECTIONS:
            nxt = next((u for u in tokens[i + 1:i + 4] if u not in STOPWORDS), None)
            if nxt is not None:
                out.append((t, nxt))
    return list(dict.fromkeys(out))


def _turned(ta: list[str], tb: list[str], opcodes: list[tuple[str, int, int, int, int]]) -> tuple[list[str], list[str]]:
    """What each stem says that the other turns around: a word replaced in place by its opposite
    ("copied to" / "copied from"), or the same direction words before the same words paired the
    other way ("from X to Y" / "from Y to X"). Empty lists when neither."""
    swaps = [(ta[i1], tb[j1]) for tag, i1, i2, j1, j2 in opcodes
             if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1 and _OPPOSITES.get(ta[i1]) == tb[j1]]
    if swaps:
        return [x for x, _ in swaps], [y for _, y in swaps]
    ra, rb = _relations(ta), _relations(tb)
    if not ra or set(ra) == set(rb):
        return [], []
    if Counter(w for w, _ in ra) == Counter(w for w, _ in rb) and Counter(n for _, n in ra) == Counter(n for _, n in rb):
        return [f"{w} {n}" for w, n in ra if (w, n) not in rb], [f"{w} {n}" for w, n in rb if (w, n) not in ra]
    return [], []


def _misspelt(a: str, b: str) -> bool:
    """One letter added or dropped, or two neighbours swapped, in words of five letters or more
    ("environment" / "environmient", "night" / "nihgt"). Not one letter changed: "light" /
    "night" and "mean" / "median" are other words, and numbers are never misspelt."""
    if a == b or max(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1 or not (a + b).isalpha():
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1]
    return a[i + 1:] == b[i:] if len(a) > len(b) else a[i:] == b[i + 1:]


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
