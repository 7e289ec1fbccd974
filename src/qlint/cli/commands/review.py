"""`qlint review sign` and `qlint review live`: record a reviewer's sign-off of each question's
current content, or freeze published questions as live (docs/review.md). All or nothing, like
the other writers: one file that cannot be signed leaves every file as it was."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import sys
from functools import partial

from qlint.authoring.changes import Change, internal_error, publish
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import add_mode_flags, mode_of, project, refuse_batch
from qlint.cli.commands._report import add_output_format, known_format, report
from qlint.diagnostic import Diagnostic
from qlint.loading.errors import LoadError
from qlint.paths import display_path
from qlint.project.discovery import discover
from qlint.rules import reported

_ROLE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@command("review", "Sign questions off as a reviewer, or mark published questions live.",
         "qlint review sign --role ROLE --reviewer NAME FILE...: add (or renew) NAME's sign-off for\n"
         "ROLE to each question, bound to its content hash; an edit of meaning afterwards makes it stale.\n"
         "qlint review live FILE...: freeze published questions (live: with the content hash); a later\n"
         "edit of meaning is an error. Comments and layout are kept; nothing is written if one file fails.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("action", choices=("sign", "live"), help="sign: record a sign-off; live: freeze as live")
    p.add_argument("paths", nargs="+", metavar="PATH", help="question files or folders")
    p.add_argument("--role", metavar="ROLE", help="sign: what the reviewer checked (technical, editorial, psychometric, ...)")
    p.add_argument("--reviewer", metavar="NAME", help="sign: who reviewed (a name or handle)")
    p.add_argument("--date", metavar="YYYY-MM-DD", help="the day recorded (default: today)")
    p.add_argument("--responses", action="append", default=[], metavar="CSV",
                   help="live: only questions learners answered in these responses files (as qlint analyze reads them)")
    p.add_argument("--min-respondents", type=int, default=1, metavar="N",
                   help="live with --responses: at least N respondents answered the question (default 1)")
    add_mode_flags(p, "signed")
    add_output_format(p)
    return run


def _usage(message: str) -> int:
    print(f"qlint review: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _answered(args: argparse.Namespace, config) -> dict[str, int] | int:
    """id -> respondents, of the questions under the paths answered in --responses; an exit code
    after printing why the responses cannot be read."""
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.itemanalysis.data import NOT_SEEN, ResponsesError
    from qlint.itemanalysis.readers import read_responses

    keys, _ = load_keys(config, args.paths)
    if not keys:
        return _usage(f"no valid question in {', '.join(args.paths)} to match the responses to")
    try:
        responses = read_responses(args.responses, keys)
    except ResponsesError as exc:
        return _usage(str(exc))
    seen = (responses.choices != NOT_SEEN).sum(axis=0)
    return {item: int(n) for item, n in zip(responses.items, seen) if int(n) >= args.min_respondents}


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.signoff import EditError, NotApplicable, Signature, SignError, change, live_text, sign_text

    if not known_format(args.output_format):
        return EXIT_ERROR
    date = args.date or dt.date.today().isoformat()
    if not _DATE.match(date):
        return _usage(f"--date must be YYYY-MM-DD, got {date!r}")
    if args.action == "sign":
        if not args.role or not _ROLE.match(args.role):
            return _usage("sign needs --role: lower-case words joined by hyphens (technical, editorial, ...)")
        reviewer = " ".join((args.reviewer or "").split())
        if not reviewer or len(reviewer) > 100:
            return _usage("sign needs --reviewer NAME (1 to 100 characters)")
        if args.responses:
            return _usage("--responses is for live")
    elif args.role or args.reviewer:
        return _usage("live takes no --role or --reviewer")
    if args.min_respondents < 1:
        return _usage("--min-respondents must be at least 1")
    settings = project(with_exams=False)
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    if args.action == "sign":
        edit = partial(sign_text, config=config, sig=Signature(reviewer, args.role, date))
    else:
        answered = _answered(args, config) if args.responses else None
        if isinstance(answered, int):
            return answered
        edit = partial(live_text, config=config, date=date, answered=answered)
    files, problems = discover(args.paths)
    errors: list[Diagnostic] = [reported("Y010", display_path(m), why) for m, why in problems]
    changes: list[Change] = []
    internal: list[str] = []
    verb = "signed" if args.action == "sign" else "marked live"
    named = {os.path.normpath(p) for p in args.paths}
    skipped = 0
    for f in files:
        try:
            changes.append(change(f, config, edit))
        except NotApplicable as exc:
            if os.path.normpath(f) in named:
                errors.append(reported("A005", display_path(f), f"not {verb}: {exc}"))
            else:  # found in a folder: exam definitions, case studies, retired (and for live: unpublished) questions
                skipped += 1
        except LoadError as exc:
            errors.append(reported(exc.code, display_path(f), f"{exc.message} (not {verb})", exc.line, exc.col))
        except (SignError, EditError) as exc:
            errors.append(reported("A005", display_path(f), f"not {verb}: {exc}"))
        except Exception as exc:  # a bug: write nothing at all
            internal.append(internal_error(display_path(f), "signing", exc))
    if internal:
        return refuse_batch(internal)
    mode = mode_of(args)
    if errors:  # all or nothing: one refused file leaves the batch unwritten
        report(errors, args.output_format, len(files), EXIT_ERROR)
        print(f"nothing {verb}: {len(errors)} file{'s' if len(errors) != 1 else ''} refused.", file=sys.stderr)
        return EXIT_ERROR
    changed, failed = publish(changes, mode, sys.stdout, verb=verb, root=config.root)
    n = 0 if failed else changed
    code = EXIT_ERROR if failed else (EXIT_FINDINGS if changed and mode != "write" else EXIT_OK)
    report(failed, args.output_format, len(files), code)
    shown = f"would be {verb}" if mode != "write" else verb
    print(f"{n} file{'s' if n != 1 else ''} {shown}, {len(changes) - changed} unchanged"
          + (f", {skipped} skipped (not questions, retired{', not published' if args.action == 'live' else ''})" if skipped else "")
          + ".", file=sys.stderr)
    return code
