"""Option data every export relies on: one id per option, visible text in every option.

The checks live in `qlint.prose.soundness`, which the exporters run too: a question these rules flag is
refused by every export even when the rule is ignored or suppressed.
"""

from __future__ import annotations

from typing import Iterator

from qlint.model import Question
from qlint.rules import Finding, rule
from qlint.prose.soundness import data_errors

_GATE = "; every export refuses such a question, whatever the configuration"


@rule("S005", "duplicate-option-id", "error", source="Data correctness: option ids key answers, feedback and "
      "statistics in every export" + _GATE)
def duplicate_option_id(q: Question, ctx) -> Iterator[Finding]:
    """Two options of a question share an id.

    ## What it does
    Reports every option whose `id` an earlier option of the same question already uses. Ids are
    compared as a reader sees them (`qlint.text.skeleton`): Unicode-normalised (NFKC), invisible
    characters removed, and letters of other scripts that look Latin folded ("q-1" and "q‐1"
    with U+2010 are the same id).

    ## Why it matters
    Exports key the answer, the per-option feedback and the learner's choice by option id: with
    two options under one id the HTML site marks the wrong option as the learner's answer and
    QTI packages hold two choices with one identifier. No export writes such a question.

    ## Example
    ```yaml
    options:
      - {id: s3, text: Amazon S3, correct: true}
      - {id: s3, text: Amazon EFS, correct: false}
    ```

    ## Fix
    Give the later option an id of its own (ids are never shown to learners).
    """
    for e in data_errors(q):
        if e.code == "S005":
            yield Finding(e.pointer, e.message)


@rule("S006", "empty-option-text", "error", source="Data correctness: an option a learner cannot read" + _GATE)
def empty_option_text(q: Question, ctx) -> Iterator[Finding]:
    """An option shows no text: blank, invisible characters only, or Markdown that renders to nothing.

    ## What it does
    Reports every option whose `text` shows a learner nothing once rendered as the exports render
    it: whitespace only, zero-width or other invisible characters only, or markup with no words
    (`***`, an empty link `[](x)`, a thematic break `---`). An option that is only an image is
    not empty.

    ## Why it matters
    The schema only asks for one character, so `text: " "` passes it; the learner then sees a
    blank choice, which is either a free distractor or an unanswerable key. No export writes such
    a question.

    ## Example
    ```yaml
    options:
      - {id: efs, text: " ", correct: false}
    ```

    ## Fix
    Write the option's text, or delete the option.
    """
    for e in data_errors(q):
        if e.code == "S006":
            yield Finding(e.pointer, e.message)
