"""The response matrix and the answer keys it is scored against."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from qlint.model import Question

NOT_SEEN = -1  # the respondent was not given the item (or gave no answer row for it)
MAX_OPTIONS = 30  # the bit masks below hold one bit per option


class ResponsesError(ValueError):
    """Input that cannot be read as responses: `where` is path:line:col."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class ItemKey:
    """What scoring and mapping need of one bank question."""

    id: str
    path: str
    option_ids: tuple[str, ...]
    option_texts: tuple[str, ...]
    keymask: int  # bit i set: option i is a key
    multiple: bool
    stem: str

    @classmethod
    def of(cls, q: Question) -> "ItemKey":
        keymask = sum(1 << o.index for o in q.options if o.correct)
        return cls(q.id, q.path, tuple(o.id for o in q.options), tuple(o.text for o in q.options), keymask,
                   q.type == "multiple" or bin(keymask).count("1") > 1, q.stem)

    @property
    def n_options(self) -> int:
        return len(self.option_ids)


@dataclass(frozen=True)
class Note:
    """Something in the input that was skipped (an unknown question, an unmapped answer)."""

    where: str  # path:line:col
    message: str


@dataclass
class Responses:
    """One row per respondent (per attempt with --all-attempts), one column per item.

    `choices[r, j]` is NOT_SEEN, or a bit mask of the options respondent r chose on item j
    (0: seen but skipped)."""

    items: list[str]
    respondents: list[str]
    choices: np.ndarray
    notes: list[Note] = field(default_factory=list)

    @classmethod
    def from_rows(cls, items: list[str], rows: dict[str, dict[str, int]], notes: list[Note]) -> "Responses":
        """From respondent -> {item id -> mask}; items no respondent saw are dropped."""
        seen = [i for i in items if any(i in r for r in rows.values())]
        col = {item: j for j, item in enumerate(seen)}
        choices = np.full((len(rows), len(seen)), NOT_SEEN, dtype=np.int64)
        for r, answers in enumerate(rows.values()):
            for item, mask in answers.items():
                j = col.get(item)
                if j is not None:
                    choices[r, j] = mask
        return cls(seen, list(rows), choices, notes)
