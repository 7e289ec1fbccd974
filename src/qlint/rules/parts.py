"""Rules for ordering and matching questions: their steps, prompts and responses.

An ordering question lists its keyed steps in the correct order (distractor steps say
`correct: false`); a matching question pairs each prompt with one response by id, and keeps at
least one surplus response. The data checks (P004-P006) live in `qlint.prose.soundness`, which
every exporter runs too.
"""

from __future__ import annotations

import re
from typing import Iterator

from qlint.model import MATCHING, ORDERING, Question
from qlint.prose.soundness import data_errors
from qlint.prose.views import view
from qlint.rules import Finding, Option, rule
from qlint.rules.core import _is_placeholder, rationale_flaw
from qlint.text import holds_placeholder

NEW_TYPES = (ORDERING, MATCHING)
_EXAM = "Exam format (AWS MLA-C01 / AIF-C01 exam guides: ordering 3-5 steps, matching 3-7 prompts)"
_GATE = "; every export refuses such a question, whatever the configuration"
_TEACH = "Team standard: the seed page's 'why' for every choice, applied to every step and pair"


def _pairs(q: Question) -> dict[str, list[int]]:
    """Response id -> indexes of the prompts matched to it."""
    out: dict[str, list[int]] = {}
    for p in q.prompts:
        out.setdefault(p.match, []).append(p.index)
    return out


def _surplus(q: Question):
    matched = {p.match for p in q.prompts}
    return [r for r in q.responses if r.id not in matched]


@rule("P001", "part-rationale", "error", types=NEW_TYPES, source=_TEACH,
      options={"min-words": Option(4, "A rationale shorter than this many words is treated as a placeholder.", min=0, max=200)})
def part_rationale(q: Question, ctx) -> Iterator[Finding]:
    """Every step, every pair and every surplus response says why.

    ## What it does
    In an ordering question, checks that every step (keyed or distractor) has a `rationale`; in
    a matching question, that every prompt (the rationale of its pair) and every surplus
    response (one that matches no prompt) has one. A rationale must not be empty, a placeholder
    ("Correct.", "TBD"), shorter than `min-words` words, or a copy of another's rationale.

    ## Why it matters
    A learner who put two steps the wrong way round needs to read why the first comes first; a
    learner who paired a need with the wrong service needs the reason for the right pair. The
    score alone ("2 of 4 pairs right") teaches nothing.

    ## Example
    ```yaml
    steps:
      - id: create-model
        text: Create a model that names the image and the artifact
      - id: create-endpoint-config
        text: Create an endpoint configuration
        rationale: Second.
    ```

    ## Fix
    Say why the step sits where it does (or why the pair belongs together):
    ```yaml
        rationale: |
          The endpoint configuration names the model, so the model must exist first.
    ```
    """
    min_words = int(ctx.option("min-words"))
    parts = [(s, "step") for s in q.steps] if q.type == ORDERING else (
        [(p, "prompt") for p in q.prompts] + [(r, "surplus response") for r in _surplus(q)])
    seen: dict[str, str] = {}
    for part, kind in parts:
        text = part.rationale
        if text is None:
            why = "why it sits in this position" if kind == "step" and part.correct else \
                "why it belongs in no position" if kind == "step" else \
                "why the pair belongs together" if kind == "prompt" else "why it matches no prompt"
            yield Finding(part.pointer, f"{kind} {part.id!r} has no rationale: say {why}")
            continue
        where = f"{part.pointer}/rationale"
        flaw = rationale_flaw(text, min_words)
        if flaw in ("empty", "placeholder"):
            yield Finding(where, f"{kind} {part.id!r} has an empty or placeholder rationale")
        elif flaw == "short":
            yield Finding(where, f"{kind} {part.id!r} has a rationale of {len(view(text).tokens)} words; "
                                 f"write at least {min_words}")
        if flaw:
            continue
        key = view(text).normal
        if key in seen:
            yield Finding(where, f"{kind} {part.id!r} repeats the rationale of {seen[key]}")
        else:
            seen[key] = f"{kind} {part.id!r}"


@rule("P002", "part-count", "warning", types=NEW_TYPES, source=_EXAM)
def part_count(q: Question, ctx) -> Iterator[Finding]:
    """An ordering question keys 3 to 5 steps; a matching question has 3 to 7 prompts.

    ## What it does
    Counts the keyed steps of an ordering question (distractor steps aside) and the prompts of a
    matching question, and reports counts outside the exam's limits.

    ## Why it matters
    The exam guides define the item types by these limits: "select and order 3-5 responses",
    "match responses with 3-7 prompts". Two steps are a coin toss; eight prompts are a reading
    test. Practice items outside the limits train for another exam.

    ## Example
    ```yaml
    type: ordering
    steps: [{id: a, ...}, {id: b, ...}, {id: c, correct: false, ...}]  # two keyed steps
    ```

    ## Fix
    Add a keyed step (or split the task), or drop prompts into a second matching question.
    """
    if q.type == ORDERING:
        n = len(q.key_order)
        if not 3 <= n <= 5:
            yield Finding("/steps", f"{n} keyed step{'s' if n != 1 else ''}; the exam orders 3 to 5")
    else:
        n = len(q.prompts)
        if not 3 <= n <= 7:
            yield Finding("/prompts", f"{n} prompt{'s' if n != 1 else ''}; the exam matches 3 to 7")


@rule("P003", "surplus-response", "warning", types=(MATCHING,), source=_EXAM + "; the last pair is otherwise forced")
def surplus_response(q: Question, ctx) -> Iterator[Finding]:
    """A matching question keeps at least one response that matches no prompt.

    ## What it does
    Reports a matching question in which every response is matched by some prompt.

    ## Why it matters
    With as many responses as prompts, a candidate who knows all pairs but one gets the last one
    free: it is the response left over. A surplus response makes every pair count.

    ## Example
    ```yaml
    prompts: [{id: drift, match: model-monitor}, {id: explain, match: clarify}, {id: audit, match: cloudtrail}]
    responses: [{id: model-monitor}, {id: clarify}, {id: cloudtrail}]
    ```

    ## Fix
    Add a plausible response that fits none of the prompts, with a rationale saying why:
    ```yaml
      - id: ground-truth
        text: SageMaker Ground Truth
        rationale: Ground Truth labels data with human workers; it monitors nothing in production.
    ```
    """
    if q.responses and not _surplus(q):
        yield Finding("/responses", f"every one of the {len(q.responses)} responses is matched: add a surplus "
                                    "response, or the last pair is given away")


@rule("P004", "duplicate-part-id", "error", types=NEW_TYPES,
      source="Data correctness: ids key the answer, the order, the pairs and the feedback in every export" + _GATE)
def duplicate_part_id(q: Question, ctx) -> Iterator[Finding]:
    """Two steps, prompts or responses of a question share an id.

    ## What it does
    Reports a step whose id an earlier step uses, and the same for prompts and responses; a
    prompt and a response must not share an id either (QTI keys both sides of a match by id).
    Ids are compared as a reader sees them, as S005 compares option ids.

    ## Why it matters
    The key order, the pairs and each step's feedback are keyed by id: with two steps under one
    id no export can say which goes first. No export writes such a question.

    ## Example
    ```yaml
    steps:
      - {id: create-model, text: Create the model}
      - {id: create-model, text: Create the endpoint configuration}
    ```

    ## Fix
    Give the later one an id of its own (ids are never shown to learners).
    """
    for e in data_errors(q):
        if e.code == "P004":
            yield Finding(e.pointer, e.message)


@rule("P005", "part-text", "error", types=NEW_TYPES,
      source="Data correctness: a learner must tell every step, prompt and response apart" + _GATE)
def part_text(q: Question, ctx) -> Iterator[Finding]:
    """A step, prompt or response shows no text, or the same text as another of its list.

    ## What it does
    Reports a step, prompt or response whose `text` renders to nothing (blank, invisible
    characters, empty markup), and one whose text is the same as an earlier one's in the same
    list (compared as a reader sees them: case, spacing, look-alike characters folded).

    ## Why it matters
    Two responses that read the same make a pair unscoreable (the learner cannot tell which is
    meant); a blank step is a free give-away. No export writes such a question.

    ## Example
    ```yaml
    responses:
      - {id: monitor, text: SageMaker Model Monitor}
      - {id: monitor-2, text: SageMaker  Model Monitor}
    ```

    ## Fix
    Write distinct texts, or delete the copy.
    """
    for e in data_errors(q):
        if e.code == "P005":
            yield Finding(e.pointer, e.message)


@rule("P006", "unknown-match", "error", types=(MATCHING,),
      source="Data correctness: a pair whose response does not exist cannot be answered" + _GATE)
def unknown_match(q: Question, ctx) -> Iterator[Finding]:
    """A prompt's `match` names no response of the question.

    ## What it does
    Checks each prompt's `match` against the ids of the question's responses.

    ## Why it matters
    The key of that pair does not exist: no answer scores it, in any export. Usually a response
    was renamed and the prompt was not. No export writes such a question.

    ## Example
    ```yaml
    prompts:
      - {id: drift, text: Detect input drift, match: model-monitr}
    ```

    ## Fix
    Correct the id (qlint lists the responses' ids).
    """
    for e in data_errors(q):
        if e.code == "P006":
            yield Finding(e.pointer, e.message)


@rule("P007", "shared-response", "warning", types=(MATCHING,), source=_EXAM + "; each response is used at most once")
def shared_response(q: Question, ctx) -> Iterator[Finding]:
    """Two prompts are matched to the same response.

    ## What it does
    Reports every prompt whose `match` an earlier prompt already uses.

    ## Why it matters
    The exam pairs prompts and responses one to one; when a response serves two prompts,
    candidates who assume one-to-one pairing (as the exam trains them to) are marked wrong for
    knowing the format, and platforms that offer each response once cannot show the item.

    ## Example
    ```yaml
    prompts:
      - {id: drift, match: model-monitor}
      - {id: bias-drift, match: model-monitor}
    ```

    ## Fix
    Give each prompt its own response, or merge the two prompts.
    """
    for rid, indexes in _pairs(q).items():
        for i in indexes[1:]:
            p = q.prompts[i]
            first = q.prompts[indexes[0]]
            yield Finding(f"{p.pointer}/match", f"prompt {p.id!r} is matched to {rid!r} like prompt {first.id!r}; "
                                                "the exam pairs each response with one prompt")


_POSITION_LEAD = re.compile(
    r"^\s*(?:\*\*|__)?(?:(?:step\s+)?\d+\s*[.):]|step\s+(?:\d+|one|two|three|four|five)\b|[a-e]\)"
    r"|(?:first|firstly|then|next|finally|lastly|afterwards|afterward|second|secondly|third|thirdly|fourth|fifth"
    r"|last|subsequently|after\s+that|to\s+(?:begin|start|finish|end))\b)", re.I)
_POSITION_TAIL = re.compile(r"\b(?:first|last|next|afterwards|at\s+the\s+end|at\s+the\s+start)\W*$", re.I)


@rule("P008", "position-cue", "warning", types=(ORDERING,),
      source="Haladyna et al. (2002) guideline 28 (no clues to the answer), applied to ordering items")
def position_cue(q: Question, ctx) -> Iterator[Finding]:
    """A step's text gives its position away.

    ## What it does
    Reports a step whose text starts with a position word ("First", "Then", "Next", "Finally",
    "Lastly", "Afterwards", "Second", "After that", "To begin"), with numbering ("1.", "2)",
    "Step 3", "b)"), or ends with "first", "last", "next" or "afterwards". Relative words inside
    the text ("before training") are not reported: they describe what the step does.

    ## Why it matters
    Steps are shown shuffled; a step that says "Finally, ..." or "Step 2" tells the candidate
    where it goes without any knowledge of the task.

    ## Example
    ```yaml
    - id: create-endpoint
      text: Finally, create the endpoint from the configuration
    ```

    ## Fix
    State the action alone: "Create the endpoint from the configuration". The position goes in
    the rationale ("Third: ...").
    """
    for s in q.steps:
        text = view(s.text).plain.strip()
        m = _POSITION_LEAD.search(text) or _POSITION_TAIL.search(text)
        if m:
            yield Finding(f"{s.pointer}/text", f"step {s.id!r} gives its position away ({m.group(0).strip()!r}): "
                                               "state the action alone")


def _distinct(texts: list[str]) -> list[frozenset[str]]:
    """Per text, its content words that no other text of the list has."""
    words = [view(t).content() for t in texts]
    return [w - frozenset().union(*(o for j, o in enumerate(words) if j != i)) for i, w in enumerate(words)]


_ORDER_WORDS = re.compile(r"\b(?:before|after|first|last|order|sequence|skip|skipping|swap|earlier|later|until|then"
                          r"|precede|precedes|follow|follows|reverse|backwards?|ahead)\b", re.I)


@rule("P009", "order-trap", "warning", types=NEW_TYPES, source="Team standard; rules.md 'trap present' (K003 for "
                                                                 "ordering and matching)")
def order_trap(q: Question, ctx) -> Iterator[Finding]:
    """The trap names a tempting wrong order or a tempting wrong pairing.

    ## What it does
    Reads the trap as K003 does (shared content words), against the steps, prompts and responses.
    An ordering trap must name a distractor step, two keyed steps (the order candidates swap), or
    one keyed step with an order word ("before", "after", "skip", "first"). A matching trap must
    name a surplus response, two responses, or a response together with a prompt it does not
    match. Only words that set a step (response, prompt) apart from the others count, so
    "SageMaker" in every response names none. K003 still checks the trap exists and shares a
    word with the stem. A trap still holding a TODO marker is F002's.

    ## Why it matters
    What learners remember from an ordering or matching item is the mistake it warns about: which
    steps they would swap, which extra step they would add, which service they would pair with
    the wrong need. A trap that only restates the key warns about nothing.

    ## Example
    ```yaml
    trap: Candidates forget that the model needs an endpoint.
    ```

    ## Fix
    Name the wrong order or pairing and what rules it out:
    ```yaml
    trap: |
      Candidates create the endpoint configuration before the model, missing that the
      configuration names an existing model.
    ```
    """
    trap = q.trap
    if trap is None or not trap.strip() or _is_placeholder(trap):
        return  # K003 reports it
    if holds_placeholder(trap):
        return  # an unfinished trap (a fresh `qlint new` scaffold): F002 reports it
    words = view(trap).content()
    if q.type == ORDERING:
        steps = q.steps
        named = [s for s, own in zip(steps, _distinct([s.text for s in steps])) if own & words]
        if any(not s.correct for s in named) or sum(s.correct for s in named) >= 2:
            return
        if named and _ORDER_WORDS.search(view(trap).plain):
            return
        what = f"names only the step {named[0].id!r}" if named else "names no step"
        yield Finding("/trap", f"the trap {what}: say which wrong order or extra step candidates pick")
        return
    responses = q.responses
    own_r = _distinct([r.text for r in responses])
    own_p = _distinct([p.text for p in q.prompts])
    named_r = [r for r, own in zip(responses, own_r) if own & words]
    named_p = [p for p, own in zip(q.prompts, own_p) if own & words]
    surplus = {r.id for r in _surplus(q)}
    if len(named_r) >= 2 or any(r.id in surplus for r in named_r):
        return
    if named_r and any(p.match != named_r[0].id for p in named_p):
        return
    what = (f"names only the pair {named_p[0].id!r} - {named_r[0].id!r}" if named_r and named_p
            else f"names the response {named_r[0].id!r} but no prompt it could be mistaken for" if named_r
            else "names no response")
    yield Finding("/trap", f"the trap {what}: say which wrong pairing candidates pick")


_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5}
_RATIONALE_ORDINAL = re.compile(r"^\s*(?:\*\*|__)?(first|second|third|fourth|fifth|sixth|last|finally)\b", re.I)
_REVERSING = re.compile(r"\b(?:before|after|until|once|requires?|required|depends?|needs?|prerequisite|preceded"
                        r"|followed|earlier|later|only\s+when|first\s+need)\b", re.I)


def _mentions(sentences: tuple[str, ...], own: frozenset[str]) -> int | None:
    """Index of the first sentence naming a part: two of its distinctive words, or one when it
    has no more than two."""
    if not own:
        return None
    need = 1 if len(own) <= 2 else 2
    for i, s in enumerate(sentences):
        if len(own & view(s).content()) >= need:
            return i
    return None


@rule("P010", "key-order-agreement", "warning", types=NEW_TYPES, source="rules.md 'Key agreement', applied to "
                                                                          "ordering and matching")
def key_order_agreement(q: Question, ctx) -> Iterator[Finding]:
    """The rationales and the explanation agree with the key order or the pairs.

    ## What it does
    Ordering: reports a step whose rationale opens with a position ("First", "Second", "Last",
    "Finally") other than the step's place in the key, and an explanation that walks through
    the keyed steps in another order than the key, unless the sentences involved say why
    ("before", "after", "requires", "once"). A step counts as mentioned in a sentence when the
    sentence has two of its distinctive words (one, when it has only one or two).
    Matching: reports a pair whose rationale shares more distinctive words with another pair
    (that prompt and its response) than with its own.

    ## Why it matters
    The key is the list order and the prompts' `match` ids; a rationale that says "Second" on the
    third step, or explains another pair, was written for a different key, and learners who
    compare their answer with it are told two things.

    ## Example
    ```yaml
    steps:
      - {id: create-model, rationale: "First: ..."}
      - {id: create-endpoint, rationale: "Second: ..."}   # the endpoint comes third
      - {id: create-endpoint-config, rationale: "Third: ..."}
    ```

    ## Fix
    Reorder the steps to the true order (the list IS the key), or correct the rationale.
    """
    if q.type == ORDERING:
        keyed = q.key_order
        for pos, s in enumerate(keyed):
            m = _RATIONALE_ORDINAL.match(view(s.rationale or "").plain)
            if not m:
                continue
            said = m.group(1).lower()
            want = len(keyed) - 1 if said in ("last", "finally") else _ORDINALS[said]
            if want != pos:
                yield Finding(f"{s.pointer}/rationale", f"the rationale of step {s.id!r} says {m.group(1)!r}, "
                                                        f"but the step is number {pos + 1} of {len(keyed)} in the key")
        sentences = view(q.explanation).sentences
        own = _distinct([s.text for s in q.steps])
        at = [(s, _mentions(sentences, own[s.index])) for s in keyed]
        located = [(s, i) for s, i in at if i is not None]
        for (a, i), (b, j) in zip(located, located[1:]):
            if j < i and not (_REVERSING.search(sentences[i]) or _REVERSING.search(sentences[j])):
                yield Finding("/explanation", f"the explanation describes step {b.id!r} before step {a.id!r}, "
                                              "the other way round from the key")
                return
        return
    by_id = {r.id: r for r in q.responses}
    pair_texts = [p.text + " " + (by_id[p.match].text if p.match in by_id else "") for p in q.prompts]
    own = _distinct(pair_texts)
    for p in q.prompts:
        if not p.rationale:
            continue
        words = view(p.rationale).content()
        counts = [len(words & o) for o in own]
        best = max(range(len(counts)), key=lambda i: counts[i])
        if counts[best] > counts[p.index]:
            other = q.prompts[best]
            yield Finding(f"{p.pointer}/rationale", f"the rationale of prompt {p.id!r} is about the pair {other.id!r} - "
                                                    f"{other.match!r} rather than its own")


def _tail(text: str) -> str:
    """The last word of a prompt that a response must agree with ("a", "an", "is", "are"), or ""."""
    body = re.sub(r"(?:_{3,}|\[blank\]|…|\.{3})\s*$", "", view(text).plain.rstrip(" .:\n\t*_")).rstrip(" .:…\n\t*_")
    found = re.findall(r"[A-Za-z]+", body[-40:])
    word = found[-1].lower() if found else ""
    return word if word in ("a", "an", "is", "are") else ""


def _fits(tail: str, response: str) -> bool:
    from qlint.rules.cues import is_plural, wants_an

    if tail in ("a", "an"):
        first = (re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", view(response).plain) or [""])[0]
        return wants_an(first) == (tail == "an")
    return is_plural(response) in (None, tail == "are")


@rule("P011", "pairing-grammar-cue", "warning", types=(MATCHING,),
      source="Haladyna et al. (2002) guideline 28c (grammatical consistency), applied to matching items")
def pairing_grammar_cue(q: Question, ctx) -> Iterator[Finding]:
    """A response fits only its own prompt grammatically.

    ## What it does
    Reads the prompts written as incomplete statements that end with "a", "an", "is" or "are"
    (before a blank or colon). When two or more prompts do, reports a response that reads as a
    sentence with only one of them, that one being the prompt it matches: "an" before
    "Amazon S3" when the other prompts end in "a". Article sounds and number are judged as C004
    judges options (acronyms by letter name, number only from a determiner or plural head).
    Prompts written as plain phrases ("Detect input drift") are not read: no response has to
    agree with them.

    ## Why it matters
    Candidates pair by grammar instead of knowledge: the one response that follows "an" goes
    with the one prompt that ends in "an".

    ## Example
    ```yaml
    prompts:
      - {id: store, text: "Durable object storage for training data is an", match: s3}
      - {id: stream, text: "A managed service for streaming records is a", match: kinesis}
      - {id: queue, text: "A fully managed message queue is a", match: sqs}
    ```

    ## Fix
    End the prompts before the article ("Durable object storage for training data"), or write
    them as needs rather than sentence beginnings.
    """
    tails = [(p, t) for p in q.prompts if (t := _tail(p.text))]
    if len(tails) < 2:
        return
    for r in q.responses:
        fitting = [p for p, t in tails if _fits(t, r.text)]
        if len(fitting) == 1 and fitting[0].match == r.id:
            p = fitting[0]
            yield Finding(f"{p.pointer}/text", f"response {r.text.strip()!r} fits only prompt {p.id!r} grammatically "
                                               f"(it ends in {_tail(p.text)!r}): a cue to the pair")
