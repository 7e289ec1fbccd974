"""Stem rules (T): what the question asks and how it asks it."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Iterator

from qlint.prose.views import per_text, view
from qlint.model import ITEM_TYPES, Question
from qlint.rules import Finding, Option, rule
from qlint.rules.lexicons import (
    CLAUSE_BREAKS, FINITE_AUXILIARIES, LEAST_QUALITY, NEGATION_IDIOMS, NEGATIONS, NEGATIVE_LEAD, TASK_VERBS, WH_WORDS,
)
from qlint.rules.cues import components
from qlint.rules.parsing import Word, blanks, emphasised, lead_in, stem_body, words
from qlint.prose.sentences import raw_sentences
from qlint.prose.shapes import asks, sentences

_H17 = "Haladyna, Downing & Rodriguez (2002) guideline 17; NBME item-writing guide (Paniagua & Swygert 2016)"


def _is_negation(w: Word, nxt: Word | None, lexicon: tuple[str, ...]) -> bool:
    if w.low == "least":
        return nxt is not None and nxt.low in LEAST_QUALITY
    return w.low in lexicon or w.low.endswith("n't")


_IDIOMS = tuple(idiom.split() for idiom in NEGATION_IDIOMS)


def _idiom_mask(ws: tuple[Word, ...]) -> set[int]:
    """Indexes of words inside a negation idiom ("not only", "at least", "whether or not")."""
    low = [w.low for w in ws]
    masked: set[int] = set()
    for p in _IDIOMS:
        n = len(p)
        for i, w in enumerate(low):  # compare whole idioms only where their first word is
            if w == p[0] and low[i : i + n] == p:
                masked.update(range(i, i + n))
    return masked


def _only_contrast(ws: tuple[Word, ...]) -> set[int]:
    """A "not" that restates an earlier "only" ("Which feature is available only in the paid plan
    and not in the free one?", "... only X but not Y"): the lead-in asks for what X has; the
    negation names the side left out (held-out audit, second round). "not only" is no such "only"."""
    low = [w.low for w in ws]
    if "only" not in low:
        return set()
    first = next((i for i, w in enumerate(low) if w == "only" and (i == 0 or low[i - 1] != "not")), None)
    if first is None:
        return set()
    return {i for i in range(first + 2, len(low)) if low[i] == "not" and low[i - 1] in ("and", "but")}


@per_text
def negative_lead_words(lead: str, lexicon: tuple[str, ...] = NEGATIVE_LEAD) -> tuple[Word, ...]:
    """Negations that make the lead-in ask for the excluded option.

    EXCEPT counts anywhere; other negations only in the main clause: from the wh-word (or the
    start) up to the first clause break, so "so that data does not leave the VPC" is exempt."""
    ws = words(lead)
    masked = _idiom_mask(ws) | _code_words(lead, ws) | _only_contrast(ws)
    start = _question_word(ws)
    # a lead-in that asks for a quantity ("What percentage of the patients had he not seen?")
    # asks for a number: its negation says what is counted, not which option is excluded
    quantity = bool(ws) and bool(_QUANTITY.match(lead, ws[start].start))
    # an opening if-clause is no main clause: "If the costs do not change, compute ..."
    comma = lead.find(",")
    opening = comma if ws and ws[0].low in _SUBORDINATORS and comma > 0 else -1
    found = []
    in_main = True
    for i, w in enumerate(ws):
        if i > start and w.low in CLAUSE_BREAKS:
            in_main = False
        if i in masked:
            continue
        nxt = ws[i + 1] if i + 1 < len(ws) else None
        if w.low == "except" or (in_main and i >= start and not quantity and w.start > opening
                                 and _is_negation(w, nxt, lexicon)):
            found.append(w)
    return tuple(found)


_CODE_SPAN = re.compile(r"`[^`]+`")


def _code_words(lead: str, ws: tuple[Word, ...]) -> set[int]:
    """Indexes of words that are code, not English: inside a code span, or joined to a neighbour by
    a slash ("try/except", "if/else"): keywords of the language being tested."""
    spans = [m.span() for m in _CODE_SPAN.finditer(lead)] if "`" in lead else []
    starts = [a for a, _b in spans]  # in order, not overlapping: one bisection per word, not a scan

    def in_code(at: int) -> bool:
        k = bisect_right(starts, at) - 1
        return k >= 0 and at < spans[k][1]

    return {i for i, w in enumerate(ws)
            if lead[w.start - 1:w.start] == "/" or lead[w.end:w.end + 1] == "/" or (spans and in_code(w.start))}


_SUBORDINATORS = ("if", "when", "whenever", "while", "although", "though", "because", "unless", "once", "after",
                  "before", "since", "until", "given", "assuming")
_QUANTITY = re.compile(r"how\s+(?:many|much)\b|what\s+(?:\w\s+)?(?:%|percent|percentage|fraction|proportion|share|portion|"
                       r"number|amount|is\s+the\s+(?:probability|chance|likelihood|number|percentage|ratio|fraction|"
                       r"proportion|total|sum|value))\b", re.I)


def _question_word(ws: tuple[Word, ...]) -> int:
    """Where the question starts: its first word if that is a wh-word, else the first "what",
    "how" or "why" (rarely relative pronouns), else the first wh-word: in "a child whose father
    did not survive what event?" the question is "what event", "whose" a relative."""
    if not ws or ws[0].low in WH_WORDS:
        return 0
    return next((i for i, w in enumerate(ws) if w.low in ("what", "how", "why")),
                next((i for i, w in enumerate(ws) if w.low in WH_WORDS), 0))


def _lead_and_negations(q: Question, ctx) -> tuple[str, tuple[Word, ...]]:
    lead = lead_in(q.stem)
    return lead, negative_lead_words(lead, tuple(ctx.option("words")))


_NEG_OPTION = {"words": Option(list(NEGATIVE_LEAD), "Negation words in the lead-in (n't contractions always count; "
                                                     "LEAST only before 'likely', 'appropriate', ...).")}


# A true/false item asks whether its statement holds: "True or false?" is its answer format, not a
# lead-in asking for the excluded option, and its "False" option is no negation of the stem.
_TRUE_FALSE = ("true-false",)


# On clue stems ("This actor did not ...") the negation is often the fact that identifies the answer,
# not a request for the excluded option: judged 4 of 6 on opentriviaqa, below the error bar.
@rule("T001", "negative-stem", "error", types=ITEM_TYPES, options=_NEG_OPTION, source=_H17, abstains=_TRUE_FALSE,
      preview_on=("clue",))
def negative_stem(q: Question, ctx) -> Iterator[Finding]:
    """The lead-in asks for the excluded option with an unemphasised NOT, EXCEPT or FALSE.

    ## What it does
    Looks only at the lead-in (the last stem sentence ending in `?` or `:`) for a negation in its
    main clause (from the wh-word to the first "so", "that", "to", "if", "when", ...): `not`,
    `n't`, `cannot`, `never`, `false`, `incorrect`, `wrong`, `except` anywhere, and `least` before
    a quality word ("LEAST likely"). It reports negations written in plain lower case; emphasised
    ones (capitals, `**bold**`, `*italic*`) are T002's, a warning. Not negations: "at least",
    "not only", "whether or not", and AWS criteria such as "LEAST operational overhead".

    ## Why it matters
    Candidates read past an unemphasised "not" and answer the opposite question: the item then
    measures reading speed, not knowledge (H17). Negative stems also teach the wrong fact.

    ## Example
    ```yaml
    stem: Which of the following is not a benefit of Amazon SageMaker Feature Store?
    ```

    ## Fix
    Ask for the correct option instead ("Which benefit does Feature Store provide?"); if the
    negative form is unavoidable, emphasise it: `Which ... is **NOT** ...?` (then T002 warns).
    """
    lead, negs = _lead_and_negations(q, ctx)
    plain_negs = [w for w in negs if not emphasised(lead, w.start, w.end)]
    if plain_negs:
        yield Finding("/stem", f"the lead-in asks a negative question with an unemphasised {plain_negs[0].low!r}: "
                               "rephrase positively, or write it in capitals")


@rule("T002", "emphasised-negative-stem", "warning", types=ITEM_TYPES, options=_NEG_OPTION, source=_H17,
      abstains=_TRUE_FALSE)
def emphasised_negative_stem(q: Question, ctx) -> Iterator[Finding]:
    """The lead-in asks for the excluded option with an emphasised NOT or EXCEPT.

    ## What it does
    The same detection as T001, for negations written in capitals (`NOT`, `EXCEPT`) or inside
    bold or italic markup. Two codes rather than one rule with two severities, so a team can
    allow emphasised negatives (`ignore = ["T002"]`) while still failing plain ones.

    ## Why it matters
    Emphasis prevents misreading, but a negative question still asks candidates to recognise a
    wrong statement rather than recall a right one (H17); use it sparingly.

    ## Example
    ```yaml
    stem: Which of these services does **NOT** encrypt data at rest by default?
    ```

    ## Fix
    Prefer a positive lead-in ("Which service requires encryption to be turned on?").
    """
    lead, negs = _lead_and_negations(q, ctx)
    if negs and all(emphasised(lead, w.start, w.end) for w in negs):
        yield Finding("/stem", f"the lead-in asks a negative question ({lead[negs[0].start:negs[0].end]!r}): "
                               "prefer a positive question")


_LITOTES = re.compile(r"\bnot\s+(?:un[a-z]{3,}|in(?:correct|valid|accurate|appropriate|frequent|consistent|significant|secure|efficient)"
                      r"|im(?:possible|probable|proper)|ir(?:relevant|regular)|il(?:legal|logical)|non-?[a-z]{3,})\b", re.I)


@per_text
def _negation_count(text: str) -> int:
    ws = words(text)
    masked = _idiom_mask(ws)
    return sum(1 for i, w in enumerate(ws) if i not in masked and (w.low in NEGATIONS or w.low.endswith("n't")))


# Preview: judged 12 of 20 on opentriviaqa's report draw (1 of 2 more on its tuning draw). Its
# misfires are negations inside quoted sayings, song titles and quotations the stem shows, which
# that source prints without quotation marks, so no reading of the text tells them apart.
@rule("T003", "double-negative", "error", types=ITEM_TYPES, source="NBME item-writing guide (Paniagua & Swygert 2016): double negatives",
      abstains=_TRUE_FALSE, preview=True)
def double_negative(q: Question, ctx) -> Iterator[Finding]:
    """A negative lead-in meets a second negation, in the lead-in or in an option.

    ## What it does
    When the lead-in is negative (as T001/T002 detect it), reports a second negation in the
    lead-in ("Which is NOT a service that does not ...") or any option that is itself negative
    (`not`, `no`, `never`, `none`, `cannot`, `n't`, ...). Also reports litotes such as
    "not uncommon" or "not incorrect" anywhere in the lead-in.

    ## Why it matters
    Candidates must resolve "which is NOT ... does not" before they can think about the content:
    construct-irrelevant difficulty that penalises careful readers.

    ## Example
    ```yaml
    stem: Which statement about S3 Versioning is NOT true?
    options:
      - {id: a, text: Versioning cannot be suspended once enabled, correct: false}
    ```

    ## Fix
    Rewrite the lead-in positively, or rewrite the negative options as positive statements.
    """
    lead = lead_in(q.stem)
    litotes = _LITOTES.search(lead) if view(lead).may_contain("not") else None
    if litotes:
        yield Finding("/stem", f"the lead-in uses a double negative ({litotes.group(0)!r})")
        return
    negs = negative_lead_words(lead)
    if not negs:
        return
    if _negation_count(lead) >= 2:
        yield Finding("/stem", "the lead-in holds two negations: ask the question positively")
        return
    for o in q.options:
        if _negation_count(o.text):
            yield Finding(f"{o.pointer}/text", f"negative option {o.text.strip()!r} under a negative lead-in makes a double negative")
            return


@rule("T004", "blank-mid-stem", "warning", types=ITEM_TYPES,
      source="Moore, Nguyen, Chen & Stamper (2023) rubric: fill-in-the-blank; Haladyna et al. (2002) guideline 14")
def blank_mid_stem(q: Question, ctx) -> Iterator[Finding]:
    """A fill-in blank (`___`) stands in the middle of the stem rather than at its end.

    ## What it does
    Finds blanks (three or more underscores, `[blank]`) in the stem; reports one that is followed
    by more words before the end of the stem (a "(Choose N.)" note does not count). Lines made
    only of underscores are Markdown rules, not blanks. A blank after a whole sentence that asks
    a question or states a task ("Complete this quotation: ...", "Find the missing number: 8,
    16, ___, 88.") is not reported: that sentence names the blank as the gap to fill, which a
    quotation or sequence places. Nor is a blank inside a code span (`` `TF_____NAME` ``): a
    placeholder in the code shown, which the sentence around it cannot end with.

    ## Why it matters
    A blank in the middle makes candidates hold the whole sentence in memory and re-read it with
    each option; an incomplete statement should end with the blank, or be a question.

    ## Example
    ```yaml
    stem: ___ stores the latest feature values for low-latency lookups.
    ```

    ## Fix
    Ask a question: "Which Feature Store component serves the latest values with low latency?"
    """
    body = stem_body(q.stem)
    code = [c.span() for c in _CODE_SPAN.finditer(body)] if "`" in body else []
    for m in blanks(body):
        if any(a <= m.start() < b for a, b in code):
            continue  # a placeholder in a code literal (`"____"_<name>`): the code has the gap, not the sentence
        rest = body[m.end():]
        if re.search(r"[A-Za-z0-9]", rest):
            if _asked_before(body[:m.start()]):
                return
            yield Finding("/stem", "the fill-in blank is in the middle of the stem: end the stem with it, or ask a question")
            return


def _asked_before(text: str) -> bool:
    """A whole sentence before the blank asks or states the task ("What is the missing word in
    these lyrics?", "Find the missing number in the sequence:"): it names the blank as the gap to
    fill, which a quotation or a sequence places (judged 2 of 16 on opentriviaqa before). A blank
    inside the asking sentence itself ("Which ___ suits archives?") is still mid-stem."""
    said = raw_sentences(text)
    whole = [s for s in said if s.rstrip("*_ )\"'").endswith((".", "?", "!", ":"))]
    return any(s.rstrip("*_ )").endswith("?") or asks(s) for s in whole)


_UNFOCUSED = re.compile(
    r"^\s*(?:which|what)\s+(?:one\s+)?(?:of\s+(?:the\s+following|these|the\s+options|the\s+statements)\s+)?"
    r"(?:statements?\s+|options?\s+|answers?\s+|choices?\s+)?(?:(?:about|regarding|concerning|on|of)\s+[^?]{1,80}?\s+)?"
    r"(?:is|are)\s++(?:\W*+not\W*+(?<=\s))?(?:most\s++)?(?:true|correct|accurate|valid|right|false|incorrect)\b"
    # the adjective ends the question, or a topic follows: "valid migration strategies" names what to pick
    r"(?=\s*(?:[?:.(]|$|(?:about|regarding|of|for|in|on|concerning|with|when|if|as|based)\b))", re.I)
# (`\s+\W*` and `\W*\s+` split a run of spaces every way: quadratic. The possessive runs match the
# same texts: a word follows each run, so a run is taken whole either way.)
# "[...]", "…" and "(...)" stand for the missing words of a completion item, as "___" does
_ELLIPSIS_BLANK = re.compile(r"\[\s*(?:\.\s*){3}\]|\(\s*(?:\.\s*){3}\)|\[\s*…\s*\]|\.{3}|…")
_NUMBERED = re.compile(r"^[^\S\n]*+(?:\d+|[IVXivx]+)[.)]\s++\S", re.M)  # (see options._NUMBERED_STEM)


# A clue ("This gas ...", "He was ...") is answerable before reading the options; a true/false item's statement
# is the thing to judge; a code stem's focus is the code it shows ("Which is true?" about it).
# Numeric options are values: the stem asks for a value even when it reads "Divide 49 into two parts
# such that ..." (judged 0 of 13 on deepmind-aqua-rat, all tasks the rule did not read as tasks).
# Preview on statement stems (no question, task or completion): most are clues the clue shape cannot
# see ("My source of income is ...", "In 1983, riding on board ..., she became ..."): the "asks no
# question" reading judged 4 of 18 (tuning) and 4 of 11 (report, seed 3) on opentriviaqa. The
# "Which statement is true?" reading stays default.
@rule("T005", "unfocused-stem", "warning", types=ITEM_TYPES, abstains=("true-false", "clue", "code-stem", "numeric"),
      preview_on=("statement",),
      source="Haladyna et al. (2002) guideline 15; NBME item-writing guide: the 'cover the options' rule")
def unfocused_stem(q: Question, ctx) -> Iterator[Finding]:
    """The stem states no question or task: it fails the "cover the options" test.

    ## What it does
    Reports a stem that has no sentence ending in `?`, does not end with `:` or a blank, and whose
    last sentence starts with neither a wh-word nor a task verb ("Select", "Identify"); in an
    ordering or matching question any sentence may state the task ("Match each need with ...",
    then how responses may be used). Also
    reports lead-ins that only ask "Which of the following (statements) is (NOT) true/correct/false?"
    (alone or about a topic: "... is true regarding AWS pricing?"), which cannot be answered
    before reading the options, unless the stem lists the numbered statements itself; "Which
    of the following are valid migration strategies?" names what to pick and is focused.
    Completion items (a blank such as `___` or `[...]`, or a stem that stops mid-sentence) are
    focused.

    ## Why it matters
    A focused stem lets a knowledgeable candidate answer before looking at the options; an
    unfocused one turns the item into a set of true/false statements.

    ## Example
    ```yaml
    stem: Amazon SageMaker Model Monitor and data drift.
    ```

    ## Fix
    End with the question the options answer: "Which Model Monitor schedule detects feature drift
    without ground-truth labels?"
    """
    body = stem_body(q.stem)
    lead = lead_in(q.stem)
    if _UNFOCUSED.match(lead) and not _NUMBERED.search(body):
        yield Finding("/stem", "the lead-in only asks which statement is true: state the problem the options solve")
        return
    said = sentences(body)
    if not said:
        return
    if any(s.rstrip("*_ )").endswith("?") for s in said) or body.rstrip("*_ ").endswith(":"):
        return
    if blanks(body) or _ELLIPSIS_BLANK.search(body) or not body.rstrip("*_ )").endswith((".", "!")):
        return  # a completion item: the options finish the statement
    # an ordering or matching task may be followed by how to answer ("Each response is used once.")
    for sentence in (said[-1:] if q.is_choice else said):
        first = view(sentence).tokens[:1]
        if first and (first[0] in WH_WORDS or first[0] in TASK_VERBS or first[0] in _ASKING_AUXILIARIES) or asks(sentence):
            return  # a question or a task, its "?" aside ("Can you name the series ...")
    if q.is_choice and _describes(said[-1]) and all(_names_a_thing(o.text) for o in q.options):
        return  # a description whose options are names: "which is it?" is the task, and it is plain
    yield Finding("/stem", "the stem asks no question: end it with the question or task the options answer")


# a sentence opening with one of these asks a yes/no or "can you" question
_ASKING_AUXILIARIES = frozenset({"can", "could", "do", "does", "did", "is", "are", "was", "were", "will", "would"})


def _describes(sentence: str) -> bool:
    """The sentence describes something (it has a finite verb: "He was head of a union"), unlike a
    topic label ("Amazon S3 and its storage classes."), which says nothing to identify."""
    toks = view(sentence).tokens
    return any(t in FINITE_AUXILIARIES or t in ("has", "have", "had") or (len(t) > 4 and t.endswith("ed"))
               for t in toks)


def _names_a_thing(text: str) -> bool:
    """A short option that is no sentence (at most five words, no final period): a name or value."""
    words = view(text).tokens
    return 0 < len(words) <= 5 and not text.rstrip().endswith(".")


_WHICH_N = re.compile(r"\b(?:which|what)\s+(two|three|four|five|six|[2-6])\b(?:\s+(words?)\b)?", re.I)
# An open count is an instruction only when it is about choosing: "Select all that apply",
# "(Choose one or more.)", "Which one or more of the following ...". "Traffic for one or more
# instances" describes the scenario.
_OPEN_COUNT = re.compile(r"\b(?:all\s+that\s+apply|any\s+that\s+apply|(?:(?:choose|select|pick|mark)\s+|which\s+)one\s+or\s+more"
                         r"|one\s+or\s+more\s+(?:answers?|options?|choices?|responses?)(?!\s+\w+\s+(?:is|are)\b)"
                         r"|\(\s*one\s+or\s+more\s*\.?\s*\))", re.I)
_CHOOSE_ONE = re.compile(r"\b(?:choose|select|pick)\s+(?:one|1|the\s+best\s+answer)\b", re.I)
_N = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _options_hold(q: Question, n: int, words: bool = False) -> bool:
    """True if one option answers "Which two ...?": every option names `n` things ("Security
    Groups and Network ACLs"), or the one key does, a distractor naming more or fewer ("B6, B2
    and B12" beside "B9 and B12"); "What two words ...?" counts the key's words. An appositive
    comma ("his tutor, Cornelius") splits no thing: the parts joined by "and" count too."""
    if q.options and all(len(components(o.text)) == n for o in q.options):
        return True
    keys = [o.text for o in q.options if o.correct]
    if len(keys) != 1:
        return False
    key = keys[0]
    if words:
        return len(re.findall(r"[^\W_]+", key)) == n
    return len(components(key)) == n or len(re.split(r"\s+(?:and|&)\s+", key.strip())) == n


# every wording it reads ("which two", "all that apply", "choose one" on a multiple item) makes a select-n item
@rule("T006", "choose-n-wording", "error", judges=("select-n",), source="Exam format (AWS multiple-response items state 'Choose N'); "
                                                   "complements K002's key count")
def choose_n_wording(q: Question, ctx) -> Iterator[Finding]:
    """The stem's wording of how many to choose disagrees with the question type.

    ## What it does
    K002 already compares the key count with `choose` and with "(Choose N.)"/"Select N" in the
    stem. This rule covers the wordings K002 does not parse:
    - "Which TWO actions ...?" whose number differs from `choose` (1 for `single`), unless
      every option of a single-answer item, or its one key, names that many things ("Security
      Groups and Network ACLs" answers "What two parts ...?"; "What two words ...?" counts
      the key's words);
    - open counts as instructions ("Select all that apply", "Choose one or more", "(one or
      more)"), which no AWS-style item uses and which need a fixed `choose`; "one or more" in
      the scenario ("traffic for one or more instances") is no instruction;
    - "Choose one"/"Select the best answer" in a `multiple` question.

    ## Why it matters
    Candidates follow the words; a stem that says "which two" on a single-answer item, or "all
    that apply" on a fixed-count item, is scored against a different question than it asks.

    ## Example
    ```yaml
    type: single
    stem: Which two services can store the features? ...
    ```

    ## Fix
    Make the wording, `type` and `choose` agree: "(Choose TWO.)" with `type: multiple`, `choose: 2`.
    """
    stem = q.stem
    text = view(stem)
    m = _OPEN_COUNT.search(stem) if text.may_contain("apply", "more") else None
    if m:
        yield Finding("/stem", f"the stem asks for {m.group(0)!r}: state a fixed number ('Choose TWO.') and set choose")
        return
    asks_n = text.may_contain("which", "what") and text.may_contain(*_N, *"23456")
    for m in _WHICH_N.finditer(stem) if asks_n else ():
        n = _N.get(m.group(1).lower()) or int(m.group(1))
        if n != q.choose and not (q.choose == 1 and _options_hold(q, n, bool(m.group(2)))):
            yield Finding("/stem", f"the stem asks {m.group(0)!r} but the question expects {q.choose} answer(s)")
            return
    if q.type == "multiple" and _CHOOSE_ONE.search(stem):
        yield Finding("/stem", f"the stem says {_CHOOSE_ONE.search(stem).group(0)!r} but choose is {q.choose}")


@rule("T007", "window-dressing", "info", types=ITEM_TYPES, default_enabled=False,
      options={"max-words": Option(120, "Word budget for the stem (no published figure: a team choice, "
                                        "above the 40-80 words typical of associate-level scenarios).", min=1, max=10_000)},
      source="Haladyna et al. (2002) guidelines 13 and 16 (avoid window dressing, excessive verbiage)")
def window_dressing(q: Question, ctx) -> Iterator[Finding]:
    """The stem is longer than the word budget (off by default).

    ## What it does
    Counts the words of the stem (Markdown markup and the "(Choose N.)" note excluded) and
    reports stems over `max-words`. Off by default: enable it with `extend-select = ["T007"]`
    and set the budget to your bank's norm.

    ## Why it matters
    Details that do not bear on the answer make the item a reading test and slow every candidate;
    long scenarios should earn their length with constraints the options depend on.

    ## Example
    A 200-word stem that recounts the company's history before asking which metric to monitor.

    ## Fix
    Cut sentences that no option's rationale refers to.
    """
    n = len(view(stem_body(q.stem)).tokens)
    budget = int(ctx.option("max-words"))
    if n > budget:
        yield Finding("/stem", f"the stem has {n} words, over the budget of {budget}: cut details the options do not depend on")
