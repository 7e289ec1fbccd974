"""Markdown pages: seed reading order, working relative links, and raw HTML that stays inert."""

from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

from qlint.exporters.web.markdown_pages import DETAILS_CLOSE, DETAILS_OPEN, DETAILS_OPENS

from kit.export import shown, HOSTILE, banks, export, exported, hostile_project, load_questions, plain  # noqa: F401

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
    cases = [name for name in pages if name.split("/")[1:2] == ["cases"]]  # a page per case study
    assert len(pages) == (len(questions) + 1 + len({q.exam for q in questions}) + len({(q.exam, q.domain) for q in questions})
                          + len(cases))
    for name, text in pages.items():
        for href in _links(text):
            if href.startswith(("http://", "https://")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(href)))
            assert target in pages or (out / target).is_file(), f"{name}: broken link {href}"


def test_seed_reading_order_and_content(banks, exported):
    questions = banks["sample"][0]
    out, _ = exported("markdown", "sample")
    for q in (q for q in questions if q.is_choice):  # ordering and matching: see below
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
        text = "\n\n".join(b for b in page.read_text(encoding="utf-8").split("\n\n") if b not in (*DETAILS_OPENS, DETAILS_CLOSE))
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


# --- ordering, matching and case studies (issue 13) -----------------------------------------

from qlint.exporters.web import _type_words as tw  # noqa: E402
from kit.export import CASE, CASE_ORDERING, CASE_SINGLE, MATCHING, ORDERING, by_id, copy_types, edit, export_types, load  # noqa: E402


def _order(text: str, marks: list[str]) -> None:
    at = [text.find(m) for m in marks]
    assert all(p >= 0 for p in at) and at == sorted(at), list(zip(marks, at))


def _lettered(block: str) -> dict[str, str]:
    """letter -> text of the `- **X.** text` lines of a block."""
    return dict(re.findall(r"^- \*\*([A-J])\.\*\* (.+)$", block, re.M))


@pytest.fixture(scope="module")
def type_pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("md") / "pages"
    result = export_types("markdown", out)
    assert result.warnings == []
    qs = by_id()
    return out, {qid: (out / q.exam.lower() / q.domain / f"{qid}.md").read_text(encoding="utf-8") for qid, q in qs.items()}


def test_ordering_page_lists_steps_as_presented_then_reveals_order_and_why(type_pages):
    _, pages = type_pages
    q, text = by_id()[ORDERING], pages[ORDERING]
    _order(text, ["\n# ", "> **⚠ Common exam trap**", "## Answer choices", "*Select and order THREE steps.*",
                  "## Why each step matters", f"<summary>{tw.SUMMARY['ordering']}</summary>", "## Correct answer & explanation",
                  "## Step-by-step breakdown", "## Go deeper", DETAILS_CLOSE])
    choices = text[text.index("## Answer choices"):text.index("## Why each step matters")]
    shown = _lettered(choices)
    assert sorted(shown.values()) == sorted(s.text for s in q.steps)
    assert [t for t in shown.values() if t in {s.text for s in q.key_order}] != [s.text for s in q.key_order]  # not the answer
    letter_of = {t: letter for letter, t in shown.items()}
    answer = text[text.index("## Correct answer & explanation"):text.index("## Step-by-step breakdown")]
    assert re.findall(r"^(\d)\. ✓ \*\*([A-J])\.\*\* (.+)$", answer, re.M) == [
        (str(n), letter_of[s.text], s.text) for n, s in enumerate(q.key_order, 1)]
    breakdown = text[text.index("## Step-by-step breakdown"):]
    rows = breakdown.split("\n### ")[1:]
    assert len(rows) == len(q.steps)
    for n, (row, s) in enumerate(zip(rows, [*q.key_order, *(s for s in q.steps if not s.correct)]), 1):
        if s.correct:
            assert row.startswith(f"✓ Step {n}: {letter_of[s.text]}. {s.text}\n") and f"**{tw.WHY_HERE}**" in row
        else:
            assert row.startswith(f"✗ {letter_of[s.text]}. {s.text} ({tw.NOT_A_STEP})\n")
            assert f"**{tw.WHY_NOWHERE}**" in row and f"**{tw.WHEN_IT_BELONGS}**" in row
            assert plain(s.right_when) in " ".join(row.split())
        assert plain(s.rationale) in " ".join(row.split())


def test_matching_page_lists_prompts_and_responses_then_a_row_per_pair(type_pages):
    _, pages = type_pages
    q, text = by_id()[MATCHING], pages[MATCHING]
    _order(text, ["## Answer choices", "*Match each of the FOUR prompts with one response.*", "**Prompts**", "**Responses**",
                  "## Why each pair matters", "## Correct answer & explanation", "## Pair-by-pair breakdown", DETAILS_CLOSE])
    choices = text[text.index("## Answer choices"):text.index("## Why each pair matters")]
    assert re.findall(r"^(\d)\. (.+)$", choices, re.M) == [(str(n), p.text) for n, p in enumerate(q.prompts, 1)]
    shown = _lettered(choices)
    response = {r.id: r.text for r in q.responses}
    assert sorted(shown.values()) == sorted(response.values())
    assert [t for t in shown.values() if t != response["ground-truth"]] != [response[p.match] for p in q.prompts]
    letter_of = {t: letter for letter, t in shown.items()}
    rows = text[text.index("## Pair-by-pair breakdown"):].split("\n### ")[1:]
    assert len(rows) == len(q.prompts) + 1
    for n, (row, p) in enumerate(zip(rows, q.prompts), 1):
        assert row.startswith(f"✓ {n}. {p.text}\n")
        assert f"**{tw.MATCHES}:** **{letter_of[response[p.match]]}.** {response[p.match]}\n" in row
        assert f"**{tw.WHY_PAIR}**" in row and plain(p.rationale) in " ".join(row.split())
    surplus = q.responses[4]
    assert rows[-1].startswith(f"✗ {letter_of[surplus.text]}. {surplus.text} ({tw.SURPLUS})\n")
    assert f"**{tw.WHY_SURPLUS}**" in rows[-1] and plain(surplus.rationale) in " ".join(rows[-1].split())


def test_case_study_page_and_scenario_above_each_question(type_pages):
    out, pages = type_pages
    _, cases = load()
    case_page = out / "mla-c01" / "cases" / f"{CASE}.md"
    text = case_page.read_text(encoding="utf-8")
    assert text.splitlines()[2] == "# Case study: Fraud scoring for card payments"
    assert plain(cases[CASE].scenario) in plain(text) and tw.CASE_SCORING in text
    links = [posixpath.normpath(posixpath.join("mla-c01/cases", unquote(h))) for h in _links(text)]
    assert links[2:] == [f"mla-c01/deployment-orchestration/{qid}.md" for qid in (CASE_SINGLE, CASE_ORDERING)]
    assert all((out / link).is_file() for link in links)
    for n, qid in enumerate((CASE_SINGLE, CASE_ORDERING), 1):
        page = pages[qid]
        quote = page[page.index("> **Case study: "):page.index(by_id()[qid].stem.splitlines()[0])]
        assert f"[Fraud scoring for card payments](../cases/{CASE}.md)** (question {n} of 2)" in quote
        assert plain(cases[CASE].scenario) in plain(quote.replace("\n> ", "\n"))
        assert page.index("> **Case study: ") < page.index("## Answer choices")
    assert f"- [Fraud scoring for card payments](cases/{CASE}.md) (2 questions)" in (out / "mla-c01" / "index.md").read_text(encoding="utf-8")
    assert "> **Case study" not in pages[ORDERING]


def test_a_question_whose_case_is_missing_gets_its_own_page_and_a_warning(tmp_path):
    out = tmp_path / "pages"
    result = export_types("markdown", out, with_cases=False)
    assert [w.split(": ", 1)[0] for w in shown(result)] == [f"{by_id()[q].path}:6:7" for q in (CASE_ORDERING, CASE_SINGLE)]
    assert not (out / "mla-c01" / "cases").exists() and "Case stud" not in (out / "mla-c01" / "index.md").read_text(encoding="utf-8")
    assert "> **Case study" not in (out / "mla-c01" / "deployment-orchestration" / f"{CASE_SINGLE}.md").read_text(encoding="utf-8")


def test_hostile_steps_prompts_and_scenario_stay_inert(tmp_path):
    folder = copy_types(tmp_path)
    probe = " <script>window.__pwned = 1</script> <img src=x onerror=alert(1)> [l](javascript:alert(1))"
    edit(folder, "ordering.yaml", lambda d: d["steps"][2].update(text=d["steps"][2]["text"] + probe))
    edit(folder, "matching.yaml", lambda d: (d["prompts"][2].update(text=d["prompts"][2]["text"] + probe),
                                             d["responses"][1].update(text=d["responses"][1]["text"] + probe)))
    edit(folder, "cases/fraud-scoring.yaml", lambda d: d.update(scenario=d["scenario"] + probe, title=d["title"] + probe))
    out = tmp_path / "pages"
    export_types("markdown", out, folder=folder)
    for page in out.rglob("*.md"):
        blocks = page.read_text(encoding="utf-8").rstrip("\n").split("\n\n")  # a page may end with the fold
        text = "\n\n".join(b for b in blocks if b not in (*DETAILS_OPENS, DETAILS_CLOSE))
        live = LIVE.render(text)
        assert live == SAFE.render(text), page
        assert "<script" not in live and "<img" not in live and 'href="javascript' not in live
    shown = SAFE.render((out / "mla-c01" / "deployment-orchestration" / f"{ORDERING}.md").read_text(encoding="utf-8"))
    assert shown.count("&lt;script&gt;window.__pwned = 1&lt;/script&gt;") == 3  # listed, in the answer, in its row


def test_nothing_a_page_can_show_is_dropped_and_what_it_cannot_is_warned(tmp_path):
    """A keyed step's right_when and a matched response's rationale are shown; `shuffle: false`
    on an ordering question cannot be honoured (its steps are written in key order): a warning."""
    folder = copy_types(tmp_path)
    edit(folder, "ordering.yaml", lambda d: (d.update(shuffle=False), d["steps"][0].update(right_when="Only when KEYED-WHEN holds.")))
    edit(folder, "matching.yaml", lambda d: d["responses"][0].update(rationale="RESPONSE-NOTE about Model Monitor."))
    for fmt in ("markdown", "html"):
        out = tmp_path / fmt
        result = export_types(fmt, out, folder=folder)
        (warning,) = shown(result)
        assert warning.startswith(f"{folder / 'ordering.yaml'}:") and "shuffle: false is ignored" in warning
        ext = "md" if fmt == "markdown" else "html"
        ordering = (out / "mla-c01" / "deployment-orchestration" / f"{ORDERING}.{ext}").read_text(encoding="utf-8")
        matching = (out / "mla-c01" / "monitoring-security" / f"{MATCHING}.{ext}").read_text(encoding="utf-8")
        assert "KEYED-WHEN" in ordering and "RESPONSE-NOTE" in matching and tw.ABOUT_RESPONSE in matching


def test_presented_order_is_never_the_key_and_is_stable():
    from qlint.exporters.web._present import presented_responses, presented_steps
    from qlint.model import Question

    for n in range(200):
        keyed, extra = 3 + n % 3, n % 3
        steps = [{"id": f"s{n}-{i}", "text": f"step {i}"} for i in range(keyed)]
        steps += [{"id": f"x{n}-{i}", "text": f"other {i}", "correct": False} for i in range(extra)]
        q = Question("q.yaml", {"id": f"q-{n}", "type": "ordering", "steps": steps})
        shown = [s.id for s in presented_steps(q)]
        assert sorted(shown) == sorted(s["id"] for s in steps) and shown == [s.id for s in presented_steps(q)]
        assert [i for i in shown if i.startswith("s")] != [s["id"] for s in steps[:keyed]], shown
        m = Question("m.yaml", {"id": f"m-{n}", "type": "matching",
                                "prompts": [{"id": f"p{i}", "text": "p", "match": f"r{i}"} for i in range(keyed)],
                                "responses": [{"id": f"r{i}", "text": "r"} for i in range(keyed + 1 + extra)]})
        order = [r.id for r in presented_responses(m)]
        assert [r for r in order if r in {f"r{i}" for i in range(keyed)}] != [f"r{i}" for i in range(keyed)]
        kept = Question("m.yaml", {**m.data, "shuffle": False})
        assert [r.id for r in presented_responses(kept)] == [f"r{i}" for i in range(keyed + 1 + extra)]
