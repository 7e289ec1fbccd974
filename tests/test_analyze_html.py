"""The item-analysis HTML report in the real headless Chromium the suite already drives: it opens
from disk with no network and no console errors, its charts are drawn, the flagged items come
first and name their findings, and it reads at phone width (375 px: no sideways scroll, chart
text no smaller than 9 px). Screenshots land in artifacts/ (gitignored)."""

from __future__ import annotations

import pytest

from conftest import REPO
from qlint.cli import main
from kit.browser import ARTIFACTS, Tab, browser  # noqa: F401  (the shared browser fixture)

SAMPLE = REPO / "examples" / "synthetic-responses.csv"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("analyze-html") / "report"
    import os

    here = os.getcwd()
    os.chdir(REPO)
    try:
        assert main(["analyze", "examples/synthetic-responses.csv", "--html", str(out)]) == 1
    finally:
        os.chdir(here)
    return out / "index.html"


def test_report_opens_draws_charts_and_lists_flagged_items_first(browser, report):  # noqa: F811
    tab = Tab(browser)
    page = tab.open(report)
    assert page.title() == "qlint item analysis"
    answered = {line.split(",")[1] for line in SAMPLE.read_text(encoding="utf-8").splitlines()[1:]}
    dots = page.locator("svg.scatter circle.dot")
    assert dots.count() == len(answered) and page.locator("svg.scatter circle.dot.flagged").count() == 3
    box = dots.first.bounding_box()
    assert box and box["width"] > 3 and box["height"] > 3  # drawn, not collapsed
    items = page.locator("section.item")
    assert items.count() == len(answered)
    heads = [items.nth(i).locator("h3").inner_text() for i in range(3)]
    assert all("flagged" in items.nth(i).get_attribute("class") for i in range(3))
    assert "flagged" not in items.nth(3).get_attribute("class")
    # the two items with an error (R002: the planted miskey and the planted swapped steps) first
    assert set(heads[:2]) == {"mla-c01-deploy-multi-model-endpoint", "mla-c01-prep-feature-store-ingest-order"}
    assert all("R002" in items.nth(i).locator(".findings").inner_text() for i in range(2))
    assert "R003" in items.nth(2).locator(".findings").inner_text()
    first = items.nth(heads.index("mla-c01-deploy-multi-model-endpoint"))
    bars = first.locator("svg.options rect.bar")
    assert bars.count() == 3 * 4 and max(bars.nth(i).bounding_box()["width"] for i in range(12)) > 50
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analyze-report.png"), full_page=True)
    tab.close()


def test_report_reads_at_phone_width(browser, report):  # noqa: F811
    tab = Tab(browser, width=375, height=800)
    page = tab.open(report)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    smallest = page.evaluate("""Math.min(...[...document.querySelectorAll('svg text')]
        .filter(t => t.getBoundingClientRect().width > 0).map(t => t.getBoundingClientRect().height))""")
    assert smallest >= 9, f"chart text renders {smallest:.1f} px high at 375 px"
    page.screenshot(path=str(ARTIFACTS / "analyze-report-375.png"), full_page=False)
    tab.close()
