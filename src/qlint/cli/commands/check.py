"""`qlint check`: lint question files."""

from __future__ import annotations

import argparse
import os
import sys

from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.diagnostic import Severity
from qlint.engine import LintResult, lint, make_settings
from qlint.fixing import add_fix_flags, run_fixes
from qlint.project.config import ConfigError, load_config
from qlint.reports import REPORTERS, ReportContext
from qlint.selection import SelectionError


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
    p.add_argument("--ignore", type=_csv, default=[], metavar="CODES", help="rules to skip")
    p.add_argument("--fail-on", choices=["error", "warning", "info"], default="warning",
                   help="lowest severity that makes the exit code 1 (default: warning)")
    p.add_argument("--output-format", metavar="NAME", default=None,
                   help="report format (default: text)")
    p.add_argument("--show-source", action="store_true", help="print the offending YAML lines under each finding")
    p.add_argument("--statistics", action="store_true", help="print counts per rule")
    p.add_argument("--no-color", action="store_true", help="never colour the output")
    add_fix_flags(p)
    return run


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        settings = make_settings(config, args.select, args.ignore, args.extend_select)
    except (ConfigError, SelectionError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    fmt = args.output_format or config.output_format or "text"
    if fmt not in REPORTERS:
        print(f"qlint: error: unknown output format {fmt!r}; choose from: {', '.join(REPORTERS.names())}", file=sys.stderr)
        return EXIT_ERROR
    paths = args.paths or [str(config.bank_dir)]
    if args.fix or args.diff:
        code = run_fixes(args, paths, settings, sys.stdout, sys.stderr)
        if code is not None:
            return code
    result = lint(paths, settings)
    sources = {}
    if args.show_source:
        sources = {r.diagnostics[0].path: r.text for r in result.results.values() if r.diagnostics and r.text}
    ctx = ReportContext(
        files_checked=len(result.files),
        color=use_color(sys.stdout) and not args.no_color and fmt == "text",
        show_source=args.show_source,
        sources=sources,
        statistics=args.statistics,
    )
    sys.stdout.write(REPORTERS.get(fmt)(result.diagnostics, ctx))
    sys.stdout.flush()
    return exit_code(result, Severity.parse(args.fail_on))
