"""How the authoring and export commands print their Diagnostics: through the reporters `qlint
check` uses. Text goes to stderr beside the command's own summary; another --output-format is
the whole report on stdout, so a CI job can parse it."""

from __future__ import annotations

import argparse
import sys

from qlint.diagnostic import Diagnostic
from qlint.reports import REPORTERS, ReportContext
from qlint.reports._context import context_fields


def add_output_format(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output-format", default="text", metavar="FORMAT",
                   help=f"how problems are printed: {', '.join(REPORTERS.names())} (default: text, on stderr; "
                        "another format is the whole report on stdout)")


def known_format(fmt: str) -> bool:
    if fmt in REPORTERS:
        return True
    print(f"qlint: error: unknown output format {fmt!r}; choose from: {', '.join(REPORTERS.names())}", file=sys.stderr)
    return False


def report(diagnostics: list[Diagnostic], fmt: str, files_checked: int, exit_code: int) -> None:
    """Print the diagnostics in `fmt` (sorted by place, as `qlint check` prints them)."""
    ordered = sorted(diagnostics)
    shared = context_fields(files_checked, exit_code)  # as `qlint check` builds it: one path per file
    if fmt == "text":
        sys.stderr.write(REPORTERS.get("text")(ordered, ReportContext(**shared, summary=False)))
    else:
        sys.stdout.write(REPORTERS.get(fmt)(ordered, ReportContext(**shared)))


def says_text(fmt: str) -> bool:
    """Whether the command's own summary may go to stdout (a machine format owns stdout)."""
    return fmt == "text"
