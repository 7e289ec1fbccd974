"""`qlint shuffle`: balance the bank's key positions, reproducibly, moving as few keys as it takes.

Attali & Bar-Hillel found item writers put keys in middle positions far more often than at the
edges, and that hand-balanced keys leave patterns of their own: which questions move, and where,
must come from chance. A balanced bank needs no change, though, and every moved option is a diff
a reviewer must read, so the shuffle moves only what the balance needs:

1. Single-answer questions are grouped by option count k, and every key is counted where it sits
   (bank questions outside the selection, `shuffle: false`, pinned keys and questions citing
   options by letter included: those cannot move).
2. While some position holds two keys more than another, one movable question keyed at a most-used
   position (drawn by a generator seeded with the seed and k) moves its key to a least-used position
   open to it (ties drawn too). Each move takes one key from above the even share to below it, so
   the count of moves is the least that balances the group; no question moves twice.
3. A moved question swaps its key with the option at the target position; every other option
   stays where it is. Multiple-response questions are not touched (they do not enter the balance),
   nor are ordering questions (the list order of their steps is the key) and matching questions
   (a key position means nothing there: every player shuffles prompts and responses).

An already balanced group changes nothing, whatever the seed; the same seed on the same bank
gives the same bytes, and a second run changes nothing. Pinned options keep their positions; the
keyed options stay keyed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from qlint.model import Question
from qlint.prose import letters
from qlint.text import plain
from qlint.authoring.yamldoc import Doc, Scalar

TEXT_FIELDS = ("stem", "trap", "explanation")
NOT_SHUFFLED = {"ordering": "an ordering question's steps are listed in key order",
                "matching": "a matching question has no key position (players shuffle its prompts and responses)"}
OPTION_FIELDS = ("text", "rationale", "right_when", "why_chosen")


@dataclass(frozen=True)
class LetterRef:
    pointer: str
    offset: int  # in the text value
    found: str


def letter_refs(data: dict[str, Any]) -> list[LetterRef]:
    """Places where a question's text refers to an option by its letter, found by the detector
    K006-K008 use (`qlint.prose.letters`), in every text field: reordered, the letters would
    name other options."""
    texts = [(f"/{k}", data.get(k)) for k in TEXT_FIELDS]
    for i, o in enumerate(data.get("options") or []):
        texts += [(f"/options/{i}/{k}", o.get(k)) for k in OPTION_FIELDS]
    out = []
    for pointer, text in texts:
        if not isinstance(text, str):
            continue
        body = plain(text)  # the detector's offsets are in the text without markup
        for ref in letters.letter_refs(text):
            at = ref.at if body == text else max(text.find(ref.quote), 0)
            out.append(LetterRef(pointer, at, ref.quote))
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
        if not q.is_choice:  # ordering: the list order IS the key; matching: players shuffle the lists
            p.kept = NOT_SHUFFLED[q.type]
        elif q.data.get("shuffle") is False:
            p.kept = "shuffle: false"
        elif (refs := letter_refs(q.data)):
            p.kept, p.refs = "refers to options by letter", refs
        elif len(_slots(q)) < 2:
            p.kept = "fewer than two options may move"
        plans.append(p)
    _assign_targets(plans, context, seed)
    for p in plans:
        if p.target is not None:
            p.order = _swap(p.question.keys[0].index, p.target, len(p.question.options))
    return plans


def _assign_targets(plans: list[Plan], context: list[Question], seed: int) -> None:
    """Set `target` on the fewest plans that balance each option count's key positions."""
    counts: dict[int, Counter[int]] = {}
    for q in context + [p.question for p in plans]:
        if q.type == "single" and len(q.keys) == 1:
            counts.setdefault(len(q.options), Counter())[q.keys[0].index] += 1
    movable = [p for p in plans if not p.kept and _movable_key(p.question)]
    for k in sorted({len(p.question.options) for p in movable}):
        group = [p for p in movable if len(p.question.options) == k]
        rng = random.Random(f"{seed}:k{k}")
        rng.shuffle(group)  # which of the questions at a crowded position moves is drawn
        _balance(group, counts[k], k, rng)


def _balance(group: list[Plan], counts: Counter[int], k: int, rng: random.Random) -> None:
    while True:
        low = min(counts[i] for i in range(k))
        for high in sorted(range(k), key=lambda i: -counts[i]):  # most used first
            if counts[high] - low < 2:
                return  # within one of each other: balanced (or as balanced as the pins allow)
            move = _pick(group, high, counts, rng)
            if move is not None:
                break
        else:
            return  # no movable key can lower the spread
        p, target = move
        p.target = target
        counts[high] -= 1
        counts[target] += 1


def _pick(group: list[Plan], high: int, counts: Counter[int], rng: random.Random) -> tuple[Plan, int] | None:
    """The first unmoved question keyed at `high` that can take its key to a position holding at
    least two keys fewer, with the least-used such position."""
    for p in group:
        if p.target is not None or p.question.keys[0].index != high:
            continue
        open_to = [s for s in _slots(p.question) if counts[s] <= counts[high] - 2]
        if open_to:
            least = min(counts[s] for s in open_to)
            return p, rng.choice([s for s in open_to if counts[s] == least])
    return None


def _swap(key: int, target: int, n: int) -> list[int]:
    order = list(range(n))
    order[key], order[target] = target, key
    return order


def reordered(q: Question, order: list[int]) -> Question:
    data = dict(q.data)
    data["options"] = [q.data["options"][i] for i in order]
    return Question(q.path, data)
