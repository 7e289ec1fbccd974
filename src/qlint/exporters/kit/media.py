"""Images a question references: found in every text field, resolved inside the bank (a path that
leaves it is refused with its file and pointer), and named by their path relative to the bank so every
target stores each file once under a stable name."""

from __future__ import annotations

import mimetypes
import posixpath
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from qlint.exporters.kit.problems import ExportError, problem
from qlint.markup import image_paths
from qlint.media_safety import resolve_media
from qlint.model import text_fields
from qlint.files import UnsafePathError
from qlint.media_safety import UnsafeImageError
from qlint.model import Question


@dataclass(frozen=True)
class Image:
    ref: str  # as written in the Markdown, relative to the question file
    source: Path  # the file on disk, inside the bank
    key: str  # POSIX path relative to the bank root: the image's name in every export

    @property
    def media_type(self) -> str:
        return mimetypes.guess_type(self.key)[0] or "application/octet-stream"

    def read(self) -> bytes:
        return self.source.read_bytes()


def images_in(q: Question, text: str, pointer: str, root: Path) -> dict[str, Image]:
    """ref -> Image for one text field; ExportError (with the file and pointer) for an image that
    leaves the bank, is missing or is unsafe."""
    out = {}
    for ref in image_paths(text):
        try:
            media = resolve_media(q.path, ref, root)
        except (UnsafePathError, FileNotFoundError, UnsafeImageError) as exc:
            raise ExportError(problem(q, pointer, str(exc), within=ref)) from None
        out[ref] = Image(ref, media.source, media.source.relative_to(root).as_posix())
    return out


def question_images(q: Question, root: Path) -> dict[str, Image]:
    """Every image the question's texts reference, in reading order."""
    out: dict[str, Image] = {}
    for pointer, text in text_fields(q):
        out.update(images_in(q, text, pointer, root))
    return out


def relative_url(from_file: str, to_file: str) -> str:
    """A percent-encoded relative URL from one output file to another (both POSIX, from the root)."""
    return quote(posixpath.relpath(to_file, posixpath.dirname(from_file) or "."))
