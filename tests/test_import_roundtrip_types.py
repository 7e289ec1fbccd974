"""Round trips of ordering and matching questions through the real CLI: `qlint export --format
moodle` then `qlint import --from moodle` gives the same question back, for questions generated
with hypothesis (keyed and distractor steps, prompts, their responses and surplus ones, rationales,
`right_when` and `why_chosen` present or not, canonical Markdown in every text; see tests/test_import_roundtrip.py).

Compared apart, for the reasons docs/exports-web.md gives: ids (Moodle XML stores none: they
become slugs of the text), status, difficulty and related (as for every Moodle question), a
matching response's order among the responses (Moodle lists the answers as the subquestions
name them), and `shuffle: false` on an ordering question (Moodle always shuffles its items).
Responses are plain text in Moodle, so they are drawn as plain words."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from kit.roundtrip import DOMAINS, canonical_line, canonical_text, ids, punct_word, round_trip, word

# A word first, as in canonical text: `2)` or `1.` at the start would be list syntax, not plain text.
plain_words = st.tuples(word, st.lists(st.one_of(word, punct_word), max_size=3)).map(lambda t: " ".join([t[0], *t[1]]))


def _distinct(draw, strategy, n: int) -> list[str]:
    return draw(st.lists(strategy, min_size=n, max_size=n, unique_by=lambda t: " ".join(t.lower().split())))


@st.composite
def ordering(draw) -> dict[str, Any]:
    keyed, wrong = draw(st.integers(3, 5)), draw(st.integers(0, 2))
    steps = []
    for n, text in enumerate(_distinct(draw, canonical_line(), keyed + wrong)):
        step: dict[str, Any] = {"id": f"s{n}", "text": text}
        if n >= keyed:
            step["correct"] = False
        if draw(st.booleans()):
            step["rationale"] = draw(canonical_text)
        if draw(st.booleans()):
            step["right_when"] = draw(canonical_text)
        if draw(st.integers(0, 3)) == 0:
            step["why_chosen"] = draw(canonical_text)
        steps.append(step)
    return _question(draw, "ordering", {"steps": steps})


@st.composite
def matching(draw) -> dict[str, Any]:
    pairs, surplus = draw(st.integers(2, 5)), draw(st.integers(1, 2))
    responses = [{"id": f"r{n}", "text": text} for n, text in enumerate(_distinct(draw, plain_words, pairs + surplus))]
    for r in responses:
        if draw(st.integers(0, 2)) == 0:
            r["rationale"] = draw(canonical_text)
    prompts = []
    for n, text in enumerate(_distinct(draw, canonical_line(), pairs)):
        prompt: dict[str, Any] = {"id": f"p{n}", "text": text, "match": f"r{n}"}
        if draw(st.booleans()):
            prompt["rationale"] = draw(canonical_text)
        prompts.append(prompt)
    return _question(draw, "matching", {"prompts": prompts, "responses": draw(st.permutations(responses))})


def _question(draw, kind: str, shape: dict[str, Any]) -> dict[str, Any]:
    q: dict[str, Any] = {"format": 1, "id": "mla-c01-" + draw(ids), "exam": "MLA-C01",
                         "domain": draw(st.sampled_from(DOMAINS)), "type": kind, "status": "draft"}
    if draw(st.booleans()):
        q["tags"] = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    if draw(st.booleans()):
        q["shuffle"] = False
    q["stem"] = draw(canonical_text)
    if draw(st.booleans()):
        q["trap"] = draw(canonical_text)
    q.update(shape)
    q["explanation"] = draw(canonical_text)
    return q


def comparable(q: dict[str, Any]) -> dict[str, Any]:
    q = yaml.safe_load(yaml.safe_dump(q))  # a deep copy
    for key in ("status", "difficulty", "related"):
        q.pop(key, None)
    if q["type"] == "ordering":
        q.pop("shuffle", None)
        for s in q["steps"]:
            del s["id"]
    else:
        text = {r["id"]: r["text"] for r in q["responses"]}
        for p in q["prompts"]:
            p["match"] = text[p.pop("match")]
            del p["id"]
        q["responses"] = sorted(({k: v for k, v in r.items() if k != "id"} for r in q["responses"]),
                                key=lambda r: r["text"])
    return q


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(q=st.one_of(ordering(), matching()))
def test_moodle_round_trip_gives_the_same_ordering_or_matching_question(q):
    back, messages = round_trip(q, "moodle")
    assert "could not map" not in messages
    assert comparable(back) == comparable(q)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(q=matching().filter(lambda q: len(q["prompts"]) >= 3))  # GIFT matching needs three pairs
def test_gift_round_trip_gives_the_same_matching_question(q):
    """GIFT's export writes each pair's rationale in the general feedback's pair-by-pair block; the
    import reads it back (issue 28 point 9). GIFT holds no shuffle setting either."""
    back, messages = round_trip(q, "gift")
    assert "could not map" not in messages
    assert comparable({**back, "shuffle": None}) == comparable({**q, "shuffle": None})
