"""`qlint format`: rewrite question and exam files in the canonical layout."""

from __future__ import annotations

import argparse
import sys

from qlint.authoring.changes import Change, publish
from qlint.cli.commands._authoring import add_mode_flags, mode_of, project, refuse_batch
from qlint.authoring.changes import internal_error
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.loading.errors import LoadError
from qlint.project.discovery import discover
from qlint.paths import display_path


@command("format", "Rewrite files in the canonical layout (key order, text style, indentation).",
         "Rewrite question and exam files in qlint's canonical layout: keys in schema order, long text\n"
         "as block scalars, indentation and width from [tool.qlint.format]. Comments, blank lines between\n"
         "options and quoted strings survive. Files that do not parse are reported and never touched.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: the configured bank)")
    add_mode_flags(p, "reformatted")
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.formatter import FormatError, format_file

    settings = project(with_exams=False)
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    files, problems = discover(args.paths or [str(config.bank_dir)])
    errors = [f"{display_path(m)}:1:1: Y010 {why}" for m, why in problems]
    changes: list[Change] = []
    internal: list[str] = []
    for f in files:
        try:
            changes.append(format_file(f, config))
        except LoadError as exc:
            errors.append(f"{display_path(f)}:{exc.line}:{exc.col}: {exc.code} {exc.message} (not formatted)")
        except FormatError as exc:
            errors.append(f"{display_path(f)}:{exc.line}:{exc.col}: cannot format: {exc.message}")
        except Exception as exc:  # a formatter bug: results cannot be trusted, so write nothing at all
            internal.append(internal_error(display_path(f), "formatting", exc))
    if internal:
        return refuse_batch(internal)
    mode = mode_of(args)
    changed, failed = publish(changes, mode, sys.stdout, sys.stderr, root=config.root)
    for e in errors:
        print(e, file=sys.stderr)
    n = 0 if failed else changed  # a failed write writes nothing
    unchanged = len(changes) - changed
    verb = "would be reformatted" if mode != "write" else "reformatted"
    print(f"{n} file{'s' if n != 1 else ''} {verb}, {unchanged} unchanged"
          + (f", {len(errors) + failed} not formatted" if errors or failed else "") + ".", file=sys.stderr)
    if errors or failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if changed and mode != "write" else EXIT_OK
