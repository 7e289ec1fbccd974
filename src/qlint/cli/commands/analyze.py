"""`qlint analyze`: item analysis of learners' responses, reported on the questions' YAML lines."""

from __future__ import annotations

import argparse
import os
import sys

from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands.check import _csv, choose_formats, use_color, write_report
from qlint.diagnostic import Severity
from qlint.files import UnsafePathError
from qlint.project.config import ConfigError
from qlint.cli.config import load_config
from qlint.reports import REPORTERS, ReportContext
from qlint.reports._context import context_fields
from qlint.lint.selection import SelectionError

MAX_NOTES = 20


@command("analyze", "Item analysis of learners' responses (CSV from Canvas, Moodle or the generic format).",
         "Read learners' responses, compute classical item statistics (facility, point-biserials, upper-lower\n"
         "index, option shares, KR-20/alpha) and report the response rules' findings (R codes) on the\n"
         "questions' YAML lines. Formats: the generic CSV 'respondent,question,selected[,attempt][,timestamp]',\n"
         "Canvas's Student Analysis CSV, Moodle's Responses report CSV (see docs/analyze.md).")
def configure(p: argparse.ArgumentParser):
    p.add_argument("responses", nargs="+", metavar="RESPONSES", help="responses CSV files (one form; several files are merged)")
    p.add_argument("--bank", metavar="PATH", action="append", default=None,
                   help="question files or folders the responses answer (default: the configured bank)")
    p.add_argument("--all-attempts", action="store_true",
                   help="count every attempt as a respondent (default: each learner's first attempt only)")
    p.add_argument("--scoring", choices=["all-or-nothing", "partial"], default=None,
                   help="multiple-response scoring: exactly the keys, or partial credit "
                        "(default: the bank's, [export] scoring in qlint.toml, as the exports score)")
    p.add_argument("--html", metavar="DIR", default=None, help="also write a static HTML report to DIR")
    p.add_argument("--select", type=_csv, default=[], metavar="CODES", help="only these rules")
    p.add_argument("--ignore", type=_csv, default=[], metavar="CODES", help="rules to skip")
    p.add_argument("--fail-on", choices=["error", "warning", "info"], default="warning",
                   help="lowest severity that makes the exit code 1 (default: warning)")
    p.add_argument("--output-format", metavar="NAME", default=None,
                   help=f"report format: {', '.join(REPORTERS.names())} (default: text, github under GitHub Actions)")
    p.add_argument("--output-file", metavar="PATH", default=None, help="write the report to PATH")
    p.add_argument("--no-color", action="store_true", help="never colour the output")
    return run


def _say(message: str) -> None:
    print(f"qlint: error: {message}", file=sys.stderr)


def _show(notes) -> None:
    for n in notes[:MAX_NOTES]:
        print(f"{n.where}: note: {n.message}", file=sys.stderr)
    if len(notes) > MAX_NOTES:
        print(f"qlint: {len(notes) - MAX_NOTES} more notes like these", file=sys.stderr)


def _summary(a) -> str:
    return (f"{a.n_respondents} respondents, {len(a.items)} items; {a.reliability_name} "
            f"{'n/a' if a.alpha != a.alpha else f'{a.alpha:.3f}'} (over {a.alpha_n} who saw every item), "
            f"SEM {'n/a' if a.sem != a.sem else f'{a.sem:.2f}'}, mean score {a.mean_total:.2f} of {len(a.items)}")


def run(args: argparse.Namespace) -> int:
    from qlint.lint.engine import load_exams, make_settings
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.itemanalysis.data import ResponsesError
    from qlint.itemanalysis.findings import only_responses, run_rules
    from qlint.itemanalysis.languages import by_language, facility_gaps
    from qlint.paths import display_path
    from qlint.itemanalysis.readers import read_responses
    from qlint.itemanalysis.stats import analyse

    try:
        config = load_config()
        select = args.select or ["R"]
        settings = only_responses(make_settings(config, select, args.ignore, (), responses=True))
        terminal_fmt, file_fmt = choose_formats(args.output_format or "", args.output_file, os.environ)
    except (ConfigError, SelectionError, ValueError) as exc:
        for line in str(exc).splitlines():
            _say(line)
        return EXIT_ERROR
    load_exams(settings)
    keys, notes = load_keys(config, args.bank or [str(config.bank_dir)])
    if not keys:
        _say(f"no valid question in {', '.join(args.bank or [str(config.bank_dir)])}: nothing to map responses to")
        return EXIT_ERROR
    try:
        responses = read_responses(args.responses, keys, args.all_attempts)
    except ResponsesError as exc:
        _show(notes)  # a question skipped in the bank explains why its answers found no question
        _say(str(exc))
        return EXIT_ERROR
    _show(notes + responses.notes)
    # one form per language: a bank with translations is analysed language by language
    forms = [(lang, analyse(part, keys, args.scoring or config.scoring)) for lang, part in by_language(responses, keys)]
    per_form = [(lang, a, run_rules(a, settings)) for lang, a in forms]
    diagnostics = sorted(d for _, _, found in per_form for d in found)
    code = EXIT_FINDINGS if any(d.severity >= Severity.parse(args.fail_on) for d in diagnostics) else EXIT_OK
    summaries = [(f"{lang}: " if len(forms) > 1 else "") + _summary(a) for lang, a in forms]
    print("\n".join(summaries), file=sys.stdout if terminal_fmt == "text" else sys.stderr)
    for key, what in facility_gaps(forms):
        print(f"{display_path(key.path)}:1:1: note: {what}", file=sys.stderr)
    shared = context_fields(sum(len(a.items) for _, a in forms), code, tuple(settings.selection.enabled), os.environ)
    if args.html:
        from qlint.itemanalysis.html import write_html

        for (lang, a, found), summary in zip(per_form, summaries):
            folder = os.path.join(args.html, lang) if len(forms) > 1 else args.html  # a report per language
            try:
                index = write_html(folder, a, found, summary)
            except (OSError, UnsafePathError) as exc:
                _say(f"cannot write the HTML report to {folder}: {getattr(exc, 'strerror', None) or exc}")
                return EXIT_ERROR
            print(f"qlint: HTML report: {index}", file=sys.stderr)
    ctx = ReportContext(**shared, color=use_color(sys.stdout) and not args.no_color and terminal_fmt == "text")
    sys.stdout.write(REPORTERS.get(terminal_fmt)(diagnostics, ctx))
    sys.stdout.flush()
    if file_fmt:
        try:
            write_report(args.output_file, REPORTERS.get(file_fmt)(diagnostics, ReportContext(**shared)))
        except (OSError, UnsafePathError) as exc:
            _say(f"cannot write the report to {args.output_file}: {getattr(exc, 'strerror', None) or exc}")
            return EXIT_ERROR
    return code
