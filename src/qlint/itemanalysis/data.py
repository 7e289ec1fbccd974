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
    def from_answers(cls, items: list[str], who: list[str], item: list[str], mask: list[int],
                     notes: list[Note]) -> "Responses":
        """From parallel lists of answers (the first answer of a respondent to an item counts);
        `items` gives the column order, and items nobody answered are dropped."""
        respondents: dict[str, int] = {}
        rows = np.array([respondents.setdefault(w, len(respondents)) for w in who], dtype=np.int64)
        names: dict[str, int] = {}
        codes = np.array([names.setdefault(i, len(names)) for i in item], dtype=np.int64)
        return cls.from_codes(items, list(respondents), rows, list(names), codes, mask, notes)

    @classmethod
    def from_codes(cls, items: list[str], respondents: list[str], rows, names: list[str], codes, mask,
                   notes: list[Note]) -> "Responses":
        """As `from_answers`, with each answer's respondent an index into `respondents` and its
        item an index into `names`."""
        codes = np.asarray(codes, dtype=np.int64)
        answered = {names[c] for c in np.unique(codes)}
        seen = [i for i in items if i in answered]
        col = {i: j for j, i in enumerate(seen)}
        name_col = np.array([col.get(n, -1) for n in names] or [-1], dtype=np.int64)
        cols = name_col[codes]
        rows = np.asarray(rows, dtype=np.int64)
        masks = np.asarray(mask, dtype=np.int64)
        keep = cols >= 0
        rows, cols, masks = rows[keep], cols[keep], masks[keep]
        choices = np.full((len(respondents), len(seen)), NOT_SEEN, dtype=np.int64)
        if len(rows):
            _, first = np.unique(rows * len(seen) + cols, return_index=True)
            choices[rows[first], cols[first]] = masks[first]
        return cls(seen, list(respondents), choices, notes)
