"""`qlint import` without the command line: find the source files, run the importer on each,
plan one YAML file per question (and its images) under the output folder, write them all or
nothing, and say what went wrong as Diagnostics (I001-I003, X001) every reporter can print."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.authoring.changes import internal_error
from qlint.diagnostic import Diagnostic
from qlint.files import Batch, StaleFile, UnsafePathError, read_only, safe_join
from qlint.files import read_regular as read_target
from qlint.importers import Imported, Importer, ImportJob, ImportResult, SourceError
from qlint.importers._package import PackageLimits
from qlint.importers._sources import read_regular, sources
from qlint.loading.errors import LoadError
from qlint.loading.problems import Problem, place as position
from qlint.paths import display_path
from qlint.project.config import Config
from qlint.project.exams import Exam
from qlint.rules import RULES, reported

MAX_SOURCE_BYTES = PackageLimits().max_entry_bytes


class TooLarge(ValueError):
    """A question whose file `qlint check` would refuse for its size."""


@dataclass(frozen=True)
class ImportRequest:
    source: Path
    output: Path  # the bank folder to write into
    fmt: str  # the importer's name, kept in each file's header comment
    exam: str = ""  # for questions whose source does not name one
    domain: str = ""
    force: bool = False  # overwrite existing files


@dataclass
class ImportOutcome:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)  # questions and images, as written
    unmapped: int = 0
    failed: int = 0
    internal: list[str] = field(default_factory=list)  # qlint bugs met: nothing was written
    refused: str = ""  # why nothing was written (one line), "" otherwise

    @property
    def questions(self) -> list[Path]:
        return [t for t in self.written if t.suffix in (".yaml", ".yml") and t.parent.name != "cases"]

    @property
    def cases(self) -> list[Path]:
        """Case study files (bank/<exam>/cases/<id>.yaml) the import wrote."""
        return [t for t in self.written if t.suffix in (".yaml", ".yml") and t.parent.name == "cases"]


def read_source(src: Path, imp: Importer, request: ImportRequest, exams: dict[str, Exam], limit: int = MAX_SOURCE_BYTES,
                within: Path | None = None) -> ImportResult:
    """Run the importer on one source; OSError, UnicodeDecodeError or SourceError when it cannot be read.
    `within`: the SOURCE folder `src` was found in (a file named on the command line is read as named)."""
    if imp.reads == "package":
        return imp.read(ImportJob(src, "", exams, request.exam, request.domain))
    why = (" (max-file-bytes: it holds one question, and qlint check refuses a question file larger than that)"
           if imp.single and limit != MAX_SOURCE_BYTES else "")
    data = read_regular(src, limit, within, why)
    text = data.decode("utf-8-sig") if imp.reads == "text" else ""
    return imp.read(ImportJob(src, text, exams, request.exam, request.domain, data))


def at(shown: str, part: str, line: int) -> str:
    """`source[/file inside a package][:line]`, as the YAML header comment names the origin."""
    return shown + (f"/{part}" if part else "") + (f":{line}" if line else "")


def placed(code: str, found: Problem) -> Diagnostic:
    """A problem in a source as a Diagnostic of `code`, its path as the source is shown (with the
    file inside a package), at the line and column the importer found."""
    rule = RULES.get(code)
    line, col = position(found)
    return Diagnostic(found.path, line, col, code, rule.name, rule.severity, found.message)


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


def import_sources(imp: Importer, request: ImportRequest, config: Config, exams: dict[str, Exam]) -> ImportOutcome:
    """Import every source file under `request.source`; never raises for bad input."""
    from qlint.authoring.formatter import FormatError  # the YAML editor loads only for imports
    from qlint.importers._write import target_path, to_yaml

    out = ImportOutcome()
    planned: dict[Path, bytes | str] = {}  # target -> content, written together once all are ready
    problems: list[tuple[str, str]] = []
    found = sources(request.source, imp, problems)
    for path, why in problems:
        out.diagnostics.append(reported("I002", display_path(path), why))
        out.failed += 1
    within = request.source.resolve() if request.source.is_dir() and imp.reads != "package" else None
    # A source that holds one question becomes one file: bound it by the size `qlint check` accepts.
    limit = config.limits.max_file_bytes if imp.single else MAX_SOURCE_BYTES
    for src in found:
        shown = display_path(str(src))
        try:
            result = read_source(src, imp, request, exams, limit, within)
        except (OSError, UnicodeDecodeError) as exc:
            out.diagnostics.append(reported("I002", shown, f"cannot read: {exc}"))
            out.failed += 1
            continue
        except SourceError as exc:
            out.diagnostics.append(placed("I002", Problem(at(shown, exc.part, 0), None, exc.message, line=exc.line, col=exc.col)))
            out.failed += 1
            continue
        except Exception as exc:  # an importer bug: write nothing from this run
            out.internal.append(internal_error(shown, f"importing it as {request.fmt}", exc))
            continue
        unmapped = list(result.unmapped) + [u for q in result.questions for u in q.unmapped]
        out.diagnostics += [placed("I001", Problem(at(shown, u.part, 0), None, f"could not map: {u.message}", line=u.line))
                            for u in unmapped]
        out.unmapped += len(unmapped)
        for q in result.questions:
            where = at(shown, q.part, q.line)
            place = at(shown, q.part, 0)
            target = None
            try:
                target = target_path(q, request.output)
                if target in planned:
                    raise FileExistsError(f"{display_path(str(target))} is also the file of an earlier question in this import")
                if not request.force and os.path.lexists(target):
                    raise FileExistsError(f"{display_path(str(target))} exists (use --force to overwrite)")
                text = to_yaml(q, where, request.fmt, target, config)
                size = len(text.encode("utf-8"))
                if size > config.limits.max_file_bytes:  # qlint check would refuse the file it wrote (Y009)
                    raise TooLarge(f"{display_path(str(target))} would be {size:,} bytes; qlint check refuses files over "
                                   f"{config.limits.max_file_bytes:,} bytes (max-file-bytes), so it was not written")
                planned[target] = text
                for problem in _images(q, request.output, request.force, planned):
                    out.diagnostics.append(placed("I003", Problem(place, None, problem, line=q.line)))
                    out.failed += 1
            except (FileExistsError, UnsafePathError, TooLarge) as exc:
                out.diagnostics.append(placed("I003", Problem(place, None, str(exc), line=q.line)))
                out.failed += 1
            except (LoadError, FormatError) as exc:
                out.diagnostics.append(placed("I003", Problem(place, None, f"cannot write {display_path(str(target))}: {exc}",
                                                              line=q.line)))
                out.failed += 1
            except Exception as exc:
                out.internal.append(internal_error(shown, f"converting the question at {where}", exc))
    if out.internal:
        out.refused = "nothing was written; please report this with the command and the file named above"
        return out
    locked = [(t, why) for t in planned if request.force and (why := read_only(t)) is not None]
    if locked:  # a file the user made read-only is not replaced, even with --force; all or nothing
        out.diagnostics += [reported("I003", display_path(str(t)), why) for t, why in locked]
        out.refused = "nothing was written"
        return out
    try:
        out.written = write_all(planned, request.force)
    except StaleFile as exc:  # --force over a file someone saved meanwhile: theirs is kept
        out.diagnostics += [reported("I003", display_path(str(p)), "changed on disk while qlint was writing it; kept as you left it")
                            for p in exc.paths]
        out.refused = "nothing was written; run the import again"
    except OSError as exc:  # a full disk, no permission, a file that appeared meanwhile
        where = display_path(str(exc.filename)) if exc.filename else display_path(str(request.output))
        out.diagnostics.append(reported("I003", where, f"{exc.strerror or exc}"))
        out.refused = "nothing was written"
    return out


def write_all(planned: dict[Path, bytes | str], overwrite: bool) -> list[Path]:
    """Every imported file, all or nothing (files.Batch): new files are never put over existing
    ones unless `overwrite`, and then the old bytes come back if the batch fails."""
    with Batch() as batch:
        for target, text in planned.items():
            try:
                if overwrite and os.path.lexists(target):
                    batch.replace(target, text, before=read_target(target))  # a FIFO there: refused, not waited on
                else:
                    batch.create(target, text)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(target)) from None
        return batch.commit()
