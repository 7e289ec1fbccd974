"""Read responses files of any supported format into one `Responses` matrix."""

from __future__ import annotations

from qlint.itemanalysis import read_canvas, read_long, read_moodle
from qlint.itemanalysis.attempts import assemble
from qlint.itemanalysis.csvfile import read_text, rows
from qlint.itemanalysis.data import ItemKey, Note, Responses, ResponsesError

FORMATS = (("long", read_long.is_long, read_long.records),
           ("canvas", read_canvas.is_canvas, read_canvas.records),
           ("moodle", read_moodle.is_moodle, read_moodle.records))


def detect(path: str, header: list[str]) -> str:
    for name, test, _ in FORMATS:
        if test(header):
            return name
    raise ResponsesError(f"{path}:1:1", "not a responses file qlint reads: expected the generic header "
                         "'respondent,question,selected', a Canvas Student Analysis or a Moodle Responses report")


def read_responses(paths: list[str], keys: dict[str, ItemKey], all_attempts: bool = False) -> Responses:
    """Every file's answers (files in the order given; a respondent in two files is one person)."""
    notes: list[Note] = []
    if len(paths) == 1 and not all_attempts:  # the common large case: one plain long CSV
        text = read_text(paths[0])
        fast = read_long.fast_answers(paths[0], text, keys, notes)
        if fast is not None:
            if not len(fast[1]):
                raise _nothing(paths[0], notes)
            return Responses.from_codes(sorted(keys), *fast, notes, f"{paths[0]}:1:1")
        notes = []
    records = []
    for path in paths:
        it = rows(path)
        line, header = next(it)
        fmt = detect(path, header)
        reader = dict((n, r) for n, _, r in FORMATS)[fmt]

        def again(first=(line, header), rest=it):
            yield first
            yield from rest

        records += list(reader(path, again(), keys, notes))
    who, items, masks = assemble(records, all_attempts)
    if not who:
        raise _nothing(paths[0], notes)
    return Responses.from_answers(sorted(keys), who, items, masks, notes, f"{paths[0]}:1:1")


def _nothing(path: str, notes: list[Note]) -> ResponsesError:
    why = f" (first skipped: {notes[0].where}: {notes[0].message})" if notes else ""
    return ResponsesError(f"{path}:1:1", f"no answer to any bank question{why}")
