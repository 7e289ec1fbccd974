"""A reason that places its option outside what the question asks, with no negation word.

K019 reads a key's reason for a denial ("does not store source code"). Reasons also argue
against an option by placing it elsewhere, and a moved key carries such a reason:

- *Opposed*: "is the opposite of <what is asked>", "contradicts the <principle> ...",
  "misrepresents ...", followed within six words by a word of the stem (or "requirement",
  "principle", "goal", "need").
- *Instead*: "rather than" / "instead of" followed, before the next clause break, by two or
  more words of the lead-in that no option has: "... handles the migration rather than
  providing a central place to track it" under "Which service provides a central place to
  track ...?".
- *Dearer*: "more expensive", "the most costly", "higher cost" where the lead-in asks for the
  cheapest ("most cost-effective", "lowest cost", "minimise costs").
- *Claim denied*: "the claim that it ... is false" (or "... that <two of the option's words>
  ... is incorrect"): the writer calls the option's own statement untrue.
- *Owned elsewhere*: "is (entirely) the customer's responsibility" when the stem gives that
  noun one owner and it is another ("Which task is the responsibility of AWS?"). The stem's
  owner of a noun N: "W's N", "N of (the) W", "W has (sole) N", "a W N", or a capitalised W
  just before N ("Is AWS responsible ...": word forms agree on five letters). An owner the
  option's own text names is the option's subject, not a recategorisation.

Each reading needs a main clause (or "X ..., which is the opposite of ...", "..., making it the
most expensive ..."); a subordinate clause describes something else. "Rather than" only needs
its part of the sentence not to open with a subordinator: a relative clause inside it ("it
governs which products are deployed rather than ...") leaves the comparison about the subject. Pure and memoised per text (`qlint.prose.views`).
"""

from __future__ import annotations

import re

from qlint.prose.stance import _COORD, _SUBORD, _clause_head, clauses, option_words, stem
from qlint.prose.views import per_text

_TOK = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\-]*")
_OPPOSED = re.compile(r"\b(?:(?:is|are) (?:the )?opposite of|contradict(?:s|ing)?|misrepresents?|goes against"
                      r"|works against|runs counter to)\b", re.I)
_INSTEAD = re.compile(r"\b(?:rather than|instead of)\b", re.I)
_OWNED = re.compile(r"\b(?:is|are|remains?)(?: (?:entirely|solely|fully|always|still|wholly))? (?:the |an? )?"
                    r"([A-Za-z]+)(?:'s|') ([A-Za-z]+)", re.I)
_DEARER = re.compile(r"\b(?:more|most) (?:expensive|costly)\b|\bcostlier\b|\b(?:higher|highest) (?:cost|price)s?\b", re.I)
_CHEAPEST = re.compile(r"\b(?:(?:most|more) )?cost[- ]effective\b|\blowest[- ](?:cost|price)\b|\bleast expensive\b"
                       r"|\bcheapest\b|\bmost economical\b|\b(?:minimi[sz]e|reduce|lower)s? (?:the )?costs?\b", re.I)
_CLAIM_FALSE = re.compile(r"\b(?:claim|statement|assertion|idea|notion|suggestion)\s+that\s+(.{0,120}?)\s+"
                          r"(?:(?:is|are)\s+)?(?:factually\s+|simply\s+|clearly\s+)?"
                          r"(?:incorrect|false|wrong|inaccurate|untrue|misleading|invalid)\b", re.I)
_AIMS = frozenset(stem(w) for w in "requirement requirements principle principles goal need".split())
_OPPOSED_SPAN = 6
_INSTEAD_SPAN = 8
_WHICH = re.compile(r"\bwhich\s*$", re.I)
_MAKING = re.compile(r"\bmaking (?:it|them|this) (?:the |an? )?(?:\w+ )?$", re.I)


def _after(clause: str, end: int, n: int) -> frozenset[str]:
    """Word keys of the first `n` words after `end`, up to the next clause break."""
    tail = re.split(r"[,;:]", clause[end:], maxsplit=1)[0]
    return frozenset(stem(t) for t in _TOK.findall(tail)[:n])


def _opens_subordinate(clause: str, at: int) -> bool:
    """The part of `clause` holding `at` (after its last comma or coordinator) opens with a
    subordinator ("so that ...", "because ..."); a relative clause inside it ("it governs which
    products are deployed rather than ...") leaves the comparison about the subject."""
    before = clause[:at]
    cuts = [m.end() for m in _COORD.finditer(before)]
    return bool(_SUBORD.match(before[cuts[-1]:] if cuts else before))


@per_text
def _readings(text: str) -> tuple[tuple[str, str, frozenset[str], str], ...]:
    """(kind, phrase, words after it, owner) for each reading in a main clause of `text`."""
    out = []
    for c in clauses(text.replace("’", "'")):
        for m in _OPPOSED.finditer(c):
            if _clause_head(c, m.start()) is None and not _WHICH.search(c[: m.start()]):
                continue
            out.append(("opposed", m.group(0), _after(c, m.end(), _OPPOSED_SPAN), ""))
        for m in _INSTEAD.finditer(c):
            if _clause_head(c, m.start()) is not None or not _opens_subordinate(c, m.start()):
                out.append(("instead", m.group(0), _after(c, m.end(), _INSTEAD_SPAN), ""))
        for m in _DEARER.finditer(c):
            if _clause_head(c, m.start()) is not None or _MAKING.search(c[: m.start()]):
                out.append(("dearer", m.group(0), frozenset(), ""))
        for m in _CLAIM_FALSE.finditer(c):
            out.append(("claim", m.group(0), option_words(m.group(1)), m.group(1).split()[0].lower()))
        for m in _OWNED.finditer(c):
            if _clause_head(c, m.start()) is not None:
                out.append(("owned", m.group(0), frozenset({stem(m.group(2))}), stem(m.group(1))))
    return tuple(out)


@per_text
def owners(text: str) -> dict[str, frozenset[str]]:
    """Per noun key of `text`, the word keys it names as that noun's owner (see the module doc)."""
    raw = _TOK.findall(text.replace("’", "'"))
    poss = [t.lower().endswith("'s") for t in raw]
    toks = [t[:-2] if p else t for t, p in zip(raw, poss)]
    low = [t.lower() for t in toks]
    keys = [stem(t) for t in toks]
    found: dict[str, set[str]] = {}
    for i, n in enumerate(keys):
        got: set[str] = set()
        if i and poss[i - 1]:
            got.add(keys[i - 1])  # W's N
        j = i + 1
        if j < len(low) and low[j] == "of":  # N of (the) W
            j += 1 + (j + 1 < len(low) and low[j + 1] == "the")
            if j < len(keys):
                got.add(keys[j])
        k = i - 1 - (i >= 1 and low[i - 1] in ("sole", "full", "the"))
        if k >= 1 and low[k] in ("has", "have", "bears", "bear"):
            got.add(keys[k - 1])  # W has (sole) N
        if i >= 2 and not poss[i - 1] and low[i - 1] not in ("a", "an", "the", "is", "are") \
                and (toks[i - 1][:1].isupper() or low[i - 2] in ("a", "an")):
            got.add(keys[i - 1])  # a W N; Name N
        if got:
            found.setdefault(n, set()).update(got)
    return {n: frozenset(w) for n, w in found.items()}


def misplaces(text: str, stem_text: str, lead_text: str, asked: frozenset[str], lead: frozenset[str],
              own: frozenset[str]) -> str | None:
    """The phrase if `text`, a reason about an option whose text has the words `own`, places
    the option outside what is asked: opposed to a stem word (`asked`) or an aim, "rather than"
    two or more `lead` words, or owned by someone other than the stem's one owner of that noun;
    else None."""
    stem_words = option_words(stem_text)
    for kind, said, after, owner in _readings(text):
        if kind == "opposed" and after & (asked | _AIMS):
            return said
        if kind == "instead" and len(after & lead) >= 2:
            return said
        if kind == "dearer" and _CHEAPEST.search(lead_text):
            return said
        if kind == "claim" and (owner in ("it", "they", "this") or len(after & own) >= 2):
            return said  # the option's own claim called false
        if kind == "owned":
            noun = next(iter(after))
            given = owners(stem_text).get(noun, frozenset())
            if noun in stem_words and len(given) == 1 and owner not in given and owner not in own:
                return said
    return None
