"""`qlint check --fix / --diff`: apply the fixes (authoring.fixing), show or write them, exit code."""

from __future__ import annotations

import argparse
from typing import TextIO

from qlint.authoring.changes import publish
from qlint.authoring.fixing import fix_paths
from qlint.cli.commands._authoring import refuse_batch
from qlint.cli.commands._report import report as print_report
from qlint.lint.engine import load_exams
from qlint.lint.settings import Settings
from qlint.project.discovery import discover


def run_fixes(args: argparse.Namespace, paths: list[str], settings: Settings, out: TextIO, err: TextIO,
              fmt: str = "text") -> int | None:
    """--fix / --diff for `qlint check`: an exit code when the command ends here (--diff), else None."""
    if not settings.exams:
        load_exams(settings, discover(paths)[0])  # the exams of the banks the files belong to
    report = fix_paths(paths, settings, args.unsafe_fixes)
    if report.internal:
        return refuse_batch(report.internal)
    mode = "diff" if args.diff else "write"
    changed, failed = publish(report.changes, mode, out, verb="fixed", root=settings.config.root)
    if changed and mode == "write":  # the lint after reads the fixed exam files anew
        settings.session = None
        settings.exam_results.clear()
    if failed:  # nothing was written: A002/A003, through the report format the command prints
        print_report(failed, fmt, len(report.changes), 2)
    for line in report.failed + (report.unreadable if mode == "diff" else []):  # --fix: the lint after reports them
        err.write(line + "\n")
    n = len(report.applied)
    verb = "Would fix" if mode == "diff" else "Fixed"
    if failed:
        n = changed = 0  # the batch failed: nothing was written
    err.write(f"{verb} {n} problem{'s' if n != 1 else ''} in {changed} file{'s' if changed != 1 else ''}."
              + (f" {report.unsafe_left} more fixable with --unsafe-fixes." if report.unsafe_left and not args.unsafe_fixes else "")
              + "\n")
    if mode == "diff":
        return 2 if failed or report.unreadable else (1 if changed else 0)
    return 2 if failed else None
