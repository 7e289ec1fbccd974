"""Key agreement beyond K001-K005: letter references, and the lead-in's criterion in the explanation."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.prose.views import per_question, per_text, view
from qlint.model import ITEM_TYPES, LETTERS, Question
from qlint.rules import Finding, Option, rule
from qlint.rules.lexicons import (CRITERION_FAMILIES, CRITERION_FILLER, CRITERION_STOP, EMPTY_CRITERIA,
                                  LEAST_QUALITY, SUPERLATIVES)
from qlint.prose.letters import LetterRef, letter_refs
from qlint.rules.parsing import lead_in, word_set, words

_LETTER_SOURCE = "rules.md 'Key agreement' 5 (13 of 305 items in a real dataset had letters filed under the wrong paragraph)"


def _fields(q: Question) -> Iterator[tuple[str, str, int | None]]:
    """(pointer, text, owning option index or None) of every prose field that may refer to options."""
    yield "/explanation", q.explanation, None
    if q.trap:
        yield "/trap", q.trap, None
    for o in q.options:
        for name in ("rationale", "right_when", "why_chosen"):
            value = o.raw.get(name)
            if isinstance(value, str):
                yield f"{o.pointer}/{name}", value, o.index


@per_question
def _refs(q: Question) -> tuple[tuple[str, LetterRef, int | None], ...]:
    """Every letter reference of the question, shared by K006-K008."""
    return tuple((pointer, ref, owner) for pointer, text, owner in _fields(q) for ref in letter_refs(text))


def _quote(ref: LetterRef) -> str:
    return " and ".join(ref.letters)


# preview: in prose that is not about the options, a capital letter is often no option letter (the
# pronoun "I", "hepatitis A and B", criterion labels): casimedicos report draw 2/6
@rule("K006", "letter-reference", "warning", source=_LETTER_SOURCE, preview=True)
def letter_reference(q: Question, ctx) -> Iterator[Finding]:
    """A rationale, explanation or trap refers to an option by its letter ("option B", "(C)").

    ## What it does
    Finds references such as "option B", "answers A and D", "(C)", "B is correct" in the
    explanation, the trap and every option's rationale, `right_when` and `why_chosen`; reports
    the first one in each field.

    ## Why it matters
    qlint never stores letters: they are assigned at export, and players shuffle options. A
    letter in the prose then names whatever option lands in that position.

    ## Example
    ```yaml
    explanation: Option B is correct because it splits the layers across GPUs.
    ```

    ## Fix
    Name the option by its content: "Model parallelism is correct because ...".
    """
    seen: set[str] = set()
    for pointer, ref, _owner in _refs(q):
        if pointer not in seen:
            seen.add(pointer)
            yield Finding(pointer, f"refers to option {_quote(ref)} by letter; letters change when options are shuffled: "
                                   "name the option instead")


@rule("K007", "letter-out-of-range", "error", source=_LETTER_SOURCE)
def letter_out_of_range(q: Question, ctx) -> Iterator[Finding]:
    """A letter reference names an option the question does not have ("option E" with four options).

    ## What it does
    Reports letter references (as K006 finds them) beyond the last option's letter.

    ## Why it matters
    The text was written for another version of the question, usually before an option was
    deleted; it now explains an answer that does not exist.

    ## Example
    ```yaml
    explanation: Option E is the only choice that keeps traffic private.   # four options
    ```

    ## Fix
    Name the option by its content, and check the explanation still fits the current options.
    """
    n = len(q.options)
    for pointer, ref, _owner in _refs(q):
        bad = [x for x in ref.letters if LETTERS.index(x) >= n]
        if bad:
            yield Finding(pointer, f"refers to option {bad[0]} but the question has only {n} options (A-{LETTERS[n - 1]})")


@rule("K008", "letter-mismatch", "error",
      options={"margin": Option(1, "Content words by which another option must out-match the referenced one.", min=0, max=50)},
      source=_LETTER_SOURCE)
def letter_mismatch(q: Question, ctx) -> Iterator[Finding]:
    """The sentence around a letter reference describes a different option than that letter.

    ## What it does
    For each reference to a single letter in range, compares the content words of its sentence
    with each option's text (in an option's own rationale, that option is left out: it is the
    subject, the letter is a contrast). Reports when another option shares at least `margin` more words
    than the referenced one: the paragraph was written for an option that has since moved.

    ## Why it matters
    After options are reordered or edited, "Option B splits the layers" may sit under data
    parallelism; learners then study a contradiction.

    ## Example
    ```yaml
    options: [{text: Data parallelism}, {text: Model parallelism, correct: true}]
    explanation: Option A, model parallelism, splits the layers across GPUs.
    ```

    ## Fix
    Name the option by its content instead of its letter.
    """
    margin = int(ctx.option("margin"))
    n = len(q.options)
    option_words = [view(o.text).content() for o in q.options]
    for pointer, ref, owner in _refs(q):
        if len(ref.letters) != 1 or LETTERS.index(ref.letters[0]) >= n:
            continue
        idx = LETTERS.index(ref.letters[0])
        if idx == owner:
            continue  # a rationale naming its own letter describes itself: nothing to compare
        sentence = view(ref.sentence).content()
        # an option's own rationale describes that option while it contrasts another ("unlike (B)")
        scores = [0 if i == owner else len(sentence & w) for i, w in enumerate(option_words)]
        best = max(range(n), key=lambda i: scores[i])
        if best != idx and scores[best] >= 1 and scores[best] >= scores[idx] + margin:
            yield Finding(pointer, f"option {ref.letters[0]} is {q.options[idx].text.strip()!r}, but the sentence describes "
                                   f"{q.options[best].text.strip()!r}")


@per_text
def criterion(lead: str) -> tuple[str, frozenset[str]] | None:
    """The MOST/LEAST criterion of a lead-in ("LEAST operational overhead") and its content words."""
    if not view(lead).may_contain(*SUPERLATIVES):
        return None
    ws = words(lead)
    for i, w in enumerate(ws):
        if w.low not in SUPERLATIVES or (i and ws[i - 1].low == "at"):
            continue
        if i + 1 < len(ws) and ws[i + 1].low in LEAST_QUALITY:
            return None  # "LEAST likely": a negative stem (T001), not an optimisation criterion
        picked = []
        for prev, nxt in zip(ws[i:], ws[i + 1 : i + 6]):
            if re.search(r"[,;?.:!()]", lead[prev.end : nxt.start]) or nxt.low in CRITERION_STOP:
                break
            if nxt.low not in CRITERION_FILLER:
                picked.append(nxt)
        if picked:
            text = lead[w.start : picked[-1].end]
            return text, word_set(" ".join(p.low for p in picked))
    return None


_FAMILIES = tuple(frozenset(word_set(" ".join(f))) for f in CRITERION_FAMILIES)
_EMPTY = frozenset(word_set(" ".join(EMPTY_CRITERIA)))


@rule("K009", "criterion-missing", "info", types=ITEM_TYPES, source="rules.md 'Key agreement' 7; team standard (AWS 'LEAST operational overhead' items)")
def criterion_missing(q: Question, ctx) -> Iterator[Finding]:
    """The lead-in's MOST/LEAST criterion does not reappear in the explanation.

    ## What it does
    Reads the criterion after MOST or LEAST in the lead-in ("LEAST operational overhead", "MOST
    cost-effective") and reports an explanation that contains none of its words (stemmed;
    hyphenated words split). A cost criterion also counts as restated by any cost word
    ("cheapest", "lowest price", "discount", "savings", "free"), and likewise for the other common
    criteria: overhead ("fully managed", "serverless", "automatically"), speed ("latency",
    "faster"), availability ("fault tolerant", "failover"), security ("encrypted", "least
    privilege") and scale ("elastic"). "At least", "LEAST likely" and criteria that only name the
    kind of answer ("MOST likely", "MOST appropriate", "MOST accurately") are not criteria. An
    explanation that names one word of the criterion ("overhead", "cost") has engaged with it;
    one that only describes the key has not.

    ## Why it matters
    On "LEAST overhead" items every option usually works; the explanation must say why the key
    wins on the stated criterion, or learners do not see what decided it.

    ## Example
    ```yaml
    stem: ... Which solution meets these requirements with the LEAST operational overhead?
    explanation: Athena runs SQL on S3 data and writes Parquet.
    ```

    ## Fix
    Say how the key meets the criterion: "Athena is serverless, so it has the LEAST operational
    overhead: there is no cluster to manage."
    """
    found = criterion(lead_in(q.stem))
    if not found:
        return
    text, needed = found
    said = word_set(q.explanation)
    first = text.split()[1].lower() if len(text.split()) > 1 else ""
    if not needed - _EMPTY or first in EMPTY_CRITERIA:
        return  # "MOST likely", "MOST appropriate": a kind of answer, no property to restate
    if any(needed & fam and said & fam for fam in _FAMILIES):
        return  # "free" for "LEAST expensive", "serverless" for "LEAST overhead": restated in other words
    if needed and needed.isdisjoint(said):
        yield Finding("/explanation", f"the explanation does not restate the lead-in's criterion {text!r}")
