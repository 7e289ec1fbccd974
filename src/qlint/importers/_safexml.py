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

_SPACE = b" \t\r\n\f\v"


def doctype_at(data: bytes) -> int | None:
    """Offset of a `<!DOCTYPE` in the prolog (after the declaration, white space, comments and
    processing instructions), or None. A scan, not a regex: `(?:\\s+|...)*` backtracked
    exponentially on blank lines (40 of them took minutes)."""
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    while True:
        while at < len(data) and data[at] in _SPACE:
            at += 1
        for start, end in ((b"<!--", b"-->"), (b"<?", b"?>")):
            if data.startswith(start, at):
                close = data.find(end, at + len(start))
                if close < 0:
                    return None  # unterminated: the parser reports it
                at = close + len(end)
                break
        else:
            return at if data.startswith(b"<!DOCTYPE", at) else None


def parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           dtd_validation=False, remove_comments=True, remove_pis=True)


def _position(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def parse(data: bytes, part: str = "") -> etree._Element:
    """The document's root element; SourceError at the line and column of a DOCTYPE or bad XML,
    in `part` (the file inside a package; "" for the source itself)."""
    at = doctype_at(data)
    if at is not None:
        raise SourceError("the XML declares a DOCTYPE; "
                          "qlint refuses DTDs and entity declarations (they can expand without bound or read "
                          "local files), and neither QTI nor Moodle XML needs one", part, *_position(data, at))
    try:
        root = etree.fromstring(data, parser())
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        message = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or exc)).strip()
        if "excessive depth" in message.lower():  # libxml2's limit; its advice (XML_PARSE_HUGE) is not ours to take
            raise SourceError("the XML nests deeper than libxml2's limit of 256 elements (a question nests about "
                              "10); qlint refuses it", part, line, col) from None
        raise SourceError(f"not well-formed XML: {message}", part, line, col) from None
    tree = root.getroottree()
    if tree.docinfo.internalDTD is not None or tree.docinfo.doctype:
        raise SourceError("the XML declares a DOCTYPE; qlint refuses DTDs and entity declarations", part, 1, 1)
    for el in root.iter(etree.Entity):
        raise SourceError("the XML uses an entity reference qlint does not expand", part, el.sourceline or 1, 1)
    return root
