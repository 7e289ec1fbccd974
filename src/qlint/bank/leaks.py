"""Key leaks between items ("enemy items"): one question's answer written into another's stem.

Two leaks are found, each with a hash lookup per stem position, never a pass over every pair:
- the key's text (at least `min_words` words) appears word for word in another stem;
- a run of `ngram` words from the explanation appears in another stem.
A phrase also in the leaking question's own stem is its scenario, not its answer, and a phrase
found in more than `max_stems` stems is shared wording of the bank (boilerplate), so neither counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from qlint.bank.similarity import ngrams
from qlint.model import Question
from qlint.text import tokens


@dataclass(frozen=True)
class Leak:
    source: int  # the question whose answer leaks (index)
    stem_of: int  # the question whose stem holds it
    kind: str  # "key" or "explanation"
    phrase: str
    option: int = -1  # the key's option index, for kind "key"


def find_leaks(questions: list[Question], stems: list[list[str]], min_words: int = 4, ngram: int = 8,
               max_stems: int = 3) -> list[Leak]:
    anchors: dict[tuple[str, ...], list[tuple[int, int, tuple[str, ...]]]] = {}
    for a, q in enumerate(questions):
        for k in q.keys:
            phrase = tuple(tokens(k.text))
            if len(phrase) >= min_words and not _contains(stems[a], phrase):
                anchors.setdefault(phrase[:min_words], []).append((a, k.index, phrase))

    hits: dict[tuple[int, int, tuple[str, ...]], set[int]] = {}  # (source, option, phrase) -> stems
    for b, toks in enumerate(stems):
        for i, gram in enumerate(ngrams(toks, min_words)):
            for a, opt, phrase in anchors.get(gram, ()):
                if a != b and tuple(toks[i:i + len(phrase)]) == phrase:
                    hits.setdefault((a, opt, phrase), set()).add(b)
    leaks = [Leak(a, b, "key", " ".join(phrase), opt)
             for (a, opt, phrase), where in hits.items() if len(where) <= max_stems for b in where]

    index: dict[int, list[int]] = {}  # hashed stem n-gram -> stems holding it
    for b, toks in enumerate(stems):
        for h in set(map(hash, ngrams(toks, ngram))):
            index.setdefault(h, []).append(b)
    keyed = {(x.source, x.stem_of) for x in leaks}
    for a, q in enumerate(questions):
        etoks = tokens(q.explanation)
        mine = set(map(hash, ngrams(stems[a], ngram)))
        found: dict[int, int] = {}  # stem -> first position in the explanation
        for i, gram in enumerate(ngrams(etoks, ngram)):
            h = hash(gram)
            where = index.get(h)
            if not where or h in mine or len(where) > max_stems:
                continue
            for b in where:
                if b != a and (a, b) not in keyed:
                    found.setdefault(b, i)
        for b, i in sorted(found.items()):
            leaks.append(Leak(a, b, "explanation", " ".join(etoks[i:i + ngram])))
    return sorted(leaks, key=lambda x: (x.stem_of, x.source, x.kind))


def _contains(toks: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(toks[i:i + n]) == phrase for i in range(len(toks) - n + 1))
