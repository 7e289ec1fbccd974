"""The default format: `path:line:col: CODE message (rule-name)`, then a summary."""

from __future__ import annotations

from collections import Counter

from qlint.diagnostic import Diagnostic, Severity
from qlint.printable import printable
from qlint.reports import ReportContext, reporter

_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def summary(diagnostics: list[Diagnostic], files_checked: int) -> str:
    if not diagnostics:
        return f"All checks passed ({files_checked} file{'s' if files_checked != 1 else ''} checked)."
    counts = Counter(d.severity for d in diagnostics)
    parts = [f"{counts[s]} {str(s)}{'s' if counts[s] != 1 else ''}" for s in sorted(counts, reverse=True)]
    files = len({d.path for d in diagnostics})
    if files > files_checked:  # some are paths no file was read from (missing, a folder not listable)
        checked = f"{files_checked} file{'s' if files_checked != 1 else ''} checked" if files_checked else "no file checked"
        return f"Found {len(diagnostics)} problem{'s' if len(diagnostics) != 1 else ''} ({', '.join(parts)}); {checked}."
    return (f"Found {len(diagnostics)} problem{'s' if len(diagnostics) != 1 else ''} ({', '.join(parts)}) "
            f"in {files} of {files_checked} file{'s' if files_checked != 1 else ''}.")


def _source_lines(d: Diagnostic, text: str) -> list[str]:
    lines = text.splitlines()
    out = []
    last = min(d.end_line or d.line, d.line + 4, len(lines))
    for n in range(d.line, last + 1):
        out.append(f"  {n:>4} | {printable(lines[n - 1], keep=chr(9))}")
        if n == d.line:
            width = (d.end_col - d.col + 1) if d.end_line == d.line and d.end_col >= d.col else 1
            out.append(f"       | {' ' * (d.col - 1)}{'^' * max(1, width)}")
    return out


def one_line(message: str) -> str:
    """A message on one line, with nothing that drives the terminal: line breaks shown as `\\n`,
    control and bidi characters as escapes (a file name or text may come from a pull request)."""
    return printable(message.replace("\r\n", "\n"), keep="\t")


@reporter("text")
def text_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    lines = []
    for d in diagnostics:
        loc = f"{printable(d.path)}:{d.line}:{d.col}:"
        if ctx.color:
            lines.append(f"{_BOLD}{loc}{_RESET} {_COLORS[d.severity]}{d.code}{_RESET} {one_line(d.message)} {_DIM}({d.name}){_RESET}")
        else:
            lines.append(f"{loc} {d.code} {one_line(d.message)} ({d.name})")
        if ctx.show_source and d.path in ctx.sources:
            lines += _source_lines(d, ctx.sources[d.path])
    if ctx.statistics and diagnostics:
        counts = Counter((d.code, d.name) for d in diagnostics)
        lines.append("")
        for (code, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"{n:>5}  {printable(code)}  {printable(name)}")
    if ctx.summary:
        lines.append(summary(diagnostics, ctx.files_checked))
    return "\n".join(lines) + "\n" if lines else ""
