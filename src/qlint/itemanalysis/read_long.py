"""The generic long CSV: `respondent,question,selected[,attempt][,timestamp]`, one row per
respondent and question; `question` is the qlint id, `selected` the chosen option ids joined by
`|` (empty: skipped); `timestamp` is ISO 8601 (it orders attempts when there is no number)."""

from __future__ import annotations

from typing import Iterator

from qlint.itemanalysis.attempts import Record
from qlint.itemanalysis.csvfile import col_of
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
    unknown: set[str] = set()
    option_of = {qid: {o: i for i, o in enumerate(k.option_ids)} for qid, k in keys.items()}
    for line, row in rows:
        if len(row) < width:
            raise ResponsesError(f"{path}:{line}:{col_of(row, len(row))}", f"{len(row)} fields, the header has {len(names)}")
        qid = row[at["question"]].strip()
        options = option_of.get(qid)
        if options is None:
            if qid not in unknown:
                unknown.add(qid)
                notes.append(Note(f"{path}:{line}:{col_of(row, at['question'])}",
                                  f"question {qid!r} is not in the bank; its rows are skipped"))
            continue
        mask, bad = 0, ""
        for oid in (s.strip() for s in row[at["selected"]].split("|")):
            if oid in options:
                mask |= 1 << options[oid]
            elif oid:
                bad = oid
        if bad:
            notes.append(Note(f"{path}:{line}:{col_of(row, at['selected'])}",
                              f"{qid} has no option {bad!r}; the row is skipped"))
            continue
        attempt = None
        if "attempt" in at and row[at["attempt"]].strip():
            text = row[at["attempt"]].strip()
            if not text.isdigit():
                raise ResponsesError(f"{path}:{line}:{col_of(row, at['attempt'])}",
                                     f"attempt {text!r} is not a whole number")
            attempt = int(text)
        stamp = row[at["timestamp"]].strip() if "timestamp" in at else ""
        yield Record(row[at["respondent"]].strip(), qid, mask, attempt, (stamp, line))
