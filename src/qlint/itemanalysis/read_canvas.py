"""Canvas classic quizzes' "Student Analysis" CSV.

Columns: name, id, sis_id, section, section_id, section_sis_id, submitted, attempt, then per
question a column headed `<Canvas question id>: <question text>` holding the chosen answer's
text (several answers joined by commas) followed by its points column, then n correct,
n incorrect and score. Questions are mapped to the bank by their text, answers by option text.
A learner's attempts are ordered by the attempt column (`submitted` is not read)."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.itemanalysis.attempts import Record
from qlint.itemanalysis.cells import attempt_number
from qlint.itemanalysis.csvfile import col_of, read_cell
from qlint.itemanalysis.data import ItemKey, Note, ResponsesError
from qlint.itemanalysis.match import QuestionIndex, options_in

_QUESTION = re.compile(r"^\s*([0-9]+)\s*:\s*(.*)$", re.S)  # ASCII digits: int() reads others too


def is_canvas(header: list[str]) -> bool:
    names = {h.strip().lower() for h in header}
    return "sis_id" in names and any(_QUESTION.match(h) for h in header)


def records(path: str, rows: Iterator[tuple[int, list[str]]], keys: dict[str, ItemKey],
            notes: list[Note]) -> Iterator[Record]:
    line, header = next(rows)
    names = [h.strip().lower() for h in header]
    who = names.index("id") if "id" in names else names.index("name") if "name" in names else None
    if who is None:
        raise ResponsesError(f"{path}:{line}:1", "a Canvas Student Analysis header has an 'id' or 'name' column")
    attempt_at = names.index("attempt") if "attempt" in names else None
    index = QuestionIndex(keys)
    columns: list[tuple[int, ItemKey]] = []
    for j, h in enumerate(header):
        m = _QUESTION.match(h)
        if not m:
            continue
        key, why = index.find(m.group(2))
        if key is not None and not key.is_choice:
            key, why = None, f"{key.id} is a {key.kind} question; qlint reads its answers from the generic CSV only"
        if key is None:
            notes.append(Note(f"{path}:{line}:{col_of(header, j)}", f"Canvas question {m.group(1)}: {why}; skipped"))
        else:
            columns.append((j, key))
    for line, row in rows:
        respondent = row[who].strip() if who < len(row) else ""
        attempt = read_cell(path, line, row, attempt_at, attempt_number)
        for j, key in columns:
            if j >= len(row):
                continue
            mask, why = options_in(row[j], key, ",")
            if mask is None:
                notes.append(Note(f"{path}:{line}:{col_of(row, j)}", why + "; skipped"))
                continue
            if mask == 0 and not row[j].strip():
                continue  # Canvas leaves unanswered questions blank: not a respondent to this item
            yield Record(respondent, key.id, mask, attempt, (None, line))
