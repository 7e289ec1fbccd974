"""QTI exports in a real QTI 3 player that nobody here wrote: @citolab/qti-components (npm), in
the suite's headless Chromium, offline, served from 127.0.0.1. For a single- and a multiple-
response item, from the qti30 export and from the qti21 export converted to 3.0 by
@citolab/qti-convert (npm): answer wrongly, then rightly, and check what a learner sees: SCORE,
the correct/incorrect message, each chosen option's rationale (and no other option's), and the
one reveal dialog with its visible headings. A partial-credit export is scored by the player too.
Matching and ordering items (issue 13) are answered by dragging with a pointer, as the player
offers them: an ordering with a distractor step scores right although the player sends an empty
slot (docs/exports-qti.md, "Players"). Every type scores an empty and a partial answer with
feedback, the reveal of every ordering and matching item fits a laptop and a phone window
(measured), and a case question opened alone shows its scenario (issue 28).

The npm packages are pinned in tests/qti_player/package-lock.json and installed by `npm ci`
(`make test` and .ci/run do it). Under CI=true a missing node, npm, Chromium, Playwright or
node_modules fails the test; elsewhere it skips with the reason.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import REPO
from kit.export import SAMPLE_MULTIPLE, SAMPLE_SINGLE, export, load_bank, load_cases, load_questions, plain
from qlint.model import MATCHING as MATCHING_TYPE
from qlint.model import ORDERING as ORDERING_TYPE
from qlint.model import Question
from kit.export import CASE_ID, CASE_ITEMS, MATCHING, ORDERING, TYPES, fixtures
from kit.browser import ARGS, CHROMIUM

PLAYER = REPO / "tests" / "qti_player"
MODULES = PLAYER / "node_modules"
COMPONENTS = "node_modules/@citolab/qti-components"
CONVERT = MODULES / "@citolab" / "qti-convert" / "dist" / "qti-convert-folder.mjs"
HEADINGS = {"explanation": "Explanation", "trap": "Common exam trap", "references": "Go deeper"}
NO_DISTRACTOR = "types-ordering-no-distractor"

PAGE = f"""<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" href="/{COMPONENTS}/dist/item.css">
<script type="module" src="/{COMPONENTS}/cdn/index.js"></script>
</head><body><qti-item><item-container id="item"></item-container></qti-item>
<script>
document.getElementById("item").setAttribute("item-url", new URLSearchParams(location.search).get("item"));
</script></body></html>
"""


def _require_player() -> None:
    reason = None
    try:
        from playwright.sync_api import sync_playwright  # noqa: F401
    except ImportError:
        reason = "Python Playwright is not installed (pip install -e '.[test]')"
    for tool in ("node", "npm"):
        if reason is None and shutil.which(tool) is None:
            reason = f"{tool} is missing (apt-get install -y nodejs npm)"
    if reason is None and not os.access(CHROMIUM, os.X_OK):
        reason = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    if reason is None and not (MODULES / "@citolab" / "qti-components" / "cdn" / "index.js").is_file():
        reason = "the QTI player is not installed: run `make test` or `cd tests/qti_player && npm ci`"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"QTI player test cannot run under CI: {reason}")
        pytest.skip(reason)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A local web root: the page, the player's node_modules, and the packages under test."""
    _require_player()
    root = tmp_path_factory.mktemp("qti-player")
    (root / "index.html").write_text(PAGE, encoding="utf-8")
    (root / "node_modules").symlink_to(MODULES, target_is_directory=True)
    questions, exams, bank = load_questions(REPO)
    for fmt, scoring in (("qti30", "all-or-nothing"), ("qti21", "all-or-nothing"), ("qti30", "partial")):
        export(fmt, questions, exams, bank, root / f"{fmt}-{scoring}", zip=False, scoring=scoring)
    # The item types of issue 13 (tests/fixtures/types), plus an ordering without its distractor step.
    types, cases, _ = fixtures()
    plain_order = next(q for q in types if q.id == ORDERING)
    plain_order = Question(plain_order.path, {**plain_order.data, "id": NO_DISTRACTOR,
                                              "steps": [s.raw for s in plain_order.key_order]})
    for scoring in ("all-or-nothing", "partial"):
        export("qti30", types + [plain_order], exams, TYPES, root / f"types-{scoring}", zip=False, scoring=scoring, cases=cases)
    # The sample bank with every item type and its case study, as `qlint export` writes it.
    every, bank_exams = load_bank(bank, every_type=True)
    bank_cases = load_cases(bank)
    for scoring in ("all-or-nothing", "partial"):
        export("qti30", every, bank_exams, bank, root / f"bank-{scoring}", zip=False, scoring=scoring, cases=bank_cases)
    questions = questions + types + [plain_order] + [q for q in every if not q.is_choice or q.case]
    # The independent converter writes <folder>-qti3 beside the QTI 2.1 folder.
    done = subprocess.run(["node", str(CONVERT), str(root / "qti21-all-or-nothing")], capture_output=True,
                          text=True, timeout=300, cwd=PLAYER)
    assert done.returncode == 0, done.stderr
    assert (root / "qti21-all-or-nothing-qti3" / "items").is_dir(), done.stdout
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", {**{Path(q.path).resolve(): q for q in questions},
                                                     **{q.id: q for q in questions},
                                                     **{f"case:{c.id}": c for c in (*cases.values(), *bank_cases.values())}}
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _words(text: str) -> str:
    return " ".join(text.split())


def _has(shown: str, markdown: str) -> bool:
    """Whether the learner sees this Markdown's words (spacing around inline markup aside)."""
    squash = lambda text: re.sub(r"\s+", "", text)  # noqa: E731
    return squash(plain(markdown)) in squash(shown)


class Player:
    """One item open in the player, with every request and console error recorded."""

    def __init__(self, browser, base: str, package: str, q: Question, ready: str = "qti-simple-choice",
                 viewport: tuple[int, int] = (1200, 900)) -> None:
        self.base, self.q = base, q
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(f"{base}/index.html?item={package}/items/{q.id}.xml")
        self.page.wait_for_selector(ready, timeout=30_000)

    def choice(self, option_id: str):
        return self.page.locator(f'qti-simple-choice[identifier="opt_{option_id}"]')

    def _item(self, script: str):
        return self.page.evaluate(f"""() => {{
            const item = document.getElementById("item").shadowRoot.querySelector("qti-assessment-item");
            {script}
        }}""")

    def ticked(self) -> set[str]:
        """The options RESPONSE holds now, as the player records the clicks."""
        value = self._item('return item.variables.find(v => v.identifier === "RESPONSE").value;')
        values = [] if value in (None, "") else [value] if isinstance(value, str) else value
        return {v.removeprefix("opt_") for v in values}

    def answer(self, option_ids: list[str]) -> str:
        """Click until exactly these options are ticked, then end the attempt as a delivery
        platform does (processResponse); returns SCORE."""
        for option in self.q.options:
            if (option.id in self.ticked()) != (option.id in option_ids):
                self.choice(option.id).click()
        assert self.ticked() == set(option_ids)
        return self._item('item.processResponse(); return String(item.getOutcome("SCORE").value);')

    def visible_text(self, selector: str) -> str:
        """Words of what the learner sees in the elements matching `selector` (hidden ones give '')."""
        return _words(" ".join(el.inner_text() for el in self.page.locator(selector).all() if el.is_visible()))

    def close_reveal(self) -> None:
        self.page.get_by_role("button", name="Close").click()
        self.page.locator('qti-modal-feedback[identifier="general_feedback"] h3').first.wait_for(state="hidden")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors
        assert all(u.startswith(self.base + "/") for u in self.requests), [u for u in self.requests if not u.startswith(self.base)]


def _check_attempt(player: Player, chosen: list[str], right: bool) -> None:
    q = player.q
    verdict = player.visible_text("qti-feedback-block")
    if right:
        assert verdict == "Correct.", verdict
    else:
        assert verdict.startswith("Incorrect. The correct answer"), verdict
        for key in q.keys:
            assert _has(verdict, key.text), (key.text, verdict)
    for option in q.options:
        shown = player.visible_text(f'qti-simple-choice[identifier="opt_{option.id}"] qti-feedback-inline')
        if option.id in chosen:
            assert _has(shown, option.rationale), (option.id, shown)
        else:
            assert shown == "", (option.id, shown)  # only the chosen options explain themselves
    dialogs = [d for d in player.page.locator("qti-modal-feedback").all() if d.locator("h3").first.is_visible()]
    assert len(dialogs) == 1, "one reveal dialog, not one per part"
    headings = [_words(h.inner_text()) for h in dialogs[0].locator("h3").all() if h.is_visible()]
    parts = ["explanation"] + (["trap"] if q.trap else []) + (["references"] if q.data.get("references") else [])
    assert headings == [HEADINGS[p] for p in parts]
    reveal = _words(dialogs[0].inner_text())
    assert _has(reveal, q.explanation) and _has(reveal, q.trap or "")
    assert all(r["title"] in reveal for r in q.data.get("references") or [])


@pytest.mark.parametrize("package", ["qti30-all-or-nothing", "qti21-all-or-nothing-qti3"])
@pytest.mark.parametrize("source", [SAMPLE_SINGLE, SAMPLE_MULTIPLE], ids=["single", "multiple"])
def test_player_scores_and_shows_the_feedback(served, browser, package, source):
    base, questions = served
    q = questions[source.resolve()]
    keys = [o.id for o in q.keys]
    wrong = keys[:-1] + [q.distractors[0].id]  # single: a distractor; multiple: one key swapped for one
    player = Player(browser, base, package, q)
    assert player.visible_text("qti-feedback-block, qti-feedback-inline") == ""  # nothing before answering
    assert float(player.answer(wrong)) == 0
    _check_attempt(player, wrong, right=False)
    player.close_reveal()
    assert float(player.answer(keys)) == 1
    _check_attempt(player, keys, right=True)
    player.close()


def test_player_gives_partial_credit_when_exported_with_partial_scoring(served, browser):
    """--scoring partial: one of two keys scores 1/2, a key and a distractor 1/2 - 1/m, floored at 0."""
    base, questions = served
    q = questions[SAMPLE_MULTIPLE.resolve()]
    keys, distractors = [o.id for o in q.keys], [o.id for o in q.distractors]
    player = Player(browser, base, "qti30-partial", q)
    # the player keeps three decimals of a mapped score
    assert float(player.answer(keys[:1])) == pytest.approx(1 / len(keys), abs=1e-3)
    _check_attempt(player, keys[:1], right=False)  # partly right is not "Correct."
    player.close_reveal()
    assert float(player.answer(keys[:1] + distractors[:1])) == pytest.approx(
        max(0.0, 1 / len(keys) - 1 / len(distractors)), abs=1e-3)
    player.close_reveal()
    assert float(player.answer(keys)) == 1
    player.close()


def test_converted_package_is_the_converters_own_output(served):
    """The 2.1 items really went through qti-convert: QTI 3 names, 3.0 namespace."""
    base, _questions = served
    import urllib.request

    with urllib.request.urlopen(f"{base}/qti21-all-or-nothing-qti3/items/mla-c01-ops-vpc-kms-training.xml") as r:
        text = r.read().decode("utf-8")
    assert "imsqtiasi_v3p0" in text and re.search(r"<qti-choice-interaction\b", text)


# -- ordering and matching (issue 13) ---------------------------------------------------------

def _drag(player: Player, pairs: list[tuple[str, str]]) -> str:
    """Drag each source onto its target as a learner does with a pointer, then end the attempt;
    returns SCORE."""
    for source, target in pairs:
        player.page.locator(source).drag_to(player.page.locator(target))
    return player._item('item.processResponse(); return String(item.getOutcome("SCORE").value);')


def _order(player: Player, steps: list[str]) -> str:
    return _drag(player, [(f'qti-simple-choice[identifier="step_{s}"]', f'qti-order-interaction drop-list[identifier="droplist{i}"]')
                          for i, s in enumerate(steps)])


def _match(player: Player, pairs: list[tuple[str, str]]) -> str:
    return _drag(player, [(f'qti-simple-associable-choice[identifier="prompt_{p}"]',
                           f'qti-simple-associable-choice[identifier="resp_{r}"]') for p, r in pairs])


def _check_reveal(player: Player, right: bool, heading: str, verdict_words: list[str]) -> None:
    """The verdict in the page, and one reveal whose headings are the seed page's, with a row
    per step or pair giving its rationale."""
    q = player.q
    verdict = player.visible_text("qti-feedback-block")
    if right:
        assert verdict == "Correct.", verdict
    else:
        assert verdict.startswith("Incorrect. The correct "), verdict
        assert all(_has(verdict, w) for w in verdict_words), verdict
    dialogs = [d for d in player.page.locator("qti-modal-feedback").all() if d.locator("h3").first.is_visible()]
    assert len(dialogs) == 1
    headings = [_words(h.inner_text()) for h in dialogs[0].locator("h3").all() if h.is_visible()]
    assert headings == ["Explanation", heading, "Common exam trap", "Go deeper"]
    reveal = _words(dialogs[0].inner_text())
    for part in (*q.steps, *q.prompts):
        assert _has(reveal, part.text) and _has(reveal, part.rationale), part.id


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_player_scores_matching_by_dragging_and_shows_a_row_per_pair(served, browser, scoring):
    base, questions = served
    q = questions[MATCHING]
    right = [(p.id, p.match) for p in q.prompts]
    swapped = [(right[0][0], right[1][1]), (right[1][0], right[0][1])] + right[2:]
    player = Player(browser, base, f"types-{scoring}", q, ready="qti-simple-associable-choice")
    assert float(_match(player, swapped)) == (0.5 if scoring == "partial" else 0)  # 2 of 4 pairs right
    _check_reveal(player, False, "Pair by pair", [p.text for p in q.prompts] + [r.text for r in q.responses[:4]])
    player.close()
    player = Player(browser, base, f"types-{scoring}", q, ready="qti-simple-associable-choice")
    assert float(_match(player, right)) == 1
    _check_reveal(player, True, "Pair by pair", [])
    player.close()


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_player_scores_an_ordering_by_dragging(served, browser, scoring):
    base, questions = served
    q = questions[NO_DISTRACTOR]
    keys = [s.id for s in q.key_order]
    player = Player(browser, base, f"types-{scoring}", q)
    # reversed: only the middle step is in its place
    assert float(_order(player, keys[::-1])) == pytest.approx(1 / 3 if scoring == "partial" else 0, abs=1e-3)
    _check_reveal(player, False, "Step by step", [s.text for s in q.key_order])
    player.close()
    player = Player(browser, base, f"types-{scoring}", q)
    assert float(_order(player, keys)) == 1
    _check_reveal(player, True, "Step by step", [])
    player.close()


READY = {ORDERING_TYPE: "qti-simple-choice", MATCHING_TYPE: "qti-simple-associable-choice"}


def _submit(player: Player) -> str:
    """End the attempt with whatever the learner has done so far (nothing, for an empty answer)."""
    return player._item('item.processResponse(); return String(item.getOutcome("SCORE").value);')


def _ready(q: Question) -> str:
    return READY.get(q.type, "qti-simple-choice")


def _sample(kind: str) -> list[str]:
    """Ids of the sample bank's questions of one type (tests/fixtures/types aside)."""
    bank = REPO / "bank"
    return [q.id for q in load_bank(bank, every_type=True)[0] if q.type == kind]


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_player_scores_an_ordering_with_a_distractor_step(served, browser, scoring):
    """The player draws one drop slot per choice and sends the empty one as "" (its RESPONSE is
    the keyed steps then ""), so the response processing checks each keyed position and that no
    distractor step was placed, instead of matching the whole container: the right order scores 1."""
    base, questions = served
    q = questions[ORDERING]
    keys = [s.id for s in q.key_order]
    distractor = next(s.id for s in q.steps if not s.correct)
    player = Player(browser, base, f"types-{scoring}", q)
    assert float(_order(player, keys)) == 1
    _check_reveal(player, True, "Step by step", [])
    player.close()
    # the distractor step in the first place: two of three keyed steps out of their place
    player = Player(browser, base, f"types-{scoring}", q)
    assert float(_order(player, [distractor] + keys[:2])) == pytest.approx(0, abs=1e-3)
    _check_reveal(player, False, "Step by step", [s.text for s in q.key_order])
    player.close()
    # the keyed steps in order and the distractor in the extra slot the player draws: not the answer
    player = Player(browser, base, f"types-{scoring}", q)
    score = float(_order(player, keys + [distractor]))
    assert score < 1 and player.visible_text("qti-feedback-block").startswith("Incorrect.")
    player.close()


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
@pytest.mark.parametrize("qid", _sample(ORDERING_TYPE) + _sample(MATCHING_TYPE))
def test_player_scores_every_sample_ordering_and_matching_right(served, browser, scoring, qid):
    """Each ordering and matching question of the sample bank, answered right in the player,
    scores 1 and says "Correct."."""
    base, questions = served
    q = questions[qid]
    player = Player(browser, base, f"bank-{scoring}", q, ready=_ready(q))
    if q.type == ORDERING_TYPE:
        score = _order(player, [s.id for s in q.key_order])
    else:
        score = _match(player, [(p.id, p.match) for p in q.prompts])
    assert float(score) == 1
    assert player.visible_text("qti-feedback-block") == "Correct."
    player.close()


def _reveal(player: Player):
    dialogs = [d for d in player.page.locator("qti-modal-feedback").all() if d.locator("h3").first.is_visible()]
    assert len(dialogs) == 1
    return dialogs[0]


EMPTY_CASES = [("qti30-{s}", SAMPLE_SINGLE), ("qti30-{s}", SAMPLE_MULTIPLE), ("types-{s}", ORDERING),
               ("types-{s}", NO_DISTRACTOR), ("types-{s}", MATCHING), *(("types-{s}", c) for c in CASE_ITEMS)]


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
@pytest.mark.parametrize(("package", "source"), EMPTY_CASES,
                         ids=["single", "multiple", "ordering", "ordering-plain", "matching", *CASE_ITEMS])
def test_player_scores_an_empty_answer_with_feedback(served, browser, scoring, package, source):
    """Submitted without an answer, every item type scores 0 and shows the "Incorrect." verdict
    and the reveal, with no error in the player (a NULL RESPONSE crashed qti-map-response)."""
    base, questions = served
    q = questions[source.resolve() if isinstance(source, Path) else source]
    player = Player(browser, base, package.format(s=scoring), q, ready=_ready(q))
    assert player.errors == []
    assert float(_submit(player)) == 0
    assert player.visible_text("qti-feedback-block").startswith("Incorrect. The correct ")
    assert _has(_words(_reveal(player).inner_text()), q.explanation)
    player.close()


@pytest.mark.parametrize("scoring", ["all-or-nothing", "partial"])
def test_player_scores_partial_answers_of_the_new_types(served, browser, scoring):
    """One pair dragged of four, one step placed of three: the documented share under partial
    scoring (1/4, 1/3), 0 under all-or-nothing, with the verdict and the reveal."""
    base, questions = served
    q = questions[MATCHING]
    first = q.prompts[0]
    player = Player(browser, base, f"types-{scoring}", q, ready=_ready(q))
    assert float(_match(player, [(first.id, first.match)])) == pytest.approx(
        1 / len(q.prompts) if scoring == "partial" else 0, abs=1e-3)
    assert player.visible_text("qti-feedback-block").startswith("Incorrect. The correct pairs")
    _reveal(player)
    player.close()
    for source in (ORDERING, NO_DISTRACTOR):
        q = questions[source]
        player = Player(browser, base, f"types-{scoring}", q)
        assert float(_order(player, [q.key_order[0].id])) == pytest.approx(
            1 / len(q.key_order) if scoring == "partial" else 0, abs=1e-3)
        assert player.visible_text("qti-feedback-block").startswith("Incorrect. The correct order")
        _reveal(player)
        player.close()


VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}


@pytest.mark.parametrize("qid", [ORDERING, MATCHING, *_sample(ORDERING_TYPE), *_sample(MATCHING_TYPE)])
def test_player_feedback_fits_the_window(served, browser, tmp_path, qid):
    """The revealed feedback of every ordering and matching item lies inside a laptop and a phone
    viewport, measured in the player: top and bottom on screen, its content scrolls inside it, and
    its Close button can be reached and closes it. A screenshot of each is kept in tmp_path."""
    base, questions = served
    q = questions[qid]
    package = "types-partial" if qid in (ORDERING, MATCHING) else "bank-partial"
    player = Player(browser, base, package, q, ready=_ready(q), viewport=VIEWPORTS["laptop"])
    # the player fetches an item's stylesheets after drawing it (each becomes a scoped <style>); a
    # learner answers later than that
    player.page.wait_for_function("""() => { const root = document.getElementById("item").shadowRoot;
        return [...root.querySelectorAll("style")].filter(s => s.textContent.startsWith("@scope")).length
               >= root.querySelectorAll("qti-stylesheet").length; }""")
    for viewport, (width, height) in VIEWPORTS.items():
        player.page.set_viewport_size({"width": width, "height": height})
        _submit(player)
        dialog = _reveal(player).locator("dialog")
        dialog.wait_for(state="visible")
        box = dialog.evaluate("""d => { const r = d.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    scroll: d.scrollHeight, client: d.clientHeight, overflow: getComputedStyle(d).overflowY}; }""")
        player.page.screenshot(path=str(tmp_path / f"{qid}-{viewport}.png"))
        assert box["top"] >= 0 and box["bottom"] <= height, (viewport, box)
        assert box["left"] >= 0 and box["right"] <= width, (viewport, box)
        if box["scroll"] > box["client"]:
            assert box["overflow"] in ("auto", "scroll"), (viewport, box)
        body = _reveal(player).locator("qti-content-body").evaluate(
            "b => ({scroll: b.scrollHeight, client: b.clientHeight, overflow: getComputedStyle(b).overflowY})")
        if body["scroll"] > body["client"]:  # the rows scroll inside the dialog, down to the last one
            assert body["overflow"] in ("auto", "scroll"), (viewport, body)
        close = player.page.get_by_role("button", name="Close")
        close.scroll_into_view_if_needed()
        button = close.bounding_box()
        assert button and 0 <= button["y"] and button["y"] + button["height"] <= height, (viewport, button)
        close.click()
        player.page.locator('qti-modal-feedback[identifier="general_feedback"] h3').first.wait_for(state="hidden")
    player.close()


@pytest.mark.parametrize(("package", "qid", "case_id"), [
    *(("types-partial", item, CASE_ID) for item in CASE_ITEMS),
    ("bank-partial", "mla-c01-case-demand-pipeline-order", None), ("bank-partial", "mla-c01-case-demand-inference-match", None)])
def test_player_shows_the_scenario_of_a_case_question_opened_alone(served, browser, package, qid, case_id):
    """A case question opened on its own in the player shows its case's title and scenario."""
    base, questions = served
    q = questions[qid]
    case = questions[f"case:{case_id or q.case}"]
    player = Player(browser, base, package, q, ready=_ready(q))
    player.page.locator("qti-assessment-item .qlint-scenario").first.wait_for()  # fetched after the item
    shown = player.visible_text("qti-assessment-item")
    assert _has(shown, case.data["scenario"]), shown[:400]
    assert case.data["title"] in shown
    opening = _words(plain(case.data["scenario"]))[:60]
    assert shown.count(opening) == 1, shown[:600]  # once: in the stimulus's place, not beside a copy
    assert shown.index(opening) < shown.index(_words(plain(q.stem))[:40])  # read before the question
    player.close()
