"""`qlint format`: rewrite question and exam files in the canonical layout."""

from __future__ import annotations

import argparse
import sys

from qlint.authoring.changes import Change, internal_error, publish
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import add_mode_flags, mode_of, project, refuse_batch
from qlint.cli.commands._report import add_output_format, known_format, report
from qlint.diagnostic import Diagnostic
from qlint.loading.errors import LoadError
from qlint.paths import display_path
from qlint.project.discovery import discover
from qlint.rules import reported


@command("format", "Rewrite files in the canonical layout (key order, text style, indentation).",
         "Rewrite question and exam files in qlint's canonical layout: keys in schema order, long text\n"
         "as block scalars, indentation and width from [tool.qlint.format]. Comments, blank lines between\n"
         "options and quoted strings survive. Files that do not parse are reported and never touched.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: the configured bank)")
    add_mode_flags(p, "reformatted")
    add_output_format(p)
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.formatter import FormatError, format_file

    if not known_format(args.output_format):
        return EXIT_ERROR
    settings = project(with_exams=False)
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    files, problems = discover(args.paths or [str(config.bank_dir)])
    errors: list[Diagnostic] = [reported("Y010", display_path(m), why) for m, why in problems]
    changes: list[Change] = []
    internal: list[str] = []
    for f in files:
        try:
            changes.append(format_file(f, config))
        except LoadError as exc:
            errors.append(reported(exc.code, display_path(f), f"{exc.message} (not formatted)", exc.line, exc.col))
        except FormatError as exc:
            errors.append(reported("A004", display_path(f), f"cannot format: {exc.message}", exc.line, exc.col))
        except Exception as exc:  # a formatter bug: results cannot be trusted, so write nothing at all
            internal.append(internal_error(display_path(f), "formatting", exc))
    if internal:
        return refuse_batch(internal)
    mode = mode_of(args)
    changed, failed = publish(changes, mode, sys.stdout, root=config.root)
    n = 0 if failed else changed  # a failed write writes nothing
    code = EXIT_ERROR if errors or failed else (EXIT_FINDINGS if changed and mode != "write" else EXIT_OK)
    report(errors + failed, args.output_format, len(files), code)
    unchanged = len(changes) - changed
    verb = "would be reformatted" if mode != "write" else "reformatted"
    not_formatted = len(errors) + (changed if failed else 0)
    print(f"{n} file{'s' if n != 1 else ''} {verb}, {unchanged} unchanged"
          + (f", {not_formatted} not formatted" if not_formatted else "") + ".", file=sys.stderr)
    return code
