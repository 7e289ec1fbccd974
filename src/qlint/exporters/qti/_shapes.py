"""The QTI parts of the ordering and matching item types (the choice types stay in `_package`).

Ordering is an `orderInteraction` whose `RESPONSE` is `ordered`: the keyed steps' identifiers in
key order are the correct response, distractor steps are extra choices, and `minChoices` =
`maxChoices` = the number of keyed steps. Matching is a `matchInteraction` of two `simpleMatchSet`s
(prompts, then responses) whose `RESPONSE` is a `multiple` set of `directedPair`s "prompt response".
Each step, pair and response that has a rationale gets a row in the one reveal (the modal
feedback): docs/exports-qti.md documents the mapping, tests/kit/qti_readback.py reads it back.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from lxml import etree

from qlint.exporters.kit import xhtml
from qlint.exporters.kit.problems import ExportError, problem
from qlint.model import MATCHING, ORDERING, Question, StepView

if TYPE_CHECKING:
    from qlint.exporters.qti._package import _Item

INTERACTIONS = {ORDERING: "orderInteraction", MATCHING: "matchInteraction"}
STEPS, PAIRS = ("qlint-steps", "Step by step"), ("qlint-pairs", "Pair by pair")  # reveal parts: (class, heading)
RIGHT_WHEN, WHY_CHOSEN = "When it would be right:", "Why learners choose it:"


def step_identifier(step_id: str) -> str:
    return f"step_{step_id}"


def prompt_identifier(prompt_id: str) -> str:
    return f"prompt_{prompt_id}"


def response_identifier(response_id: str) -> str:
    return f"resp_{response_id}"


def presented(q: Question) -> list[StepView]:
    """The steps in the order the item lists them: a fixed scramble seeded by the question id,
    never the key order, so a player that does not shuffle (or `shuffle: false`) does not show
    the answer. The key comes from `key_order` alone, whatever this order is."""
    keyed = [s.id for s in q.key_order]
    steps = list(q.steps)
    rng = random.Random(q.id)  # str seeds hash with SHA-512: the same on every run and machine
    for _ in range(20):
        rng.shuffle(steps)
        if [s.id for s in steps if s.correct] != keyed or len(keyed) < 2:
            return steps
    return list(reversed(q.steps))  # keyed steps in reverse key order


def uses(q: Question) -> list[int]:
    """How many prompts match each response (its `matchMax`: at least 1)."""
    return [max(1, sum(p.match == r.id for p in q.prompts)) for r in q.responses]


def declare(item: _Item, root: etree._Element, partial: bool) -> None:
    """RESPONSE with its correct response (and, for partial matching, its mapping)."""
    q, d = item.q, item.d
    if q.type == ORDERING:
        if not q.key_order:  # lint (P002) says so too, but --force must not reach a division by zero
            raise ExportError(problem(q, '/steps', "no step is keyed (every step says `correct: false`), "
                              "so there is no order to ask for; key the steps in their order"))
        rd = d.sub(root, "responseDeclaration", identifier="RESPONSE", cardinality="ordered", baseType="identifier")
        correct = d.sub(rd, "correctResponse")
        for step in q.key_order:
            d.sub(correct, "value", step_identifier(step.id))
        return
    rd = d.sub(root, "responseDeclaration", identifier="RESPONSE", cardinality="multiple", baseType="directedPair")
    correct = d.sub(rd, "correctResponse")
    for p in q.prompts:
        d.sub(correct, "value", f"{prompt_identifier(p.id)} {response_identifier(p.match)}")
    if partial:  # each right pair 1/p, a wrong pair 0: Moodle's per-pair grading
        mapping = d.sub(rd, "mapping", lowerBound="0", upperBound="1", defaultValue="0")
        for p in q.prompts:
            d.sub(mapping, "mapEntry", mapKey=f"{prompt_identifier(p.id)} {response_identifier(p.match)}",
                  mappedValue=f"{1 / len(q.prompts):.7g}")


def interaction(item: _Item, body: etree._Element, shuffle: bool) -> None:
    q, d = item.q, item.d
    flag = "true" if shuffle else "false"
    if q.type == ORDERING:
        count = str(len(q.key_order))
        el = d.sub(body, "orderInteraction", responseIdentifier="RESPONSE", shuffle=flag, minChoices=count, maxChoices=count)
        for step in presented(q):
            choice = d.sub(el, "simpleChoice", identifier=step_identifier(step.id))
            xhtml.append(choice, item._content(step.text, f"{step.pointer}/text", inline=True))
        return
    el = d.sub(body, "matchInteraction", responseIdentifier="RESPONSE", shuffle=flag, maxAssociations=str(len(q.prompts)))
    prompts = d.sub(el, "simpleMatchSet")
    for p in q.prompts:
        choice = d.sub(prompts, "simpleAssociableChoice", identifier=prompt_identifier(p.id), matchMax="1")
        xhtml.append(choice, item._content(p.text, f"{p.pointer}/text", inline=True))
    responses = d.sub(el, "simpleMatchSet")
    for r, most in zip(q.responses, uses(q)):
        choice = d.sub(responses, "simpleAssociableChoice", identifier=response_identifier(r.id), matchMax=str(most))
        xhtml.append(choice, item._content(r.text, f"{r.pointer}/text", inline=True))


def verdict_keys(item: _Item, p: etree._Element) -> None:
    """The correct order or pairs, after "Incorrect. ...": one `span.qlint-key` each."""
    q, d = item.q, item.d
    if q.type == ORDERING:
        p.text = (p.text or "") + "Incorrect. The correct order is: "
        for i, step in enumerate(q.key_order):
            if i:
                d.html(p, "span", " → ")
            xhtml.append(d.html(p, "span", **{"class": "qlint-key"}), item._content(step.text, f"{step.pointer}/text", inline=True))
        return
    p.text = (p.text or "") + "Incorrect. The correct pairs are: "
    responses = {r.id: r for r in q.responses}
    for i, prompt in enumerate(q.prompts):
        if i:
            d.html(p, "span", "; ")
        key = d.html(p, "span", **{"class": "qlint-key"})
        xhtml.append(d.html(key, "span"), item._content(prompt.text, f"{prompt.pointer}/text", inline=True))
        d.html(key, "span", " → ")
        if prompt.match in responses:
            r = responses[prompt.match]
            xhtml.append(d.html(key, "span"), item._content(r.text, f"{r.pointer}/text", inline=True))


def right_subset_order(item: _Item, then: etree._Element) -> None:
    """The condition for an ordering with distractor steps: each keyed step in its own place and
    no distractor step anywhere. For a response of exactly the keyed steps (`maxChoices`) this is
    `match(RESPONSE, correct(RESPONSE))`; it also holds when a player sends an empty place, as
    @citolab/qti-components does (one drop slot per choice, an empty one sent as "")."""
    q, d = item.q, item.d
    both = d.sub(then, "and")
    for n, step in enumerate(q.key_order, 1):
        match = d.sub(both, "match")
        d.sub(d.sub(match, "index", n=str(n)), "variable", identifier="RESPONSE")
        d.sub(match, "baseValue", step_identifier(step.id), baseType="identifier")
    for step in q.steps:
        if not step.correct:
            member = d.sub(d.sub(both, "not"), "member")
            d.sub(member, "baseValue", step_identifier(step.id), baseType="identifier")
            d.sub(member, "variable", identifier="RESPONSE")


def partial_order(item: _Item, otherwise: etree._Element) -> None:
    """Under partial scoring an ordering item gives 1/k for each keyed step the candidate put in
    its own position (Moodle's "absolute position" grading); the whole order right is the point."""
    q, d = item.q, item.d
    share = f"{1 / len(q.key_order):.7g}"
    for n, step in enumerate(q.key_order, 1):
        then = d.sub(d.sub(otherwise, "responseCondition"), "responseIf")
        match = d.sub(then, "match")
        d.sub(d.sub(match, "index", n=str(n)), "variable", identifier="RESPONSE")
        d.sub(match, "baseValue", step_identifier(step.id), baseType="identifier")
        total = d.sub(d.sub(then, "setOutcomeValue", identifier="SCORE"), "sum")
        d.sub(total, "variable", identifier="SCORE")
        d.sub(total, "baseValue", share, baseType="float")


def rows(item: _Item, body: etree._Element) -> None:
    """The reveal's part with a row per step (in authoring order) or per pair, then per response
    with a rationale: what it is, and why it sits there or is no part of the answer."""
    q, d = item.q, item.d
    if q.type == ORDERING:
        part = item._part(body, STEPS)
        position = {s.id: n for n, s in enumerate(q.key_order, 1)}
        for step in q.steps:
            label = f"Step {position[step.id]}:" if step.correct else "Not in the sequence:"
            title, row = _row(item, part, f"row_{step_identifier(step.id)}", "qlint-step", label)
            xhtml.append(d.html(title, "span", **{"class": "qlint-text"}), item._content(step.text, f"{step.pointer}/text", inline=True))
            _why(item, row, step.raw, step.pointer)
        return
    part = item._part(body, PAIRS)
    responses = {r.id: r for r in q.responses}
    for prompt in q.prompts:
        title, row = _row(item, part, f"row_{prompt_identifier(prompt.id)}", "qlint-pair", "")
        text = d.html(title, "span", **{"class": "qlint-text"})
        xhtml.append(text, item._content(prompt.text, f"{prompt.pointer}/text", inline=True))
        text.tail = " "
        d.html(title, "strong", "→", **{"class": "qlint-label"}).tail = " "
        if prompt.match in responses:
            r = responses[prompt.match]
            xhtml.append(d.html(title, "span", **{"class": "qlint-match"}), item._content(r.text, f"{r.pointer}/text", inline=True))
        _why(item, row, prompt.raw, prompt.pointer)
    matched = {p.match for p in q.prompts}
    for r in q.responses:
        if r.rationale and r.rationale.strip():
            label = "Response:" if r.id in matched else "Matches no prompt:"
            title, row = _row(item, part, f"row_{response_identifier(r.id)}", "qlint-response", label)
            xhtml.append(d.html(title, "span", **{"class": "qlint-text"}), item._content(r.text, f"{r.pointer}/text", inline=True))
            _why(item, row, r.raw, r.pointer)


def _row(item: _Item, part, identifier: str, cls: str, label: str) -> tuple[etree._Element, etree._Element]:
    """A row `div` and its title paragraph (the label, if any, is not part of the text)."""
    d = item.d
    row = d.html(part, "div", **{"class": f"qlint-row {cls}", "id": identifier})
    title = d.html(row, "p", **{"class": "qlint-row-title"})
    if label:
        d.html(title, "strong", label, **{"class": "qlint-label"}).tail = " "
    return title, row


def _why(item: _Item, row, raw: dict, pointer: str) -> None:
    """Rationale, then when it would be right and why learners choose it, each a `div`."""
    d = item.d
    for cls, label, key in (("qlint-rationale", None, "rationale"), ("qlint-right-when", RIGHT_WHEN, "right_when"),
                            ("qlint-why-chosen", WHY_CHOSEN, "why_chosen")):
        text = raw.get(key)
        if not (isinstance(text, str) and text.strip()):
            continue
        div = d.html(row, "div", **{"class": cls})
        if label:
            d.html(d.html(div, "p", **{"class": "qlint-label"}), "strong", label)
        xhtml.append(div, item._content(text, f"{pointer}/{key}"))
