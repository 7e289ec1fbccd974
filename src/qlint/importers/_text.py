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

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)

# Reads an image `src` of the source, found in the text area at the given line: (path inside the
# bank to store it at, its bytes), or None to keep `src` as written (the reader reports why).
ImageReader = Callable[[str, int], "tuple[str, bytes] | None"]


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
    for el in wrapper.iter():  # the HTML parser leaves no namespace; keep element objects plain
        if isinstance(el.tag, str):
            el.tag = el.tag.lower()
    return wrapper
