"""The generic long CSV: `respondent,question,selected[,attempt][,timestamp]`, one row per
respondent and question; `question` is the qlint id, `selected` the answer: the chosen option
ids joined by `|`, an ordering question's step ids in the order given, a matching question's
`prompt=response` pairs joined by `|` (empty: skipped); `timestamp` is a time (`cells.instant`: it
orders attempts when there is no number)."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.bank._numpy import np

from qlint.itemanalysis.attempts import Record
from qlint.itemanalysis.cells import attempt_number, instant
from qlint.itemanalysis.csvfile import col_of, read_cell
from qlint.itemanalysis.data import ItemKey, Note, ResponsesError

REQUIRED = ("respondent", "question", "selected")


def is_long(header: list[str]) -> bool:
    names = {h.strip().lower() for h in header}
    return set(REQUIRED) <= names


def records(path: str, rows: Iterator[tuple[int, list[str]]], keys: dict[str, ItemKey],
            notes: list[Note]) -> Iterator[Record]:
    line, header = next(rows)
    names = [h.strip().lower() for h in header]
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ResponsesError(f"{path}:{line}:1", f"the header lacks {', '.join(missing)} "
                             "(expected respondent,question,selected[,attempt][,timestamp])")
    at = {name: names.index(name) for name in (*REQUIRED, "attempt", "timestamp") if name in names}
    width = max(at.values()) + 1
    who_at, q_at, sel_at = at["respondent"], at["question"], at["selected"]
    attempt_at, stamp_at = at.get("attempt"), at.get("timestamp")
    masks: dict[tuple[str, str], int | None] = {}  # (question, cell) -> mask: cells repeat a lot
    unknown: set[str] = set()
    for line, row in rows:
        if len(row) < width:
            raise ResponsesError(f"{path}:{line}:{col_of(row, len(row))}", f"{len(row)} fields, the header has {len(names)}")
        attempt = read_cell(path, line, row, attempt_at, attempt_number)  # checked on skipped rows too
        stamp = read_cell(path, line, row, stamp_at, instant)
        qid, cell = row[q_at].strip(), row[sel_at]
        mask = masks.get((qid, cell), -1)
        if mask == -1:
            mask = masks[(qid, cell)] = _mask(keys.get(qid), cell)
        if mask is None or mask < 0:
            _note(path, line, row, at, qid, cell, keys, unknown, notes)
            continue
        yield (row[who_at].strip(), qid, mask, attempt, (stamp, line))


def _mask(key: ItemKey | None, cell: str) -> int | None:
    """Bit mask of the answer in `cell`; None for an unknown question, -2 for an answer it cannot be."""
    return None if key is None else key.read(cell)[0]


def _note(path, line, row, at, qid, cell, keys, unknown, notes) -> None:
    if qid not in keys:
        if qid not in unknown:  # once per question
            unknown.add(qid)
            notes.append(Note(f"{path}:{line}:{col_of(row, at['question'])}",
                              f"question {qid!r} is not in the bank; its rows are skipped"))
        return
    notes.append(Note(f"{path}:{line}:{col_of(row, at['selected'])}", f"{keys[qid].read(cell)[1]}; the row is skipped"))


def fast_answers(path: str, text: str, keys: dict[str, ItemKey], notes: list[Note]):
    """(respondents, rows, item names, item codes, masks) of a plain long CSV without per-row Python objects, or
    None when the file needs the general reader (quotes, CR, spaces around commas, blank or ragged
    lines, attempt or timestamp columns). The first answer of a respondent to an item counts."""
    if '"' in text or "\r" in text or ", " in text or " ," in text:
        return None
    head, _, body = text.partition("\n")
    names = [h.strip().lower() for h in head.split(",")]
    if sorted(names) != sorted(REQUIRED):
        return None
    if body and not body.endswith("\n"):
        body += "\n"
    width = len(names)
    fields = re.split("[,\n]", body)
    fields.pop()  # after the last newline
    if len(fields) != body.count("\n") * width or not fields:
        return None
    who_col = fields[names.index("respondent")::width]
    q_col = fields[names.index("question")::width]
    sel_col = fields[names.index("selected")::width]
    respondents: dict[str, int] = {}
    rows = np.array([respondents.setdefault(w, len(respondents)) for w in who_col], dtype=np.int64)
    pairs: dict[tuple[str, str], int] = {}
    codes = np.array([pairs.setdefault(p, len(pairs)) for p in zip(q_col, sel_col)], dtype=np.int64)
    pair_mask = np.array([m if (m := _mask(keys.get(q), s)) is not None else -3 for q, s in pairs], dtype=np.int64)
    pair_item = [q for q, _ in pairs]
    masks = pair_mask[codes]
    unknown: set[str] = set()
    for code in np.flatnonzero(pair_mask < 0):  # rows to skip: say where the first of each kind is
        i = int(np.argmax(codes == code))
        row = [fields[i * width + c] for c in range(width)]
        at = {n: names.index(n) for n in REQUIRED}
        _note(path, i + 2, row, at, q_col[i], sel_col[i], keys, unknown, notes)
    keep = masks >= 0
    return list(respondents), rows[keep], pair_item, codes[keep], masks[keep]
