"""Answer grades as Moodle stores them: percentages drawn from its fixed list of grade values.

Single choice: the key 100, the rest 0. Multiple response: each key 100/k and each distractor
-100/m (k keys, m distractors), so the keys add up to 100 and ticking every box scores 0.
With at most 10 options, k and m stay within 1..9, whose shares are all on Moodle's list.
"""

from __future__ import annotations

from qlint.exporters.kit.problems import ExportError, problem
from qlint.model import Question

# Moodle's question_bank::fraction_options(), as percentages (negatives mirror them).
MOODLE_GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0)


def share(n: int) -> float:
    """The grade on Moodle's list for one of `n` equal parts of 100."""
    best = min(MOODLE_GRADES, key=lambda g: abs(g - 100 / n))
    if abs(best - 100 / n) > 1e-4:
        raise ValueError(f"no Moodle grade value for 1/{n}")
    return best


def is_multiple(q: Question) -> bool:
    """Checkboxes rather than radio buttons: a `multiple` question, or (under --force) several keys."""
    return q.type == "multiple" or len(q.keys) > 1


def fractions(q: Question) -> list[float]:
    """One grade per option, in option order; ValueError (naming the file) if nothing is keyed."""
    keys, wrong = len(q.keys), len(q.distractors)
    if not keys:
        raise ExportError(problem(q, "/options", "no option is marked correct, so no grade can be given"))
    if not is_multiple(q):
        return [100.0 if o.correct else 0.0 for o in q.options]
    plus, minus = share(keys), (-share(wrong) if wrong else 0.0)
    return [plus if o.correct else minus for o in q.options]


def fmt(value: float) -> str:
    """`100`, `33.33333`, `-12.5`: as Moodle writes them, never `-0`."""
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
