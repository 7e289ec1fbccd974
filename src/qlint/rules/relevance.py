"""The key's reason read against the distractors' reasons for what the stem asks (K020).

How much of the stem a reason restates, and whether it argues for its option, is read in
`qlint.prose.relevance`; this rule only compares the key's reading with the distractors'.
"""

from __future__ import annotations

from typing import Iterator

from qlint.model import Question
from qlint.prose.relevance import affirmative, against, claimed, restated, restated_words
from qlint.rules import Finding, rule
from qlint.rules.agreement import _YES_NO, negative_stem

_MARGIN = 2  # asked words the distractor's reason restates beyond the key's
_ENOUGH = 2  # asked words a distractor's reason must restate to count as arguing for the need


@rule(
    "K020", "reason-relevance", "warning",
    # Code options (shell commands, literals) have no words that can name a need, so the stem's words
    # are all the reasons share: the first version's four findings on such an item were all false.
    abstains=("true-false", "code-options"),
    source="Haladyna, Downing & Rodriguez (2002), guideline 31 (keyed answer defensible); issue 23",
)
def reason_relevance(q: Question, ctx) -> Iterator[Finding]:
    """A distractor's reason argues for the stem's need more than the key's reason does.

    ## What it does
    Compares the options' rationales with what the stem asks: the stem's content words, less the
    words of the options' own texts, the vendor prefix and scenario words such as "service" or
    "company". A rationale *restates* a word when it uses it outside a contrast or negation
    ("unlike X", "does not X"). Among the distractors whose rationale argues for its option (no
    contrast, concession or negative judgement such as "rather than", "but", "only", "not",
    "would", "unsuitable", "more expensive", and no refutation or denial of the option), it takes
    the one whose rationale restates the most of the stem's words. It reports a key whose
    rationale restates at least two fewer of them (the distractor's at least two), or argues
    against the key ("the opposite of", "unrelated to", "an anti-pattern", "is not a ...") while
    that distractor's restates at least as many. A key's rationale that calls it correct
    ("Correct: ...") argues for it and passes; options without a rationale are not compared.
    NOT / EXCEPT lead-ins, whose key is the option that fails, True/False items and items whose
    options are code are not judged.

    ## Why it matters
    A key's reason says why it meets the need and a distractor's what the option does instead.
    When the flag `correct: true` moves to a distractor (an edit, a merge, a reordering), every
    text still reads fluently: only the reasons, read against each other, show that another
    option is the one that answers the question.

    ## Example
    ```yaml
    stem: Which AWS service turns written text into life-like speech?
    options:
      - id: polly
        text: Amazon Polly
        rationale: Polly turns written text into life-like speech in dozens of voices.
      - id: rekognition
        text: Amazon Rekognition
        correct: true
        rationale: Rekognition analyses images and videos to detect objects and faces.
    ```

    ## Fix
    Move `correct: true` to the option whose reason meets the need, or rewrite the key's rationale
    to say why it answers the question.
    """
    if negative_stem(q):
        return
    read = restated(q)
    keys = [o for o in q.keys if read[o.index] is not None and not _YES_NO.match(o.text)]
    if not keys:
        return
    rivals = [o for o in q.options if not o.correct and read[o.index]]  # a reason that restates something
    if not rivals:
        return
    most = max(read[o.index] for o in rivals)
    # cheap tests first: most questions have no key that either arm could report
    weak = [k for k in keys if (most >= _ENOUGH and most - read[k.index] >= _MARGIN)
            or (most >= max(read[k.index], 1) and against(k.rationale or ""))]
    if not weak:
        return
    rivals.sort(key=lambda o: -read[o.index])
    best = next((o for o in rivals if affirmative(q, o.index)), None)
    if best is None:
        return
    top = read[best.index]
    words = ", ".join(repr(w) for w in restated_words(q, best.index)[:4])
    for k in weak:
        mine = read[k.index]
        said = against(k.rationale or "")
        if top >= _ENOUGH and top - mine >= _MARGIN:
            why = f"restates {mine} of the stem's words"
        elif said and top >= max(mine, 1):
            why = f"argues against it ({said!r})"
        else:
            continue
        if claimed(q, k.index):
            continue  # a reason that calls its key correct argues for it (K010 reads the verdicts)
        yield Finding(f"{k.pointer}/rationale",
                      f"the key {k.id!r} has a rationale that {why}, while distractor {best.id!r}'s rationale argues "
                      f"for it in {top} ({words}): is the key on the right option?")
