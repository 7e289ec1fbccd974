"""The order the web pages present ordering steps and matching responses in.

Authors list keyed steps in their correct order, and usually list responses in the order of
their prompts, so showing either as written gives the answer away. Pages show them in an order
drawn from a hash of the question and item ids: the same on every export (same bank, same
bytes), different between questions, and never the key order itself.
"""

from __future__ import annotations

import hashlib
from typing import Sequence, TypeVar

from qlint.model import LETTERS, Question

T = TypeVar("T")


def _scrambled(q: Question, items: Sequence[T], ids: list[str], key: list[str]) -> list[T]:
    """`items` (with `ids`) sorted by hash; if the ids in `key` still come in key order, the first
    two of them swap places (so with two or more keyed items the answer is never shown)."""
    order = sorted(range(len(items)), key=lambda i: hashlib.sha256(f"{q.id}\0{ids[i]}".encode("utf-8")).digest())
    keyed = [i for i in order if ids[i] in key]
    if len(keyed) >= 2 and [ids[i] for i in keyed] == [k for k in key if k in ids]:
        a, b = order.index(keyed[0]), order.index(keyed[1])
        order[a], order[b] = order[b], order[a]
    return [items[i] for i in order]


def presented_steps(q: Question):
    """The steps (keyed and distractor) in the order learners see them."""
    return _scrambled(q, q.steps, [s.id for s in q.steps], [s.id for s in q.key_order])


def presented_responses(q: Question):
    """The responses in the order learners see them; `shuffle: false` keeps the author's order
    (a deliberately ordered list, e.g. alphabetical or by size)."""
    if q.data.get("shuffle") is False:
        return list(q.responses)
    ids = [r.id for r in q.responses]
    matched = [p.match for p in q.prompts]
    return _scrambled(q, q.responses, ids, list(dict.fromkeys(matched)))


def letter(i: int) -> str:
    """The label of the i-th (0-based) presented item, as options are lettered: A..J, then 11, 12."""
    return LETTERS[i] if i < len(LETTERS) else str(i + 1)
