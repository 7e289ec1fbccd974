"""`qlint init`: set up a bank repository (configuration, an exam definition, schemas, pre-commit)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.files import Batch
from qlint.paths import display_path
from qlint.printable import printable
from qlint.project.config import ConfigError


@command("init", "Set up a bank repository: configuration, an exam definition, schemas, pre-commit.",
         "Write what a question-bank repository needs into FOLDER (default: here): qlint.toml, an exam\n"
         "definition to fill in (bank/exams/), the JSON Schemas (schema/, so editors complete and check\n"
         "the fields of every file `qlint new` writes), .pre-commit-config.yaml and .gitignore.\n"
         "A file that exists is kept as it is; run it again to add what is missing.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("folder", nargs="?", default=".", metavar="FOLDER", help="the repository's folder (default: here)")
    p.add_argument("--exam", default="", metavar="CODE",
                   help="code of the exam the bank prepares for, e.g. MLA-C01 (default: EXAM-C01, to rename)")
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.bank_init import DEFAULT_EXAM, InitError, check_exam_code, installed_from, plan
    from qlint.cli.config import load_config
    from qlint.project.config import CONFIG_FILES, find_config

    root = Path(args.folder)
    try:
        code = check_exam_code(args.exam or DEFAULT_EXAM)
        if root.exists() and not root.is_dir():
            raise InitError(f"{display_path(str(root))} is not a folder")
        source, _raw = find_config(root) if root.is_dir() else (None, {})
        own = source is not None and source.parent == root.resolve() and source.name in CONFIG_FILES
        exams_dir = load_config(root).exams_dir if own else root / "bank" / "exams"
    except (InitError, ConfigError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    has_exam = exams_dir.is_dir() and any(p.suffix in (".yaml", ".yml") for p in exams_dir.iterdir())
    files = [(path, text) for path, text in plan(root, exams_dir, code, installed_from())
             if not (path.name == "qlint.toml" and own and not path.exists()) and not (path.parent == exams_dir and has_exam)]
    made, kept = [], []
    try:
        with Batch() as batch:  # all or nothing: a full disk leaves no half-made repository
            for path, text in files:
                if path.exists() or path.is_symlink():
                    kept.append(path)
                else:
                    batch.create(path, text)
                    made.append(path)
            batch.commit()
    except OSError as exc:
        where = f"{display_path(str(exc.filename))}: " if exc.filename else ""
        print(f"qlint: error: {where}{exc.strerror or exc}; nothing written", file=sys.stderr)
        return EXIT_ERROR
    for path in made:
        print(f"created {printable(display_path(str(path)))}")
    for path in kept:
        print(f"kept {printable(display_path(str(path)))} (it exists)")
    if made:
        exam = next((p for p in made if p.parent == exams_dir), None)
        steps = [f"fill in {printable(display_path(str(exam)))}"] if exam else []
        steps += [f"qlint new --exam {code} --domain domain-1", "git init && pre-commit install"]
        print("next: " + "; ".join(steps))
    return EXIT_OK
