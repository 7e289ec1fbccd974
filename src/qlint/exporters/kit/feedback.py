"""Feedback HTML shared by the Moodle and GIFT targets, which have one text slot per answer and
one general slot: each part of our richer model goes into a `<div class="qlint-PART">` with a
visible heading, so learners read it and an importer can split it back (docs/exports-web.md)."""

from __future__ import annotations

import html
import re
from typing import Mapping

from qlint.markup import render
from qlint.model import OptionView, Question

WHY_CORRECT = "Why this is correct"
WHY_WRONG = "Why it's wrong here"
RIGHT_WHEN = "When it would be right"
WHY_CHOSEN = "Why learners choose it"  # the seed page's labels, in every format
TRAP = "Common exam trap"
GO_DEEPER = "Go deeper"
RELATED = "Related to this question"
TASKS = "Exam guide task statement"  # the guide's task statements a question names (`tasks:`)
_INTRO = "For each option: {}why it is or isn't the right answer here."
# A rationale that opens with its own verdict ("Correct: ...") needs no heading saying it again.
_OWN_VERDICT = {True: re.compile(r"^\W*correct\b\s*[:.!,—–-]", re.I),
                False: re.compile(r"^\W*(?:incorrect|wrong)\b\s*[:.!,—–-]", re.I)}

_SINGLE_P = re.compile(r"^<p>((?:(?!</?p>).)*)</p>$", re.S)


def compact(markdown: str, urls: Mapping[str, str] | None = None) -> str:
    """Option text as HTML: one paragraph loses its `<p>` (as editors store short answers)."""
    out = render(markdown, urls)
    m = _SINGLE_P.match(out)
    return m.group(1) if m else out


def verdict_label(o: OptionView) -> str:
    """The heading over an option's rationale, or "" when the rationale already opens with it."""
    if _OWN_VERDICT[bool(o.correct)].match(o.rationale or ""):
        return ""
    return WHY_CORRECT if o.correct else WHY_WRONG


def breakdown_intro(q: Question) -> str:
    """The line under "Option-by-option breakdown": it promises why learners choose an option only
    when some option says so."""
    return _INTRO.format("why learners choose it and " if any(o.raw.get("why_chosen") for o in q.options) else "")


def section(part: str, label: str, body: str) -> str:
    heading = f"<p><strong>{html.escape(label, quote=False)}</strong></p>" if label else ""
    return f'<div class="qlint-{part}">{heading}{body}</div>'


def references(q: Question) -> str:
    items = "".join(
        f'<li><a href="{html.escape(r["url"])}">{html.escape(r["title"], quote=False)}</a></li>'
        for r in q.data.get("references") or []
    )
    return f"<ul>{items}</ul>" if items else ""


def general(q: Question, urls: Mapping[str, str] | None = None) -> str:
    """Explanation, then the exam trap, then the references."""
    parts = [f'<div class="qlint-explanation">{render(q.explanation, urls)}</div>']
    if q.trap:
        parts.append(section("trap", f"⚠ {TRAP}", render(q.trap, urls)))
    if refs := references(q):
        parts.append(section("references", GO_DEEPER, refs))
    return "".join(parts)


def option(o: OptionView, urls: Mapping[str, str] | None = None) -> str:
    """Why this option is right or wrong here, when it would be right, why it tempts."""
    parts = []
    if o.rationale:
        parts.append(section("rationale", verdict_label(o), render(o.rationale, urls)))
    if o.right_when:
        parts.append(section("right-when", RIGHT_WHEN, render(o.right_when, urls)))
    if why := o.raw.get("why_chosen"):
        parts.append(section("why-chosen", WHY_CHOSEN, render(why, urls)))
    return "".join(parts)
