"""Statistics per language: a bank with translations is sat as one form per language, so each
language's items, and the respondents who answered them, are analysed apart (reliability, score
totals, upper and lower groups and the response rules read one form at a time)."""

from __future__ import annotations

from qlint.bank._numpy import np
from qlint.itemanalysis.data import NOT_SEEN, ItemKey, Responses


def by_language(responses: Responses, keys: dict[str, ItemKey]) -> list[tuple[str, Responses]]:
    """(language, its responses) in order of first appearance; the responses unchanged when all
    items share one language. A respondent belongs to each language whose items they answered."""
    langs: dict[str, list[int]] = {}
    for j, item in enumerate(responses.items):
        langs.setdefault(keys[item].lang, []).append(j)
    if len(langs) < 2:
        return [(next(iter(langs), ""), responses)]
    out = []
    for lang, cols in langs.items():
        block = responses.choices[:, cols]
        rows = np.flatnonzero((block != NOT_SEEN).any(axis=1))
        out.append((lang, Responses([responses.items[j] for j in cols], [responses.respondents[r] for r in rows],
                                    block[rows], [])))
    return out
