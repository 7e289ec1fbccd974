"""Question text for exports: Markdown -> (X)HTML with raw HTML escaped, XML-forbidden characters
found, images resolved inside the bank, and deterministic zip writing."""

from __future__ import annotations

import io
import os
import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping
from urllib.parse import quote, unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from qlint.exporters._output import check_entry, write_tree
from qlint.files import UnsafePathError, is_temp_name, safe_join, write_output
from qlint.loading.positions import Locator, join_pointer
from qlint.media_safety import UnsafeImageError, check_image
from qlint.model import iter_strings

# XML 1.0 Char production: tab, LF, CR and U+0020 upward, minus surrogates and U+FFFE/U+FFFF.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def _joined(run: list[Token], keep: int) -> Token:
    """One text token for a run of them: run[keep] with every content joined once."""
    token = run[keep]
    if len(run) > 1:
        token.content = "".join(t.content for t in run)
    return token


def _fragments_join(state: StateInline) -> None:
    """markdown-it's `fragments_join` (levels recomputed, adjacent text tokens merged) in linear
    time and memory. Its own merges copy the growing text into each next token and keep every
    copy alive until the end: a 100 KB stem of `*a ` took 5 GB (200 KB: 20 GB)."""
    level = 0
    kept: list[Token] = []
    run: list[Token] = []
    for token in state.tokens:
        if token.nesting < 0:
            level -= 1
        token.level = level
        if token.nesting > 0:
            level += 1
        if token.type == "text":
            run.append(token)
            continue
        if run:
            kept.append(_joined(run, -1))  # (markdown-it keeps the last of the run)
            run = []
        kept.append(token)
    if run:
        kept.append(_joined(run, -1))
    state.tokens[:] = kept


def _text_join(state: StateCore) -> None:
    """markdown-it's `text_join` (escapes become text, adjacent text merged) with one join per
    run instead of `+=` per token, which copied the text again for every escape."""
    for inline in state.tokens:
        if inline.type != "inline":
            continue
        kept: list[Token] = []
        run: list[Token] = []
        for child in inline.children or []:
            if child.type == "text_special":
                child.type = "text"
            if child.type == "text":
                run.append(child)
                continue
            if run:
                kept.append(_joined(run, 0))  # (markdown-it keeps the first of the run)
                run = []
            kept.append(child)
        if run:
            kept.append(_joined(run, 0))
        inline.children = kept


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    # html=False: raw HTML in a question is shown as text, never passed through.
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": True}).enable("table")
    md.inline.ruler2.at("fragments_join", _fragments_join)
    md.core.ruler.at("text_join", _text_join)
    return md


@lru_cache(maxsize=8192)  # texts repeat (keys in feedback, several formats in one run); strings are immutable
def _render(text: str) -> str:
    return _md().render(text).strip()


@lru_cache(maxsize=8192)
def _render_inline(text: str) -> str:
    return _md().renderInline(text).strip()


def _as_lines(text: str) -> str:
    # A text is lines: its last one ends with a newline even when the file's text does not, so an
    # unclosed code fence at the end renders as the closed fence the importer writes back.
    return text if text.endswith("\n") else text + "\n"


def render(text: str, urls: Mapping[str, str] | None = None) -> str:
    """Markdown to an XHTML fragment (well-formed: `<br />`, escaped `<`, `&`).

    `urls` maps an image path as `image_paths` reports it to the URL the target uses instead.
    """
    if not urls:
        return _render(_as_lines(text or ""))
    md = _md()
    return md.renderer.render(rewrite_images(md.parse(_as_lines(text or "")), urls), md.options, {}).strip()


def render_inline(text: str, urls: Mapping[str, str] | None = None) -> str:
    """Markdown to inline XHTML, without the wrapping paragraph, for short option texts."""
    if not urls:
        return _render_inline(text or "")
    md = _md()
    return md.renderer.render(rewrite_images(md.parseInline(text or ""), urls), md.options, {}).strip()


def _images(tokens: list[Token]) -> Iterator[Token]:
    for t in tokens:
        if t.type == "image":
            yield t
        if t.children:
            yield from _images(t.children)


def _local(src: str) -> str | None:
    """The file path an image source names, or None for URLs (http:, data: ...)."""
    return None if not src or _SCHEME.match(src) or src.startswith("//") else unquote(src)


def rewrite_images(tokens: list[Token], urls: Mapping[str, str]) -> list[Token]:
    """Point image tokens whose path is in `urls` at the mapped URL (in place; returns `tokens`)."""
    for t in _images(tokens):
        path = _local(str(t.attrGet("src") or ""))
        if path in urls:
            t.attrSet("src", urls[path])
    return tokens


def forbidden_char(text: str) -> int | None:
    """Offset of the first character XML 1.0 forbids, or None."""
    m = _XML_FORBIDDEN.search(text or "")
    return m.start() if m else None


def image_paths(text: str) -> list[str]:
    """Relative image paths referenced by Markdown images (inline or reference style), as the
    Markdown parser reads them (percent-escapes decoded); URLs are left alone."""
    if "![" not in (text or ""):  # every image form starts with "![": skip the parse
        return []
    paths = (_local(str(t.attrGet("src") or "")) for t in _images(_md().parse(text or "")))
    return list(dict.fromkeys(p for p in paths if p))


class ExportError(ValueError):
    """Input the target cannot carry; the message starts with `path:line:col:`."""


def where(question_path: str, pointer: str, within: str = "") -> str:
    """`path:line:col` of the value at `pointer` in a question file, or of `within` inside it (an
    image path); line 1 if the file cannot be read."""
    try:
        text = Path(question_path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return f"{question_path}:1:1"
    locator = Locator(text)
    span = locator.find(locator.locate(pointer), within)
    return f"{question_path}:{span.line}:{span.col}"


def require_xml_text(question_path: str, data: dict[str, Any]) -> None:
    """Refuse a question holding a character XML 1.0 forbids (lint rule S004), naming file and line.

    XML exporters call this before building anything: with `--force` the lint gate is open, but
    silently dropping characters would change the text, and writing them makes every platform
    reject the whole package.
    """
    for path, text in iter_strings(data):
        offset = forbidden_char(text)
        if offset is not None:
            pointer = join_pointer(path)
            raise ExportError(
                f"{where(question_path, pointer)}: {pointer} holds U+{ord(text[offset]):04X}, a character XML "
                "forbids; remove it (qlint check reports it as S004)"
            )


@dataclass(frozen=True)
class Media:
    source: Path  # on disk, inside the bank
    name: str  # as referenced in the question


def resolve_media(question_path: str, ref: str, bank_root: Path) -> Media:
    """The image file a question references, refused when it would leave the bank, or when it
    must not reach a learner's browser (UnsafeImageError: a scripted SVG, a mislabelled file)."""
    folder = Path(question_path).parent
    try:
        rel_to_bank = (folder / ref).resolve().relative_to(bank_root.resolve())
    except ValueError:
        raise UnsafePathError(f"image {ref!r} leaves the bank") from None
    source = safe_join(bank_root, str(rel_to_bank))
    if not source.is_file():
        raise FileNotFoundError(f"image {ref!r} not found")
    check_image(source, ref)
    return Media(source, ref)


class MediaSet:
    """The bank's image files one export packages, named `<prefix><path inside the bank>`.

    Names keep the bank's folders, so two questions' `figure.png` never collide, and equal
    input gives equal names (deterministic output).
    """

    def __init__(self, bank_root: Path | None, prefix: str = "images/") -> None:
        self.bank_root = bank_root
        self.prefix = prefix
        self.files: dict[str, Path] = {}

    def add(self, question_path: str, pointer: str, src: str) -> str | None:
        """The package path (URL-quoted) for an image `src` in a question; None for a URL."""
        if _SCHEME.match(src):
            return None
        root = self.bank_root or Path(question_path).parent
        ref = unquote(src)
        try:
            media = resolve_media(question_path, ref, root)
        except (UnsafePathError, FileNotFoundError, UnsafeImageError) as exc:
            raise ExportError(f"{where(question_path, pointer, ref)}: {exc}") from None
        name = self.prefix + media.source.relative_to(os.path.realpath(root)).as_posix()
        self.files[name] = media.source
        return quote(name)

    def read(self) -> dict[str, bytes]:
        return {name: self.files[name].read_bytes() for name in sorted(self.files)}


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """A zip with entries in sorted order and a fixed timestamp, so equal input gives equal bytes.

    Every entry name is checked first (no `..`, absolute path, backslash or drive: zip slip), the
    zip is built in memory and written atomically: a failed export never leaves half a zip behind.
    """
    for name in files:
        check_entry(name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            if name.endswith("/"):  # an (empty) folder entry, e.g. Canvas's non_cc_assessments/
                info.compress_type = zipfile.ZIP_STORED
                info.external_attr = (0o40755 << 16) | 0x10
            zf.writestr(info, files[name])
    write_output(path, buffer.getvalue())


def write_package(output: Path, files: dict[str, bytes], as_zip: bool, warnings: list[str] | None = None) -> list[Path]:
    """A package target's files as one deterministic zip, or as a folder (--no-zip).

    A folder is never emptied first (that could delete the user's files); files it already holds
    that this export did not write are reported in `warnings`, since the manifest ignores them.
    """
    if as_zip:
        write_zip(output, files)
        return [output]
    if warnings is not None and output.is_dir():
        stale = sorted(p.relative_to(output).as_posix() for p in output.rglob("*")
                       if p.is_file() and not is_temp_name(p.name) and p.relative_to(output).as_posix() not in files)
        if stale:
            warnings.append(f"{output}: {len(stale)} file{'s' if len(stale) != 1 else ''} this export did not write "
                            f"(e.g. {stale[0]}); the package does not list them: remove them or export to an empty folder")
    return write_tree(output, files)
