"""Question text as Markdown that is safe to publish: parsed with the same markdown-it settings as
every other target (raw HTML off, so `<script>` is text), then written back out by mdformat's
CommonMark renderer, which escapes whatever would otherwise turn into HTML, links or emphasis.
Hand-written escaping misses cases (HTML blocks, autolinks, entities); a renderer from the parse
tree cannot, and a test renders our output with raw HTML *on* to prove nothing comes alive."""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

import mdformat_tables
from markdown_it.token import Token
from mdformat.renderer import MDRenderer, RenderTreeNode

from qlint.markup import _md, rewrite_images

_OPTIONS = {"parser_extension": [mdformat_tables], "mdformat": {"number": True}}


class _Node(RenderTreeNode):
    """mdformat's tree node with sibling look-ups in constant time: the stock ones search the
    parent's children for the node (`list.index`), and every text node asks, so a paragraph of
    many inline parts (100 KB of code spans) took quadratic time."""

    def _at(self) -> int:
        parent = self.parent
        if parent is None:
            return 0
        places = parent.__dict__.get("_places")
        if places is None:
            places = parent.__dict__["_places"] = {id(c): i for i, c in enumerate(parent.children)}
        return places[id(self)]

    @property
    def next_sibling(self):
        i, kin = self._at(), self.siblings
        return kin[i + 1] if i + 1 < len(kin) else None

    @property
    def previous_sibling(self):
        i = self._at()
        return self.siblings[i - 1] if i > 0 else None


def _render(tokens: list[Token]) -> str:
    return MDRenderer().render_tree(_Node(tokens), _OPTIONS, {}).strip("\n")


def to_markdown(text: str, urls: Mapping[str, str] | None = None) -> str:
    """Markdown in, equivalent Markdown out with raw HTML escaped; `urls` rewrites image paths."""
    if "<" not in (text or "") and "![" not in (text or ""):
        return (text or "").strip("\n")  # raw HTML always starts with "<": nothing to escape
    tokens = _md().parse(text or "")
    return _render(rewrite_images(tokens, urls) if urls else tokens)


def _paragraph(children: list[Token]) -> str:
    inline = Token("inline", "", 0, children=children, content="x")
    return _render([Token("paragraph_open", "p", 1, block=True), inline,
                    Token("paragraph_close", "p", -1, block=True)])


@lru_cache(maxsize=4096)
def text(plain: str) -> str:
    """Plain text (a name, a title) as Markdown that shows exactly those characters."""
    return _paragraph([Token("text", "", 0, content=plain)]) if plain else ""


@lru_cache(maxsize=4096)
def link(label: str, href: str) -> str:
    """`[label](href)` with the label and the destination escaped as CommonMark needs."""
    # normalizeLink percent-encodes spaces and angle brackets, which no destination form can hold.
    return _paragraph([Token("link_open", "a", 1, attrs={"href": _md().normalizeLink(href)}),
                       Token("text", "", 0, content=label), Token("link_close", "a", -1)])
