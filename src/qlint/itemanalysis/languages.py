"""Statistics per language: a bank with translations is sat as one form per language, so each
language's items, and the respondents who answered them, are analysed apart (reliability, score
totals, upper and lower groups and the response rules read one form at a time)."""

from __future__ import annotations

from qlint.bank._numpy import np
from qlint.itemanalysis.data import NOT_SEEN, ItemKey, Responses
from qlint.itemanalysis.stats import Analysis

# A translation whose facility is this far from its source's is worth a look: the translation may
# have changed what the item asks (ITC Guidelines for Translating and Adapting Tests, 2017:
# compare item statistics across language versions).
FACILITY_GAP = 0.15


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


def facility_gaps(forms: list[tuple[str, Analysis]], least: float = FACILITY_GAP) -> list[tuple[ItemKey, str]]:
    """(translation, what differs) for each translation whose facility (share of the credit
    earned) differs from its source's by `least` or more, both analysed in their own form."""
    seen = {key.id: (lang, float(a.p[j]), int(a.n[j])) for lang, a in forms for j, key in enumerate(a.items)}
    out = []
    for lang, a in forms:
        for j, key in enumerate(a.items):
            if key.source in seen and abs(float(a.p[j]) - seen[key.source][1]) >= least:
                slang, sp, sn = seen[key.source]
                out.append((key, f"facility {float(a.p[j]):.2f} in {lang} (n {int(a.n[j])}) against {sp:.2f} in "
                                 f"{slang} for {key.source} (n {sn}): check that the translation asks the same"))
    return out
