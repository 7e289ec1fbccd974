"""The core rules: rationales (K001), key count (K002), exam trap (K003), distractors' right-when (K005).
Key agreement read option by option (K004, K010, K011) is in `qlint.rules.agreement`."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.prose.views import per_text, view
from qlint.diagnostic import Edit, Fix
from qlint.model import CHOICE_TYPES, ITEM_TYPES, ORDERING, OptionView, Question
from qlint.rules import Finding, Option, rule
from qlint.text import holds_placeholder, normalise

PLACEHOLDERS = frozenset(
    normalise(p)
    for p in (
        "incorrect", "correct", "wrong", "right", "true", "false", "yes", "no", "n/a", "na", "none", "tbd",
        "todo", "tba", "fixme", "xxx", "-", "...", "see explanation", "see above", "see below",
        "this is incorrect", "this is correct", "this is wrong", "incorrect answer", "correct answer",
        "wrong answer", "not correct", "distractor", "the key", "lorem ipsum",
    )
)

NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
CHOOSE_N = re.compile(r"\b(?:choose|select|pick|mark|identify|check)\s+(two|three|four|five|six|[2-6])\b", re.I)
NUMBER_NAMES = {2: "TWO", 3: "THREE", 4: "FOUR", 5: "FIVE", 6: "SIX"}


def _is_placeholder(text: str) -> bool:
    return view(text).normal in PLACEHOLDERS


def rationale_flaw(text: str, min_words: int) -> str | None:
    """What is wrong with a rationale that is there: "empty", "placeholder", "short" or None.
    K001 (options) and P001 (steps, pairs) word their findings each for its own parts."""
    if not text.strip():
        return "empty"
    if _is_placeholder(text):
        return "placeholder"
    return "short" if len(view(text).tokens) < min_words else None


@rule(
    "K001", "option-rationale", "error",
    options={
        "min-words": Option(4, "A rationale shorter than this many words is treated as a placeholder.", min=0, max=200),
    },
    source="Team standard; Haladyna et al. (2002); rules.md 'the four rules'",
)
def option_rationale(q: Question, ctx) -> Iterator[Finding]:
    """Every option explains why it is right or wrong in this question.

    ## What it does
    Checks that every option has a `rationale` that is present, not empty, not a placeholder
    ("Incorrect.", "See explanation", "TBD"), at least `min-words` words long, and not identical
    (after folding case, spacing and punctuation) to the rationale of an option on the other side
    of the key (two distractors may fail for one reason).

    ## Why it matters
    Learners learn from why a wrong option is wrong *here*; a bare "Incorrect." teaches nothing,
    and a copied rationale usually means an edit went to the wrong option.

    ## Example
    ```yaml
    - id: data-parallel
      text: Data parallelism
      correct: false
      rationale: Incorrect.
    ```

    ## Fix
    Say why this option fails the scenario's requirement:
    ```yaml
      rationale: Each GPU still holds a full replica of the weights, so per-GPU memory does not shrink.
    ```
    """
    min_words = int(ctx.option("min-words"))
    seen: dict[str, list[int]] = {}
    for o in q.options:
        text = o.rationale
        if text is None:
            yield Finding(o.pointer, f"option {o.id!r} has no rationale: say why it is {'right' if o.correct else 'wrong'} here")
            continue
        where = f"{o.pointer}/rationale"
        flaw = rationale_flaw(text, min_words)
        if flaw == "empty":
            yield Finding(where, f"option {o.id!r} has an empty rationale")
        elif flaw == "placeholder":
            yield Finding(where, f"option {o.id!r} has a placeholder rationale {text.strip()!r}: explain why")
        elif flaw == "short":
            yield Finding(where, f"option {o.id!r} has a rationale of {len(view(text).tokens)} words; "
                                 f"write at least {min_words}")
        if flaw:
            continue
        key = view(text).normal
        # one reason for a key and a distractor contradicts itself (an edit went to the wrong option);
        # two distractors may fail for one reason (carpentries report draw: a shared reason, right for both)
        other = next((q.options[i] for i in seen.get(key, ()) if q.options[i].correct != o.correct), None)
        if other is not None:
            yield Finding(where, f"option {o.id!r} repeats the rationale of option {other.id!r}")
        seen.setdefault(key, []).append(o.index)


_CHOOSE_N_HINT = re.compile(r"(?:choose|select|pick|mark|identify|check)\s+(?:two|three|four|five|six|[2-6])")


@per_text
def stated_choose(stem: str) -> tuple[int, ...]:
    if not view(stem).may_find(_CHOOSE_N_HINT):  # CHOOSE_N without \b and case: tried on lower-case text
        return ()
    return tuple(NUMBER_WORDS[m.group(1).lower()] for m in CHOOSE_N.finditer(stem))


# The count written as the determiner of what is asked for ("Which TWO of the following ...", "Name
# three ...") or as one of each ("one benefit and one drawback"): a multiple question's stem states
# its count that way too, also after a copula ("What are two characteristics of ...?", "Which are
# the three ..."). Not read for a single question: "What two colours make green?" keys one option
# that names both.
_NAMED_N = re.compile(r"\b(?:(?:which|what)(?:\s+(?:are|were))?(?:\s+the)?|name|list|give)\s+(two|three|four|five|six|[2-6])\b",
                      re.I)
_ONE_AND_ONE = re.compile(r"\bone\s+\w+(?:\s+\w+)?\s+and\s+one\s+\w+", re.I)


@per_text
def named_count(stem: str) -> tuple[int, ...]:
    named = tuple(NUMBER_WORDS[m.group(1).lower()] for m in _NAMED_N.finditer(stem))
    return named or ((2,) if _ONE_AND_ONE.search(stem) else ())


@rule(
    "K002", "key-count", "error",
    source="Exam format (AWS: 'Choose TWO'); rules.md 'the four rules'",
    fixable=True,
)
def key_count(q: Question, ctx) -> Iterator[Finding]:
    """The number of keyed options matches the question type and what the stem asks for.

    ## What it does
    A `single` question has exactly one option with `correct: true`. A `multiple` question has
    exactly `choose` keyed options, fewer than its option count, and its stem states that number
    ("Choose TWO.", "Select three", "Which TWO of the following ...", "one benefit and one
    drawback"). A `single` stem must not ask to choose several.

    ## Why it matters
    A key count that disagrees with the stem is unanswerable or scored wrongly by every platform.

    ## Example
    ```yaml
    type: single
    options:
      - {id: a, text: ..., correct: true, ...}
      - {id: b, text: ..., correct: true, ...}
    ```

    ## Fix
    Key exactly one option, or make the question `type: multiple` with `choose: 2` and
    "(Choose TWO.)" in the stem. `qlint check --fix` adds the missing "(Choose N.)" sentence.
    """
    keys = q.keys
    stated = stated_choose(q.stem)
    if q.type == "single":
        if len(keys) != 1:
            where = keys[1].pointer + "/correct" if len(keys) > 1 else "/options"
            names = ", ".join(repr(k.id) for k in keys) or "none"
            yield Finding(where, f"single-answer question has {len(keys)} keyed options ({names}); key exactly one")
        if any(n > 1 for n in stated):
            yield Finding("/stem", f"stem asks to choose {max(stated)} but the question type is single")
        return
    n = q.choose
    stated = stated or named_count(q.stem)
    if n >= len(q.options):
        yield Finding("/choose", f"choose is {n} but the question has only {len(q.options)} options")
    if len(keys) != n:
        yield Finding("/options", f"question asks for {n} answers but {len(keys)} options are keyed")
    if not stated:
        word = NUMBER_NAMES.get(n, str(n))
        fixed = q.stem.rstrip() + f" (Choose {word}.)" + ("\n" if q.stem.endswith("\n") else "")
        yield Finding("/stem", f"stem does not say how many to choose; add \"(Choose {word}.)\"",
                      fix=Fix(f"append '(Choose {word}.)' to the stem", (Edit("/stem", fixed),)))
    elif any(s != n for s in stated):
        yield Finding("/stem", f"stem asks to choose {stated[0]} but choose is {n}")


def _overlaps(text: str, options: list[OptionView]) -> dict[int, int]:
    words = view(text).content()
    return {o.index: len(words & view(o.text).content()) for o in options}


@rule(
    "K003", "exam-trap", "error", types=ITEM_TYPES,
    source="Team standard; rules.md 'trap present'",
)
def exam_trap(q: Question, ctx) -> Iterator[Finding]:
    """The "common exam trap" note is present and points at a distractor.

    ## What it does
    Checks that `trap` exists and is not a placeholder, and that it shares at least one content
    word with the stem (the keyword candidates miss); every item type has a trap. In single and
    multiple questions it also checks that the option the trap overlaps most (shared content
    words with the option text) is a distractor, not the key (ordering and matching traps name
    a wrong order or pairing: P009). A trap that overlaps a
    distractor and the key equally ("candidates confuse data parallelism with model
    parallelism") names the tempting distractor and passes. A trap still holding a TODO marker
    is F002's.

    ## Why it matters
    The trap is the part of the page learners remember: which wrong answer tempts them and why.
    A trap that describes the key, or names no option, teaches the wrong lesson.

    ## Example
    ```yaml
    trap: Model parallelism is the answer because the model is large.
    ```

    ## Fix
    Name the tempting distractor and the stem keyword that rules it out:
    ```yaml
    trap: Candidates pick data parallelism by habit and miss the memory limit in the stem.
    ```
    """
    trap = q.trap
    if trap is None:
        wrong = "option" if q.is_choice else "order" if q.type == "ordering" else "pairing"
        yield Finding("", f"question has no 'trap': name the wrong {wrong} candidates pick and why", at_key=False)
        return
    if not trap.strip() or _is_placeholder(trap):
        yield Finding("/trap", "the trap note is empty or a placeholder")
        return
    if holds_placeholder(trap):
        return  # an unfinished trap (a fresh `qlint new` scaffold): F002 reports it
    if q.is_choice:  # ordering and matching traps name a wrong order or pairing: P009 reads them
        over = _overlaps(trap, q.options)
        best_d = max((over[o.index] for o in q.distractors), default=0)
        best_k = max((over[o.index] for o in q.keys), default=0)
        if best_d == 0 and best_k == 0:
            yield Finding("/trap", "the trap names no option: say which distractor candidates pick")
        elif best_k > best_d:  # a tie names a distractor as well: the trap contrasts the two
            key = max(q.keys, key=lambda o: over[o.index])
            yield Finding("/trap", f"the trap points at the key {key.text.strip()!r} rather than a distractor")
    if not (view(trap).content() & view(q.stem).content()):
        yield Finding("/trap", "the trap shares no word with the stem: name the keyword candidates miss")


RIGHT_WHEN = re.compile(
    r"\b(would|could|might) (be|suit|fit|work|help|make sense)|\bsuits?\b|\bsuited\b|\bbetter (choice|fit|option|suited)"
    r"|\b(appropriate|right|correct|useful|ideal|best|good choice) (when|if|for)\b|\buse (it|this|them) (when|if|for)\b"
    r"|\b(meant|designed|intended|built) for\b|\bfits? (when|if)\b|\bis the answer when\b"
)


@rule(
    "K005", "distractor-right-when", "warning", types=(*CHOICE_TYPES, ORDERING),
    source="Team standard (the seed page does this for every distractor); rules.md 'Key agreement' 4",
)
def distractor_right_when(q: Question, ctx) -> Iterator[Finding]:
    """Each distractor says when it WOULD be the right answer.

    ## What it does
    Checks that every distractor (and every distractor step of an ordering question) has a
    `right_when` field, or a rationale that says when the option would be right ("would be the better choice when ...", "suits ...", "designed for ...").

    ## Why it matters
    Certification exams reuse the same options in other scenarios; knowing when a distractor is
    right is what lets a learner answer the next question.

    ## Example
    ```yaml
    - id: data-parallel
      text: Data parallelism
      correct: false
      rationale: Each GPU still holds every weight, so memory does not shrink.
    ```

    ## Fix
    ```yaml
      right_when: The network fits on one GPU and the goal is faster training on more data.
    ```
    """
    for d in (q.distractors if q.is_choice else [s for s in q.steps if not s.correct]):
        if d.right_when.strip():
            continue
        if d.rationale and RIGHT_WHEN.search(view(d.rationale).normal):
            continue
        kind = "distractor" if q.is_choice else "distractor step"
        yield Finding(d.pointer, f"{kind} {d.id!r} does not say when it would be the right answer (add right_when)")
