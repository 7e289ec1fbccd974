"""The static practice site without a browser: structure, CSP hashes, offline-only references."""

from __future__ import annotations

import base64
import hashlib
import posixpath
import re
from urllib.parse import unquote

import pytest
from lxml import html as lhtml

from kit.export import banks, export, exported, hostile_project, load_questions  # noqa: F401


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _csp(doc) -> dict[str, list[str]]:
    (meta,) = doc.xpath("//meta[@http-equiv='Content-Security-Policy']")
    return {d.split()[0]: d.split()[1:] for d in meta.get("content").split(";") if d.strip()}


@pytest.mark.parametrize("bank", ["sample", "generated"])
def test_pages_forms_csp_and_links(banks, exported, bank):
    questions = {q.id: q for q in banks[bank][0]}
    out, _ = exported("html", bank)
    pages = {p.relative_to(out).as_posix(): p for p in out.rglob("*.html")}
    assert "index.html" in pages
    for name, path in pages.items():
        raw = path.read_text(encoding="utf-8")
        doc = lhtml.fromstring(raw)
        csp = _csp(doc)
        assert csp["default-src"] == ["'none'"] and csp["img-src"] == ["'self'", "data:"]
        assert csp["style-src"] == [_sha(s.text) for s in doc.xpath("//style")]  # only our own style runs
        scripts = doc.xpath("//script")
        assert csp["script-src"] == ([_sha(scripts[0].text)] if scripts else ["'none'"])
        assert not doc.xpath("//link | //iframe | //object | //embed | //*[@style]")
        assert not doc.xpath("//*[starts-with(@src, 'http') or starts-with(@src, '//')]")
        assert doc.xpath("//meta[@name='viewport']") and doc.get("lang") == "en"
        for href in doc.xpath("//a/@href"):
            if href.startswith(("http://", "https://", "#")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(href)))
            assert target in pages or (out / target).is_file(), f"{name}: broken link {href}"
        qid = posixpath.basename(name)[: -len(".html")]
        if qid not in questions or name.split("/")[1:2] == ["cases"]:
            assert not scripts  # indexes need no script
            continue
        q = questions[qid]
        assert len(scripts) == 1
        if not q.is_choice:
            continue  # ordering and matching pages: see below
        inputs = doc.xpath("//form[@id='practice']//input[@name='answer']")
        assert [i.get("value") for i in inputs] == [o.id for o in q.options]
        assert {i.get("type") for i in inputs} == {"checkbox" if q.type == "multiple" else "radio"}
        assert [i.get("data-key") is not None for i in inputs] == [o.correct for o in q.options]
        assert all(i.getparent().tag == "label" for i in inputs)  # every control has its label
        assert doc.xpath("//form[@id='practice']")[0].get("data-choose") == str(len(q.keys))
        assert doc.xpath("//*[@id='verdict'][@aria-live='polite']") and doc.xpath("//button[@type='submit']")
        for o in q.options:
            (card,) = doc.xpath(f"//article[@id='why-{o.id}']")
            assert ("✓" if o.correct else "✗") in card.xpath("string(.//span[@class='mark'])")


def test_hostile_text_is_inert_in_the_markup(tmp_path):
    root, qid = hostile_project(tmp_path)
    out = tmp_path / "site"
    export("html", *load_questions(root), out)
    page = out / "mla-c01" / "model-development" / f"{qid}.html"
    doc = lhtml.fromstring(page.read_text(encoding="utf-8"))
    assert len(doc.xpath("//script")) == 1 and not doc.xpath("//img | //b | //*[@onerror]")
    text = doc.text_content()
    assert "<script>window.__pwned = 1</script>" in text and "Zürich 東京 🙂" in text and "]]>" in text
    assert "<b>bold</b> ]]> & {x}" in doc.xpath("string(//label)")
    assert "<script>x</script> & ]]> \"T\"" in doc.xpath("string(//section[@aria-labelledby='deeper-heading']//a)")


@pytest.mark.slow
def test_table_alignment_uses_classes_not_inline_styles(tmp_path, banks):
    questions, exams, root = banks["generated"]
    tables = [q for q in questions if "|--:|" in q.stem][:1]
    assert tables
    out = tmp_path / "site"
    export("html", tables, exams, root, out)
    raw = next(out.rglob(f"{tables[0].id}.html")).read_text(encoding="utf-8")
    assert '<td class="align-right">' in raw and "style=" not in re.sub(r"<style>.*?</style>", "", raw, flags=re.S)


# --- ordering, matching and case studies (issue 13) -----------------------------------------

from qlint.exporters.web import _type_words as tw  # noqa: E402
from kit.export import CASE, CASE_ORDERING, CASE_SINGLE, MATCHING, ORDERING, by_id, export_types  # noqa: E402


@pytest.fixture(scope="module")
def type_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    assert export_types("html", out).warnings == []
    return out, {p.relative_to(out).as_posix(): lhtml.fromstring(p.read_text(encoding="utf-8")) for p in out.rglob("*.html")}


def _q(site, qid):
    q = by_id()[qid]
    return q, site[1][f"{q.exam.lower()}/{q.domain}/{qid}.html"]


def test_new_type_pages_keep_the_csp_and_links(type_site):
    out, pages = type_site
    for name, doc in pages.items():
        csp = _csp(doc)
        assert csp["default-src"] == ["'none'"] and csp["style-src"] == [_sha(s.text) for s in doc.xpath("//style")]
        scripts = doc.xpath("//script")
        assert csp["script-src"] == ([_sha(scripts[0].text)] if scripts else ["'none'"])
        assert not doc.xpath("//link | //iframe | //*[@style]")
        for href in doc.xpath("//a/@href"):
            if not href.startswith(("http://", "https://", "#")):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(href)))
                assert target in pages, f"{name}: broken link {href}"
        levels = [int(h.tag[1]) for h in doc.xpath("//main//*[self::h1 or self::h2 or self::h3 or self::h4]")]
        assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:])), (name, levels)  # no skipped level
        assert len(set(doc.xpath("//@id"))) == len(doc.xpath("//@id")), name  # ids unique: labels and marks find theirs


def test_ordering_form_has_a_labelled_select_per_position(type_site):
    q, doc = _q(type_site, ORDERING)
    selects = doc.xpath("//form[@id='practice'][@data-type='ordering']//select")
    assert [s.get("data-key") for s in selects] == [s.id for s in q.key_order]
    for n, sel in enumerate(selects, 1):
        (label,) = doc.xpath(f"//label[@for='{sel.get('id')}']")
        assert label.text_content() == f"Step {n}"
        assert doc.xpath(f"//*[@id='{sel.get('aria-describedby')}'][@class='slot-mark']")
        values = [o.get("value") for o in sel.xpath("option")]
        assert values[0] == "" and sorted(values[1:]) == sorted(s.id for s in q.steps)
    assert doc.xpath("//*[@id='verdict'][@aria-live='polite'][@role='status']") and doc.xpath("//button[@type='submit']")
    pool = [li.text_content().split(". ", 1)[1] for li in doc.xpath("//ul[@class='pool']/li")]
    assert [t for t in pool if t in {s.text for s in q.key_order}] != [s.text for s in q.key_order]  # never the answer
    cards = doc.xpath("//article[@data-step]")
    assert [c.get("data-step") for c in cards] == [s.id for s in q.key_order] + ["batch-transform"]
    assert [c.get("data-position") for c in cards] == ["1", "2", "3", ""]
    assert tw.WHY_NOWHERE in cards[3].text_content() and tw.WHEN_IT_BELONGS in cards[3].text_content()


def test_matching_form_has_a_labelled_select_per_prompt(type_site):
    q, doc = _q(type_site, MATCHING)
    selects = doc.xpath("//form[@id='practice'][@data-type='matching']//select")
    assert [s.get("data-key") for s in selects] == [p.match for p in q.prompts]
    for p, sel in zip(q.prompts, selects):
        (label,) = doc.xpath(f"//label[@for='{sel.get('id')}']")
        assert p.text in label.text_content()
        assert sorted(o.get("value") for o in sel.xpath("option[@value!='']")) == sorted(r.id for r in q.responses)
    assert [c.get("data-prompt") for c in doc.xpath("//article[@data-prompt]")] == [p.id for p in q.prompts]
    (surplus,) = doc.xpath("//article[@data-response]")
    assert surplus.get("id") == "why-response-ground-truth" and tw.WHY_SURPLUS in surplus.text_content()


def test_case_questions_show_the_scenario_and_the_case_page_lists_them(type_site):
    out, pages = type_site
    case_doc = pages[f"mla-c01/cases/{CASE}.html"]
    assert case_doc.xpath("string(//h1)") == "Case study: Fraud scoring for card payments"
    assert [posixpath.basename(h) for h in case_doc.xpath("//main//ol//a/@href")] == [f"{CASE_SINGLE}.html", f"{CASE_ORDERING}.html"]
    assert not case_doc.xpath("//script") and tw.CASE_SCORING in case_doc.text_content()
    for n, qid in enumerate((CASE_SINGLE, CASE_ORDERING), 1):
        _, doc = _q(type_site, qid)
        (aside,) = doc.xpath("//aside[@class='case']")
        assert f"(question {n} of 2)" in aside.text_content() and "Each score must return within 100 ms" in aside.text_content()
        assert aside.xpath(".//a/@href") == [f"../cases/{CASE}.html"]
        assert doc.xpath("//aside[@class='case']/following::section[@class='stem']")  # the scenario comes first
    assert pages["mla-c01/index.html"].xpath(f"//a[@href='cases/{CASE}.html']")
    assert not _q(type_site, ORDERING)[1].xpath("//aside[@class='case']")
