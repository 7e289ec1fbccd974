"""Markdown pages: seed reading order, working relative links, and raw HTML that stays inert."""

from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

from qlint.exporters.markdown_pages import DETAILS_CLOSE, DETAILS_OPEN

from exportkit import HOSTILE, banks, export, exported, hostile_project, load_questions, plain  # noqa: F401

# The seed page's order; the answer is folded in <details> below the choices, as the HTML site hides it.
SEED_ORDER = ["# ", "> **⚠ Common exam trap**", "## Answer choices", "## Why each option matters", DETAILS_OPEN,
              "## Correct answer & explanation", "## Option-by-option breakdown", "## Go deeper", DETAILS_CLOSE,
              "## Related to this question"]
LIVE = MarkdownIt("commonmark", {"html": True}).enable("table")  # how a permissive site renders it
SAFE = MarkdownIt("commonmark", {"html": False}).enable("table")


def _links(md_text: str) -> list[str]:
    hrefs = []
    def walk(tokens):
        for t in tokens:
            if t.type in ("link_open", "image"):
                hrefs.append(str(t.attrGet("href") or t.attrGet("src")))
            walk(t.children or [])
    walk(SAFE.parse(md_text))
    return hrefs


@pytest.mark.parametrize("bank", ["sample", "generated"])
def test_pages_indexes_and_links(banks, exported, bank):
    questions = banks[bank][0]
    out, _ = exported("markdown", bank)
    pages = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*.md")}
    for q in questions:
        assert f"{q.exam.lower()}/{q.domain}/{q.id}.md" in pages
        assert f"{q.exam.lower()}/{q.domain}/index.md" in pages and f"{q.exam.lower()}/index.md" in pages
    assert "index.md" in pages
    assert len(pages) == len(questions) + 1 + len({q.exam for q in questions}) + len({(q.exam, q.domain) for q in questions})
    for name, text in pages.items():
        for href in _links(text):
            if href.startswith(("http://", "https://")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(href)))
            assert target in pages or (out / target).is_file(), f"{name}: broken link {href}"


def test_seed_reading_order_and_content(banks, exported):
    questions = banks["sample"][0]
    out, _ = exported("markdown", "sample")
    for q in questions:
        text = (out / q.exam.lower() / q.domain / f"{q.id}.md").read_text(encoding="utf-8")
        positions = [text.find("\n" + h) for h in SEED_ORDER]
        assert all(p >= 0 for p in positions) and positions == sorted(positions), (q.id, positions)
        rendered = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", SAFE.render(text)).split()))
        assert plain(q.stem) in rendered and plain(q.explanation) in rendered and plain(q.trap) in rendered
        breakdown = text[text.index("## Option-by-option breakdown"):]
        for o in q.options:
            assert f"### {'✓' if o.correct else '✗'} {o.letter}. " in breakdown
            assert plain(o.rationale) in rendered
            if o.right_when:
                assert plain(o.right_when) in rendered
        assert "**Why it's wrong here**" in breakdown and "**When it would be right**" in breakdown
        for o in q.keys:  # the sample's key rationales open with "Correct:": no heading says it again
            card = breakdown.split(f"### ✓ {o.letter}. ", 1)[1].split("\n### ", 1)[0]
            assert len(re.findall(r"\bcorrect\b", card.split("\n", 1)[1], re.I)) == 1, card
        assert ("why learners choose it" in breakdown) == any(o.raw.get("why_chosen") for o in q.options)


@pytest.mark.parametrize("bank", ["sample", "hostile"])
def test_raw_html_stays_inert(tmp_path, exported, bank):
    if bank == "hostile":
        root, qid = hostile_project(tmp_path)
        out = tmp_path / "md"
        export("markdown", *load_questions(root), out)
    else:
        out, _ = exported("markdown", "sample")
    for page in out.rglob("*.md"):
        # our own fold, on blocks of its own, is the one piece of HTML a page holds
        text = "\n\n".join(b for b in page.read_text(encoding="utf-8").split("\n\n") if b not in (DETAILS_OPEN, DETAILS_CLOSE))
        live = LIVE.render(text)
        # Rendered by a renderer that passes raw HTML through, the page gives exactly what the
        # escaping renderer gives: nothing in it is raw HTML.
        assert live == SAFE.render(text), page
        assert "<script" not in live and "onerror=" not in live.replace("onerror=&quot;", "")
    if bank == "hostile":
        page = (out / "mla-c01" / "model-development" / f"{qid}.md").read_text(encoding="utf-8")
        shown = SAFE.render(page)
        assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in shown and "Zürich 東京 🙂" in shown
        assert SAFE.renderInline(HOSTILE) in shown  # the same text the source shows, character for character
