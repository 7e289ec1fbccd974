"""Bank-wide rules: integrity, key-position statistics, near-duplicates, key leaks, coverage.

Each check sees the whole bank (loaded even when only some files are passed, as pre-commit does)
and yields findings for the questions it concerns; the engine keeps those on the files asked for.
Statistics about the whole bank are attached to one question that contributes to the pattern,
so a run over staged files reports them only when a staged file is part of the problem.
"""

from __future__ import annotations

import difflib
from typing import Iterator

from qlint.bank import Bank
from qlint.bank import statistics as figures
from qlint.bank.entry import BankEntry
from qlint.bank.leaks import find_leaks
from qlint.bank.similarity import jaccard, near_duplicates, shingle_sets
from qlint.bank.siblings import are_siblings, distinguishing, keys_agree
from qlint.diagnostic import Severity
from qlint.model import CHOICE_TYPES, LETTERS
from qlint.paths import display_path
from qlint.rules import Finding, Option, rule
from qlint.rules.cases import duplicate_case_ids
from qlint.text import id_key

_STATS_SOURCE = ("Attali & Bar-Hillel (2003), J. Educ. Meas. 40(2); Bar-Hillel & Attali (2002), \"Seek whence\"; "
                 "Haladyna, Downing & Rodriguez (2002) guideline 20")


def _more_pairs(n: int, noun: str, tail: str = "") -> str:
    """"; 2 other questions at 0.6 or more": the rest of a finding's pairs, or nothing."""
    return f"; {n} other {noun}{'s' if n > 1 else ''}{tail}" if n > 0 else ""


def _where(e: BankEntry) -> str:
    return display_path(e.path)


def _letter(pos: int) -> str:
    return LETTERS[pos] if pos < len(LETTERS) else str(pos + 1)


def _others(names: list[str], limit: int = 2) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


@rule("B001", "duplicate-id", "error", scope="bank", source="Bank integrity: ids are the stable key of exports, "
      "statistics and `related` links (rules.md 'unique ids, resolvable references')")
def duplicate_id(bank: Bank, ctx) -> Iterator[Finding]:
    """Two question files (or two case study files) share an id.

    ## What it does
    Reports every question whose `id` another file in the bank also uses, naming the other file(s);
    case study files (`bank/<exam>/cases/`) are compared with each other the same way.
    The whole bank is read, so a staged file that reuses an id from an unstaged one is caught.
    Ids are compared as a reader sees them (`qlint.text.skeleton`): an id that differs only by a
    look-alike character (U+2010 for "-", a Cyrillic letter, a fullwidth form) is the same id.

    ## Why it matters
    Ids key exports, learner progress and `related` links; two questions with one id overwrite
    each other in a learning platform and make every reference ambiguous.

    ## Example
    `bank/mla-c01/model-development/a.yaml` and `.../b.yaml` both say `id: mla-c01-dev-gpu-split`.

    ## Fix
    Give the newer question a new id; never reuse or recycle an id.
    """
    flags, entries = bank.target_flags(), bank.entries
    for group in bank.by_id().values():
        if len(group) < 2:
            continue
        for i in group:
            if flags[i]:
                qid = entries[i].id
                others = [_where(entries[j]) + ("" if entries[j].id == qid else f" (as {entries[j].id!r})")
                          for j in group if j != i]
                yield Finding("/id", f"id {qid!r} is also used by {_others(others)}", path=entries[i].path)
    yield from duplicate_case_ids(bank)


@rule("B002", "unresolved-related", "error", scope="bank", source="Bank integrity (rules.md 'unique ids, "
      "resolvable references')")
def unresolved_related(bank: Bank, ctx) -> Iterator[Finding]:
    """A `related` entry names no question in the bank.

    ## What it does
    Checks each id in `related` against every question id in the bank (naming the closest id when
    one is close), and reports a question listed as related to itself.

    ## Why it matters
    Related questions become links in exports; a dangling id is a broken link, usually left by a
    renamed or deleted question.

    ## Example
    ```yaml
    related: [mla-c01-dev-overfiting-remedies]
    ```

    ## Fix
    Correct the id (`qlint` names the closest one) or remove the entry.
    """
    ids = {e.id for e in bank.entries}
    hints = 0
    for q, target in zip(bank.entries, bank.target_flags()):
        related = q.related
        if not target or not related:
            continue
        for i, ref in enumerate(related):
            if id_key(ref) == id_key(q.id):  # a look-alike spelling of its own id too
                yield Finding(f"/related/{i}", "a question cannot be related to itself", path=q.path)
            elif ref not in ids:  # exact: exports link by the id as written
                hint = ""
                if hints < 50:  # difflib over a large bank is slow; a broken bank gets the first hints
                    hints += 1
                    close = difflib.get_close_matches(str(ref), ids, n=1, cutoff=0.8)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                yield Finding(f"/related/{i}", f"no question has the id {ref!r}{hint}", path=q.path)


@rule(
    "B003", "key-position-balance", "warning", types=CHOICE_TYPES, scope="bank",
    options={
        "alpha": Option(0.05, "Significance level of the chi-square test.", min=1e-6, max=0.5),
        "min-questions": Option(30, "Fewest single-answer questions with the same option count before testing.", min=1, max=100_000),
    },
    source=_STATS_SOURCE + "; rules.md 'key-position balance'",
)
def key_position_balance(bank: Bank, ctx) -> Iterator[Finding]:
    """Keys sit in some positions far more often than chance allows.

    ## What it does
    Groups the single-answer questions by option count k and tests the key positions against a
    uniform 1/k with a chi-square test (k - 1 degrees of freedom). When p < `alpha`, it reports
    the counts per letter and the share of keys in the middle positions, on the first question
    (in bank order, among the files checked) keyed at the most over-used position. Groups smaller
    than `min-questions` are not tested (with fewer than 5 expected per position the chi-square
    approximation does not hold, and a small bank is never flagged for chance patterns).

    ## Why it matters
    Item writers put keys in the middle positions up to 3-4 : 1 over the edges (Attali &
    Bar-Hillel); testwise candidates exploit any such habit, and middle-keyed items come out
    easier and less discriminating than their content.

    ## Example
    60 four-option questions keyed A 6, B 25, C 22, D 7: chi-square 21.7, p < 0.001, 78% middle.

    ## Fix
    Shuffle the options of the over-used position's questions with a seeded random order (export
    shuffling, or `shuffle: true`); do not balance by hand, which leaves its own pattern.
    """
    alpha, minimum = float(ctx.option("alpha")), int(ctx.option("min-questions"))
    flags = bank.target_flags()
    for b in figures.key_balance(bank.entries):
        if b.n < max(minimum, 5 * b.k) or b.p_value >= alpha:
            continue
        worst = max(range(b.k), key=lambda pos: (b.counts[pos], -pos))
        counts = ", ".join(f"{_letter(p)} {c}" for p, c in enumerate(b.counts))
        middle = f"; middle positions hold {b.middle_share:.0%} of keys (chance {(b.k - 2) / b.k:.0%})" if b.k > 2 else ""
        message = (f"key positions of the {b.n} single-answer {b.k}-option questions are unbalanced "
                   f"({counts}; chi-square {b.chi2:.1f}, p = {b.p_value:.2g}){middle}; "
                   f"this question is keyed at the most used position, {_letter(worst)}")
        for q, target in zip(bank.entries, flags):
            if target and q.option_count == b.k and q.single_key == worst:
                yield Finding(q.key_pointer(), message, path=q.path)
                break


@rule(
    "B004", "key-position-run", "warning", types=CHOICE_TYPES, scope="bank",
    options={
        "alpha": Option(0.05, "Report a run when its chance of occurring anywhere in the bank is below this.", min=1e-6, max=0.5),
        "min-run": Option(4, "Never report runs shorter than this, whatever the bank size.", min=2, max=100),
    },
    source=_STATS_SOURCE + "; rules.md 'key runs'",
)
def key_position_run(bank: Bank, ctx) -> Iterator[Finding]:
    """Too many consecutive questions share the key position.

    ## What it does
    Walks the single-answer questions in bank order (path order, as exports list them) and finds
    runs keyed at the same position. A given run of r questions with k options each has chance
    about (1/k)^(r-1); over n questions there are about n places for it to start, so a run is
    reported when n * (1/k)^(r-1) < `alpha` and r >= `min-run`. For four-option questions that is
    a run of 6 in a 20-question bank, 8 in 1,000 and 11 in 20,000. The finding is on the run's
    first question among the files checked.

    ## Why it matters
    Candidates notice "B again, B again" and start answering the pattern rather than the item;
    long runs come from writing several questions in one sitting with the same habit.

    ## Example
    Eight questions in a row, in one domain folder, all keyed C.

    ## Fix
    Shuffle the options of some questions in the run (seeded random order); avoid hand-balancing.
    """
    alpha, min_run = float(ctx.option("alpha")), int(ctx.option("min-run"))
    n = sum(1 for e in bank.entries if e.single_key is not None)
    flags = bank.target_flags()
    for run in figures.key_runs(bank.entries, max(2, min_run)):
        if n * run.chance >= alpha:
            continue
        members = range(run.start, run.start + run.length)
        at = next((i for i in members if flags[i]), None)
        if at is None:
            continue
        first = bank.entries[at]
        span = f"{_where(bank.entries[members[0]])} to {_where(bank.entries[members[-1]])}"
        yield Finding(first.key_pointer(),
                      f"{run.length} questions in a row are keyed {_letter(run.position)} ({span}); "
                      f"a run this long in {n} questions has chance about {n * run.chance:.2g}", path=first.path)


@rule(
    "B005", "longest-key-rate", "warning", types=CHOICE_TYPES, scope="bank",
    options={
        "alpha": Option(0.05, "Significance level of the one-sided binomial test.", min=1e-6, max=0.5),
        "min-questions": Option(30, "Fewest single-answer questions before testing.", min=1, max=100_000),
    },
    source="NBME item-writing guide (Case & Swanson 2002); Haladyna et al. (2002) guideline 28; "
           "rules.md 'longest-key rate'",
)
def longest_key_rate(bank: Bank, ctx) -> Iterator[Finding]:
    """The key is the longest option far more often than chance.

    ## What it does
    Counts the single-answer questions whose key is strictly the longest option and compares the
    share with chance (the mean of 1/k) in a one-sided binomial test. When p < `alpha` it reports
    on the first question (bank order, among the files checked) whose key is the longest. Banks
    with fewer than `min-questions` single-answer questions are not tested.

    ## Why it matters
    Writers qualify the right answer until it is precise, and leave distractors short; candidates
    learn "pick the longest" and score without the knowledge the item tests.

    ## Example
    41 of 100 four-option questions have the longest key (chance 25%): p < 0.001.

    ## Fix
    Make distractors as specific and as long as the key, or trim the key's qualifiers.
    """
    alpha, minimum = float(ctx.option("alpha")), int(ctx.option("min-questions"))
    rate = figures.longest_key_rate(bank.entries)
    if rate.n < minimum or rate.p_value >= alpha:
        return
    for q, target in zip(bank.entries, bank.target_flags()):
        if target and q.single_key is not None and q.key_longest:
            yield Finding(f"{q.key_pointer()}/text",
                          f"{rate.longest} of {rate.n} single-answer questions ({rate.rate:.0%}) have the longest "
                          f"option as key, against {rate.expected_rate:.0%} by chance (binomial p = {rate.p_value:.2g}); "
                          "this is one of them", path=q.path)
            return


@rule(
    "B006", "near-duplicate", "warning", scope="bank",
    options={
        "warn-at": Option(0.5, "Jaccard similarity from which a pair is reported as a warning.", min=0.2, max=1.0),
        "error-at": Option(0.8, "Jaccard similarity from which a pair is reported as an error.", min=0.2, max=1.0),
    },
    source="MedIWF near-duplicate check (word 3-gram Jaccard, 0.5 / 0.8); prefix filtering: Chaudhuri, "
           "Ganti & Kaushik (2006), Bayardo, Ma & Srikant (2007); rules.md 'near-duplicate items'",
)
def near_duplicate(bank: Bank, ctx) -> Iterator[Finding]:
    """Two questions are nearly the same text.

    ## What it does
    Compares word 3-gram shingles of each question's normalised stem and options (options sorted,
    so a reordered copy still matches) by Jaccard similarity. A pair at `warn-at` or above is a
    warning, at `error-at` or above an error; each question checked names its closest partner and
    how many others pass the threshold. A shingle index with prefix filtering finds every such
    pair exactly without comparing all pairs, so a 100,000-question bank stays fast. A text
    mostly in a script the word tokens do not read (Chinese, Cyrillic, ...) is left out of the
    comparison: only its numbers would be read, and two such questions sharing "19" would match.

    ## Why it matters
    Near-duplicates inflate the bank, leak answers between practice and exam forms, and split
    fixes: a correction made to one copy never reaches the other.

    ## Example
    Two stems that differ only in "70 billion" versus "65 billion" parameters, with the same options.

    ## Fix
    Delete one copy, or rewrite it to test something else; list the other in `related` if both stay.
    """
    warn_at, error_at = float(ctx.option("warn-at")), float(ctx.option("error-at"))
    questions = bank.entries
    for i, pairs in _near_pairs(bank, warn_at):
        copies = [(j, score) for j, score in pairs if not are_siblings(questions[i], questions[j])]
        if not copies:
            continue
        j, score = copies[0]
        others = len(copies) - 1
        more = _more_pairs(others, "question", f" at {warn_at:g} or more")
        keys = "" if keys_agree(questions[i], questions[j]) else "; their keys differ"
        yield Finding("/stem", f"near-duplicate of {questions[j].id!r} ({_where(questions[j])}): "
                               f"Jaccard {score:.2f} over stem and options{keys}{more}",
                      path=questions[i].path, severity=Severity.ERROR if score >= error_at else Severity.WARNING)


def _near_pairs(bank: Bank, threshold: float) -> list[tuple[int, list[tuple[int, float]]]]:
    """B006's pairs (each target's near-duplicates at `threshold`), shared with B012."""
    found = bank.memo(f"near-duplicates@{threshold}",
                      lambda: near_duplicates(bank.entries, threshold, bank.target_indexes()))
    return sorted(found.items())


def _words(words: list[str], limit: int = 3) -> str:
    return " ".join(words[:limit]) + (" ..." if len(words) > limit else "")


@rule(
    "B012", "template-sibling", "info", scope="bank",
    options={"jaccard-at": Option(0.5, "Jaccard similarity (as B006) from which a pair is looked at.", min=0.2, max=1.0)},
    source="Item templates / item models (Gierl & Haladyna 2013, Automatic Item Generation); "
           "issue 23: siblings reported as B006 near-duplicates",
    preview=True,
)
def template_sibling(bank: Bank, ctx) -> Iterator[Finding]:
    """Two questions share one frame but ask about different things (preview, info).

    ## What it does
    Looks at the pairs B006 would compare (Jaccard of word 3-grams at `jaccard-at` or more) and
    reports those B006 leaves out as template siblings: each stem has content words the other
    lacks (a subject, a number, code) and their keys differ, or the shared key names nothing
    ("True", "3"). The stems are compared word by word, so a word swapped in place counts even
    where the other stem uses it elsewhere ("the plan runs a night bus" / "... a night tram" in
    a series on one scenario that names the tram line already); words that only moved do not,
    unless they turn a direction around ("data copied from the region to the internet" / "... from
    the internet to the region", "copied to" / "copied from": function words, but the statements
    say opposite things). "How many legs does a spider have?" and "... a dragonfly have?" over the same
    numbers are siblings; "What is the largest planet?" and "Which is the largest planet in the
    solar system?", both keyed Jupiter, are a duplicate (B006). The finding names the other
    question and the words that tell them apart.

    ## Why it matters
    Siblings are not duplicates, but a form holding several of them tests one template many
    times, and a learner who sees them side by side can answer one from the other's options.

    ## Example
    "If the world were a village of 100 people, how many would be female?" and "... would be
    illiterate?", both over 40 / 50 / 60 / 70 with different keys.

    ## Fix
    Nothing, if the template is intended; spread siblings over forms, or list them in `related`.
    """
    questions = bank.entries
    for i, pairs in _near_pairs(bank, float(ctx.option("jaccard-at"))):
        sibs = [(j, score) for j, score in pairs if are_siblings(questions[i], questions[j])]
        if not sibs:
            continue
        j, score = sibs[0]
        mine, theirs = distinguishing(questions[i], questions[j])
        more = _more_pairs(len(sibs) - 1, "sibling")
        yield Finding("/stem", f"template sibling of {questions[j].id!r} ({_where(questions[j])}): one frame "
                               f"(Jaccard {score:.2f}), but this stem asks about '{_words(mine)}' where that one "
                               f"asks about '{_words(theirs)}'{more}", path=questions[i].path)


@rule(
    "B013", "paraphrase", "warning", scope="bank",
    options={
        "warn-at": Option(0.6, "Cosine of character 4-gram TF-IDF vectors from which a pair is reported.", min=0.2, max=1.0),
        "below-jaccard": Option(0.5, "Pairs at this word 3-gram Jaccard or more are B006's, not reported here.", min=0.0, max=1.0),
    },
    source="Character n-gram TF-IDF for near-duplicate and paraphrase detection (scikit-learn "
           "TfidfVectorizer analyzer='char_wb'; Manning, Raghavan & Schuetze 2008, ch. 6); issue 23",
    preview=True,
)
def paraphrase(bank: Bank, ctx) -> Iterator[Finding]:
    """Two questions ask the same thing in other words (preview).

    Preview: on real banks (scripts/realtext.py, report draws of 20) 16/20 findings were true on
    snts42-cloudcertprep, 17/20 on kananinirav-clf-c02 and 19/20 on opentriviaqa: below the 0.90 a
    default rule needs on every bank. The misses are related questions of another scope ("high
    availability of an application" / "... of one database service", "what is this service" /
    "what does it recommend"). Select it by code (`extend-select = ["B013"]`).

    ## What it does
    Compares each question's stem and key text as character 4-gram TF-IDF vectors (sublinear tf,
    smooth idf, cosine), which match "provides a hybrid storage service" with "hybrid storage
    service enables" where word 3-grams barely meet. A pair at `warn-at` or more whose word
    3-gram Jaccard is below `below-jaccard` (B006 reports the others) is reported when it asks
    the same question: one stem only adds words to the other, or both swap words but their keys
    agree and name something. Template siblings (each stem asks about something else, keys
    differ) are not. Candidates are pairs sharing several of their rarest character n-grams, so
    a 20,000-question bank is searched without comparing all pairs; each candidate's cosine is
    exact. Each question checked names its closest partner.

    ## Why it matters
    A reworded copy is still a copy: it inflates the bank, gives one answer twice on a form, and
    splits fixes, and no word-overlap check (B006) finds it.

    ## Example
    "Which service provides a hybrid storage service that enables on-premises applications to
    use cloud storage?" and "Which AWS hybrid storage service enables a user's on-premises
    applications to use AWS Cloud storage?", both keyed AWS Storage Gateway.

    ## Fix
    Delete one copy, or rewrite it to test something else; list the other in `related` if both stay.
    """
    warn_at, below = float(ctx.option("warn-at")), float(ctx.option("below-jaccard"))
    from qlint.bank.paraphrase import paraphrase_pairs  # NumPy: only when B013 runs

    questions, flags = bank.entries, bank.target_flags()
    texts = [" ".join([e.stem, *(text for _, text in e.keys)]).strip() for e in questions]
    best: dict[int, list[tuple[int, float]]] = {}
    sets: dict[int, frozenset[int]] = {}  # shingle sets, made only for the questions a pair names
    for a, b, score in paraphrase_pairs(texts, warn_at, bank.target_indexes()):
        qa, qb = questions[a], questions[b]
        for x in (a, b):
            if x not in sets:
                sets[x] = shingle_sets([questions[x]])[0]
        if jaccard(sets[a], sets[b]) >= below or are_siblings(qa, qb):
            continue
        best.setdefault(a, []).append((b, score))
        best.setdefault(b, []).append((a, score))
    for i, pairs in sorted(best.items()):
        if not flags[i]:
            continue
        j, score = pairs[0]  # paraphrase_pairs is best first
        more = _more_pairs(len(pairs) - 1, "question", f" at {warn_at:g} or more")
        yield Finding("/stem", f"asks what {questions[j].id!r} ({_where(questions[j])}) asks, in other words: "
                               f"character n-gram cosine {score:.2f} over stem and key{more}", path=questions[i].path)


@rule(
    "B007", "key-leak", "warning", scope="bank",
    options={
        "min-key-words": Option(4, "Shortest key text (in words) looked for in other stems.", min=1, max=50),
        "ngram": Option(8, "Length (in words) of an explanation passage that counts as a leak.", min=3, max=50),
        "max-stems": Option(3, "A phrase found in more stems than this is shared wording, not a leak.", min=1, max=1000),
    },
    source="Enemy items (assessment practice); rules.md 'enemy items / key leak'",
    preview=True,
)
def key_leak(bank: Bank, ctx) -> Iterator[Finding]:
    """One question's answer appears in another question's stem (preview).

    Preview: on real banks (scripts/realtext.py) about 1 finding in 20 was a real leak. Most
    "leaks" are a key that is a product or document name ("AWS Cost and Usage report") which
    another stem mentions without saying what this question asks, and explanation passages that
    a near-duplicate stem restates (B006 reports those). A word-for-word match cannot tell the
    two apart: a leak needs the other stem to state the key *with* what this question asks.
    Select it by code (`extend-select = ["B007"]`) to review enemy items before building a form.

    ## What it does
    Reports a stem that contains another question's key text word for word (keys of at least
    `min-key-words` words), or a run of `ngram` words from another question's explanation. Both
    questions of the pair are reported, each naming the other. Phrases the source question's own
    stem uses, and phrases in more than `max-stems` stems (the bank's shared wording), do not count.

    ## Why it matters
    A candidate who meets both questions on one form or one practice set reads the answer to one
    in the other ("enemy items"), so neither measures anything.

    ## Example
    Question A's key is "Enable SageMaker Model Monitor data quality baselines"; question B's
    stem begins "The team has enabled SageMaker Model Monitor data quality baselines and ...".

    ## Fix
    Reword B's scenario so it does not state A's answer, or keep the two off the same form.
    """
    questions = bank.entries
    flags = bank.target_flags()
    leaks = find_leaks(questions, bank.target_indexes(), int(ctx.option("min-key-words")), int(ctx.option("ngram")),
                       int(ctx.option("max-stems")))
    for leak in leaks:
        source, holder = questions[leak.source], questions[leak.stem_of]
        what = "key" if leak.kind == "key" else "explanation"
        if flags[leak.stem_of]:
            yield Finding("/stem", f"stem gives away the answer to {source.id!r} ({_where(source)}): "
                                   f"it repeats that question's {what} {leak.phrase!r}", path=holder.path)
        if flags[leak.source]:
            where = f"/options/{leak.option}/text" if leak.kind == "key" else "/explanation"
            yield Finding(where, f"this {what} text {leak.phrase!r} appears in the stem of {holder.id!r} "
                                 f"({_where(holder)}), which gives this question away", path=source.path)


@rule(
    "B008", "blueprint-coverage", "info", scope="bank",
    options={
        "min-questions": Option(40, "Fewest questions for an exam before its coverage is judged.", min=1, max=100_000),
        "tolerance": Option(5.0, "Percentage points a domain's share may differ from its weight.", min=0.0, max=100.0),
    },
    source="Exam guides' published domain weights (e.g. AWS MLA-C01: 28 / 26 / 22 / 24%); "
           "rules.md 'blueprint coverage'",
)
def blueprint_coverage(bank: Bank, ctx) -> Iterator[Finding]:
    """A domain's share of questions is far from its blueprint weight.

    ## What it does
    For each exam with at least `min-questions` questions in the bank, compares each domain's
    share of questions with the exam's weight for it (weights normalised to 100%), and reports
    domains more than `tolerance` percentage points off on the exam definition's weight line.
    It is a report (severity info), not a failure: the default `--fail-on warning` ignores it.
    It appears when the exam file is among the files checked (`qlint check` on the whole bank).

    ## Why it matters
    A practice bank that under-covers a heavy domain leaves candidates unprepared for a quarter
    of the exam, and over-covering a light one spends their time where few marks are.

    ## Example
    200 MLA-C01 questions, 18 in Data Preparation: 9% against a weight of 28%.

    ## Fix
    Write questions for the under-covered domains (or retire some from the over-covered ones).
    """
    minimum, tolerance = int(ctx.option("min-questions")), float(ctx.option("tolerance"))
    for exams, entries in bank.by_exams():  # each bank's exams against that bank's questions
        cover = figures.blueprint_coverage(entries, exams)
        for code, exam in sorted(exams.items()):
            total = sum(1 for e in entries if e.exam == code)
            weights = sum(d.weight for d in exam.domains) or 1.0
            if total < minimum or not bank.is_target(exam.path):
                continue
            for i, c in enumerate(x for x in cover if x.exam == code):
                weight = 100.0 * c.weight / weights
                if abs(c.share - weight) > tolerance:
                    side = "under" if c.share < weight else "over"
                    yield Finding(f"/domains/{i}/weight",
                                  f"domain {c.domain!r} is {side}-covered: {c.count} of {total} questions ({c.share:.0f}%) "
                                  f"against a weight of {weight:.0f}% (tolerance {tolerance:g} points)", path=exam.path)
