"""The HTML practice site in a real headless Chromium (Debian's `chromium`, driven by Playwright),
opened from disk: answer, reveal, verdict, rationale, keyboard-only use, no console errors, no
network, hostile text inert, phone width. Screenshots land in artifacts/ (gitignored).

Under CI=true a missing browser or Playwright fails the test; elsewhere it skips with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.browser import ARTIFACTS, Tab, browser  # noqa: F401  (the shared browser fixture)
from conftest import REPO
from kit.export import export, hostile_project, load_questions, plain


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The sample bank plus the hostile question, exported as a site; returns (folder, hostile id)."""
    tmp = tmp_path_factory.mktemp("browser")
    root, qid = hostile_project(tmp)
    questions, exams, bank = load_questions(root)
    out = tmp / "site"
    export("html", questions, exams, bank, out)
    return out, {q.id: q for q in questions}, qid


def _page(site, qid: str) -> Path:
    out, questions, _ = site
    q = questions[qid]
    return out / q.exam.lower() / q.domain / f"{qid}.html"


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_wrong_answer_then_key_on_a_single_choice_page(browser, site):
    q = site[1]["mla-c01-dev-layer-split-gpus"]
    wrong, key = q.options[0], q.keys[0]
    tab = Tab(browser)
    page = tab.open(_page(site, q.id))
    assert page.locator("#answer").is_hidden() and page.locator("#verdict").inner_text() == ""
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "Choose an answer first."
    assert page.locator("#answer").is_hidden()

    page.check(f"input[value='{wrong.id}']")
    page.click("#reveal")
    verdict = page.locator("#verdict").inner_text()
    assert verdict.startswith("✗") and f"You chose {wrong.letter}" in verdict and f"is {key.letter}" in verdict
    card = page.locator(f"#why-{wrong.id}")
    assert card.is_visible() and plain(wrong.rationale) in " ".join(card.inner_text().split())
    assert "When it would be right" in card.inner_text() and card.locator(".yours").is_visible()
    assert page.locator("#answer").is_visible() and plain(q.explanation)[:60] in " ".join(page.locator("#answer").inner_text().split())
    _shot(page, "html-practice-wrong-answer.png")

    page.check(f"input[value='{key.id}']")
    assert page.locator("#verdict").inner_text() == ""  # a changed answer clears the old verdict
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    assert page.locator(f"#why-{key.id} .yours").is_visible() and page.locator(f"#why-{wrong.id} .yours").is_hidden()
    tab.close()


def test_all_or_nothing_site_gives_no_partial_credit(browser, tmp_path):
    """--scoring all-or-nothing: a key and a distractor is simply incorrect (partial: see above)."""
    questions, exams, bank = load_questions(REPO)
    by_id = {q.id: q for q in questions}
    q = by_id["mla-c01-ops-vpc-kms-training"]
    export("html", questions, exams, bank, tmp_path / "site", scoring="all-or-nothing")
    tab = Tab(browser)
    page = tab.open(_page((tmp_path / "site", by_id, ""), q.id))
    assert page.locator("#practice").get_attribute("data-scoring") is None
    for o in (q.keys[0], q.distractors[0]):
        page.check(f"input[value='{o.id}']")
    page.click("#reveal")
    assert page.locator("#verdict").inner_text().startswith("✗ Incorrect. You chose")
    tab.close()


def test_multiple_response_needs_the_stated_count(browser, site):
    q = site[1]["mla-c01-ops-vpc-kms-training"]
    tab = Tab(browser)
    page = tab.open(_page(site, q.id))
    assert page.locator("input[name=answer][type=checkbox]").count() == len(q.options)
    page.check(f"input[value='{q.keys[0].id}']")
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "Choose 2 answers (1 selected)."
    page.check(f"input[value='{q.distractors[0].id}']")
    page.click("#reveal")
    # partial scoring (the default): 1/k for the key, -1/m for the distractor
    share = round(100 * (1 / len(q.keys) - 1 / len(q.distractors)))
    assert page.locator("#verdict").inner_text().startswith(f"◐ Partly correct: {share}% of the point.")
    page.uncheck(f"input[value='{q.distractors[0].id}']")
    page.check(f"input[value='{q.keys[1].id}']")
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    _shot(page, "html-practice-multiple.png")
    tab.close()


def _tab_to(page, selector: str, limit: int = 40) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_only(browser, site):
    q = site[1]["mla-c01-ops-vpc-kms-training"]
    tab = Tab(browser)
    page = tab.open(_page(site, q.id))
    _tab_to(page, "input[name=answer]")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"  # a visible focus ring
    for o in q.options:  # Space ticks the keys, Tab moves on
        assert page.evaluate("document.activeElement.value") == o.id
        if o.correct:
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "reveal"
    page.keyboard.press("Enter")
    assert page.locator("#verdict").inner_text() == "✓ Correct."

    single = site[1]["mla-c01-dev-layer-split-gpus"]
    page = tab.open(_page(site, single.id))
    _tab_to(page, "input[name=answer]")
    page.keyboard.press("Space")  # the first option, a distractor
    _tab_to(page, "#reveal")
    page.keyboard.press("Enter")
    assert page.locator("#verdict").inner_text().startswith("✗")
    assert page.locator(f"#why-{single.options[0].id} .yours").is_visible()
    tab.close()


def test_hostile_text_stays_text(browser, site):
    _, questions, qid = site
    tab = Tab(browser)
    page = tab.open(_page(site, qid))
    page.check(f"input[value='{questions[qid].keys[0].id}']")
    page.click("#reveal")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.scripts.length") == 1 and page.locator("img, b").count() == 0
    body = page.locator("main").inner_text()
    assert "<script>window.__pwned = 1</script>" in body and "Zürich 東京 🙂" in body and "]]>" in body
    tab.close()


def test_indexes_lead_to_pages_and_fit_a_phone(browser, site):
    out, questions, _ = site
    tab = Tab(browser, width=375, height=740)
    page = tab.open(out / "index.html")
    page.click("text=ML Model Development")
    page.click("a[href$='/mla-c01-dev-layer-split-gpus.html'], a[href='mla-c01-dev-layer-split-gpus.html']")
    assert page.url.endswith("/mla-c01-dev-layer-split-gpus.html")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("getComputedStyle(document.querySelector('.choices label')).minHeight") == "44px"
    page.check("input[name=answer] >> nth=0")
    page.click("#reveal")
    _shot(page, "html-practice-phone.png")
    tab.close()


# --- ordering, matching and case studies (issue 13) -----------------------------------------

from kit.export import CASE, CASE_ORDERING, CASE_SINGLE, MATCHING, ORDERING, by_id, export_types  # noqa: E402
from qlint.exporters.web import _type_words as tw  # noqa: E402


@pytest.fixture(scope="module")
def type_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("types") / "site"
    export_types("html", out)
    return out


def _type_page(out: Path, qid: str) -> Path:
    q = by_id()[qid]
    return out / q.exam.lower() / q.domain / f"{qid}.html"


def _letters(page, select_id: str) -> dict[str, str]:
    """option value -> the letter the page shows for it."""
    return page.evaluate("(id) => Object.fromEntries(Array.from(document.getElementById(id).options)"
                         ".filter(o => o.value).map(o => [o.value, o.dataset.letter]))", select_id)


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def _type_answer(page, first: str, letters: list[str]) -> None:
    """Keyboard only: Tab to the first select, type each answer's letter (the select's own
    type-ahead picks the option that starts with it), Tab to the next, then Tab to Check and Enter."""
    _tab_to(page, first)
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"  # focus is visible
    for i, letter in enumerate(letters):
        page.keyboard.press(letter.lower())
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "reveal"
    page.keyboard.press("Enter")


def test_ordering_by_keyboard_wrong_then_right_at_phone_width(browser, type_site):
    q = by_id()[ORDERING]
    tab = Tab(browser, width=375, height=740)
    page = tab.open(_type_page(type_site, ORDERING))
    assert page.locator("#answer").is_hidden() and _fits(page)
    for n in range(1, 4):  # the browser's accessible name of each select is its label
        assert page.get_by_label(f"Step {n}", exact=True).evaluate("e => e.tagName") == "SELECT"
    letter = _letters(page, "slot-1")
    key = [letter[s.id] for s in q.key_order]
    _tab_to(page, "#reveal")
    page.keyboard.press("Enter")
    assert page.locator("#verdict").inner_text() == "Choose a step for every position (0 of 3 chosen)."
    assert page.locator("#answer").is_hidden()

    wrong = [letter["batch-transform"], key[1], key[0]]  # a distractor step first, two keyed steps swapped
    page = tab.open(_type_page(type_site, ORDERING))
    _type_answer(page, "#slot-1", wrong)
    verdict = page.locator("#verdict").inner_text()
    # partial scoring (the default): a third of the point per keyed step in its place, as QTI and Moodle
    assert verdict == (f"◐ Partly correct: 33% of the point, 1 of 3 steps in place. Your order: {', '.join(wrong)}; "
                       f"the correct order is {', '.join(key)}.")
    assert [page.locator(f"#slot-{n}-mark").inner_text() for n in (1, 2, 3)] == [
        f"✗ Wrong: the answer is {key[0]}.", "✓ Right", f"✗ Wrong: the answer is {key[2]}."]
    cards = {s.id: page.locator(f"#why-step-{s.id}") for s in q.steps}
    assert cards["batch-transform"].locator(".yours").inner_text() == "You put it at step 1"
    assert "placed-wrong" in cards["batch-transform"].get_attribute("class")
    assert cards["create-endpoint"].locator(".yours").inner_text() == "You left it out"
    assert "placed-right" in cards["create-endpoint-config"].get_attribute("class")
    assert plain(q.steps[3].right_when) in " ".join(cards["batch-transform"].inner_text().split())
    assert page.locator("#answer").is_visible() and plain(q.explanation)[:60] in " ".join(page.locator("#answer").inner_text().split())
    assert _fits(page)
    _shot(page, "html-practice-ordering-wrong.png")

    page.keyboard.press("Shift+Tab")  # back from Check to the last select: a change clears the verdict
    page.keyboard.press(key[2].lower())
    assert page.locator("#verdict").inner_text() == "" and page.locator("#slot-3-mark").inner_text() == ""
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("#verdict").inner_text().startswith("◐ Partly correct: 67% of the point, 2 of 3 steps in place.")
    page = tab.open(_type_page(type_site, ORDERING))
    _type_answer(page, "#slot-1", key)
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    assert page.locator("#why-step-batch-transform .yours").inner_text() == "You left it out"
    assert page.locator(".placed-wrong").count() == 0 and page.locator(".placed-right").count() == 4
    tab.close()


def test_all_or_nothing_site_gives_ordering_and_matching_no_partial_credit(browser, tmp_path):
    out = tmp_path / "site"
    export_types("html", out, scoring="all-or-nothing")
    tab = Tab(browser)
    page = tab.open(_type_page(out, ORDERING))
    assert page.locator("#practice").get_attribute("data-scoring") is None
    letter = _letters(page, "slot-1")
    key = [letter[s.id] for s in by_id()[ORDERING].key_order]
    _type_answer(page, "#slot-1", [letter["batch-transform"], key[1], key[0]])
    assert page.locator("#verdict").inner_text().startswith("✗ Incorrect: 1 of 3 steps in place. Your order:")
    q = by_id()[MATCHING]
    page = tab.open(_type_page(out, MATCHING))
    letter = _letters(page, f"prompt-{q.prompts[0].id}")
    key = [letter[p.match] for p in q.prompts]
    _type_answer(page, f"#prompt-{q.prompts[0].id}", [key[1], key[0], key[2], key[3]])
    assert page.locator("#verdict").inner_text().startswith("✗ Incorrect: 2 of 4 pairs right. Your pairs:")
    tab.close()


def test_ordering_refuses_a_step_in_two_positions(browser, type_site):
    tab = Tab(browser)
    page = tab.open(_type_page(type_site, ORDERING))
    letter = _letters(page, "slot-1")["create-model"]
    _type_answer(page, "#slot-1", [letter, letter, _letters(page, "slot-1")["create-endpoint"]])
    assert page.locator("#verdict").inner_text() == f"Use each step once: {letter} is in more than one position."
    assert page.locator("#answer").is_hidden()
    tab.close()


def test_matching_by_keyboard_wrong_then_right_at_phone_width(browser, type_site):
    q = by_id()[MATCHING]
    tab = Tab(browser, width=375, height=740)
    page = tab.open(_type_page(type_site, MATCHING))
    assert _fits(page)
    for p in q.prompts:
        assert page.get_by_label(p.text).evaluate("e => e.id") == f"prompt-{p.id}"
    letter = _letters(page, f"prompt-{q.prompts[0].id}")
    key = [letter[p.match] for p in q.prompts]
    wrong = [letter["clarify"], letter["model-monitor"], key[2], letter["ground-truth"]]  # the trap's swap, and the surplus
    _type_answer(page, f"#prompt-{q.prompts[0].id}", wrong)
    assert page.locator("#verdict").inner_text() == (
        "◐ Partly correct: 25% of the point, 1 of 4 pairs right. Your pairs: " + ", ".join(f"{n} {x}" for n, x in enumerate(wrong, 1))
        + "; the correct pairs are " + ", ".join(f"{n} {x}" for n, x in enumerate(key, 1)) + ".")
    marks = [page.locator(f"#prompt-{p.id}-mark").inner_text() for p in q.prompts]
    assert marks == [f"✗ Wrong: the answer is {key[0]}.", f"✗ Wrong: the answer is {key[1]}.", "✓ Right",
                     f"✗ Wrong: the answer is {key[3]}."]
    drift = page.locator("#why-prompt-input-drift")
    assert drift.locator(".yours").inner_text() == f"Your match: {letter['clarify']}" and "placed-wrong" in drift.get_attribute("class")
    assert plain(q.prompts[0].rationale) in " ".join(drift.inner_text().split())
    surplus = page.locator("#why-response-ground-truth")
    assert surplus.locator(".yours").inner_text() == "You matched it to prompt 4" and tw.WHY_SURPLUS in surplus.inner_text()
    assert _fits(page)
    _shot(page, "html-practice-matching-wrong.png")

    page = tab.open(_type_page(type_site, MATCHING))
    _type_answer(page, f"#prompt-{q.prompts[0].id}", key)
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    assert page.locator("#why-response-ground-truth .yours").inner_text() == "You left it unmatched"
    assert page.locator(".placed-wrong").count() == 0
    tab.close()


def test_single_pointer_answers_without_a_keyboard(browser, type_site):
    """Clicks and the native select list only: no drag, no key press."""
    q = by_id()[MATCHING]
    tab = Tab(browser)
    page = tab.open(_type_page(type_site, MATCHING))
    assert page.locator("[draggable=true]").count() == 0
    for p in q.prompts:
        page.click(f"#prompt-{p.id}")
        page.select_option(f"#prompt-{p.id}", p.match)
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    page = tab.open(_type_page(type_site, ORDERING))
    for n, s in enumerate(by_id()[ORDERING].key_order, 1):
        page.click(f"#slot-{n}")
        page.select_option(f"#slot-{n}", s.id)
    page.click("#reveal")
    assert page.locator("#verdict").inner_text() == "✓ Correct."
    tab.close()


def test_case_study_scenario_above_each_question_scored_separately(browser, type_site):
    tab = Tab(browser, width=375, height=740)
    page = tab.open(type_site / "mla-c01" / "cases" / f"{CASE}.html")
    assert _fits(page) and "Each score must return within 100 ms" in page.locator("main").inner_text()
    page.click(f"a[href$='{CASE_SINGLE}.html']")
    assert page.url.endswith(f"/{CASE_SINGLE}.html")
    box = page.locator("aside.case").bounding_box()
    assert box["y"] < page.locator("section.stem").bounding_box()["y"]  # the scenario sits above the question
    assert "(question 1 of 2)" in page.locator("aside.case").inner_text()
    single = by_id()[CASE_SINGLE]
    _tab_to(page, "input[name=answer]")
    page.keyboard.press("Space")  # the first option, the key
    _tab_to(page, "#reveal")
    page.keyboard.press("Enter")
    assert page.locator("#verdict").inner_text() == "✓ Correct." and single.options[0].correct
    assert _fits(page)
    page = tab.open(_type_page(type_site, CASE_ORDERING))  # the next question starts unanswered, scored on its own
    assert page.locator("#verdict").inner_text() == "" and "(question 2 of 2)" in page.locator("aside.case").inner_text()
    key = [_letters(page, "slot-1")[s.id] for s in by_id()[CASE_ORDERING].key_order]
    _type_answer(page, "#slot-1", key)
    assert page.locator("#verdict").inner_text() == "✓ Correct." and _fits(page)
    _shot(page, "html-practice-case.png")
    tab.close()
