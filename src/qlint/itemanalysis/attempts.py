"""Which attempts count: the first by default (as Canvas's and Moodle's item analyses do), or
every attempt as a respondent of its own (--all-attempts)."""

from __future__ import annotations

from typing import Iterable, NamedTuple


class Record(NamedTuple):
    """One answer. Readers of large files may yield plain tuples in this field order."""

    respondent: str
    item: str
    mask: int
    attempt: int | None  # the export's attempt number, when it has one
    order: tuple  # (instant or None, line): sorts answers to one question without attempt numbers


def first_by_time(order: tuple) -> tuple:
    """Sort key of an `order`: the earliest instant first (`cells.instant`: offsets applied, so
    10:00+05:00 is before 06:00Z), answers without a time before those with one, then by line."""
    stamp, line = order
    return (stamp is not None, stamp or 0, line)


Answers = tuple[list[str], list[str], list[int]]  # respondent, item, mask: the first of a pair counts


def assemble(records: Iterable[tuple], all_attempts: bool) -> Answers:
    """(respondent or respondent#attempt, item, mask) of the answers that count. With attempt
    numbers, a respondent's first attempt is their lowest number; without them, each question's
    earliest answer (by timestamp, then line); a later answer to the same question is ignored."""
    records = records if isinstance(records, list) else list(records)
    who: list[str] = []
    items: list[str] = []
    masks: list[int] = []
    if any(r[3] is not None for r in records):
        first: dict[str, int] = {}
        for r in records:
            a = r[3] or 1
            if a < first.get(r[0], a + 1):
                first[r[0]] = a
        for r in records:
            a = r[3] or 1
            if all_attempts or a == first[r[0]]:
                who.append(f"{r[0]}#{a}" if all_attempts else r[0])
                items.append(r[1])
                masks.append(r[2])
        return who, items, masks
    if any(r[4][0] is not None for r in records):  # timestamps: earliest first (the line breaks ties)
        records = sorted(records, key=lambda r: first_by_time(r[4]))
    if not all_attempts:
        return [r[0] for r in records], [r[1] for r in records], [r[2] for r in records]
    count: dict[tuple[str, str], int] = {}
    for r in records:
        k = count[(r[0], r[1])] = count.get((r[0], r[1]), 0) + 1
        who.append(f"{r[0]}#{k}" if k > 1 else r[0])
        items.append(r[1])
        masks.append(r[2])
    return who, items, masks
