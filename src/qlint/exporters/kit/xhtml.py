"""Rendered Markdown (an XHTML fragment) as lxml elements in a QTI namespace, reduced to what QTI allows.

The shared renderer escapes raw HTML, so the fragment holds only what markdown-it emits. QTI's
XHTML subset is narrower than HTML's: no `style`, no `title` on links or images, no `start` on
lists, inline-only content inside `feedbackInline`. This module keeps text and structure and drops
or renames the rest, so every fragment validates against the QTI 2.1 and 3.0 schemas.
"""

from __future__ import annotations

import re
from typing import Callable

from lxml import etree

BLOCK = frozenset("p div pre ul ol li blockquote h1 h2 h3 h4 h5 h6 hr table thead tbody tfoot tr th td dl dt dd".split())
INLINE = frozenset("em strong code a img br span sub sup b i kbd samp var q abbr".split())
_ATTRS = {
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan", "scope"},
}
_ALIGN = re.compile(r"text-align:\s*(left|right|center)")

# Rewrites an image `src` to its packaged path (None keeps it, e.g. a URL); may raise to refuse it.
ImageHook = Callable[[str], "str | None"]


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname


def _tag(ns: str, name: str) -> str:
    return f"{{{ns}}}{name}" if ns else name


def _clean(el: etree._Element, ns: str) -> None:
    """Keep allowed elements and attributes; alignment becomes a class, anything unknown a span."""
    name = _local(el)
    if name not in BLOCK and name not in INLINE:
        el.tag = _tag(ns, "span")
        name = "span"
    classes = el.get("class", "").split()
    m = _ALIGN.search(el.get("style", ""))
    if m:
        classes.append(f"qlint-align-{m.group(1)}")
    keep = _ATTRS.get(name, set())
    for attr in list(el.attrib):
        if attr not in keep:
            del el.attrib[attr]
    if classes:
        el.set("class", " ".join(classes))
    if name == "img" and el.get("alt") is None:
        el.set("alt", "")
    if name == "table" and el.find(_tag(ns, "tbody")) is None:
        head = el.find(_tag(ns, "thead"))
        if head is not None:  # a header-only table: QTI requires a tbody
            head.tag = _tag(ns, "tbody")


def parse(html: str, ns: str, on_image: ImageHook | None = None, clean: bool = True) -> etree._Element:
    """The fragment inside a `<div>` wrapper in namespace `ns`, cleaned for QTI unless `clean=False`."""
    xmlns = f' xmlns="{ns}"' if ns else ""
    wrapper = etree.fromstring(f"<div{xmlns}>{html}</div>".encode("utf-8"))
    for el in wrapper.iter():
        if el is wrapper or not isinstance(el.tag, str):
            continue
        if clean:
            _clean(el, ns)
        if on_image and _local(el) == "img" and el.get("src"):
            new = on_image(el.get("src"))
            if new is not None:
                el.set("src", new)
    return wrapper


def flatten(wrapper: etree._Element, ns: str) -> etree._Element:
    """Inline-only content for `feedbackInline`: blocks become classed spans separated by `<br/>`."""
    converted = []
    for el in wrapper.iter():
        if el is wrapper or not isinstance(el.tag, str) or _local(el) not in BLOCK:
            continue
        name = _local(el)
        if name == "hr":
            el.tag = _tag(ns, "br")
            continue
        el.tag = _tag(ns, "span")
        for attr in list(el.attrib):
            if attr != "class":
                del el.attrib[attr]
        el.set("class", " ".join([f"qlint-{name}", *el.get("class", "").split()]))
        converted.append(el)
    for el in converted:
        if el.getnext() is not None:
            el.addnext(etree.Element(_tag(ns, "br")))
    return wrapper


def html_with_images(html: str, on_image: ImageHook) -> str:
    """An (X)HTML fragment with its image sources rewritten, for targets that take HTML as text."""
    if "<img" not in html:
        return html
    wrapper = parse(html, "", on_image, clean=False)
    return (wrapper.text or "") + "".join(etree.tostring(c, encoding="unicode") for c in wrapper)


def append(parent: etree._Element, wrapper: etree._Element) -> None:
    """Move the wrapper's mixed content (text and children) to the end of `parent`."""
    if wrapper.text:
        last = parent[-1] if len(parent) else None
        if last is not None:
            last.tail = (last.tail or "") + wrapper.text
        else:
            parent.text = (parent.text or "") + wrapper.text
    for child in list(wrapper):
        parent.append(child)
