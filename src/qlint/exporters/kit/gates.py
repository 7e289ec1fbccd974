"""The gates every export passes before a target writes a byte, run by the registry's wrapper
(`qlint.exporters.exporter`), so a new exporter cannot forget one: options a learner could
answer (S005, S006, O006, P004-P006), no character XML 1.0 forbids (S004) for XML targets, no
image that leaves the bank or could run script (S007). Each is checked here again because an
ignored or suppressed rule, or `--force`, must not let one reach learners or break a platform's
import. A refusal is an ExportError whose problem names the file and the JSON pointer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from qlint.exporters.kit.problems import ExportError, Problem
from qlint.files import UnsafePathError
from qlint.loading.positions import join_pointer
from qlint.markup import forbidden_char, image_paths
from qlint.media_safety import UnsafeImageError, resolve_media
from qlint.model import Case, Question, iter_strings, text_fields

if TYPE_CHECKING:
    from qlint.exporters import ExportJob


def bank_root(job: ExportJob) -> Path:
    """The folder images must stay in: the configured bank, else the questions' common folder."""
    if job.bank_root is not None:
        return Path(job.bank_root).resolve()
    folders = [os.path.abspath(os.path.dirname(q.path)) for q in job.questions] or [os.getcwd()]
    return Path(os.path.commonpath(folders))


def exported_cases(job: ExportJob) -> list[Case]:
    """The case studies the exported questions name (the others are not exported)."""
    named = {q.case for q in job.questions if q.case}
    return [job.cases[c] for c in sorted(named) if c in job.cases]


def require_sound(q: Question) -> None:
    """Refuse a question with a duplicate option id, an empty option or two options with the same
    text, or the same in its steps, prompts and responses, or a prompt matched to no response."""
    from qlint.prose.soundness import data_errors  # the prose layer loads its word lists lazily

    for e in data_errors(q):
        raise ExportError(Problem(q.path, e.pointer, f"{e.message} ({e.code}); not exporting this question"))


def require_xml_text(path: str, data: dict[str, Any]) -> None:
    """Refuse a file holding a character XML 1.0 forbids: silently dropping it would change the
    text, and writing it makes every platform reject the whole package."""
    for at, text in iter_strings(data):
        offset = forbidden_char(text)
        if offset is not None:
            pointer = join_pointer(at)
            raise ExportError(Problem(path, pointer, f"{pointer} holds U+{ord(text[offset]):04X}, a character XML "
                                      "forbids; remove it (qlint check reports it as S004)"))


def _texts(item: Question | Case) -> Iterable[tuple[str, str]]:
    if isinstance(item, Question):
        return text_fields(item)
    return [("/scenario", item.data["scenario"])] if isinstance(item.data.get("scenario"), str) else []


def require_safe_images(item: Question | Case, root: Path) -> None:
    """Refuse an image that leaves the bank or must not reach a browser (a scripted SVG, a
    mislabelled file). A missing image is the target's to report: some keep the path as written."""
    for pointer, text in _texts(item):
        for ref in image_paths(text):
            try:
                resolve_media(item.path, ref, root)
            except FileNotFoundError:
                continue
            except (UnsafePathError, UnsafeImageError) as exc:
                raise ExportError(Problem(item.path, pointer, str(exc), within=ref)) from None


def run_gates(job: ExportJob, xml: bool) -> None:
    """Every gate over the exported questions and their case studies, one gate at a time."""
    files: list[Question | Case] = [*job.questions, *exported_cases(job)]
    for q in job.questions:
        require_sound(q)
    if xml:
        for item in files:
            require_xml_text(item.path, item.data)
    root = bank_root(job)
    for item in files:
        require_safe_images(item, root)
