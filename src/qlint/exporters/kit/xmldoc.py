"""Building and writing XML documents with lxml: elements with attributes in one call, and
deterministic, diff-friendly bytes (indented structure, untouched mixed content)."""

from __future__ import annotations

from lxml import etree

from qlint.exporters.kit.xhtml import BLOCK, INLINE

XSI = "http://www.w3.org/2001/XMLSchema-instance"


def sub(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    """A child element; attribute values are set as data, so lxml escapes them."""
    el = etree.SubElement(parent, tag)
    for key, value in attrs.items():
        el.set(key, value)
    if text is not None:
        el.text = text
    return el


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def indent(el: etree._Element, mixed: frozenset[str], level: int = 0) -> None:
    """Indent element-only structure; leave text content (XHTML and `mixed` names) exactly as built.

    Whitespace added inside mixed content would change what a player shows (and Canvas reads a
    choice's first text node as the option), so only elements without text get new lines.
    """
    name = etree.QName(el).localname
    if name in BLOCK or name in INLINE or name in mixed or len(el) == 0:
        return
    if not _blank(el.text) or any(not _blank(c.tail) for c in el):
        return
    pad = "\n" + "  " * (level + 1)
    el.text = pad
    for child in el:
        child.tail = pad
        indent(child, mixed, level + 1)
    el[-1].tail = "\n" + "  " * level


def to_bytes(root: etree._Element, mixed: frozenset[str] = frozenset()) -> bytes:
    indent(root, mixed)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(root, encoding="UTF-8") + b"\n"
