"""`qlint coverage`: questions per blueprint domain and task statement, against the weights and the
pool a number of practice exams needs."""

from __future__ import annotations

import argparse
import sys

from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.cli.commands.check import bank_paths, setup_failed, write_report
from qlint.files import UnsafePathError
from qlint.project.config import ConfigError
from qlint.cli.config import load_config
from qlint.lint.selection import SelectionError
from qlint.paths import display_path

FORMATS = ("text", "markdown")


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not 1 <= n <= 10_000:
        raise argparse.ArgumentTypeError(f"{n} is out of range (1 to 10000)")
    return n


@command("coverage", "Questions per domain and task statement against the blueprint and N practice exams.",
         "Count the bank's questions per blueprint domain and per task statement of the exam guide,\n"
         "against the blueprint's weights and against the pool N practice exams need without repeating\n"
         "a question (the exam file's `questions:` is a practice exam's length; --length gives one).\n"
         "Exit 0: it reports figures, not findings (B008 and B015 are the findings).")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="bank folders or question files; the whole bank they belong to is counted (default: the configured bank)")
    p.add_argument("--exams", type=_count, default=1, metavar="N",
                   help="practice exams the bank should fill without repeating a question (default: 1)")
    p.add_argument("--length", type=_count, default=None, metavar="N",
                   help="questions per practice exam (default: the exam file's `questions:`)")
    p.add_argument("--output-format", choices=FORMATS, default="text", help="text (default) or markdown")
    p.add_argument("--output-file", metavar="PATH", default=None, help="write the report to PATH instead of the terminal")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes (default: one per core; 1: serial)")
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.cli.reporting import bank_figures
    from qlint.lint.engine import lint, make_settings
    from qlint.lint.runner import RunOptions
    from qlint.reports._coverage import coverage_text
    from qlint.reports.markdown import coverage_markdown

    try:
        config = load_config()
        settings = make_settings(config, ["B015"], [], ())  # a bank rule: the run loads the whole bank
    except (ConfigError, SelectionError, ValueError) as exc:
        return setup_failed(exc)
    paths = bank_paths(args, config)
    if paths is None:
        return EXIT_ERROR
    result = lint(paths, settings, RunOptions(None, args.jobs, lean=True))
    if result.fatal:
        for d in result.diagnostics:
            print(f"{display_path(d.path)}:{d.line}:{d.col}: {d.code} {d.message}", file=sys.stderr)
        return EXIT_ERROR
    unread = sorted(p for p, r in result.results.items() if r.kind == "question" and not r.valid)
    if unread:
        print(f"qlint: note: {len(unread)} question file{'' if len(unread) == 1 else 's'} with schema or YAML errors "
              f"not counted (first: {display_path(unread[0])}); `qlint check` says why", file=sys.stderr)
    figures = bank_figures(result, settings, args.exams, args.length)
    report = (coverage_markdown if args.output_format == "markdown" else coverage_text)(figures, args.exams)
    if args.output_file:
        try:
            write_report(args.output_file, report)
        except (OSError, UnsafePathError) as exc:
            print(f"qlint: error: cannot write the report to {args.output_file}: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return EXIT_ERROR
    else:
        sys.stdout.write(report)
    return EXIT_OK
