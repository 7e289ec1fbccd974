"""Rendered text areas of imported items back to Markdown, with images carried into the bank.

Shared by the QTI and Moodle importers: each hands over an element (or an HTML string), gets
Markdown, and every note the converter makes becomes an `Unmapped` entry of the question.
"""

from __future__ import annotations

import posixpath
import re
from typing import Callable

from lxml import etree, html as lxml_html

from qlint.importers import Imported, Unmapped
from qlint.importers._markdown import Converter
from qlint.printable import printable

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)

# Reads an image `src` of the source, found in the text area at the given line: (path inside the
# bank to store it at, its bytes), or None to keep `src` as written (the reader reports why).
ImageReader = Callable[[str, int], "tuple[str, bytes] | None"]

# Elements nested in one text area: a question's text nests about 5 deep. libxml2 itself stops at
# 256 and, in HTML, silently drops what lies deeper: 5,000 nested <div>s imported as "no stem".
MAX_DEPTH = 100


class TooDeep(ValueError):
    """A text area nested deeper than MAX_DEPTH: its question is not imported (`line`: the area's)."""

    def __init__(self, line: int = 0) -> None:
        super().__init__(f"its text nests more than {MAX_DEPTH} elements deep (a question's text nests about 5); "
                         "qlint does not guess what such markup means")
        self.line = line


def depth(el: etree._Element) -> int:
    """How many elements deep `el` nests (1: no children), without recursion."""
    deepest = level = 0
    for event, _el in etree.iterwalk(el, events=("start", "end")):
        level += 1 if event == "start" else -1
        deepest = max(deepest, level)
    return deepest


def file_name(name: str) -> str:
    """A name from a package made fit for a file the import creates: a line break, a control, a
    bidi or an invisible character (which would break the Markdown link to it, or hide what a
    reviewer reads in a listing) becomes `-`, and a leading dot (a hidden file) goes."""
    return "".join("-" if printable(ch) != ch else ch for ch in name).lstrip(".") or "image"


def question_folder(q: Imported) -> str:
    """Where the question file goes inside the bank (as `_write.target_path` puts it)."""
    exam = str(q.data.get('exam') or 'unknown-exam').lower()
    return f"{exam}/cases" if q.kind == "case" else f"{exam}/{q.data.get('domain') or 'unknown-domain'}"


class TextReader:
    """Converts a question's text areas, reporting what Markdown cannot say at the area's place."""

    def __init__(self, q: Imported, images: ImageReader | None = None) -> None:
        self.q, self.images = q, images
        self.line = 0  # of the text area being converted

    def _image(self, src: str) -> str | None:
        if self.images is None or not src or _SCHEME.match(src):
            return None
        found = self.images(src, self.line)
        if found is None:
            return None
        bank_path, blob = found
        self.q.files[bank_path] = blob
        return posixpath.relpath(bank_path, question_folder(self.q))

    def markdown(self, el: etree._Element | None, what: str, line: int = 0, part: str = "") -> str:
        if el is None:
            return ""
        self.line = line or (el.sourceline or 0)
        if depth(el) > MAX_DEPTH:
            raise TooDeep(self.line)
        conv = Converter(self._image)
        text = conv.blocks(el)
        for note in conv.notes:
            self.q.unmapped.append(Unmapped(self.line, f"{what}: {note}", part or self.q.part))
        return finish(text)


def finish(text: str) -> str:
    """Rendering drops a text's final newline: multi-line text gets one back, as authors write it
    (a `|` block), one-line text none."""
    text = text.strip("\n")
    return text + "\n" if "\n" in text else text


def html_fragment(markup: str) -> etree._Element:
    """An HTML fragment (as Moodle stores text) inside a `<div>`; lxml's HTML parser reads no DTD,
    expands only HTML's own named characters and never reaches the network."""
    parser = lxml_html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, default_doctype=False)
    wrapper = lxml_html.fragment_fromstring(markup or "", create_parent="div", parser=parser)
    if any("excessive depth" in e.message.lower() for e in parser.error_log) or depth(wrapper) > MAX_DEPTH + 1:
        raise TooDeep()  # libxml2 dropped what lay deeper than 256 elements, or it is past our own limit
    for el in wrapper.iter():  # the HTML parser leaves no namespace; keep element objects plain
        if isinstance(el.tag, str):
            el.tag = el.tag.lower()
    return wrapper
