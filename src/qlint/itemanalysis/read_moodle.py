"""Moodle quiz "Responses" report, downloaded as CSV.

Columns: Surname, First name, (Email address,) State, Started on, Completed, Time taken,
Grade/N, then per slot `Response N` (the chosen answers' texts, several joined by "; ", "-" for
none) and, when the report is set to include them, `Question N` (the question) and
`Right answer N`. A slot is mapped to the bank by its `Question N` cell: the question's name or
idnumber as qlint's Moodle export writes them (the qlint id), else its text. Only finished
attempts count; a user's attempts are ordered by `Started on` (an instant, `cells.instant`), else by row."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.itemanalysis.attempts import Record, first_by_time
from qlint.itemanalysis.cells import instant
from qlint.itemanalysis.csvfile import col_of, read_cell
from qlint.itemanalysis.data import ItemKey, Note, ResponsesError
from qlint.itemanalysis.match import QuestionIndex, options_in

# slot numbers in ASCII digits, at most 6 (int() reads other digits and refuses 5,000 of them)
_RESPONSE = re.compile(r"^\s*response\s+([0-9]{1,6})\s*$", re.I)
_QUESTION = re.compile(r"^\s*question\s+([0-9]{1,6})\s*$", re.I)


def is_moodle(header: list[str]) -> bool:
    return any(_RESPONSE.match(h) for h in header)


def records(path: str, rows: Iterator[tuple[int, list[str]]], keys: dict[str, ItemKey],
            notes: list[Note]) -> Iterator[Record]:
    line, header = next(rows)
    names = [h.strip().lower() for h in header]
    slots = {int(m.group(1)): j for j, h in enumerate(header) if (m := _RESPONSE.match(h))}
    question_at = {int(m.group(1)): j for j, h in enumerate(header) if (m := _QUESTION.match(h))}
    missing = sorted(set(slots) - set(question_at))
    if missing:
        raise ResponsesError(f"{path}:{line}:{col_of(header, slots[missing[0]])}",
                             f"Response {missing[0]} has no 'Question {missing[0]}' column to say which question "
                             "it answers: download the Responses report with 'Question text' included")
    email = names.index("email address") if "email address" in names else None
    first = names.index("first name") if "first name" in names else None
    last = names.index("surname") if "surname" in names else None
    state = names.index("state") if "state" in names else None
    started = names.index("started on") if "started on" in names else None
    if email is None and first is None and last is None:
        raise ResponsesError(f"{path}:{line}:1", "no Surname, First name or Email address column names the learner")
    index = QuestionIndex(keys)
    unmapped: set[str] = set()
    taken: list[tuple[str, str, int, list[str]]] = []
    for line, row in rows:
        cell = lambda j: row[j].strip() if j is not None and j < len(row) else ""  # noqa: E731
        if state is not None and cell(state).lower() not in ("finished", ""):
            continue  # in progress, overdue or abandoned: not a scored attempt
        if cell(0).lower().startswith("overall average"):
            continue
        who = cell(email) or f"{cell(last)}, {cell(first)}"
        stamp = read_cell(path, line, row, started, instant)
        taken.append((who, stamp, line, row))
    taken.sort(key=lambda t: (t[0], *first_by_time((t[1], t[2]))))
    attempt_no: dict[str, int] = {}
    for who, stamp, line, row in taken:
        attempt_no[who] = attempt_no.get(who, 0) + 1
        for slot, j in sorted(slots.items()):
            qj = question_at[slot]
            qtext = row[qj] if qj < len(row) else ""
            key, why = index.find(qtext)
            if key is not None and not key.is_choice:
                key, why = None, f"{key.id} is a {key.kind} question; qlint reads its answers from the generic CSV only"
            if key is None:
                if qtext.strip() and qtext not in unmapped:
                    unmapped.add(qtext)
                    notes.append(Note(f"{path}:{line}:{col_of(row, qj)}", f"Question {slot}: {why}; skipped"))
                continue
            answer = row[j] if j < len(row) else ""
            mask, why = options_in(answer, key, ";")
            if mask is None:
                notes.append(Note(f"{path}:{line}:{col_of(row, j)}", why + "; skipped"))
                continue
            yield Record(who, key.id, mask, attempt_no[who], (stamp, line))
