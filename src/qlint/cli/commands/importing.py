"""`qlint import`: questions from other formats into qlint YAML, one file per question."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qlint.changes import create
from qlint.files import UnsafePathError, atomic_write, safe_join
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import project
from qlint.formatter import FormatError
from qlint.importers import IMPORTERS, Imported, Importer, ImportJob, ImportResult, SourceError
from qlint.importers._package import PackageLimits
from qlint.importers._write import target_path, to_yaml
from qlint.loading.errors import LoadError
from qlint.project.discovery import display_path


MAX_SOURCE_BYTES = PackageLimits().max_entry_bytes


def _sources(source: Path, imp: Importer) -> list[Path]:
    if source.is_dir() and imp.reads != "package":  # a package importer takes the folder as one package
        return sorted(p for p in source.rglob("*") if p.is_file() and p.suffix.lower() in imp.suffixes and not p.name.startswith("."))
    return [source]


def _read(src: Path, imp: Importer, args: argparse.Namespace, exams) -> ImportResult:
    """Run the importer on one source; OSError, UnicodeDecodeError or SourceError when it cannot be read."""
    if imp.reads == "package":
        return imp.read(ImportJob(src, "", exams, args.exam, args.domain))
    with open(src, "rb") as fh:
        data = fh.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceError(f"larger than {MAX_SOURCE_BYTES:,} bytes; refusing to read it")
    text = data.decode("utf-8-sig") if imp.reads == "text" else ""
    return imp.read(ImportJob(src, text, exams, args.exam, args.domain, data))


def at(shown: str, part: str, line: int) -> str:
    """`source[/file inside a package][:line]`."""
    return shown + (f"/{part}" if part else "") + (f":{line}" if line else "")


def _write_files(q: Imported, output: Path, force: bool) -> list[str]:
    """Write the question's images into the bank; problems as messages (an existing different file is kept)."""
    problems = []
    for rel, blob in sorted(q.files.items()):
        try:
            target = safe_join(output, rel)
            if target.exists() and not force:
                if target.read_bytes() != blob:
                    problems.append(f"{display_path(str(target))} exists with other content (use --force to overwrite)")
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, blob)
        except (UnsafePathError, OSError) as exc:
            problems.append(f"cannot write image {rel}: {exc}")
    return problems


@command("import", "Import questions from another format (page, gift, ...) into qlint YAML files.",
         "Import questions into one qlint YAML file per question under --output (default: the bank),\n"
         "reporting everything that could not be mapped (it is also kept in a comment in the file).\n"
         "Exit 1 when something could not be mapped, 2 when the source cannot be read.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("source", metavar="SOURCE", help="a source file, or a folder of them")
    p.add_argument("--from", dest="fmt", required=True, metavar="FORMAT", help="source format (see 'qlint import --list')")
    p.add_argument("--output", "-o", default=None, metavar="DIR", help="bank folder to write into (default: the configured bank)")
    p.add_argument("--exam", default="", metavar="CODE", help="exam for questions whose source does not name one")
    p.add_argument("--domain", default="", metavar="ID", help="domain for questions whose source does not name one")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    return run


def run(args: argparse.Namespace) -> int:
    if args.fmt not in IMPORTERS:
        print(f"qlint: error: unknown import format {args.fmt!r}; choose from: {', '.join(IMPORTERS.names())}", file=sys.stderr)
        return EXIT_ERROR
    settings = project()
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    imp = IMPORTERS.get(args.fmt)
    output = Path(args.output) if args.output else config.bank_dir
    source = Path(args.source)
    if not source.exists():
        print(f"{args.source}: error: no such file or folder", file=sys.stderr)
        return EXIT_ERROR
    unmapped = failed = written = 0
    for src in _sources(source, imp):
        shown = display_path(str(src))
        try:
            result = _read(src, imp, args, settings.exams)
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{shown}: error: cannot read: {exc}", file=sys.stderr)
            failed += 1
            continue
        except SourceError as exc:
            print(f"{shown}: error: {exc}", file=sys.stderr)
            failed += 1
            continue
        for u in result.unmapped:
            print(f"{at(shown, u.part, u.line)}: could not map: {u.message}", file=sys.stderr)
        unmapped += len(result.unmapped)
        for q in result.questions:
            for u in q.unmapped:
                print(f"{at(shown, u.part, u.line)}: could not map: {u.message}", file=sys.stderr)
            unmapped += len(q.unmapped)
            target = target_path(q, output)
            where = at(shown, q.part, q.line)
            try:
                create(str(target), to_yaml(q, where, args.fmt, target, config), overwrite=args.force)
            except FileExistsError:
                print(f"{where}: error: {display_path(str(target))} exists (use --force to overwrite)", file=sys.stderr)
                failed += 1
                continue
            except (LoadError, FormatError, OSError) as exc:
                print(f"{where}: error: cannot write {display_path(str(target))}: {exc}", file=sys.stderr)
                failed += 1
                continue
            for problem in _write_files(q, output, args.force):
                print(f"{where}: error: {problem}", file=sys.stderr)
                failed += 1
            written += 1
            print(f"{display_path(str(target))}")
    print(f"Imported {written} question{'s' if written != 1 else ''}; {unmapped} item(s) could not be mapped"
          + (f"; {failed} failed" if failed else "") + ".", file=sys.stderr)
    if failed and not written:
        return EXIT_ERROR
    return EXIT_FINDINGS if unmapped or failed else EXIT_OK
