"""How closely each option's reason addresses what the stem asks, compared across the options.

A distractor's reason says what its option does ("Amazon Rekognition analyses images and
videos"); the key's reason says why it meets the need ("Amazon Polly converts text into
natural-sounding speech" under "Which service turns text into life-like speech?"). Where the
options carry reasons, the key's is the one that restates the requirement. When a distractor's
reason argues for its option in the stem's own words and the key's reason does so less, or
argues against the key, the key flag is likely on the wrong option.

- *Asked words*: the stem's content words (`stance.option_words`: coarse word forms), less the
  vendor prefix, a few words every scenario uses ("service", "company", "help") and every word
  of any option's text (those name the options, not the need: "cross-region replication" in the
  stem and in the key is the topic).
- *Restated*: an asked word in the reason outside a contrast or negation scope ("unlike X",
  "does not X", `stance._scoped_tokens`): a reason that denies the requirement does not meet it.
- *Affirmative*: a reason with no contrast or concession ("rather than", "but", "only",
  "opposite of", "unrelated to", "regardless of", "violates") that neither refutes nor denies
  its option (`stance.refutes`, `rejects`, `denies`), and no comparative that ranks it low
  ("less economical", "the highest recovery time" under a stem asking for the lowest). Distractor reasons that restate the need
  to say the option misses it ("... but with limited bandwidth the transfer would take too long")
  are not affirmative.
- *Against*: a reason that plainly argues against its option ("the opposite of", "unrelated to",
  "an anti-pattern", "contradicts", "is not a ...").

Every function here is pure and memoised per question (`qlint.prose.views`).
"""

from __future__ import annotations

import re
from qlint.model import Question
from qlint.prose.stance import REFUTE, VENDOR_STEMS, _scoped_tokens, claims, denies, identity, option_words, refutes, rejects, stem
from qlint.prose.views import per_question

# Words of nearly every scenario: they name no requirement ("Which service helps a company ...").
_GENERIC = frozenset(stem(w) for w in """follow following service services help helps use using used provide
provides allow allows enable enables company companies business businesses customer customers user users need
needs want wants require requires required""".split())
# Contrast, concession and negative evaluation: a reason holding one does not argue for its option.
_CONTRA = re.compile(
    r"\b(?:rather than|instead of|opposite|unrelated|irrelevant|incorrect|wrong|anti-pattern|contradict\w*"
    r"|misrepresent\w*|misappl\w*|violat\w*|disqualif\w*|regardless|independent of|unchanged|separate|no bearing"
    r"|unlike|whereas|but|however|still|only|partially|while|although|though"
    r"|unsuit\w*|unnecessar\w*|unaccept\w*|expensive|costly|poor\w*|inefficien\w*|incomplete|insufficient"
    r"|inadequate|weakness|lacks?|fails?|falls? short|cannot|no longer|reverse|would|not|no"
    r"|less|least|worse|worst|highest|lowest)\b", re.I)
_AGAINST = re.compile(
    r"\b(?:opposite|unrelated|irrelevant|incorrect|wrong|anti-pattern|contradict\w*|misrepresent\w*|misappl\w*"
    r"|violat\w*|no bearing|not (?:a|an|the|of)\b)", re.I)


@per_question
def asked(q: Question) -> frozenset[str]:
    """The stem's words that can name its requirement (see the module docstring)."""
    words = option_words(q.stem) - VENDOR_STEMS - _GENERIC
    return words.difference(*(option_words(o.text) for o in q.options))


@per_question
def restated(q: Question) -> tuple[int | None, ...]:
    """Per option, how many asked words its reason restates; None for an option without one."""
    want = asked(q)
    out: list[int | None] = []
    for o in q.options:
        text = o.rationale
        out.append(len(want.intersection(_scoped_tokens(text)[1])) if text and text.strip() else None)
    return tuple(out)


def restated_words(q: Question, i: int) -> tuple[str, ...]:
    """The asked words option i's reason restates, in its order (for a message)."""
    want = asked(q)
    return tuple(dict.fromkeys(w for w in _scoped_tokens(q.options[i].rationale or "")[1] if w in want))


def affirmative(q: Question, i: int) -> bool:
    """True if option i's reason argues for its option: no contrast, concession or refutation."""
    text = q.options[i].rationale or ""
    if _CONTRA.search(text) or REFUTE.search(text):
        return False
    words = identity(q)[i]
    return not (refutes(text, words) or rejects(text, words)
                or denies(text, words, asked(q), option_words(q.options[i].text)))


def claimed(q: Question, i: int) -> bool:
    """True if option i's reason says in so many words that it is correct ("Correct: ...")."""
    return claims(q.options[i].rationale or "", identity(q)[i]) is not None


def against(text: str) -> str | None:
    """The phrase if a reason plainly argues against its option ("the opposite of", "unrelated to")."""
    m = _AGAINST.search(text)
    return m.group(0) if m else None
