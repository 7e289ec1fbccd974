"""`qlint import`: questions from other formats into qlint YAML, one file per question. The
pipeline is `qlint.importers.pipeline`; this command parses, calls it, reports and exits."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import project, refuse_batch
from qlint.cli.commands._report import add_output_format, known_format, report, says_text
from qlint.importers import IMPORTERS
from qlint.importers.pipeline import ImportRequest, import_sources
from qlint.paths import display_path
from qlint.printable import printable


@command("import", "Import questions from another format (page, gift, ...) into qlint YAML files.",
         "Import questions into one qlint YAML file per question under --output (default: the bank),\n"
         "reporting everything that could not be mapped (it is also kept in a comment in the file).\n"
         "Exit 1 when something could not be mapped, 2 when the source cannot be read.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("source", metavar="SOURCE", help="a source file, or a folder of them")
    p.add_argument("--from", dest="fmt", required=True, metavar="FORMAT", help="source format: page, gift, moodle, qti21, qti30")
    p.add_argument("--output", "-o", default=None, metavar="DIR", help="bank folder to write into (default: the configured bank)")
    p.add_argument("--exam", default="", metavar="CODE", help="exam for questions whose source does not name one")
    p.add_argument("--domain", default="", metavar="ID", help="domain for questions whose source does not name one")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    add_output_format(p)
    return run


def run(args: argparse.Namespace) -> int:
    if args.fmt not in IMPORTERS:
        print(f"qlint: error: unknown import format {args.fmt!r}; choose from: {', '.join(IMPORTERS.names())}", file=sys.stderr)
        return EXIT_ERROR
    if not known_format(args.output_format):
        return EXIT_ERROR
    settings = project()
    if settings is None:
        return EXIT_ERROR
    source = Path(args.source)
    if not source.exists():
        print(f"{args.source}: error: no such file or folder", file=sys.stderr)
        return EXIT_ERROR
    request = ImportRequest(source, Path(args.output) if args.output else settings.config.bank_dir, args.fmt,
                            args.exam, args.domain, args.force)
    outcome = import_sources(IMPORTERS.get(args.fmt), request, settings.config, settings.exams)
    if outcome.internal:
        return refuse_batch(outcome.internal)
    n, cases = len(outcome.questions), len(outcome.cases)
    code = (EXIT_ERROR if outcome.refused or (outcome.failed and not n + cases)
            else EXIT_FINDINGS if outcome.unmapped or outcome.failed else EXIT_OK)
    report(outcome.diagnostics, args.output_format, len(outcome.written), code)
    if outcome.refused:
        print(f"qlint: error: {outcome.refused}", file=sys.stderr)
        return code
    listing = sys.stdout if says_text(args.output_format) else sys.stderr
    for target in outcome.written:
        print(printable(display_path(str(target))), file=listing)
    studies = f" and {cases} case stud{'ies' if cases != 1 else 'y'}" if cases else ""
    print(f"Imported {n} question{'s' if n != 1 else ''}{studies}; {outcome.unmapped} item(s) could not be mapped"
          + (f"; {outcome.failed} failed" if outcome.failed else "") + ".", file=sys.stderr)
    if n and (lost := IMPORTERS.get(args.fmt).not_carried):
        print(f"Not in the source format: {lost}.", file=sys.stderr)
    return code
