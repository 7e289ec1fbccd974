"""Question Markdown: rendered to an XHTML fragment (raw HTML escaped) as every export shows it,
characters XML forbids, and the images a text references."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator, Mapping
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

# XML 1.0 Char production: tab, LF, CR and U+0020 upward, minus surrogates and U+FFFE/U+FFFF.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


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
