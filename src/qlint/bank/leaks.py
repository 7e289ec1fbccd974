"""Key leaks between items ("enemy items"): one question's answer written into another's stem.

Two leaks are found:
- the key's text (at least `min_words` words) appears word for word in another stem;
- a run of `ngram` words from the explanation appears in another stem.
A phrase also in the leaking question's own stem is its scenario, not its answer, and a phrase
found in more than `max_stems` stems is shared wording of the bank (boilerplate), so neither
counts. Each stem's n-grams are looked up, as sets, among the phrases looked for: no pass over
pairs of questions, and the per-word work runs inside Python's set operations.
"""

from __future__ import annotations

from dataclasses import dataclass

from qlint.bank import acyclic_build
from qlint.bank.similarity import ngrams
from qlint.model import Question
from qlint.text import tokens

Gram = tuple[str, ...]


@dataclass(frozen=True)
class Leak:
    source: int  # the question whose answer leaks (index)
    stem_of: int  # the question whose stem holds it
    kind: str  # "key" or "explanation"
    phrase: str
    option: int = -1  # the key's option index, for kind "key"


def _contains(toks: list[str], phrase: Gram) -> bool:
    """`phrase` occurs in `toks`; whole phrases are compared only where the first word matches."""
    n, first, i = len(phrase), phrase[0], -1
    try:
        while True:
            i = toks.index(first, i + 1)
            if tuple(toks[i:i + n]) == phrase:
                return True
    except ValueError:
        return False


def key_leaks(questions: list[Question], stems: list[list[str]], min_words: int, max_stems: int) -> list[Leak]:
    anchors: dict[Gram, list[tuple[int, int, Gram]]] = {}  # first `min_words` words -> keys
    for a, q in enumerate(questions):
        for k in q.keys:
            phrase = tuple(tokens(k.text))
            if len(phrase) >= min_words and not _contains(stems[a], phrase):
                anchors.setdefault(phrase[:min_words], []).append((a, k.index, phrase))
    if not anchors:
        return []
    firsts = {a[0] for a in anchors}  # build a stem n-gram only where its word starts some key
    holders: dict[Gram, list[int]] = {}
    for b, toks in enumerate(stems):
        if firsts.isdisjoint(toks):
            continue  # no key starts with any of this stem's words
        seen: set[Gram] = set()
        for i, t in enumerate(toks):
            if t in firsts:
                gram = tuple(toks[i:i + min_words])
                if gram in anchors and gram not in seen:
                    seen.add(gram)
                    holders.setdefault(gram, []).append(b)
    hits: dict[tuple[int, int, Gram], list[int]] = {}
    for anchor, where in holders.items():
        for a, opt, phrase in anchors[anchor]:
            for b in where:
                if b != a and (len(phrase) == min_words or _contains(stems[b], phrase)):
                    hits.setdefault((a, opt, phrase), []).append(b)
    return [Leak(a, b, "key", " ".join(phrase), opt)
            for (a, opt, phrase), where in hits.items() if len(where) <= max_stems for b in where]


def explanation_leaks(questions: list[Question], stems: list[list[str]], ngram: int, max_stems: int,
                      skip: set[tuple[int, int]]) -> list[Leak]:
    # Hashes of the explanations' n-grams sift the stems: a stem whose n-gram hashes miss them
    # all holds no passage (equal n-grams hash equally), and only a hit is kept as the n-gram
    # itself, so the bank's n-grams are never all held at once. Hits are compared exactly.
    expl_toks = [tokens(q.explanation) for q in questions]
    wanted: set[int] = set()
    for toks in expl_toks:
        wanted.update(map(hash, ngrams(toks, ngram)))
    holders: dict[Gram, list[int]] = {}  # n-gram of some explanation -> the stems holding it
    for b, toks in enumerate(stems):
        hashes = list(map(hash, ngrams(toks, ngram)))
        if wanted.isdisjoint(hashes):
            continue
        for gram, h in zip(ngrams(toks, ngram), hashes):
            if h in wanted:
                where = holders.setdefault(gram, [])
                if not where or where[-1] != b:  # a stem counts once per n-gram
                    where.append(b)
    held = set(map(hash, holders))
    leaks = []
    for a, toks in enumerate(expl_toks):
        if held.isdisjoint(map(hash, ngrams(toks, ngram))):
            continue  # no passage of this explanation is in any stem
        # passages also in the question's own stem are its scenario; shared by many stems, boilerplate
        found = {g for g in ngrams(toks, ngram)
                 if (where := holders.get(g)) is not None and len(where) <= max_stems and a not in where}
        if not found:
            continue
        first: dict[int, Gram] = {}  # stem -> earliest leaking passage of the explanation
        for gram in ngrams(toks, ngram):
            if gram in found:
                for b in holders[gram]:
                    if b != a and (a, b) not in skip:
                        first.setdefault(b, gram)
        leaks += [Leak(a, b, "explanation", " ".join(g)) for b, g in sorted(first.items())]
    return leaks


def find_leaks(questions: list[Question], stems: list[list[str]], min_words: int = 4, ngram: int = 8,
               max_stems: int = 3) -> list[Leak]:
    with acyclic_build():
        keys = key_leaks(questions, stems, min_words, max_stems)
        rest = explanation_leaks(questions, stems, ngram, max_stems, {(x.source, x.stem_of) for x in keys})
    return sorted(keys + rest, key=lambda x: (x.stem_of, x.source, x.kind))
