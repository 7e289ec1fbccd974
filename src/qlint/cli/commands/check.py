"""`qlint check`: lint question files."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import Mapping

from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.diagnostic import Severity
from qlint.cli.progress import terminal_bar
from qlint.lint.runner import RunOptions, progress_to
from qlint.lint.engine import LintResult, lint, make_settings, source_texts
from qlint.files import UnsafePathError, write_output
from qlint.project.config import ConfigError
from qlint.project.lifecycle import catalogue, check_date
from qlint.cli.config import load_config
from qlint.paths import display_path
from qlint.reports import REPORTERS, ReportContext, needs_figures
from qlint.cli.reporting import bank_figures, run_context
from qlint.lint.selection import SelectionError


def _csv(value: str) -> list[str]:
    return [v for v in (s.strip() for s in value.split(",")) if v]


def use_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def exit_code(result: LintResult, fail_on: Severity) -> int:
    if result.fatal:
        return EXIT_ERROR
    return EXIT_FINDINGS if any(d.severity >= fail_on for d in result.diagnostics) else EXIT_OK


@command("check", "Lint question files (default: the bank folder).",
         "Lint question files: YAML syntax, the schema, and every selected rule.\n"
         "Prints one line per finding: path:line:col: CODE message (rule-name).")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to lint (default: the configured bank, 'bank/')")
    p.add_argument("--select", type=_csv, default=[], metavar="CODES", help="only these rules (codes, prefixes or names, comma-separated)")
    p.add_argument("--extend-select", type=_csv, default=[], metavar="CODES", help="rules to add to the selection")
    p.add_argument("--preview", action="store_true",
                   help="also run preview rules (below the precision bar on real text; see `qlint rule CODE`)")
    p.add_argument("--ignore", type=_csv, default=[], metavar="CODES", help="rules to skip")
    p.add_argument("--fail-on", choices=["error", "warning", "info"], default="warning",
                   help="lowest severity that makes the exit code 1 (default: warning)")
    p.add_argument("--output-format", metavar="NAME", default=None,
                   help=f"report format: {', '.join(REPORTERS.names())} (default: the config's output-format, "
                        "else github when GITHUB_ACTIONS=true, else text)")
    p.add_argument("--output-file", metavar="PATH", default=None,
                   help="write the report to PATH (replaced atomically); the terminal keeps the text output")
    p.add_argument("--show-source", action="store_true", help="print the offending YAML lines under each finding")
    p.add_argument("--statistics", action="store_true", help="print counts per rule")
    p.add_argument("--no-color", action="store_true", help="never colour the output")
    p.add_argument("--no-cache", action="store_true", help="ignore and do not write the results cache")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="results cache folder (default: $QLINT_CACHE_DIR, else .qlint_cache beside the configuration)")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes for files the cache cannot answer (default: one per core; 1: serial)")
    p.add_argument("--fix", action="store_true", help="apply the safe fixes rules offer, then report what remains")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: apply unsafe fixes too")
    p.add_argument("--diff", action="store_true", help="show the fixes as a unified diff without writing (exit 1 if any)")
    p.add_argument("--date", metavar="YYYY-MM-DD", default=None,
                   help="judge services' lifecycle (V rules) as on this date instead of today (config key `date`)")
    p.add_argument("--responses", action="append", default=[], metavar="FILE",
                   help="also report the response rules (R codes) from learners' responses in FILE, as `qlint analyze` "
                        "does (first attempts, the bank's [export] scoring)")
    return run


def response_findings(settings, config, files: list[str]) -> int | None:
    """Put the response rules' findings into `settings.extra`; an exit code if the files cannot be read."""
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.itemanalysis.data import ResponsesError
    from qlint.itemanalysis.findings import run_rules
    from qlint.itemanalysis.readers import read_responses
    from qlint.itemanalysis.stats import analyse

    keys, _ = load_keys(config, [str(config.bank_dir)])
    try:
        responses = read_responses(files, keys)
    except ResponsesError as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for n in responses.notes[:20]:
        print(f"{n.where}: note: {n.message}", file=sys.stderr)
    settings.extra = run_rules(analyse(responses, keys, config.scoring), settings, suppress=False)  # lint() applies the comments
    return None


def run_options(args: argparse.Namespace, config) -> RunOptions:
    if args.no_cache:
        return RunOptions(None, args.jobs, lean=True)
    folder = args.cache_dir or os.environ.get("QLINT_CACHE_DIR") or str(config.root / ".qlint_cache")
    return RunOptions(Path(folder), args.jobs, lean=True)


def choose_formats(given: str, output_file: str | None, environ: Mapping[str, str]) -> tuple[str, str | None]:
    """(terminal format, file format or None). A format named on the command line or in the config
    goes to the file when there is one, and the terminal keeps text; with none named, GitHub Actions
    gets annotations on the terminal."""
    terminal_default = "github" if environ.get("GITHUB_ACTIONS") == "true" else "text"
    if given and given not in REPORTERS:
        raise ValueError(f"unknown output format {given!r}; choose from: {', '.join(REPORTERS.names())}")
    if output_file:
        return (terminal_default if not given else "text"), (given or "text")
    return (given or terminal_default), None


def write_report(path: str, report: str) -> None:
    write_output(path, report.encode("utf-8", "backslashreplace"))


def no_bank_message(config) -> str:
    """Why `qlint check` with no paths has nothing to check, and what to do instead."""
    where = f"{display_path(str(config.source))} names" if config.source else "no qlint.toml or [tool.qlint] found; the default is"
    return (f"qlint: error: no question bank here: {display_path(str(config.bank_dir))}/ does not exist ({where} "
            f"bank = {config.bank!r}); run qlint in the project's root folder or pass the files or folders to check")


def setup_failed(exc: Exception) -> int:
    """A configuration or selection mistake: one `qlint: error:` line per mistake, each naming
    file and key; exit 2."""
    for line in str(exc).splitlines():
        print(f"qlint: error: {line}", file=sys.stderr)
    return EXIT_ERROR


def bank_paths(args: argparse.Namespace, config) -> list[str] | None:
    """The paths to read: those given, else the configured bank; None (after saying why) when
    nothing was given and the bank folder does not exist."""
    if not args.paths and not config.bank_dir.exists():
        print(no_bank_message(config), file=sys.stderr)
        return None
    return args.paths or [str(config.bank_dir)]


def run(args: argparse.Namespace) -> int:
    # a cold check of a large bank takes seconds: a terminal sees how far it is (never a pipe or CI)
    with progress_to(terminal_bar("files checked")):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        if args.date is not None:
            config = dataclasses.replace(config, date=args.date)
        check_date(config.date)  # a malformed date or project catalogue: exit 2 before any file is read
        catalogue(config.bank_dir)
        settings = make_settings(config, args.select, args.ignore, args.extend_select, args.preview,
                                 responses=bool(args.responses))
        terminal_fmt, file_fmt = choose_formats(args.output_format or config.output_format, args.output_file, os.environ)
    except (ConfigError, SelectionError, ValueError) as exc:
        return setup_failed(exc)
    paths = bank_paths(args, config)
    if paths is None:
        return EXIT_ERROR
    if args.responses:
        failed = response_findings(settings, config, args.responses)
        if failed is not None:
            return failed
    if args.fix or args.diff:
        from qlint.cli.commands._fixing import run_fixes  # only --fix / --diff need the YAML editor

        code = run_fixes(args, paths, settings, sys.stdout, sys.stderr, terminal_fmt)
        if code is not None:
            return code
    settings.sources = args.show_source  # the texts of files with findings are kept, not read again
    result = lint(paths, settings, run_options(args, config))
    cache = result.checker.cache if result.checker else None
    if cache is not None and cache.warning:
        print(f"qlint: warning: {cache.warning}", file=sys.stderr)
    code = exit_code(result, Severity.parse(args.fail_on))
    shared = run_context(result, settings, code, os.environ)
    if any(needs_figures(f) for f in (terminal_fmt, file_fmt) if f):
        shared["extra"] = bank_figures(result, settings)
    sources = source_texts(result, settings) if args.show_source else {}
    ctx = ReportContext(
        **shared,
        color=use_color(sys.stdout) and not args.no_color and terminal_fmt == "text",
        show_source=args.show_source,
        sources=sources,
        statistics=args.statistics,
    )
    sys.stdout.write(REPORTERS.get(terminal_fmt)(result.diagnostics, ctx))
    sys.stdout.flush()
    if file_fmt:  # after the terminal report, so a failed write still leaves the findings on screen
        try:
            write_report(args.output_file, REPORTERS.get(file_fmt)(result.diagnostics, ReportContext(**shared)))
        except (OSError, UnsafePathError) as exc:
            print(f"qlint: error: cannot write the report to {args.output_file}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return EXIT_ERROR
    return code
