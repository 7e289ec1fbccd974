"""The two-language practice site in a real headless Chromium (tests/browserkit.py): each page
says its language (`<html lang>`), and axe-core finds no violation, none of its language rules
among them, on the Spanish pages, the indexes and an English page of the same site.

Under CI=true a missing browser or Playwright fails the test; elsewhere it skips with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.browser import ARTIFACTS, Tab, browser  # noqa: F401  (the shared browser fixture)
from rulecases import qlint
from kit.translation import bilingual_bank

@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bilingual-site")
    bilingual_bank(root)
    for out, extra in (("site-es", ("--lang", "es")), ("site", ())):
        code, shown = qlint(root, "export", "--format", "html", "--output", out, *extra)
        assert code == 0, shown
    return root


def _check(browser, page_path: Path, lang: str) -> set[str]:  # noqa: F811
    """Open the page, check its language in the DOM and run axe-core; the rule ids that passed."""
    from axe_playwright_python.sync_playwright import Axe

    tab = Tab(browser)
    page = tab.open(page_path)
    assert page.evaluate("document.documentElement.lang") == lang
    results = Axe().run(page)
    assert results.violations_count == 0, f"{page_path.name}: {results.generate_report()}"
    passed = {r["id"] for r in results.response["passes"]}
    tab.close()
    return passed


def test_spanish_pages_pass_axe_with_their_language(browser, sites):  # noqa: F811
    site = sites / "site-es"
    pages = sorted(site.rglob("*.html"))
    questions = [p for p in pages if p.name.startswith("mla-c01-")]
    assert len(questions) == 3 and len(pages) > 3
    passed: set[str] = set()
    for page in pages:
        passed |= _check(browser, page, "es")
    assert {"html-has-lang", "html-lang-valid"} <= passed  # the language rules ran and passed
    ARTIFACTS.mkdir(exist_ok=True)
    tab = Tab(browser)
    tab.open(questions[0]).screenshot(path=str(ARTIFACTS / "html-spanish-question.png"), full_page=True)
    tab.close()


def test_a_mixed_site_gives_each_page_its_own_language(browser, sites):  # noqa: F811
    site = sites / "site"
    spanish = sorted(site.rglob("*-es.html"))
    english = sorted(p for p in site.rglob("mla-c01-dev-layer-split-gpus.html"))
    assert len(spanish) == 3 and len(english) == 1
    passed = _check(browser, spanish[0], "es") | _check(browser, english[0], "en") | _check(browser, site / "index.html", "en")
    assert {"html-has-lang", "html-lang-valid"} <= passed
