"""XML from outside, parsed so that it cannot reach past its own bytes.

The parser never loads a DTD, never resolves an entity (internal or external) and never touches
the network; libxml2's default size limits stay on (`huge_tree=False`). On top of that, any
document with a DOCTYPE is refused before it is parsed: neither QTI nor Moodle XML uses one, and
a DOCTYPE is how entity bombs ("billion laughs") and external entities (`file:///etc/passwd`) get
in. The messages name the position, never the entity's text or what it points at.
"""

from __future__ import annotations

import re

from lxml import etree

from qlint.importers import SourceError

_PROLOG = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml.*?\?>)?(?:\s+|<!--.*?-->|<\?.*?\?>)*<!DOCTYPE", re.S)


def parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           dtd_validation=False, remove_comments=True, remove_pis=True)


def _position(data: bytes, offset: int) -> str:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return f"{line}:{col}"


def parse(data: bytes, name: str) -> etree._Element:
    """The document's root element; SourceError naming `name:line:col` for a DOCTYPE or bad XML."""
    m = _PROLOG.match(data)
    if m:
        raise SourceError(f"{name}:{_position(data, m.end() - len(b'<!DOCTYPE'))}: the XML declares a DOCTYPE; "
                          "qlint refuses DTDs and entity declarations (they can expand without bound or read "
                          "local files), and neither QTI nor Moodle XML needs one")
    try:
        root = etree.fromstring(data, parser())
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        message = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or exc)).strip()
        raise SourceError(f"{name}:{line}:{col}: not well-formed XML: {message}") from None
    tree = root.getroottree()
    if tree.docinfo.internalDTD is not None or tree.docinfo.doctype:
        raise SourceError(f"{name}:1:1: the XML declares a DOCTYPE; qlint refuses DTDs and entity declarations")
    for el in root.iter(etree.Entity):
        raise SourceError(f"{name}:{el.sourceline or 1}:1: the XML uses an entity reference qlint does not expand")
    return root
