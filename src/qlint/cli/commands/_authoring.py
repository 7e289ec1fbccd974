"""What the authoring commands (format, shuffle, new, import) share: flags, project loading, and
refusing a whole batch when qlint itself fails on one of its files."""

from __future__ import annotations

import argparse
import sys

from qlint.cli import EXIT_ERROR
from qlint.cli.config import load_config
from qlint.lint.engine import load_exams
from qlint.lint.settings import Settings, make_settings
from qlint.project.config import ConfigError


def add_mode_flags(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--check", action="store_true", help=f"write nothing; list the files that would be {what} (exit 1 if any)")
    p.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes (exit 1 if any)")


def mode_of(args: argparse.Namespace) -> str:
    return "diff" if args.diff else "check" if args.check else "write"


def project(with_exams: bool = True) -> Settings | None:
    """The configuration (and exam definitions); None after printing the configuration error."""
    try:
        settings = make_settings(load_config())
    except ConfigError as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return None
    if with_exams:
        load_exams(settings)
    return settings


def refuse_batch(problems: list[str]) -> int:
    """A qlint bug met while preparing a batch: report it and write nothing (exit 2)."""
    for line in problems:
        print(line, file=sys.stderr)
    print("qlint: nothing was written; please report this with the command and the file named above", file=sys.stderr)
    return EXIT_ERROR
