"""Which attempts count: the first by default (as Canvas's and Moodle's item analyses do), or
every attempt as a respondent of its own (--all-attempts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Record:
    respondent: str
    item: str
    mask: int
    attempt: int | None  # the export's attempt number, when it has one
    order: tuple  # (timestamp, line): sorts answers to one question without attempt numbers


def assemble(records: Iterable[Record], all_attempts: bool) -> dict[str, dict[str, int]]:
    """respondent (or respondent#attempt) -> {item -> mask}. With attempt numbers, a respondent's
    first attempt is their lowest number; without them, each question's earliest answer."""
    records = list(records)
    numbered = any(r.attempt is not None for r in records)
    out: dict[str, dict[str, int]] = {}
    if numbered:
        first: dict[str, int] = {}
        for r in records:
            a = r.attempt or 1
            if a < first.get(r.respondent, a + 1):
                first[r.respondent] = a
        for r in records:
            a = r.attempt or 1
            if all_attempts:
                who = f"{r.respondent}#{a}"
            elif a == first[r.respondent]:
                who = r.respondent
            else:
                continue
            out.setdefault(who, {}).setdefault(r.item, r.mask)
        return out
    records.sort(key=lambda r: r.order)
    count: dict[tuple[str, str], int] = {}
    for r in records:
        k = count[(r.respondent, r.item)] = count.get((r.respondent, r.item), 0) + 1
        if all_attempts:
            out.setdefault(f"{r.respondent}#{k}" if k > 1 else r.respondent, {})[r.item] = r.mask
        elif k == 1:
            out.setdefault(r.respondent, {})[r.item] = r.mask
    return out
