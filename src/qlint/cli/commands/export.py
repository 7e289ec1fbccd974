"""`qlint export`: write the bank (or a filtered part of it) in another format."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.lint.engine import exported_exams, lint, make_settings
from qlint.cli.commands._report import add_output_format, known_format, report, says_text
from qlint.exporters import EXPORTERS, SCORING
from qlint.exporters.kit.language import TAG
from qlint.exporters.pipeline import DEFAULT_STATUS, ExportRequest, Filters, Linted, export_bank
from qlint.loading.document import Document, holding
from qlint.printable import printable, raw_stream
from qlint.paths import display_path
from qlint.project.config import ConfigError
from qlint.cli.config import load_config
from qlint.lint.selection import SelectionError


def _csv(value: str) -> list[str]:
    return [v for v in (s.strip() for s in value.split(",")) if v]


class _Progress:
    def __init__(self, stream) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


@command("export", "Export questions to QTI, Canvas, Moodle, GIFT, Markdown, HTML or JSON.",
         "Export questions (default: published and review) to another format. Refuses when the\n"
         "questions it exports have lint errors (unless --force); questions the filters leave out,\n"
         "such as drafts, do not count. Output is deterministic: same bank, same bytes.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: the configured bank)")
    p.add_argument("--format", "-f", required=True, metavar="NAME", help="target format: qti21, qti30, canvas, moodle, gift, markdown, html, json, jsonl")
    p.add_argument("--output", "-o", required=True, metavar="PATH", help="file or folder to write")
    p.add_argument("--exam", type=_csv, default=[], metavar="CODES", help="only these exams")
    p.add_argument("--domain", type=_csv, default=[], metavar="IDS", help="only these domains")
    p.add_argument("--tag", type=_csv, default=[], metavar="TAGS", help="only questions with one of these tags")
    p.add_argument("--status", type=_csv, default=list(DEFAULT_STATUS), metavar="STATUSES",
                   help="only these statuses (default: published,review)")
    p.add_argument("--lang", default="", metavar="TAG",
                   help="only questions in this language (a BCP 47 tag; a question without lang: is in the configured lang)")
    p.add_argument("--no-zip", action="store_true", help="package formats: write a folder instead of a zip")
    p.add_argument("--no-shuffle", action="store_true", help="ask players not to shuffle options")
    p.add_argument("--scoring", choices=SCORING, default=None,
                   help="multiple-response credit in every format: all-or-nothing, or partial as Moodle grades "
                        "(default: [export] scoring in the config, else partial)")
    p.add_argument("--force", action="store_true", help="export even when the questions have lint errors")
    p.add_argument("--require-review", action="store_true",
                   help="refuse published questions not signed off as the [review] policy requires, or whose "
                        "sign-off is stale (with no policy: with no sign-off at all); --force does not lift it")
    add_output_format(p)
    return run


def run(args: argparse.Namespace) -> int:
    if args.format not in EXPORTERS:
        print(f"qlint: error: unknown export format {args.format!r}; choose from: {', '.join(EXPORTERS.names())}", file=sys.stderr)
        return EXIT_ERROR
    if not known_format(args.output_format):
        return EXIT_ERROR
    if args.lang and not TAG.match(args.lang):
        print(f"qlint: error: --lang {args.lang!r} is not a language tag (BCP 47: en, es, pt-BR)", file=sys.stderr)
        return EXIT_ERROR
    try:
        config = load_config()
        settings = make_settings(config)
    except (ConfigError, SelectionError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    result = lint(args.paths or [str(config.bank_dir)], settings)
    exams = exported_exams(settings, [p for p, r in result.results.items() if r.kind != "exam"])
    if isinstance(exams, str):
        print(f"qlint: error: {exams}", file=sys.stderr)
        return EXIT_ERROR
    linted = [Linted(p, display_path(p), r.kind, r.data, r.diagnostics) for p, r in result.results.items()]
    request = ExportRequest(
        format=args.format,
        output=Path(args.output),
        filters=Filters(tuple(args.exam), tuple(args.domain), tuple(args.tag), tuple(args.status), args.lang, config.lang),
        zip=not args.no_zip,
        shuffle=not args.no_shuffle,
        scoring=args.scoring or config.scoring,
        force=args.force,
        bank_root=config.bank_dir,
        lang=config.lang,
        progress=_Progress(raw_stream(sys.stderr)) if sys.stderr.isatty() and len(linted) >= 200 else None,
        review=config.review,
        require_review=args.require_review,
        config=config,
    )
    texts = {x.path: result.results[x.path].text for x in linted}
    with holding(Document(x.path, texts[x.path], x.shown) for x in linted if texts[x.path]):
        outcome = export_bank(linted, result.diagnostics, result.fatal, exams, request)  # placed on the texts linted
    code = EXIT_ERROR if outcome.refused else EXIT_OK
    report(outcome.diagnostics, args.output_format, len(result.files), code)
    if outcome.refused:  # the diagnostics above say where; this line says what happened
        print(f"qlint: error: not exporting: {outcome.refused}" if outcome.diagnostics
              else f"qlint: error: {outcome.refused}{outcome.skipped_note()}", file=sys.stderr)
        return code
    print(f"Exported {outcome.exported} question{'s' if outcome.exported != 1 else ''} as {args.format} "
          f"to {printable(args.output)}{outcome.skipped_note()}", file=sys.stdout if says_text(args.output_format) else sys.stderr)
    return code
