"""`github`: GitHub Actions workflow commands, which the runner turns into annotations on the diff.

`::error file=F,line=L,col=C,endLine=..,endColumn=..,title=T::message`, then the usual summary line.
"""

from __future__ import annotations

from qlint.diagnostic import Diagnostic, Severity
from qlint.printable import printable
from qlint.reports import ReportContext, reporter
from qlint.reports._common import report_path
from qlint.reports.text import summary

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """The message part: '%' first, so the runner's decoding restores the exact text; line breaks
    in the runner's own encoding, other control and bidi characters as `\\x1b`-style escapes (the
    log renders ANSI sequences, and a file name may come from a pull request)."""
    return printable(text, keep="\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Property values also end at ',' and the properties at '::', so ':' and ',' are encoded too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic, ctx: ReportContext) -> str:
    props = {
        "file": report_path(d.path, ctx),
        "line": d.line,
        "col": d.col,
        "endLine": d.end_line or d.line,
        "endColumn": d.end_col or d.col,
        "title": f"{d.code} {d.name}",
    }
    joined = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items())
    return f"::{COMMANDS[d.severity]} {joined}::{escape_data(d.message)}"


@reporter("github")
def github_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    lines = [annotation(d, ctx) for d in diagnostics]
    lines.append(summary(diagnostics, ctx.files_checked))
    return "\n".join(lines) + "\n"
