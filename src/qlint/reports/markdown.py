"""`markdown`: a summary for a pull-request comment or $GITHUB_STEP_SUMMARY.

Counts by severity and rule, a table of findings linking `path#Lline`, and the bank's key-balance
and blueprint-coverage figures (given in `ctx.extra` by the check command).
"""

from __future__ import annotations

import re
from urllib.parse import quote

from qlint.bank.pool import PoolNeed
from qlint.bank.statistics import Balance, Coverage
from qlint.bank.tasks import TaskCoverage
from qlint.diagnostic import Diagnostic
from qlint.printable import printable
from qlint.project.review import ReviewRow
from qlint.reports import ReportContext, reporter
from qlint.reports._common import plural, report_path, rule_counts, severity_counts
from qlint.reports._coverage import Table, domain_table, pool_lines, task_table
from qlint.reports.text import summary

MAX_ROWS = 200  # a PR comment holds 65,536 characters; the counts above still cover everything
# Characters that start Markdown or HTML constructs inside a table cell; a backslash makes each literal.
_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def escape(text: str) -> str:
    """Text shown literally in a table cell: Markdown/HTML punctuation escaped, line breaks as <br>,
    control and bidi characters as `\\x1b`-style escapes."""
    return _NEWLINES.sub("<br>", _SPECIAL.sub(r"\\\1", printable(text, keep="\r\n")))


def _table(header: list[str], align: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"] + ["| " + " | ".join(r) + " |" for r in rows]


def _link(d: Diagnostic, ctx: ReportContext) -> str:
    path = report_path(d.path, ctx)
    if path.startswith("/"):  # outside the repository: nothing a reviewer could open
        return f"{escape(path)}:{d.line}"
    return f"[{escape(path)}:{d.line}]({ctx.link_base}{quote(path, safe='/')}#L{d.line})"


def _findings(diagnostics: list[Diagnostic], ctx: ReportContext) -> list[str]:
    rows = [[str(d.severity), _link(d, ctx), f"`{d.code}` {d.name}", escape(d.message)] for d in diagnostics[:MAX_ROWS]]
    out = ["### Findings", ""] + _table(["severity", "where", "rule", "message"], ["---"] * 4, rows)
    if len(diagnostics) > MAX_ROWS:
        out += ["", f"… and {len(diagnostics) - MAX_ROWS} more: run `qlint check` for the full list."]
    return out


def _counts(diagnostics: list[Diagnostic]) -> list[str]:
    by_severity = [[str(s), str(n)] for s, n in severity_counts(diagnostics).items()]
    by_rule = [[f"`{code}`", name, str(n)] for code, name, n in rule_counts(diagnostics)]
    return (["### By severity", ""] + _table(["severity", "count"], ["---", "--:"], by_severity)
            + ["", "### By rule", ""] + _table(["rule", "name", "count"], ["---", "---", "--:"], by_rule))


def _balance(groups: list[Balance]) -> list[str]:
    out = ["### Key balance", "",
           "Where the key sits in single-answer questions; a low p-value means the positions are uneven.", ""]
    if not groups:
        return out + ["No single-answer questions."]
    rows = [[str(b.k), str(b.n), " · ".join(f"{chr(65 + i)} {c}" for i, c in enumerate(b.counts)),
             f"{b.chi2:.2f}", f"{b.p_value:.3f}"] for b in groups]
    return out + _table(["options", "questions", "keys by position", "χ²", "p"], ["--:", "--:", "---", "--:", "--:"], rows)


def _md_table(table: Table) -> list[str]:
    return _table(table.header, table.align, [[escape(c) for c in row] for row in table.rows])


def _coverage(items: list[Coverage], pool: dict[str, PoolNeed]) -> list[str]:
    out = ["### Blueprint coverage", "", "Questions per exam domain against the blueprint's weight.", ""]
    if not items:
        return out + ["No exam definitions."]
    if pool:
        out += [escape(line) for line in pool_lines(pool)] + [""]
    return out + _md_table(domain_table(items, pool))


def _tasks(items: list[TaskCoverage], pool: dict[str, PoolNeed]) -> list[str]:
    out = ["### Task statement coverage", "",
           "Questions per task statement of the exam guide, against the blueprint's share for it "
           "(the domain's weight spread evenly over its tasks).", ""]
    return out + _md_table(task_table(items, pool))


def coverage_sections(extra: dict) -> list[str]:
    """The blueprint and task statement tables of `extra` (the PR summary and `qlint coverage`)."""
    lines: list[str] = []
    pool = extra.get("pool") or {}
    if "coverage" in extra:
        lines += [""] + _coverage(extra["coverage"], pool)
    if extra.get("tasks"):
        lines += [""] + _tasks(extra["tasks"], pool)
    return lines


def coverage_markdown(extra: dict, exams: int) -> str:
    """`qlint coverage --output-format markdown`: the PR summary's coverage tables on their own."""
    return "\n".join(["## qlint coverage", *coverage_sections(extra)]) + "\n"


def _review(rows: list[ReviewRow]) -> list[str]:
    out = ["### Review status", "",
           "Questions per exam domain: signed off as the [review] policy requires, with a sign-off or freeze "
           "the text has since outgrown (stale), missing a required sign-off, or needing none.", ""]
    body = [[escape(r.exam), escape(r.domain), str(r.reviewed), str(r.stale), str(r.missing), str(r.not_required)]
            for r in rows]
    total = [sum(getattr(r, f) for r in rows) for f in ("reviewed", "stale", "missing", "not_required")]
    body.append(["**all**", "", *(f"**{n}**" for n in total)])
    return out + _table(["exam", "domain", "reviewed", "stale", "missing", "not required"],
                        ["---", "---", "--:", "--:", "--:", "--:"], body)


@reporter("markdown", figures=True)
def markdown_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    lines = ["## qlint", "", escape(summary(diagnostics, ctx.files_checked))]
    if diagnostics:
        files = len({d.path for d in diagnostics})
        if files <= ctx.files_checked:  # else a path no file was read from: the text summary says so
            lines[2] = f"**{plural(len(diagnostics), 'problem')}** in {plural(files, 'file')} of {ctx.files_checked} checked."
        lines += [""] + _counts(diagnostics) + [""] + _findings(diagnostics, ctx)
    if "key_balance" in ctx.extra:
        lines += [""] + _balance(ctx.extra["key_balance"])
    lines += coverage_sections(ctx.extra)
    if ctx.extra.get("review"):
        lines += [""] + _review(ctx.extra["review"])
    return "\n".join(lines) + "\n"
