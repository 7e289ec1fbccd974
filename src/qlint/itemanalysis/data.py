"""The response matrix and the answer keys it is scored against."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from qlint.bank._numpy import np

from qlint.model import Question

NOT_SEEN = -1  # the respondent was not given the item (or gave no answer row for it)
MAX_OPTIONS = 30  # the bit masks below hold one bit per option
# The matrix is dense (respondents x items), while a file holds one row per answer: a file of a
# million answers, each by another learner to another of 2,000 questions, asked for 2 billion
# cells (16 GB per array, and the statistics make several). 20 million cells (100,000 learners
# x 200 questions) keep every array under 160 MB and each numpy step well under a second.
MAX_CELLS = 20_000_000


class ResponsesError(ValueError):
    """Input that cannot be read as responses: `where` is path:line:col."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


ANSWERED = 1 << 40  # set on every answered ordering or matching cell: all parts wrong is not skipped
PART_BITS = (1 << 32) - 1  # the bits scoring reads (popcount covers 32)


@dataclass(frozen=True)
class ItemKey:
    """What scoring and mapping need of one bank question.

    A choice question's parts are its options. An ordering question's parts are the places of
    its keyed steps, a matching question's its prompts: part i is "right" when the learner put
    the right step in place i, or gave prompt i its match, so every part is a key and scoring
    (exactly the keys, or 1/k a part) reads them as it reads options."""

    id: str
    path: str
    option_ids: tuple[str, ...]
    option_texts: tuple[str, ...]
    keymask: int  # bit i set: part i is a key
    multiple: bool
    stem: str
    kind: str = "choice"  # choice | ordering | matching
    pointers: tuple[str, ...] = ()  # part i's JSON pointer in the question
    accepts: frozenset[str] = frozenset()  # ordering: every step id; matching: every response id
    matches: tuple[str, ...] = ()  # matching: the response id that each prompt matches
    lang: str = ""  # the question's language (its `lang:`, else the configured one): one form per language
    source: str = ""  # a translation: the id of the question it translates (`translation_of:`)

    @classmethod
    def of(cls, q: Question) -> "ItemKey":
        if q.type == "ordering":
            order = q.key_order
            return cls(q.id, q.path, tuple(s.id for s in order), tuple(s.text for s in order), (1 << len(order)) - 1,
                       True, q.stem, "ordering", tuple(s.pointer for s in order), frozenset(s.id for s in q.steps))
        if q.type == "matching":
            ps = q.prompts
            return cls(q.id, q.path, tuple(p.id for p in ps), tuple(p.text for p in ps), (1 << len(ps)) - 1,
                       True, q.stem, "matching", tuple(p.pointer for p in ps), frozenset(r.id for r in q.responses),
                       tuple(p.match for p in ps))
        keymask = sum(1 << o.index for o in q.options if o.correct)
        return cls(q.id, q.path, tuple(o.id for o in q.options), tuple(o.text for o in q.options), keymask,
                   q.type == "multiple" or bin(keymask).count("1") > 1, q.stem,
                   pointers=tuple(o.pointer for o in q.options))

    @property
    def n_options(self) -> int:
        return len(self.option_ids)

    @cached_property
    def _place(self) -> dict[str, int]:
        return {o: i for i, o in enumerate(self.option_ids)}

    @property
    def is_choice(self) -> bool:
        return self.kind == "choice"

    def pointer(self, i: int) -> str:
        return self.pointers[i] if i < len(self.pointers) else f"/options/{i}"

    def label(self, i: int) -> str:
        """How findings name part i."""
        if self.kind == "ordering":
            return f"step {self.option_ids[i]!r} in place {i + 1}"
        if self.kind == "matching":
            return f"pair {self.option_ids[i]!r} = {self.matches[i]!r}"
        return f"option {i + 1} ({self.option_ids[i]!r})"

    def read(self, cell: str) -> tuple[int, str]:
        """(bit mask, "") of an answer cell of the generic CSV, or (-2, why it cannot be read).
        Choice: option ids joined by `|`. Ordering: step ids in the order the learner put them.
        Matching: `prompt=response` pairs joined by `|`. Empty: skipped (0)."""
        parts = [p.strip() for p in cell.split("|") if p.strip()]
        if self.kind == "choice":
            place = self._place
            bad = next((p for p in parts if p not in place), None)
            if bad is not None:
                return -2, f"{self.id} has no option {bad!r}"
            return sum(1 << place[p] for p in set(parts)), ""
        if not parts:
            return 0, ""
        if self.kind == "ordering":
            bad = next((p for p in parts if p not in self.accepts), None)
            if bad is not None:
                return -2, f"{self.id} has no step {bad!r}"
            if len(set(parts)) < len(parts) or len(parts) > self.n_options:
                return -2, (f"{self.id} orders {self.n_options} steps, each once; "
                            f"the answer lists {len(parts)}{' with repeats' if len(set(parts)) < len(parts) else ''}")
            return ANSWERED | sum(1 << i for i, s in enumerate(parts) if s == self.option_ids[i]), ""
        pairs: dict[str, str] = {}
        for p in parts:
            prompt, eq, response = (x.strip() for x in p.partition("="))
            if not eq or prompt not in self.option_ids or response not in self.accepts or prompt in pairs:
                why = ("is not prompt=response" if not eq else f"names no prompt of {self.id}" if prompt not in self.option_ids
                       else f"names no response of {self.id}" if response not in self.accepts else "repeats its prompt")
                return -2, f"{self.id}: pair {p!r} {why}"
            pairs[prompt] = response
        return ANSWERED | sum(1 << i for i, pid in enumerate(self.option_ids) if pairs.get(pid) == self.matches[i]), ""


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
                     notes: list[Note], where: str = "") -> "Responses":
        """From parallel lists of answers (the first answer of a respondent to an item counts);
        `items` gives the column order, and items nobody answered are dropped."""
        respondents: dict[str, int] = {}
        rows = np.array([respondents.setdefault(w, len(respondents)) for w in who], dtype=np.int64)
        names: dict[str, int] = {}
        codes = np.array([names.setdefault(i, len(names)) for i in item], dtype=np.int64)
        return cls.from_codes(items, list(respondents), rows, list(names), codes, mask, notes, where)

    @classmethod
    def from_codes(cls, items: list[str], respondents: list[str], rows, names: list[str], codes, mask,
                   notes: list[Note], where: str = "") -> "Responses":
        """As `from_answers`, with each answer's respondent an index into `respondents` and its
        item an index into `names`; ResponsesError at `where` when the matrix would exceed
        MAX_CELLS."""
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
        if len(respondents) * len(seen) > MAX_CELLS:
            raise ResponsesError(where, f"{len(respondents):,} respondents x {len(seen):,} questions is more than the "
                                 f"{MAX_CELLS:,} answers qlint analyses at once: analyse one form (or one exam) per run")
        choices = np.full((len(respondents), len(seen)), NOT_SEEN, dtype=np.int64)
        if len(rows):
            _, first = np.unique(rows * len(seen) + cols, return_index=True)
            choices[rows[first], cols[first]] = masks[first]
        return cls(seen, list(respondents), choices, notes)
