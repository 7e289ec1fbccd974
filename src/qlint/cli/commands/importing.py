"""`qlint import`: questions from other formats into qlint YAML, one file per question."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.authoring.changes import internal_error
from qlint.cli.commands._authoring import project, refuse_batch
from qlint.files import Batch, StaleFile, UnsafePathError, safe_join
from qlint.importers import IMPORTERS, Imported, Importer, ImportJob, ImportResult, SourceError
from qlint.importers._package import PackageLimits
from qlint.loading.errors import LoadError
from qlint.paths import display_path
from qlint.printable import printable


MAX_SOURCE_BYTES = PackageLimits().max_entry_bytes


def _sources(source: Path, imp: Importer, unreadable: list[tuple[str, str]]) -> list[Path]:
    """The source files to read: `source`, or the files under it with the importer's suffixes.
    Folders that cannot be listed go to `unreadable` (rglob would skip them in silence)."""
    if not (source.is_dir() and imp.reads != "package"):  # a package importer takes the folder as one package
        return [source]
    found = []

    def refused(exc: OSError) -> None:
        unreadable.append((str(exc.filename or source), exc.strerror or str(exc)))

    for folder, _dirs, names in os.walk(source, onerror=refused):  # symlinked folders are not entered
        found += [p for p in map(Path(folder).joinpath, names)
                  if p.is_file() and p.suffix.lower() in imp.suffixes and not p.name.startswith(".")]
    return sorted(found)


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


def _images(q: Imported, output: Path, force: bool, planned: dict[Path, bytes | str]) -> list[str]:
    """Plan the question's images (packaged with it) into the bank; problems as messages. An
    existing file with the same bytes is kept; with other bytes it needs --force."""
    problems = []
    for rel, blob in sorted(q.files.items()):
        try:
            target = safe_join(output, rel)
            if target.exists() and target.read_bytes() == blob:
                continue
            if target.exists() and not force:
                problems.append(f"{display_path(str(target))} exists with other content (use --force to overwrite)")
                continue
            planned.setdefault(target, blob)
        except (UnsafePathError, OSError) as exc:
            problems.append(f"cannot write image {rel}: {exc}")
    return problems


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
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.formatter import FormatError
    from qlint.importers._write import target_path, to_yaml

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
    unmapped = failed = 0
    planned: dict[Path, bytes | str] = {}  # target -> content, written together once all are ready (a dict: one lookup per file)
    internal: list[str] = []
    unreadable: list[tuple[str, str]] = []
    sources = _sources(source, imp, unreadable)
    for folder, why in unreadable:
        print(f"{display_path(folder)}: error: cannot list this folder: {why}; its files were not imported", file=sys.stderr)
        failed += 1
    for src in sources:
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
        except Exception as exc:  # an importer bug: write nothing from this run
            internal.append(internal_error(shown, f"importing it as {args.fmt}", exc))
            continue
        for u in result.unmapped:
            print(f"{at(shown, u.part, u.line)}: could not map: {u.message}", file=sys.stderr)
        unmapped += len(result.unmapped)
        for q in result.questions:
            for u in q.unmapped:
                print(f"{at(shown, u.part, u.line)}: could not map: {u.message}", file=sys.stderr)
            unmapped += len(q.unmapped)
            where = at(shown, q.part, q.line)
            target = None
            try:
                target = target_path(q, output)
                if target in planned:
                    raise FileExistsError(f"{display_path(str(target))} is also the file of an earlier question in this import")
                if not args.force and os.path.lexists(target):
                    raise FileExistsError(f"{display_path(str(target))} exists (use --force to overwrite)")
                planned[target] = to_yaml(q, where, args.fmt, target, config)
                for problem in _images(q, output, args.force, planned):
                    print(f"{where}: error: {problem}", file=sys.stderr)
                    failed += 1
            except (FileExistsError, UnsafePathError) as exc:
                print(f"{where}: error: {exc}", file=sys.stderr)
                failed += 1
            except (LoadError, FormatError) as exc:
                print(f"{where}: error: cannot write {display_path(str(target))}: {exc}", file=sys.stderr)
                failed += 1
            except Exception as exc:
                internal.append(internal_error(shown, f"converting the question at {where}", exc))
    if internal:
        return refuse_batch(internal)
    try:
        written = write_all(planned, args.force)
    except StaleFile as exc:  # --force over a file someone saved meanwhile: theirs is kept
        for p in exc.paths:
            print(f"{display_path(str(p))}: error: changed on disk while qlint was writing it; kept as you left it", file=sys.stderr)
        print("error: nothing was written; run the import again", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:  # a full disk, no permission, a file that appeared meanwhile
        where = display_path(str(exc.filename)) + ": " if exc.filename else ""
        print(f"{where}error: {exc.strerror or exc}; nothing was written", file=sys.stderr)
        return EXIT_ERROR
    questions = [t for t in written if t.suffix in (".yaml", ".yml")]
    for target in written:
        print(printable(display_path(str(target))))
    n = len(questions)
    print(f"Imported {n} question{'s' if n != 1 else ''}; {unmapped} item(s) could not be mapped"
          + (f"; {failed} failed" if failed else "") + ".", file=sys.stderr)
    if failed and not n:
        return EXIT_ERROR
    return EXIT_FINDINGS if unmapped or failed else EXIT_OK


def write_all(planned: dict[Path, bytes | str], overwrite: bool) -> list[Path]:
    """Every imported file, all or nothing (files.Batch): new files are never put over existing
    ones unless `overwrite`, and then the old bytes come back if the batch fails."""
    with Batch() as batch:
        for target, text in planned.items():
            try:
                if overwrite and os.path.lexists(target):
                    batch.replace(target, text, before=target.read_bytes())
                else:
                    batch.create(target, text)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(target)) from None
        return batch.commit()
