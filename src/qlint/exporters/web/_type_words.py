"""The words the web pages use for ordering and matching questions and case studies: the seed
page's layout (answer first, then the reveal with a row per step or pair) in the same voice as
its option labels (`_feedback`), written once for the Markdown pages and the HTML site."""

from __future__ import annotations

from qlint.exporters import ExportJob
from qlint.exporters.kit.case_study import missing_cases
from qlint.exporters.kit.layout import choose_word
from qlint.exporters.kit.problems import Problem, problem
from qlint.model import MATCHING, ORDERING, Question

# Headings and lines of the reveal, by item type (single and multiple keep the seed's own).
WHY_MATTERS = {ORDERING: "Why each step matters", MATCHING: "Why each pair matters"}
REVEAL = {
    ORDERING: "Answer the question above first, then reveal the full breakdown to understand why each step sits where it does.",
    MATCHING: "Answer the question above first, then reveal the full breakdown to understand why each pair belongs together.",
}
SUMMARY = {ORDERING: "Show the answer and the step-by-step breakdown", MATCHING: "Show the answer and the pair-by-pair breakdown"}
BREAKDOWN = {ORDERING: "Step-by-step breakdown", MATCHING: "Pair-by-pair breakdown"}
_INTRO = {
    ORDERING: "For each step: {}why it sits at its place in the order; for a step that belongs nowhere, why not and when it would.",
    MATCHING: "For each prompt: {}the response it matches and why; then each response that matches no prompt, and why not.",
}


def intro(q: Question) -> str:
    """The line under the breakdown heading: it promises why learners choose a step or response
    only when one says so (as the option breakdown does)."""
    chosen = any(p.raw.get("why_chosen") for p in (*q.steps, *q.prompts, *q.responses))
    return _INTRO[q.type].format("why learners choose it, " if chosen else "")

# Labels over a step's or a pair's texts (cf. WHY_CORRECT / WHY_WRONG / RIGHT_WHEN for options).
WHY_HERE = "Why it sits here"
WHY_NOWHERE = "Why it belongs nowhere here"
WHEN_IT_BELONGS = "When it would belong"
WHY_PAIR = "Why they belong together"
WHY_SURPLUS = "Why it matches no prompt"
MATCHES = "Matches"
ABOUT_RESPONSE = "About this response"
NOT_A_STEP = "not a step of this task"
SURPLUS = "matches no prompt"
CASE_STUDY = "Case study"
CASE_SCORING = "Each question of the case is scored on its own."


def instruction(q: Question) -> str:
    """What the learner is asked to do, as exam stems state it."""
    if q.type == ORDERING:
        return f"Select and order {choose_word(len(q.key_order))} steps."
    return f"Match each of the {choose_word(len(q.prompts))} prompts with one response."


def ordinal(position: int, total: int) -> str:
    """"question 2 of 3"."""
    return f"question {position} of {total}"


def page_warnings(job: ExportJob, target: str) -> list[Problem]:
    """What the page targets cannot honour: a case study missing from the export, and `shuffle:
    false` on an ordering question (its steps are written in key order, so pages scramble them)."""
    out = missing_cases(job, target)
    out += [problem(q, '/shuffle', "shuffle: false is ignored for an ordering question: its steps are written "
            "in their correct order, so pages show them scrambled")
            for q in job.questions if q.type == ORDERING and q.data.get("shuffle") is False]
    return out
