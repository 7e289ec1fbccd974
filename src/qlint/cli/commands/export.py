"""`qlint export`: write the bank (or a filtered part of it) in another format."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.diagnostic import Severity
from qlint.lint.engine import lint, make_settings
from qlint.exporters import EXPORTERS, SCORING, ExportJob
from qlint.files import UnsafePathError
from qlint.model import Question
from qlint.printable import printable, raw_stream
from qlint.paths import display_path
from qlint.project.config import ConfigError
from qlint.cli.config import load_config
from qlint.reports import REPORTERS, ReportContext
from qlint.lint.selection import SelectionError

DEFAULT_STATUS = ("published", "review")


def _csv(value: str) -> list[str]:
    return [v for v in (s.strip() for s in value.split(",")) if v]


def _filters(exams=(), domains=(), tags=(), statuses=DEFAULT_STATUS):
    """(option, test) in the order they apply; a question any test rejects is left out."""
    return [
        ("--exam", lambda d: not exams or d.get("exam") in exams),
        ("--domain", lambda d: not domains or d.get("domain") in domains),
        ("--tag", lambda d: not tags or bool(set(tags) & set(d.get("tags") or []))),
        ("--status", lambda d: d.get("status") in statuses),
    ]


def skipped_by(data: dict, filters) -> str | None:
    """The first filter that leaves this question out, or None when it is exported."""
    return next((name for name, keep in filters if not keep(data)), None)


def select_questions(questions: list[Question], exams=(), domains=(), tags=(), statuses=DEFAULT_STATUS) -> list[Question]:
    filters = _filters(exams, domains, tags, statuses)
    out = [q for q in questions if skipped_by(q.data, filters) is None]
    return sorted(out, key=lambda q: (q.exam, q.domain, q.id))


def _skipped_note(skipped: Counter, statuses: str) -> str:
    """"; skipped 3 by --domain, 1 by --status (draft)" for the summary line."""
    if not skipped:
        return ""
    parts = [f"{n} by {name}" + (f" ({statuses})" if name == "--status" else "")
             for name, n in sorted(skipped.items(), key=lambda kv: FILTER_ORDER.index(kv[0]))]
    return f"; skipped {', '.join(parts)}"


FILTER_ORDER = ["--exam", "--domain", "--tag", "--status"]


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
    p.add_argument("--no-zip", action="store_true", help="package formats: write a folder instead of a zip")
    p.add_argument("--no-shuffle", action="store_true", help="ask players not to shuffle options")
    p.add_argument("--scoring", choices=SCORING, default=None,
                   help="multiple-response credit in every format: all-or-nothing, or partial as Moodle grades "
                        "(default: [export] scoring in the config, else partial)")
    p.add_argument("--force", action="store_true", help="export even when the questions have lint errors")
    return run


def run(args: argparse.Namespace) -> int:
    if args.format not in EXPORTERS:
        print(f"qlint: error: unknown export format {args.format!r}; choose from: {', '.join(EXPORTERS.names())}", file=sys.stderr)
        return EXIT_ERROR
    try:
        config = load_config()
        settings = make_settings(config)
    except (ConfigError, SelectionError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    result = lint(args.paths or [str(config.bank_dir)], settings)
    filters = _filters(args.exam, args.domain, args.tag, tuple(args.status))
    # Only what is exported must be clean: a draft's TODOs do not block publishing the rest.
    left_out = {display_path(p): (by, r.data.get("status")) for p, r in result.results.items()
                if r.kind == "question" and r.data is not None and (by := skipped_by(r.data, filters))}
    errors = [d for d in result.diagnostics if d.severity >= Severity.ERROR and d.path not in left_out]
    if result.fatal or (errors and not args.force):
        sys.stderr.write(REPORTERS.get("text")(errors or result.diagnostics, ReportContext(len(result.files))))
        why = "files cannot be read" if result.fatal else "the questions it exports have lint errors (use --force to export anyway)"
        print(f"qlint: error: not exporting: {why}", file=sys.stderr)
        return EXIT_ERROR
    loaded = [Question(p, r.data) for p, r in result.results.items()
              if r.kind == "question" and r.data is not None and not any(d.code == "S001" for d in r.diagnostics)]
    questions = select_questions(loaded, args.exam, args.domain, args.tag, tuple(args.status))
    skipped = Counter(by for by, _status in left_out.values())
    statuses = ", ".join(sorted({str(status) for by, status in left_out.values() if by == "--status"}))
    if not questions:
        print(f"qlint: error: no questions match the filters{_skipped_note(skipped, statuses)}", file=sys.stderr)
        return EXIT_ERROR
    exp = EXPORTERS.get(args.format)
    job = ExportJob(
        questions=questions,
        exams=settings.exams,
        output=Path(args.output),
        zip=not args.no_zip,
        shuffle=not args.no_shuffle,
        scoring=args.scoring or config.scoring,
        bank_root=config.bank_dir,
        progress=_Progress(raw_stream(sys.stderr)) if sys.stderr.isatty() and len(questions) >= 200 else None,
    )
    try:
        out = exp.write(job)
    except (UnsafePathError, FileNotFoundError, ValueError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:  # the output cannot be written: a directory in the way, no permission, disk full
        print(f"qlint: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    for w in out.warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"Exported {len(questions)} question{'s' if len(questions) != 1 else ''} as {args.format} "
          f"to {printable(args.output)}{_skipped_note(skipped, statuses)}")
    return EXIT_OK
