"""Is an image file safe to ship to a learner's browser? One answer for the lint rule (S007) and
for every exporter, which refuses what this module refuses even when the lint is skipped.

An SVG is a document, not a picture: opened directly (the HTML site's media folder, a QTI or
Canvas player that inlines it) it runs its `<script>`, its `onload=` handlers and `javascript:`
links, embeds HTML through `<foreignObject>` and fetches whatever its `href`s and CSS `url(...)`
name. qlint refuses such files rather than sanitising them: a refusal with the reason is simple
to get right, and the author fixes the file once. The XML parser never loads a DTD, never
expands an entity and never touches the network; a DOCTYPE is refused outright (entity bombs and
external entities need one, and an SVG image does not).

Raster images must be what their extension says (magic bytes), so an HTML page renamed `.png`
is not shipped; other extensions are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from qlint.files import UnsafePathError, safe_join

MAX_IMAGE_BYTES = 20 * 1024 * 1024  # a question's figure; larger is a mistake (or an attack)

_SVG_NS = "http://www.w3.org/2000/svg"
_XHTML_NS = "http://www.w3.org/1999/xhtml"
_XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
_RASTER = {
    ".png": ("PNG", lambda b: b.startswith(b"\x89PNG\r\n\x1a\n")),
    ".jpg": ("JPEG", lambda b: b.startswith(b"\xff\xd8\xff")),
    ".jpeg": ("JPEG", lambda b: b.startswith(b"\xff\xd8\xff")),
    ".gif": ("GIF", lambda b: b[:6] in (b"GIF87a", b"GIF89a")),
    ".webp": ("WebP", lambda b: b[:4] == b"RIFF" and b[8:12] == b"WEBP"),
}
SUPPORTED = "PNG, JPEG, GIF, WebP or SVG"
# Elements that run code, embed other documents or are script under another name.
_ACTIVE = {"script", "foreignobject", "iframe", "embed", "object", "handler", "listener", "frame", "applet",
           "base", "meta", "link"}
_ANIMATION = {"set", "animate", "animatetransform", "animatemotion", "animatecolor", "discard"}
_PROLOG = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml.*?\?>)?(?:\s+|<!--.*?-->|<\?.*?\?>)*<!DOCTYPE", re.S)
_SCRIPT_URL = re.compile(r"^(?:javascript|vbscript|livescript)\s*:", re.I)
_CSS_IMPORT = re.compile(r"@import", re.I)
_CSS_URL = re.compile(r"url\s*\(\s*(['\"]?)\s*(.*?)\1\s*\)", re.I | re.S)
_CSS_ACTIVE = re.compile(r"expression\s*\(|behavior\s*:|-moz-binding", re.I)
_STRIP = re.compile(r"[\x00-\x20\x7f]+")  # browsers ignore these inside a URL scheme ("java\tscript:")


class UnsafeImageError(ValueError):
    """An image an export must not ship; the message says which and why."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           dtd_validation=False, remove_comments=True)


def _local(tag: object) -> str:
    return etree.QName(tag).localname.lower() if isinstance(tag, str) else ""


def _namespace(tag: object) -> str:
    return (etree.QName(tag).namespace or "") if isinstance(tag, str) else ""


def _outside(url: str) -> bool:
    """A reference to anything but a fragment of this same file (`#id`)."""
    return not _STRIP.sub("", url).startswith("#")


def _css_problem(css: str) -> str | None:
    if _CSS_IMPORT.search(css):
        return "CSS that imports another stylesheet (@import)"
    if _CSS_ACTIVE.search(css):
        return "CSS that runs code (expression/behavior/binding)"
    for m in _CSS_URL.finditer(css):
        if _outside(m.group(2)):
            return f"CSS that loads {m.group(2)[:60]!r} (only url(#id) within the file is allowed)"
    return None


def _attribute_problem(el: etree._Element, name: str, value: str) -> str | None:
    local = _local(name)
    if local.startswith("on"):
        return f"an event handler ({local}=) on <{_local(el.tag)}>"
    if name == _XML_BASE:
        return "an xml:base attribute"
    bare = _STRIP.sub("", value)
    if _SCRIPT_URL.match(bare) or re.search(r"(?:javascript|vbscript)\s*:", value, re.I):
        return f"a script URL in {local}= on <{_local(el.tag)}>"
    if local in ("href", "src") and _outside(value):
        return f"an external reference ({local}={value[:60]!r}) on <{_local(el.tag)}>; only #id links within the file are allowed"
    if _local(el.tag) in _ANIMATION and local == "attributename" and (
            bare.lower().split(":")[-1] in ("href", "src") or bare.lower().startswith("on")):
        return f"an animation that rewrites {value!r}"
    if local == "style" or "url" in value.lower():
        return _css_problem(value)
    return None


def svg_problem(data: bytes) -> str | None:
    """Why this SVG must not ship (an active element, a handler, an outside reference, bad XML),
    or None when it is inert."""
    if _PROLOG.match(data):
        return "a DOCTYPE (qlint refuses DTDs and entity declarations in SVG)"
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        message = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or exc)).strip()
        return f"XML that does not parse (line {line}, column {col}: {message})"
    except ValueError as exc:  # lxml refuses some inputs (e.g. an encoding declaration it cannot use)
        return f"XML that does not parse ({exc})"
    tree = root.getroottree()
    if tree.docinfo.internalDTD is not None or tree.docinfo.doctype:
        return "a DOCTYPE (qlint refuses DTDs and entity declarations in SVG)"
    if _local(root.tag) != "svg" or _namespace(root.tag) not in ("", _SVG_NS):
        return f"no <svg> root element (found <{_local(root.tag) or 'nothing'}>)"
    outside_root = [*root.itersiblings(preceding=True), *root.itersiblings()]  # <?xml-stylesheet?> sits there
    for node in [*outside_root, *root.iter()]:
        if isinstance(node, etree._Entity):
            return f"an entity reference (&{node.name};) qlint does not expand"
        if isinstance(node, etree._ProcessingInstruction):
            return f"a processing instruction (<?{node.target} ...?>) that can load a stylesheet"
        if not isinstance(node.tag, str):
            continue
        name = _local(node.tag)
        if name in _ACTIVE:
            return f"a <{etree.QName(node.tag).localname}> element"
        if _namespace(node.tag) == _XHTML_NS:
            return f"an HTML element (<{name}>) inside the SVG"
        if name == "style":
            problem = _css_problem("".join(node.itertext()))
            if problem:
                return problem
        for attr, value in node.attrib.items():
            problem = _attribute_problem(node, attr, value)
            if problem:
                return problem
    return None


def image_problem(source: Path) -> str | None:
    """Why the image file at `source` must not ship, or None. Reads at most MAX_IMAGE_BYTES."""
    suffix = source.suffix.lower()
    if suffix != ".svg" and suffix not in _RASTER:
        return f"a file type qlint does not ship as an image (use {SUPPORTED})"
    try:
        with open(source, "rb") as f:
            data = f.read(MAX_IMAGE_BYTES + 1)
    except OSError as exc:
        return f"a file that cannot be read ({exc.strerror or exc})"
    if len(data) > MAX_IMAGE_BYTES:
        return f"more than {MAX_IMAGE_BYTES // (1024 * 1024)} MB"
    if suffix == ".svg":
        return svg_problem(data)
    kind, matches = _RASTER[suffix]
    return None if matches(data) else f"content that is not {kind}, though its name says so"


def check_image(source: Path, ref: str) -> None:
    """UnsafeImageError("image 'ref' has ...") when the image must not ship."""
    problem = image_problem(source)
    if problem:
        raise UnsafeImageError(f"image {ref!r} has {problem}")


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
