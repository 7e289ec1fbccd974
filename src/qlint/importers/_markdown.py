"""(X)HTML back to Markdown, for the importers of formats that carry rendered text (QTI, Moodle XML).

The exporters render Markdown with markdown-it (CommonMark plus tables, raw HTML escaped), so the
HTML an importer meets is mostly that renderer's output: p, em, strong, code, pre, ul/ol/li, a,
img, br, blockquote, h1-h6, hr, table. This converter writes Markdown that markdown-it renders
back to the same HTML: soft line breaks stay line breaks, text characters that Markdown would read
as syntax are backslash-escaped, code spans get a fence longer than any backtick run inside them.
Anything Markdown cannot say (an unknown element, `<sup>`, an attribute) keeps its text and is
reported in `notes`, so an importer can list it as not mapped instead of dropping it silently.

Why not html2text or markdownify: both re-wrap and collapse line breaks and leave text such as
`_word_` or ``a`b`` unescaped, so their Markdown renders to different text than the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from lxml import etree

BLOCKS = frozenset("p div pre ul ol li blockquote h1 h2 h3 h4 h5 h6 hr table thead tbody tfoot tr th td dl dt dd".split())
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_EMPHASIS = {"em": "em", "i": "em", "strong": "strong", "b": "strong"}
_BR = "\x00"  # a hard break, placed before the line-start pass and written as "\\\n" after it

# Text characters that start Markdown syntax anywhere in a line.
_ALWAYS = re.compile(r"([\\`*\[\]|])")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_ANGLE = re.compile(r"<(?=[A-Za-z/!?])")
# ... and at the start of a line (after the leading spaces Markdown ignores).
_LINE_START = [
    (re.compile(r"^([#>=~])"), r"\\\1"),
    (re.compile(r"^([-+])(?=[ \t-]|$)"), r"\\\1"),
    (re.compile(r"^([-:])(?=[-:| \t]*$)"), r"\\\1"),  # a table's delimiter row (`:-`, `-:`)
    (re.compile(r"^(\d{1,9})([.)])(?=[ \t]|$)"), r"\1\\\2"),
]

# Rewrites an image source to the path the Markdown should name (None keeps it as it is).
ImageHook = Callable[[str], "str | None"]


def local(el: etree._Element) -> str:
    return etree.QName(el).localname.lower() if isinstance(el.tag, str) else ""


def classes(el: etree._Element) -> list[str]:
    return (el.get("class") or "").split()


def drop_case_scenario(el: etree._Element | None) -> None:
    """Take out the case scenario qlint's exports put before a case question's stem
    (`div.qlint-case`, then `hr`): the scenario belongs to the case study, not to the stem."""
    for div in [c for c in el if local(c) == "div" and "qlint-case" in classes(c)] if el is not None else []:
        after = div.getnext()
        if after is not None and local(after) == "hr":
            remove(after)
        remove(div)


def linked_references(div: etree._Element, note: Callable[[str], None]) -> list[dict[str, str]]:
    """The `{title, url}` of each list item's link in a references section; `note` hears of an
    item without one."""
    refs = []
    for li in (e for e in div.iter() if local(e) == "li"):
        link = next((a for a in li.iter() if local(a) == "a" and a.get("href")), None)
        if link is None:
            note(f"reference without a link: {' '.join(''.join(li.itertext()).split())[:60]!r}")
            continue
        refs.append({"title": re.sub(r"\s+", " ", "".join(link.itertext())).strip(), "url": link.get("href")})
    return refs


def remove(el: etree._Element) -> None:
    """Take an element out of its parent, keeping the text that follows it."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def escape_text(text: str) -> str:
    """Characters of one text run that Markdown would read as inline syntax, escaped."""
    out = _ALWAYS.sub(r"\\\1", text)
    out = _ENTITY.sub(r"\\&", out)
    out = _ANGLE.sub(r"\\<", out)
    return re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", out)  # intraword _ is literal anyway


def _escape_line_starts(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        line = line.lstrip(" \t")
        for pattern, repl in _LINE_START:
            line = pattern.sub(repl, line)
        lines.append(line)
    return "\n".join(lines)


def _around_breaks(text: str) -> str:
    """Each hard break without the spaces and tabs around it, followed by one line break. (Split
    by hand: `[ \\t]*BR` retried at every space of a long run, quadratic time.)"""
    parts = text.split(_BR)
    if len(parts) == 1:
        return text
    for i in range(1, len(parts)):
        after = parts[i].lstrip(" \t")
        parts[i] = after[1:] if after.startswith("\n") else after
    for i in range(len(parts) - 1):
        parts[i] = parts[i].rstrip(" \t")
    return (_BR + "\n").join(parts)


def _tidy_inline(text: str) -> str:
    """Paragraph text: no blank or space-only lines inside, no spaces around line breaks or at the
    ends, line starts escaped; hard breaks written as a backslash at the end of the line."""
    text = _around_breaks(text)
    # (markdown-it drops spaces before a line break but keeps tabs, and drops all white space after it)
    # A hard break can open a paragraph (a line holding only "\\") but cannot end one.
    # Spaces before each line break go line by line: ` *\n` retried at every space of a run.
    text = "\n".join(line.rstrip(" ") for line in text.split("\n"))
    text = re.sub(r"\n[ \t\n]*", "\n", text).strip(" \t\n").rstrip(" \t\n" + _BR)
    return _escape_line_starts(text).replace(_BR + "\n", "\\\n").replace(_BR, "")


def _ends_with_star(pieces: list[str]) -> bool:
    """The text `pieces` join to ends with a `*` (or a `*` and a line break) that no backslash
    escapes. Read from the end: searching the joined text each time was quadratic."""
    chars = (c for piece in reversed(pieces) for c in reversed(piece))
    last = next(chars, "")
    if last == "\n":
        last = next(chars, "")
    if last != "*":
        return False
    slashes = 0
    for c in chars:
        if c != "\\":
            break
        slashes += 1
    return slashes % 2 == 0


def _code_span(text: str) -> str:
    text = text.replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip(" "))
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def _destination(url: str) -> str:
    url = _ENTITY.sub(r"\\&", url)
    if not url or re.search(r"[\s<>]", url):
        return "<" + re.sub(r"([<>\\])", r"\\\1", url) + ">"
    return re.sub(r"([()\\])", r"\\\1", url)


def _title(el: etree._Element) -> str:
    title = el.get("title")
    return ' "' + title.replace("\\", "\\\\").replace('"', '\\"') + '"' if title else ""


@dataclass
class Converter:
    on_image: ImageHook | None = None
    notes: list[str] = field(default_factory=list)

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    # -- blocks -----------------------------------------------------------------------------

    def blocks(self, container: etree._Element, tight: bool = False) -> str:
        """The container's content as Markdown blocks; loose inline content forms paragraphs."""
        parts: list[tuple[str, str]] = []  # (kind, markdown)
        run: list[etree._Element | str] = [container.text or ""]
        for child in container:
            name = local(child)
            if name in BLOCKS or name == "br" and self._hr_like(child):
                self._flush(run, parts)
                run = []
                if name == "br":
                    parts.append(("hr", "---"))
                else:
                    parts.append((name, self.block(child, parts[-1][0] if parts else "")))
                run = [child.tail or ""]
            else:
                run.append(child)
        self._flush(run, parts)
        return ("\n" if tight else "\n\n").join(md for _kind, md in parts if md != "")

    @staticmethod
    def _hr_like(br: etree._Element) -> bool:
        """A `<br/>` standing between blocks (where a flattened `<hr/>` was put) rather than in text."""
        prev, nxt = br.getprevious(), br.getnext()
        before = prev.tail if prev is not None else br.getparent().text
        return (not (before or "").strip() and not (br.tail or "").strip()
                and (prev is None or local(prev) in BLOCKS) and (nxt is None or local(nxt) in BLOCKS))

    def _flush(self, run: list[etree._Element | str], parts: list[tuple[str, str]]) -> None:
        text = _tidy_inline(self.inline_run(run))
        if text:
            parts.append(("p", text))

    def block(self, el: etree._Element, previous: str) -> str:
        name = local(el)
        if name == "p":
            return _tidy_inline(self.inline(el))
        if name in _HEADINGS:
            level, text = _HEADINGS[name], _tidy_inline(self.inline(el))
            if "\n" in text and level <= 2:  # only a setext heading spans lines
                return text + "\n" + ("===" if level == 1 else "---")
            text = re.sub(r"(?<!\\)#$", r"\\#", text.replace("\\\n", " ").replace("\n", " "))  # not a closing `#` sequence
            return "#" * level + " " + text
        if name == "pre":
            return self.code_block(el)
        if name in ("ul", "ol"):
            return self.listing(el, previous == name)
        if name == "blockquote":
            inner = self.blocks(el)
            return "\n".join(f"> {ln}" if ln else ">" for ln in inner.split("\n")) if inner else ">"
        if name == "hr":
            return "---"
        if name == "table":
            return self.table(el)
        if name != "div":
            self.note(f"<{name}> has no Markdown form; its text was kept")
        return self.blocks(el)

    def code_block(self, pre: etree._Element) -> str:
        code = pre.find("*")
        lang = ""
        if code is not None and local(code) == "code" and len(pre) == 1 and not (pre.text or "").strip():
            lang = next((c[len("language-"):] for c in classes(code) if c.startswith("language-")), "")
            text = "".join(code.itertext())
        else:
            text = "".join(pre.itertext())
        if text and not text.endswith("\n"):
            text += "\n"
        longest = max((len(m) for m in re.findall(r"^ {0,3}(`+)", text, re.M)), default=0)
        fence = "`" * max(3, longest + 1)
        if "`" in lang:
            tildes = max((len(m) for m in re.findall(r"^ {0,3}(~+)", text, re.M)), default=0)
            fence = "~" * max(3, tildes + 1)
        return f"{fence}{lang}\n{text}{fence}"

    def listing(self, el: etree._Element, after_same_kind: bool) -> str:
        ordered = local(el) == "ol"
        items = [li for li in el if local(li) == "li"]
        if len(items) != len(el):
            self.note(f"<{local(el)}> held something other than list items; its text was kept")
        loose = any(local(c) == "p" for li in items for c in li)
        number = int(el.get("start") or 1) if (el.get("start") or "1").isdigit() else 1
        out = []
        for i, li in enumerate(items):
            if ordered:
                marker = f"{number + i}{')' if after_same_kind else '.'} "
            else:
                marker = ("* " if after_same_kind else "- ")
            body = self.blocks(li, tight=not loose)
            pad = " " * len(marker)
            lines = body.split("\n") if body else [""]
            out.append((marker + lines[0]).rstrip() + "".join(f"\n{pad}{ln}" if ln else "\n" for ln in lines[1:]))
        return ("\n\n" if loose else "\n").join(out)

    def table(self, el: etree._Element) -> str:
        rows = [tr for tr in el.iter() if local(tr) == "tr"]
        if not rows:
            return ""
        cells = [[c for c in tr if local(c) in ("th", "td")] for tr in rows]
        width = max(len(r) for r in cells)

        def cell(c: etree._Element) -> str:
            return _tidy_inline(self.inline(c)).replace("\\\n", " ").replace("\n", " ")

        def align(c: etree._Element) -> str:
            m = re.search(r"text-align:\s*(left|right|center)", c.get("style") or "")
            found = m.group(1) if m else next((k[len("qlint-align-"):] for k in classes(c) if k.startswith("qlint-align-")), "")
            return {"left": ":--", "right": "--:", "center": ":-:"}.get(found, "---")

        def line(values: list[str]) -> str:
            values = values + [""] * (width - len(values))
            return "| " + " | ".join(values) + " |"

        head, body = cells[0], cells[1:]
        out = [line([cell(c) for c in head]), line([align(c) for c in head])]
        out += [line([cell(c) for c in r]) for r in body]
        return "\n".join(out)

    # -- inline ------------------------------------------------------------------------------

    def inline(self, el: etree._Element, delimiter: str = "") -> str:
        return self.inline_run([el.text or "", *el], delimiter)

    def inline_run(self, run: list[etree._Element | str], parent: str = "") -> str:
        out: list[str] = []  # non-empty pieces only: the text so far is never joined in the loop

        def add(piece: str) -> None:
            if piece:
                out.append(piece)

        items = [r for r in run if not (isinstance(r, str) and r == "")]
        for i, item in enumerate(items):
            if isinstance(item, str):
                add(escape_text(item))
                continue
            at_edge = not out or (i == len(items) - 1 and not item.tail)
            # A delimiter touching the same character would merge with it: `*a**b*` is not two emphases.
            touching = _ends_with_star(out) or bool(parent.startswith("*") and at_edge)
            if parent.startswith("*") and not touching:  # nested in a `*` emphasis: `_` where it may open and close
                before = out[-1][-1] if out else "*"
                after = (item.tail or "")[:1] or ("*" if i == len(items) - 1 else "a")
                touching = not (before.isalnum() or after.isalnum())
            add(self.element(item, "*" if touching else ""))
            if item.tail:
                add(escape_text(item.tail))
        return "".join(out)

    def element(self, el: etree._Element, avoid: str = "") -> str:
        if not isinstance(el.tag, str):
            return ""  # comments and processing instructions
        name = local(el)
        if name == "br":
            return _BR
        if name in _EMPHASIS:
            # An emphasis at the edge of another one uses the other character: `**_a_ b**`, `*__a__*`.
            char = "_" if avoid == "*" else "*"
            delim = char * (2 if _EMPHASIS[name] == "strong" else 1)
            inner = self.inline(el, delim)
            core = inner.strip(" \t\n")
            if not core:
                return inner
            lead, trail = inner[: len(inner) - len(inner.lstrip(" \t\n"))], inner[len(inner.rstrip(" \t\n")):]
            return f"{lead}{delim}{core}{delim}{trail}"
        if name in ("code", "tt"):
            return _code_span("".join(el.itertext()))
        if name == "a":
            href = el.get("href")
            if href is None:
                self.note("a link without an address; its text was kept")
                return self.inline(el)
            return f"[{self.inline(el)}]({_destination(href)}{_title(el)})"
        if name == "img":
            src = el.get("src") or ""
            if self.on_image is not None:
                src = self.on_image(src) or src
            return f"![{escape_text(el.get('alt') or '')}]({_destination(src)}{_title(el)})"
        if name in BLOCKS:  # a block inside inline content (not from Markdown): keep its text on a line
            self.note(f"<{name}> inside a line has no Markdown form; its text was kept")
            return _BR + self.inline(el) + _BR
        if name != "span":
            self.note(f"<{name}> has no Markdown form; its text was kept")
        return self.inline(el, avoid)


def to_markdown(el: etree._Element, on_image: ImageHook | None = None) -> tuple[str, list[str]]:
    """The element's content (blocks or inline text) as Markdown, and what could not be said."""
    conv = Converter(on_image)
    return conv.blocks(el), conv.notes
