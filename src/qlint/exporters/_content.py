"""Question text for exports: Markdown -> (X)HTML with raw HTML escaped, XML-forbidden characters
found, images resolved inside the bank, and deterministic zip writing."""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from qlint.files import UnsafePathError, safe_join

# XML 1.0 Char production: tab, LF, CR and U+0020 upward, minus surrogates and U+FFFE/U+FFFF.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    # html=False: raw HTML in a question is shown as text, never passed through.
    return MarkdownIt("commonmark", {"html": False, "xhtmlOut": True}).enable("table")


def render(text: str, urls: Mapping[str, str] | None = None) -> str:
    """Markdown to an XHTML fragment (well-formed: `<br />`, escaped `<`, `&`).

    `urls` maps an image path as `image_paths` reports it to the URL the target uses instead.
    """
    md = _md()
    if not urls:
        return md.render(text or "").strip()
    return md.renderer.render(rewrite_images(md.parse(text or ""), urls), md.options, {}).strip()


def render_inline(text: str, urls: Mapping[str, str] | None = None) -> str:
    """Markdown to inline XHTML, without the wrapping paragraph, for short option texts."""
    md = _md()
    if not urls:
        return md.renderInline(text or "").strip()
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


@dataclass(frozen=True)
class Media:
    source: Path  # on disk, inside the bank
    name: str  # as referenced in the question


def resolve_media(question_path: str, ref: str, bank_root: Path) -> Media:
    """The image file a question references, refused when it would leave the bank."""
    folder = Path(question_path).parent
    try:
        rel_to_bank = (folder / ref).resolve().relative_to(bank_root.resolve())
    except ValueError:
        raise UnsafePathError(f"image {ref!r} leaves the bank") from None
    source = safe_join(bank_root, str(rel_to_bank))
    if not source.is_file():
        raise FileNotFoundError(f"image {ref!r} not found")
    return Media(source, ref)


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """A zip with entries in sorted order and a fixed timestamp, so equal input gives equal bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            if name.startswith("/") or ".." in Path(name).parts:
                raise UnsafePathError(f"refusing zip entry {name!r}")
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, files[name])


def write_tree(root: Path, files: dict[str, bytes]) -> list[Path]:
    """The same files as a folder (for --no-zip), each path kept inside `root`."""
    root.mkdir(parents=True, exist_ok=True)
    out = []
    for name in sorted(files):
        target = safe_join(root, name) if (root / name).exists() else root / name
        if ".." in Path(name).parts or Path(name).is_absolute():
            raise UnsafePathError(f"refusing path {name!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[name])
        out.append(target)
    return out
