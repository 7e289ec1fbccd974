"""Per-step and per-pair feedback for targets whose ordering and matching questions have no
feedback slot per step or pair (Moodle XML, GIFT): a `div.qlint-steps` / `div.qlint-pairs` block
in the general feedback, right after the explanation, one headed `div` per step or pair, so
learners read why each sits where it does and an importer can split it back.

    <div class="qlint-steps"><p><strong>Step by step</strong></p>
      <div class="qlint-step"><p><strong>1. …</strong></p><div class="qlint-rationale">…</div></div>
      <div class="qlint-step qlint-distractor"><p><strong>Not part of the order: …</strong></p>…</div>
    </div>
    <div class="qlint-pairs"><p><strong>Pair by pair</strong></p>
      <div class="qlint-pair"><p><strong>prompt → response</strong></p><div class="qlint-rationale">…</div></div>
      <div class="qlint-response"><p><strong>response</strong></p><div class="qlint-rationale">…</div></div>
    </div>
"""

from __future__ import annotations

import html
import re
from typing import Mapping

from qlint.exporters.kit import feedback as fb
from qlint.markup import render, render_inline
from qlint.model import MATCHING, ORDERING, Question

STEPS = "Step by step"
PAIRS = "Pair by pair"
NOT_IN_ORDER = "Not part of the order: "
ARROW = " → "
_TAG = re.compile(r"<[^>]+>")


def plain_text(markdown: str) -> str:
    """Markdown as one line of plain text, for slots that take no HTML (Moodle's match answers).
    Rendered inline: a short answer such as `2)` or `- none` is text, not an (empty) list."""
    return " ".join(html.unescape(_TAG.sub(" ", render_inline(markdown))).split())


def position_label(n: int) -> str:
    return f"Position {n}"


def _heading(label_html: str) -> str:
    return f"<p><strong>{label_html}</strong></p>"


def _body(rationale: str | None, right_when: str, urls: Mapping[str, str] | None, why_chosen: str = "") -> str:
    parts = []
    if rationale:
        parts.append(fb.section("rationale", "", render(rationale, urls)))
    if right_when:
        parts.append(fb.section("right-when", fb.RIGHT_WHEN, render(right_when, urls)))
    if why_chosen:
        parts.append(fb.section("why-chosen", fb.WHY_CHOSEN, render(why_chosen, urls)))
    return "".join(parts)


def steps(q: Question, urls: Mapping[str, str] | None = None) -> str:
    rows = []
    for n, s in enumerate(q.key_order, 1):
        rows.append(f'<div class="qlint-step">{_heading(f"{n}. {fb.compact(s.text, urls)}")}'
                    f"{_body(s.rationale, s.right_when, urls, s.raw.get('why_chosen') or '')}</div>")
    for s in (s for s in q.steps if not s.correct):
        rows.append(f'<div class="qlint-step qlint-distractor">'
                    f"{_heading(html.escape(NOT_IN_ORDER, quote=False) + fb.compact(s.text, urls))}"
                    f"{_body(s.rationale, s.right_when, urls, s.raw.get('why_chosen') or '')}</div>")
    return f'<div class="qlint-steps">{_heading(STEPS)}{"".join(rows)}</div>'


def pairs(q: Question, urls: Mapping[str, str] | None = None) -> str:
    text = {r.id: r.text for r in q.responses}
    rows = []
    for p in q.prompts:
        label = fb.compact(p.text, urls) + ARROW + fb.compact(text.get(p.match, ""), urls)
        rows.append(f'<div class="qlint-pair">{_heading(label)}{_body(p.rationale, "", urls)}</div>')
    for r in q.responses:
        if r.rationale:
            rows.append(f'<div class="qlint-response">{_heading(fb.compact(r.text, urls))}{_body(r.rationale, "", urls)}</div>')
    return f'<div class="qlint-pairs">{_heading(PAIRS)}{"".join(rows)}</div>'


def breakdown(q: Question, urls: Mapping[str, str] | None = None) -> str:
    """The step-by-step or pair-by-pair block; "" for single and multiple response."""
    if q.type == ORDERING:
        return steps(q, urls)
    if q.type == MATCHING:
        return pairs(q, urls)
    return ""


def general(q: Question, urls: Mapping[str, str] | None = None) -> str:
    """`_feedback.general` (explanation, trap, references) with the breakdown after the explanation;
    exactly `_feedback.general` for single and multiple response."""
    full = fb.general(q, urls)
    extra = breakdown(q, urls)
    if not extra:
        return full
    head = f'<div class="qlint-explanation">{render(q.explanation, urls)}</div>'
    return head + extra + full[len(head):] if full.startswith(head) else full + extra
