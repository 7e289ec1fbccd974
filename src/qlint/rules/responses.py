"""Response rules: what learners' answers say about each question (`qlint analyze`,
`qlint check --responses`). They read an item analysis (`qlint.itemanalysis.stats.Analysis`),
not question text, and place their findings on the question's or the option's YAML line.

Every rule but R001 gives no verdict on an item fewer than R001's `min-respondents` answered.
"""

from __future__ import annotations

import math
from typing import Iterator

from qlint.rules import RULES, Finding, Option, rule

_GROUPS = "Kelley (1939), J. Educ. Psychol. 30, upper and lower 27 %"


def _min_n(ctx) -> int:
    """R001's `min-respondents`, which every response rule honours."""
    from qlint.rules.context import RuleContext

    return int(RuleContext(RULES.get("R001"), ctx.config, ctx.exams).option("min-respondents"))


def _judged(a, ctx) -> Iterator[int]:
    """Items with enough respondents for a verdict."""
    least = _min_n(ctx)
    return (j for j in range(len(a.items)) if a.n[j] >= least)


def _f(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:.2f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@rule("R001", "too-few-respondents", "info", scope="responses",
      options={"min-respondents": Option(100, "Fewest respondents to an item before any response rule judges it.", min=1, max=10_000_000)},
      source="Sampling error of a correlation: SE(r) is about (1 - r^2) / sqrt(n - 1), so below ~100 "
             "respondents a point-biserial's 95 % interval is wider than +-0.2 (Crocker & Algina 1986, ch. 14)")
def too_few_respondents(a, ctx) -> Iterator[Finding]:
    """Too few learners answered the question for its statistics to mean anything.

    ## What it does
    Reports an item answered by fewer than `min-respondents` learners (default 100). The other
    response rules give no verdict on it, so a small class yields no miskey or difficulty claims.

    ## Why it matters
    A point-biserial from 30 learners has a 95 % interval about +-0.35 wide: one strong learner's
    slip can make a good key look wrong. Statistics need numbers before they can accuse a question.

    ## Example
    An item answered by 42 learners of a pilot: `R001 42 respondents (fewer than 100): no verdict`.

    ## Fix
    Nothing to fix in the question. Collect more responses (merge several offerings: pass several
    files to `qlint analyze`), or lower `min-respondents` if you accept noisier verdicts.
    """
    least = ctx.option("min-respondents")
    for j, key in enumerate(a.items):
        if a.n[j] < least:
            yield Finding("/id", f"{a.n[j]} respondent(s) (fewer than {least}): the response rules give no verdict",
                          path=key.path)


@rule("R002", "probable-miskey", "error", scope="responses",
      options={"margin": Option(0.0, "How far a distractor's point-biserial must exceed the key's to be reported.", min=-2.0, max=2.0)},
      source="Distractor analysis: a key's point-biserial must be positive and each distractor's below it "
             "(Haladyna 2004, Developing and Validating Multiple-Choice Test Items, 3rd ed., ch. 9; "
             "Attali & Fraenkel 2000, J. Educ. Meas. 37(1))")
def probable_miskey(a, ctx) -> Iterator[Finding]:
    """Strong learners avoid the key, or prefer a distractor: the key is probably wrong.

    ## What it does
    For each item with enough respondents, compares the options' point-biserials (choosing the
    option against the rest score: the total without this item). Reports the key when its
    point-biserial is negative, and a distractor whose point-biserial is positive and above the
    key's (by more than `margin`). For multiple-response items the weakest key is compared. For
    ordering and matching items each keyed step's place and each pair is a part of the key:
    the part whose point-biserial (getting it right against the rest score) is negative is
    reported.

    ## Why it matters
    Learners who do well on the rest of the form should pick the key more often than those who
    do badly. When the reverse holds, the most common cause is a wrong key (the distractor they
    pick is the real answer), then an ambiguous stem or an outdated fact. Every learner who picked
    the right answer was marked wrong.

    ## Example
    `R002 the key's point-biserial is -0.26 (500 respondents); strong learners choose option 3
    ('endpoint-per-model', +0.31): check the key`

    ## Fix
    Re-check the key against the source. If the distractor is right, move `correct: true`; if
    both can be defended, rewrite the stem or the distractor so only one is right.
    """
    margin = float(ctx.option("margin"))
    for j in _judged(a, ctx):
        key = a.items[j]
        rpb = a.option_rpb[j]
        keys = [i for i in range(key.n_options) if key.keymask >> i & 1]
        if not keys:
            continue
        weakest = min(keys, key=lambda i: -1e9 if math.isnan(rpb[i]) else rpb[i])
        k_r = rpb[weakest]
        rivals = [i for i in range(key.n_options) if i not in keys and not math.isnan(rpb[i])
                  and rpb[i] > 0 and (math.isnan(k_r) or rpb[i] > k_r + margin)]
        best = max(rivals, key=lambda i: rpb[i], default=None)
        rival = f"; strong learners choose {key.label(best)}, point-biserial {_f(rpb[best])}" if best is not None else ""
        if not math.isnan(k_r) and k_r < 0 and not key.is_choice:
            yield Finding(key.pointer(weakest), f"{key.label(weakest)} has point-biserial {_f(k_r)} ({a.n[j]} "
                          "respondents): learners who do well elsewhere get it wrong; check the key order"
                          if key.kind == "ordering" else
                          f"{key.label(weakest)} has point-biserial {_f(k_r)} ({a.n[j]} respondents): learners who "
                          "do well elsewhere pair it otherwise; check the match", path=key.path)
        elif not math.isnan(k_r) and k_r < 0:
            yield Finding(key.pointer(weakest), f"the key's point-biserial is {_f(k_r)} ({a.n[j]} respondents): "
                          f"learners who do well elsewhere avoid it{rival}; check the key", path=key.path)
        elif best is not None:
            yield Finding(key.pointer(best), f"{key.label(best)} discriminates better than the key "
                          f"({_f(rpb[best])} against {_f(k_r)}, {a.n[j]} respondents): check the key", path=key.path)


@rule("R003", "non-functioning-distractor", "warning", scope="responses",
      options={"min-share": Option(0.05, "Smallest share of respondents a distractor must attract.", min=0.0, max=1.0)},
      source="Haladyna & Downing (1993), Educ. Psychol. Meas. 53(4): a distractor chosen by < 5 % of "
             "examinees does not function; Tarrant, Ware & Mohammed (2009), BMC Med. Educ. 9:40")
def non_functioning_distractor(a, ctx) -> Iterator[Finding]:
    """A distractor almost nobody picks.

    ## What it does
    Reports a distractor chosen by fewer than `min-share` (default 5 %) of the learners who
    answered the item, with its share in the lower and upper score groups.

    ## Why it matters
    A distractor nobody picks makes the item easier by elimination and teaches nothing: the
    item is effectively one option shorter. Haladyna and Downing defined a functioning
    distractor as one chosen by at least 5 % of examinees.

    ## Example
    `R003 option 4 ('redshift') chosen by 1.2% (lower group 2.0%, upper 0.0%): it distracts nobody`

    ## Fix
    Replace it with a misconception learners actually hold (the rationales of wrong answers in
    the other items, or learners' free-text errors, are good sources), or drop it.
    """
    least = float(ctx.option("min-share"))
    for j in _judged(a, ctx):
        key = a.items[j]
        for i in range(key.n_options):
            share = a.option_share[j, i]
            if key.keymask >> i & 1 or math.isnan(share) or share >= least:
                continue
            low, high = a.option_group_share[j, i, 0], a.option_group_share[j, i, 2]
            yield Finding(key.pointer(i), f"{key.label(i)} chosen by {_pct(share)} of {a.n[j]} "
                          f"(lower group {_pct(low)}, upper {_pct(high)}; threshold {_pct(least)}): it distracts "
                          "almost nobody", path=key.path)


_DIFFICULTY = ("Conventional item-analysis bounds: p between .30 and .90 (score variance p(1 - p) is "
               "largest at .5 and small near 0 and 1: Crocker & Algina 1986, ch. 14)")


@rule("R004", "too-easy", "warning", scope="responses",
      options={"max-p": Option(0.90, "Highest facility (share answering right) before an item is too easy.", min=0.0, max=1.0)},
      source=_DIFFICULTY)
def too_easy(a, ctx) -> Iterator[Finding]:
    """Nearly every learner answers right: the item measures little.

    ## What it does
    Reports an item whose facility p (mean score: the share answering right) is above `max-p`
    (default 0.90).

    ## Why it matters
    An item everyone gets right cannot tell learners apart (its variance p(1 - p) is small), and
    in a practice bank it gives false confidence. Often a cue gives the key away.

    ## Example
    `R004 p = 0.96 (480 of 500 right): too easy to tell learners apart`

    ## Fix
    Look for cues (`qlint check` K and C rules), make distractors more plausible, or ask about a
    harder application of the same point.
    """
    most = float(ctx.option("max-p"))
    for j in _judged(a, ctx):
        if a.p[j] > most:
            yield Finding("/id", f"p = {_f(a.p[j])} ({a.n[j]} respondents; above {most:.2f}): too easy to tell "
                          "learners apart", path=a.items[j].path)


@rule("R005", "too-hard", "warning", scope="responses",
      options={"min-p": Option(0.30, "Lowest facility before an item is too hard.", min=0.0, max=1.0)},
      source=_DIFFICULTY)
def too_hard(a, ctx) -> Iterator[Finding]:
    """Few learners answer right: a wrong key, an unclear stem, or untaught content.

    ## What it does
    Reports an item whose facility p is below `min-p` (default 0.30), near or below what guessing
    among four options gives.

    ## Why it matters
    An item most learners miss is often flawed rather than hard: the key is wrong (see R002), the
    stem is ambiguous, or the content was never taught.

    ## Example
    `R005 p = 0.18 (500 respondents; below 0.30): too hard`

    ## Fix
    Check the key and the stem first; then whether the content is in the exam guide.
    """
    least = float(ctx.option("min-p"))
    for j in _judged(a, ctx):
        if a.p[j] < least:
            yield Finding("/id", f"p = {_f(a.p[j])} ({a.n[j]} respondents; below {least:.2f}): too hard",
                          path=a.items[j].path)


@rule("R006", "low-discrimination", "warning", scope="responses",
      options={"min-rpb": Option(0.20, "Lowest corrected item-total point-biserial.", min=-1.0, max=1.0)},
      source="Ebel & Frisbie (1991), Essentials of Educational Measurement, 5th ed.: discrimination below .20 "
             "is poor (revise or discard), .20-.29 marginal; " + _GROUPS)
def low_discrimination(a, ctx) -> Iterator[Finding]:
    """The item barely separates learners who know the material from those who do not.

    ## What it does
    Reports an item whose corrected point-biserial (item score against the rest score) is below
    `min-rpb` (default 0.20), with the upper-lower index D on the top and bottom 27 %.

    ## Why it matters
    Ebel's bands call discrimination below .20 poor: the item adds noise to the total score. A
    negative value usually means a miskey (R002).

    ## Example
    `R006 corrected point-biserial 0.08, D = 0.05 (500 respondents; below 0.20)`

    ## Fix
    Look for ambiguity (two defensible answers), a trick, or content outside the exam; rewrite or
    retire the item.
    """
    least = float(ctx.option("min-rpb"))
    for j in _judged(a, ctx):
        r = a.rpb[j]
        if math.isnan(r) or r < least:
            yield Finding("/id", f"corrected point-biserial {_f(r)}, D = {_f(a.d[j])} ({a.n[j]} respondents; "
                          f"below {least:.2f}): it hardly separates strong and weak learners", path=a.items[j].path)


@rule("R007", "lowers-reliability", "warning", scope="responses",
      options={"min-gain": Option(0.0, "How much alpha must rise without the item to report it.", min=-1.0, max=1.0)},
      source="Cronbach (1951), Psychometrika 16; Kuder & Richardson (1937), Psychometrika 2: "
             "alpha (KR-20) and alpha if item deleted")
def lowers_reliability(a, ctx) -> Iterator[Finding]:
    """The form's reliability would be higher without this item.

    ## What it does
    Computes Cronbach's alpha (KR-20 for right/wrong scoring) over the learners given every item,
    and alpha with each item left out; reports an item whose removal raises alpha by more than
    `min-gain`. Needs at least R001's `min-respondents` learners who saw the whole form.

    ## Why it matters
    An item that lowers alpha measures something other than the rest of the form (or is keyed
    wrong), so it adds error to every learner's score.

    ## Example
    `R007 alpha would rise from 0.812 to 0.819 without this item`

    ## Fix
    Read it with R002 and R006 findings on the same item; rewrite or retire it.
    """
    if a.alpha_n < _min_n(ctx) or math.isnan(a.alpha):
        return
    gain = float(ctx.option("min-gain"))
    for j, key in enumerate(a.items):
        without = a.alpha_if_deleted[j]
        if not math.isnan(without) and without > a.alpha + gain:
            digits = next((d for d in (3, 4, 5) if round(without, d) > round(a.alpha, d)), 6)  # never "0.912 to 0.912"
            yield Finding("/id", f"{a.reliability_name} would rise from {a.alpha:.{digits}f} to {without:.{digits}f} without this item "
                          f"({a.alpha_n} respondents)", path=key.path)
