"""Key leaks between items ("enemy items"): one question's answer written into another's stem.

Two leaks are found:
- the key's text (at least `min_words` words) appears word for word in another stem;
- a run of `ngram` words from the explanation appears in another stem.
A phrase also in the leaking question's own stem is its scenario, not its answer, and a phrase
found in more than `max_stems` stems is shared wording of the bank (boilerplate), so neither
counts. Each stem's n-grams are intersected, as sets, with the phrases looked for: no pass over
pairs of questions, and the per-word work runs inside Python's set operations.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def _holders(grams: list[set[Gram]], wanted: set[Gram]) -> dict[Gram, list[int]]:
    """Wanted n-gram -> the stems (indexes) containing it."""
    out: dict[Gram, list[int]] = {}
    for b, mine in enumerate(grams):
        for gram in mine & wanted:
            out.setdefault(gram, []).append(b)
    return out


def _contains(toks: list[str], phrase: Gram) -> bool:
    n = len(phrase)
    return any(tuple(toks[i:i + n]) == phrase for i in range(len(toks) - n + 1))


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
    stem_grams = [set(ngrams(s, ngram)) for s in stems]
    expl_toks = [tokens(q.explanation) for q in questions]
    expl_grams = [set(ngrams(t, ngram)) - stem_grams[a] for a, t in enumerate(expl_toks)]
    holders = _holders(stem_grams, set().union(*expl_grams))
    leaks = []
    for a, grams in enumerate(expl_grams):
        found = {g for g in grams if g in holders and len(holders[g]) <= max_stems}
        if not found:
            continue
        first: dict[int, Gram] = {}  # stem -> earliest leaking passage of the explanation
        for gram in ngrams(expl_toks[a], ngram):
            if gram in found:
                for b in holders[gram]:
                    if b != a and (a, b) not in skip:
                        first.setdefault(b, gram)
        leaks += [Leak(a, b, "explanation", " ".join(g)) for b, g in sorted(first.items())]
    return leaks


def find_leaks(questions: list[Question], stems: list[list[str]], min_words: int = 4, ngram: int = 8,
               max_stems: int = 3) -> list[Leak]:
    keys = key_leaks(questions, stems, min_words, max_stems)
    rest = explanation_leaks(questions, stems, ngram, max_stems, {(x.source, x.stem_of) for x in keys})
    return sorted(keys + rest, key=lambda x: (x.stem_of, x.source, x.kind))
