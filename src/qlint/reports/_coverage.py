"""The coverage tables: questions per blueprint domain and per task statement of the exam guide,
against the blueprint's weights and, where the exam's length is known, against the pool a number
of practice exams needs (bank/pool.py). One builder for the Markdown PR summary and `qlint
coverage`; the cells are plain text, each format escapes them its own way."""

from __future__ import annotations

from dataclasses import dataclass

from qlint.bank.pool import PoolNeed
from qlint.bank.statistics import Coverage
from qlint.bank.tasks import TaskCoverage
from qlint.printable import printable

RIGHT, LEFT = "--:", "---"


@dataclass(frozen=True)
class Table:
    header: list[str]
    align: list[str]
    rows: list[list[str]]


def _pool_header(pool: dict[str, PoolNeed]) -> list[str]:
    counts = sorted({p.exams for p in pool.values()})
    exams = "/".join(str(n) for n in counts)
    return [f"needed for {exams} practice exam{'' if counts == [1] else 's'}", "short"]


def _pool_cells(need: int | None, have: int) -> list[str]:
    return ["–", "–"] if need is None else [str(need), str(max(0, need - have))]


def domain_table(items: list[Coverage], pool: dict[str, PoolNeed] | None = None) -> Table:
    pool = pool or {}
    header = ["exam", "domain", "weight", "questions", "share", "gap"]
    align = [LEFT, LEFT, RIGHT, RIGHT, RIGHT, RIGHT]
    rows = [[c.exam, f"{c.name} ({c.domain})", f"{c.weight:g}%", str(c.count), f"{c.share:.1f}%", f"{c.gap:+.1f} pts"]
            for c in items]
    return _pooled(header, align, rows, items, pool, lambda need, c: need.domains.get(c.domain))


def _pooled(header, align, rows, items, pool, need_of) -> Table:
    """The table, with the pool columns when a pool was worked out (`need_of(PoolNeed, row item)`)."""
    if pool:
        header, align = header + _pool_header(pool), align + [RIGHT, RIGHT]
        for row, c in zip(rows, items):
            row += _pool_cells(need_of(pool[c.exam], c) if c.exam in pool else None, c.count)
    return Table(header, align, rows)


def task_table(items: list[TaskCoverage], pool: dict[str, PoolNeed] | None = None) -> Table:
    pool = pool or {}
    header = ["exam", "task", "domain", "questions", "blueprint share", "gap"]
    align = [LEFT, LEFT, LEFT, RIGHT, RIGHT, RIGHT]
    rows = [[c.exam, f"{c.task} {c.text}", c.domain, str(c.count), f"{c.expected:.1f}", f"{c.gap:+.1f}"] for c in items]
    return _pooled(header, align, rows, items, pool, lambda need, c: need.tasks.get(c.task))


def pool_lines(pool: dict[str, PoolNeed]) -> list[str]:
    """One sentence per exam: the practice exams asked for, their length and the pool they take."""
    out = []
    for code, p in sorted(pool.items()):
        scored = f" ({p.scored} scored)" if p.scored else ""
        out.append(f"{code}: {p.exams} practice exam{'' if p.exams == 1 else 's'} of {p.length} questions{scored} "
                   f"without a repeated question take {sum(p.domains.values())}, each sitting split by the "
                   "blueprint's weights.")
    return out


def text_table(table: Table, width: int = 72) -> list[str]:
    """Aligned columns for a terminal; a cell wider than `width` is cut with an ellipsis."""
    cells = [[printable(c) for c in row] for row in [table.header, *table.rows]]
    cells = [[c if len(c) <= width else c[: width - 1] + "…" for c in row] for row in cells]
    sizes = [max(len(row[i]) for row in cells) for i in range(len(table.header))]

    def line(row: list[str]) -> str:
        return "  ".join(c.rjust(n) if a == RIGHT else c.ljust(n) for c, n, a in zip(row, sizes, table.align)).rstrip()

    return [line(cells[0]), "  ".join("-" * n for n in sizes)] + [line(r) for r in cells[1:]]


def totals(items: list[Coverage]) -> dict[str, int]:
    have: dict[str, int] = {}
    for c in items:
        have[c.exam] = have.get(c.exam, 0) + c.count
    return have


def coverage_text(extra: dict, exams: int) -> str:
    """`qlint coverage` for a terminal: per exam, the pool sentence, then the two tables."""
    items, tasks, pool = extra.get("coverage") or [], extra.get("tasks") or [], extra.get("pool") or {}
    if not items:
        return "No exam definitions: coverage is counted against bank/exams/<code>.yaml.\n"
    have = totals(items)
    out: list[str] = []
    for code in sorted(have):
        mine = [c for c in items if c.exam == code]
        out += [f"{code}: {have[code]} question{'' if have[code] == 1 else 's'} in the bank."]
        if code in pool:
            out += pool_lines({code: pool[code]})
        else:
            out += [f"{code}: no practice exam length (`questions:` in its exam file, or --length): "
                    f"the pool for {exams} practice exam{'' if exams == 1 else 's'} is not worked out."]
        out += [""] + _without_exam(text_table(_drop_exam(domain_table(mine, pool))))
        rows = [t for t in tasks if t.exam == code]
        if rows:
            out += [""] + _without_exam(text_table(_drop_exam(task_table(rows, pool))))
        out += [""]
    return "\n".join(printable(line) for line in out).rstrip("\n") + "\n"


def _drop_exam(table: Table) -> Table:
    return Table(table.header[1:], table.align[1:], [r[1:] for r in table.rows])


def _without_exam(lines: list[str]) -> list[str]:
    return ["  " + line if line else line for line in lines]
