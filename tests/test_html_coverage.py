"""The HTML site's coverage page: bar charts of questions per domain and per task statement against
the blueprint (inline SVG, no script), linked from the index, its figures those of the exported
questions; in the real browser the bars render with their accessible text and axe-core finds
no violation."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from html import unescape

import pytest

from kit.browser import ARTIFACTS, Tab, browser  # noqa: F401  (the shared browser fixture)
from conftest import REPO
from kit.export import export, load_questions
from qlint.project.guide import question_tasks


@pytest.fixture(scope="module")
def sample():
    return load_questions(REPO)


def _site(sample, out, length: int | None = None, **exam_changes):
    questions, exams, bank = sample
    exams = {code: dataclasses.replace(e, questions=length, **exam_changes) for code, e in exams.items()}
    export("html", questions, exams, bank, out)
    return questions, exams


def _rows(html: str) -> dict[str, list[str]]:
    """The figures tables: row heading -> its cells, as text."""
    out = {}
    for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", html, re.S):
        head, *cells = re.split(r"</th>|</td>", row)
        out[unescape(head)] = [unescape(re.sub(r"<[^>]+>", "", c)) for c in cells if c.strip()]
    return out


def test_the_coverage_page_counts_the_exported_questions_and_is_linked(sample, tmp_path):
    questions, exams = _site(sample, tmp_path / "site")
    page = (tmp_path / "site" / "coverage.html").read_text(encoding="utf-8")
    assert 'href="coverage.html"' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    guide = exams["MLA-C01"].guide
    tasks = Counter(t for q in questions for t in set(question_tasks(q.data)))
    rows = _rows(page)
    for t in guide.tasks:
        assert rows[f"{t.id} {t.text}"][0] == str(tasks.get(t.id, 0))
    domains = Counter(q.domain for q in questions)
    for d in exams["MLA-C01"].domains:
        count, share = rows[d.name]
        assert count == str(domains[d.id]) and float(share) == pytest.approx(len(questions) * d.weight / 100, abs=0.05)
    assert page.count('role="img"') == len(guide.tasks) + len(exams["MLA-C01"].domains)
    assert "<script" not in page and "style=" not in page and "needed for" not in page


def test_with_the_exams_length_the_page_shows_the_pool_one_practice_exam_needs(sample, tmp_path):
    questions, _ = _site(sample, tmp_path / "site", length=65, scored=50)
    page = (tmp_path / "site" / "coverage.html").read_text(encoding="utf-8")
    assert "One practice exam of 65 questions (50 scored) without a repeat takes 65" in page
    rows = _rows(page)
    tasks = Counter(t for q in questions for t in set(question_tasks(q.data)))
    assert rows["1.1 Ingest and store data"][2:] == ["6", str(6 - tasks["1.1"])]  # 18 a sitting over 3 tasks
    assert rows["ML Model Development"][2:] == ["17", str(17 - sum(q.domain == "model-development" for q in questions))]


def test_exam_names_are_escaped_and_a_site_without_exam_definitions_has_no_page(sample, tmp_path):
    _site(sample, tmp_path / "site", name='<img src=x onerror="alert(1)"> & co')
    page = (tmp_path / "site" / "coverage.html").read_text(encoding="utf-8")
    assert "<img src=x" not in page and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &amp; co" in page
    questions, _, bank = sample
    export("html", questions, {}, bank, tmp_path / "bare")
    assert not (tmp_path / "bare" / "coverage.html").exists()
    assert "coverage.html" not in (tmp_path / "bare" / "index.html").read_text(encoding="utf-8")


def test_the_chart_in_the_browser_has_labelled_bars_and_no_axe_violation(browser, sample, tmp_path):  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe

    questions, exams = _site(sample, tmp_path / "site", length=65)
    tasks = Counter(t for q in questions for t in set(question_tasks(q.data)))
    tab = Tab(browser)
    page = tab.open(tmp_path / "site" / "index.html")
    page.click("text=Coverage of the blueprint")
    assert page.url.endswith("/coverage.html")
    bars = page.locator("g[role='img']")
    assert bars.count() == 16
    widths = {}
    for i in range(bars.count()):
        bar = bars.nth(i)
        label = bar.get_attribute("aria-label")
        assert re.match(r".+: \d+ questions?, blueprint share \d+\.\d; \d+ needed for 1 practice exam$", label), label
        box = bar.locator("rect").bounding_box()
        assert box is not None and box["height"] > 10  # drawn, not collapsed
        widths[label.split(":")[0]] = box["width"]
    by_task = {t.id: widths[f"{t.id} {t.text}"] for t in exams["MLA-C01"].guide.tasks}
    most, fewest = max(by_task, key=lambda t: tasks[t]), min(by_task, key=lambda t: tasks[t])
    assert tasks[most] > tasks[fewest] and by_task[most] > by_task[fewest]  # bars scale with the counts
    # the accessible name of each bar as a screen reader gets it (the accessibility tree, not the attribute)
    snapshot = page.locator("svg.bars").first.aria_snapshot()
    assert "img \"ML Model Development:" in snapshot
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "html-coverage.png"), full_page=True)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    tab.close()
