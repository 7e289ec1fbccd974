"""`qlint shuffle`: reproducible option orders that balance the bank's key positions.

Attali & Bar-Hillel found item writers put keys in middle positions far more often than at the
edges, and that hand-balanced keys leave patterns of their own: positions must come from chance.
Pure per-question chance balances a bank only on average, though; a 20-question bank shuffled
independently is often as lopsided as a hand-written one (a chi-square test flags it). So the
shuffle is stratified:

1. Single-answer questions are grouped by option count k. Keys that cannot move (questions
   outside the selection, `shuffle: false`, a pinned key, letter references) are counted first.
2. The movable questions, taken in a seeded random order, each get the key position that is
   least used so far among the positions they can use (ties broken by the seeded generator).
   The result: per-position counts that differ by at most one where the fixed keys allow it,
   with no order or cycle an exam-taker could learn.
3. Each question's other options are permuted by a generator seeded with `seed:question-id`.
   Multiple-response questions get a seeded permutation only.

Every permutation starts from the options sorted by id, so the result depends only on the seed
and the selected questions, never on the current order: shuffling twice with one seed changes
nothing the second time. Pinned options keep their positions; the keyed options stay keyed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from qlint.model import Question
from qlint.yamldoc import Doc, Scalar

_WORD = r"(?:[Oo]ptions?|[Aa]nswers?|[Cc]hoices?|[Ll]etters?|OPTIONS?|ANSWERS?|CHOICES?)"
LETTER_REFS = (
    re.compile(_WORD + r"\s+\(?[A-J]\)?(?![\w'’-])"),  # option B, answer (C)
    re.compile(r"(?<![\w(])\([A-J]\)(?![\w)])"),  # (C)
    re.compile(r"(?<![\w'’-])[A-J]\s*(?:,|&|\band\b|\bor\b)\s*[A-J](?![\w'’-])"),  # A and D, B or C
)
TEXT_FIELDS = ("stem", "trap", "explanation")
OPTION_FIELDS = ("text", "rationale", "right_when", "why_chosen")


@dataclass(frozen=True)
class LetterRef:
    pointer: str
    offset: int  # in the text value
    found: str


def letter_refs(data: dict[str, Any]) -> list[LetterRef]:
    """Places where a question's text refers to an option by its letter."""
    texts = [(f"/{k}", data.get(k)) for k in TEXT_FIELDS]
    for i, o in enumerate(data.get("options") or []):
        texts += [(f"/options/{i}/{k}", o.get(k)) for k in OPTION_FIELDS]
    out = []
    for pointer, text in texts:
        if not isinstance(text, str):
            continue
        hits = sorted((m.start(), m.group(0)) for rx in LETTER_REFS for m in rx.finditer(text))
        out += [LetterRef(pointer, start, found) for start, found in hits]
    return out


def position_in(doc: Doc, pointer: str, offset: int) -> tuple[int, int]:
    """1-based (line, col) of character `offset` of the text at `pointer`, exact for literal
    blocks and one-line scalars, else the value's start."""
    _, node = doc.find(pointer)
    assert isinstance(node, Scalar)
    (line, col), value = node.start, node.value
    if node.style == "|":
        before = value[:offset]
        row = before.count("\n")
        first = next((ln for ln in doc.lines[line + 1:] if ln.strip()), "")
        indent = len(first) - len(first.lstrip(" "))
        return line + 2 + row, indent + len(before) - (before.rfind("\n") + 1) + 1
    if node.single_line and node.style in (None, "'", '"'):
        return line + 1, col + 1 + offset + (1 if node.style else 0)
    return line + 1, col + 1


@dataclass
class Plan:
    question: Question
    order: list[int] | None = None  # new position i holds old option order[i]
    kept: str = ""  # why the question is left as it is
    refs: list[LetterRef] = field(default_factory=list)
    target: int | None = None  # assigned key position (stratified singles)


def _movable_key(q: Question) -> bool:
    keys = q.keys
    return q.type == "single" and len(keys) == 1 and not keys[0].raw.get("pinned")


def _slots(q: Question) -> list[int]:
    return [o.index for o in q.options if not o.raw.get("pinned")]


def plan(selected: list[Question], context: list[Question], seed: int) -> list[Plan]:
    plans = []
    for q in sorted(selected, key=lambda q: q.id):
        p = Plan(q)
        if q.data.get("shuffle") is False:
            p.kept = "shuffle: false"
        elif (refs := letter_refs(q.data)):
            p.kept, p.refs = "refers to options by letter", refs
        elif len(_slots(q)) < 2:
            p.kept = "fewer than two options may move"
        plans.append(p)
    _assign_targets(plans, context, seed)
    for p in plans:
        if not p.kept:
            p.order = _permutation(p.question, seed, p.target)
    return plans


def _assign_targets(plans: list[Plan], context: list[Question], seed: int) -> None:
    fixed: dict[int, Counter[int]] = {}
    for q in context + [p.question for p in plans if p.kept or not _movable_key(p.question)]:
        if q.type == "single" and len(q.keys) == 1:
            fixed.setdefault(len(q.options), Counter())[q.keys[0].index] += 1
    movable = [p for p in plans if not p.kept and _movable_key(p.question)]
    for k in sorted({len(p.question.options) for p in movable}):
        group = [p for p in movable if len(p.question.options) == k]
        counts = fixed.get(k, Counter())
        rng = random.Random(f"{seed}:k{k}")
        rng.shuffle(group)
        for p in group:
            slots = _slots(p.question)
            least = min(counts[s] for s in slots)
            p.target = rng.choice([s for s in slots if counts[s] == least])
            counts[p.target] += 1


def _permutation(q: Question, seed: int, target: int | None) -> list[int]:
    rng = random.Random(f"{seed}:{q.id}")
    slots = _slots(q)
    movable = sorted((o for o in q.options if not o.raw.get("pinned")), key=lambda o: o.id)
    order = list(range(len(q.options)))
    if target is not None:
        key = q.keys[0].index
        rest = [o.index for o in movable if o.index != key]
        rng.shuffle(rest)
        free = [s for s in slots if s != target]
        order[target] = key
        for s, src in zip(free, rest):
            order[s] = src
    else:
        picked = [o.index for o in movable]
        rng.shuffle(picked)
        for s, src in zip(slots, picked):
            order[s] = src
    return order


def reordered(q: Question, order: list[int]) -> Question:
    data = dict(q.data)
    data["options"] = [q.data["options"][i] for i in order]
    return Question(q.path, data)
