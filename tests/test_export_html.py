"""The static practice site without a browser: structure, CSP hashes, offline-only references."""

from __future__ import annotations

import base64
import hashlib
import posixpath
import re
from urllib.parse import unquote

import pytest
from lxml import html as lhtml

from exportkit import banks, export, exported, hostile_project, load_questions  # noqa: F401


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
        if qid not in questions:
            assert not scripts  # indexes need no script
            continue
        q = questions[qid]
        assert len(scripts) == 1
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
